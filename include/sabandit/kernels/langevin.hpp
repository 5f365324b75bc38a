#pragma once
// One Euler–Maruyama step of Langevin dynamics on an Eigen block: one arm (d x 1) or m chains
// side by side (d x m), one normal fill and one fused pass over the coefficients.
//
//   out = theta + h * grad + noise_scale * sqrt(2 h) * xi,   xi ~ N(0, I)
//
// noise_scale = 1 is the LMC proposal of TS-SA (Alg. 1 line 8); noise_scale = 1/sqrt(n tau')
// is the SGLD update of the Preliminaries (eq. "euler_update"), targeting exp(tau' n F_n).
// Convention: the drift is h * grad (not h/2 * grad) and the noise variance 2h, as in the paper.
#include <cmath>

#include <Eigen/Core>

#include "sabandit/detail/vector_ops.hpp"
#include "sabandit/random/engine.hpp"
#include "sabandit/random/normal.hpp"

namespace sabandit {

/// out = theta + h grad + noise_scale sqrt(2h) xi with xi ~ N(0, I) from gen: one normal fill
/// and one fused pass.
template <class Theta, class Grad, class Out, uniform_random_bit_generator URBG>
void langevin_step(const Eigen::MatrixBase<Theta>& theta, const Eigen::MatrixBase<Grad>& grad,
                   double step_size, double noise_scale, const Eigen::MatrixBase<Out>& out_const,
                   URBG& gen) {
  auto& out = const_cast<Eigen::MatrixBase<Out>&>(out_const);  // NOLINT: Eigen's idiom
  fill_standard_normal(out, gen);
  const double noise = noise_scale * std::sqrt(2.0 * step_size);
  if constexpr (detail::contiguous_vector<Theta> && detail::contiguous_vector<Grad> &&
                detail::contiguous_vector<Out>) {
    // one arm: a loop, the expression's operations in its order, one per statement so that
    // none is fused into an FMA (detail/vector_ops.hpp)
    const double* t = detail::coefficients(theta);
    const double* g = detail::coefficients(grad);
    double* o = detail::coefficients_out(out);
    for (Eigen::Index i = 0; i < detail::length(out); ++i) {
      const double drift = step_size * g[i];
      const double shake = noise * o[i];
      const double drifted = t[i] + drift;
      o[i] = drifted + shake;
    }
  } else {
    out = theta + step_size * grad + noise * out;
  }
}

}  // namespace sabandit
