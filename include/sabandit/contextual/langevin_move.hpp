#pragma once
// One move of a contextual Langevin chain (Alg. 1 lines 8-9), written once for contextual TS-SA
// and TS-SGLD, from the library's kernels (kernels/langevin.hpp, kernels/sa_average.hpp):
//   omega = theta + h P g + c sqrt(2 h P) xi,   theta <- theta + gamma (omega - theta),
// with a preconditioner P = m J^-1 given as J's Cholesky factor L (information_factor.hpp), or
// P = I. The preconditioned step is taken in J's whitened coordinates u = L^T theta, where P is
// m I: omega_u = u + h (m L^-1 g) + sqrt(m) c sqrt(2h) xi, then theta = L^-T u. So a move costs
// three triangular products (O(d^2)) and d normals, and never forms J^-1.
#include <cmath>

#include <Eigen/Core>

#include "sabandit/contextual/information_factor.hpp"
#include "sabandit/kernels/langevin.hpp"
#include "sabandit/kernels/sa_average.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit::contextual {

/// The scratch of langevin_move (three vectors of size d): no allocation per move.
struct langevin_scratch {
  /// For dimension d.
  explicit langevin_scratch(Eigen::Index dimension)
      : whitened(dimension), drift(dimension), proposal(dimension) {}
  Eigen::VectorXd whitened;  ///< u = L^T theta
  Eigen::VectorXd drift;     ///< m L^-1 g
  Eigen::VectorXd proposal;  ///< omega
};

/// The move of the header comment on `theta` (in place): gradient g, step h, noise scale c, SA
/// weight gamma (1: the proposal itself), and the preconditioner m J^-1 when `factor` is not
/// null (J = L L^T, m = `in_hand`).
template <uniform_random_bit_generator URBG>
void langevin_move(Eigen::VectorXd& theta, const Eigen::VectorXd& gradient, double step_size,
                   double noise_scale, double gamma, const information_factor* factor,
                   double in_hand, langevin_scratch& scratch, URBG& gen) {
  if (factor == nullptr) {
    langevin_step(theta, gradient, step_size, noise_scale, scratch.proposal, gen);
    sa_average(theta, scratch.proposal, gamma);
    return;
  }
  const auto lower = factor->factor().triangularView<Eigen::Lower>();
  scratch.whitened.noalias() = lower.transpose() * theta;
  scratch.drift = gradient;
  factor->whiten_in_place(scratch.drift);
  scratch.drift *= in_hand;
  langevin_step(scratch.whitened, scratch.drift, step_size, noise_scale * std::sqrt(in_hand),
                scratch.proposal, gen);
  sa_average(scratch.whitened, scratch.proposal, gamma);
  theta = scratch.whitened;
  factor->unwhiten_in_place(theta);
}

}  // namespace sabandit::contextual
