#pragma once
// The MAP estimate of a block's parameter under a GLM RewardModel and the prior N(0, v0 I),
// by Newton's method, and the Laplace approximation's information at it:
//   maximise  F(theta) = sum_j log p(r_j | <phi_j, theta>) - |theta|^2 / (2 v0),
//   g = sum_j s_j phi_j - theta / v0,  H = I / v0 + sum_j i(eta_j) phi_j phi_j^T,
//   theta <- theta + t H^-1 g,  t halved until F rises by at least 1e-4 t g^T H^-1 g (Armijo).
// s_j and i(eta_j) are glm_terms.hpp's; for a canonical link (Gaussian, Bernoulli, Poisson)
// i(eta) phi phi^T is exactly minus the Hessian of log p, so this is Newton's method; for
// another model it is Fisher scoring. F is concave for the log-concave models, so the
// iteration converges from any start; it stops when the Newton decrement g^T H^-1 g is below
// the tolerance. Used by Laplace TS after every update (laplace_ts.hpp) and by contextual
// TS-SA's warm start (ts_sa.hpp).
#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/contextual/context_buffer.hpp"
#include "sabandit/contextual/glm_terms.hpp"
#include "sabandit/contextual/information_factor.hpp"
#include "sabandit/errors.hpp"

namespace sabandit::contextual {

/// When Newton's method stops (glm_map.hpp).
struct newton_options {
  int max_iterations = 50;     ///< >= 1
  double tolerance = 1e-12;    ///< on the Newton decrement g^T H^-1 g, in [0, 1]

  /// Saves or restores both (state/persist.hpp); the policy checks them when rebuilt.
  template <class Archive>
  void persist(Archive& ar) {
    ar("max_iterations", max_iterations);
    ar("tolerance", tolerance);
  }
  /// Throws std::invalid_argument naming a bad member as the caller's params name it
  /// (`newton` for Laplace TS, `warm_start` for the Langevin policies).
  void validate(std::string_view member) const {
    detail::require_at_least(detail::join({member, ".max_iterations"}), max_iterations, 1);
    if (!(tolerance >= 0.0 && tolerance <= 1.0))
      detail::throw_invalid(detail::join({member, ".tolerance"}), tolerance, "must be in [0, 1]");
  }
};

/// Newton's method for the MAP (header comment), with its scratch: no allocation once the
/// buffers have grown to the data's size.
class glm_map_solver {
 public:
  /// For dimension d.
  explicit glm_map_solver(Eigen::Index dimension)
      : gradient_(dimension), step_(dimension), trial_(dimension), hessian_(dimension, dimension),
        scratch_(dimension) {}

  /// Moves `theta` (the start) to the MAP over `data` under N(0, prior_variance I) and sets
  /// `factor` to the Cholesky factor of H there. Returns the Newton iterations taken. Throws
  /// std::domain_error if the iterate or H become non-finite (theta and factor are then
  /// unspecified: callers solve on copies).
  template <RewardModel Model>
  int solve(const Model& model, const context_buffer& data, double prior_variance,
            const newton_options& options, Eigen::VectorXd& theta, information_factor& factor) {
    const double precision = 1.0 / prior_variance;
    const auto phis = data.phis();
    double objective = log_posterior(model, data, precision, theta);
    for (int iteration = 1;; ++iteration) {
      // g and H at theta
      etas_.resize(data.size());
      weights_.resize(data.size());
      slopes_.resize(data.size());
      etas_.noalias() = phis.transpose() * theta;
      for (Eigen::Index j = 0; j < data.size(); ++j) {
        slopes_(j) = glm_slope(model, data.phi(j), theta, etas_(j), data.reward(j), scratch_);
        weights_(j) = std::sqrt(glm_information(model, data.phi(j), theta, etas_(j), scratch_));
      }
      gradient_.noalias() = phis * slopes_;
      gradient_ -= precision * theta;
      hessian_.setIdentity();
      hessian_ *= precision;
      weighted_.noalias() = phis * weights_.asDiagonal();
      hessian_.selfadjointView<Eigen::Lower>().rankUpdate(weighted_);
      if (!factor.assign(hessian_) || !gradient_.allFinite()) throw_non_finite();
      step_ = gradient_;
      factor.solve_in_place(step_);
      const double decrement = gradient_.dot(step_);
      // A NaN objective or an infinite decrement makes every Armijo test false (-inf + inf is
      // NaN), and the start would come back as the mode: the data is beyond doubles (a review's
      // finding: a Gaussian reward of 1e150 at noise variance 1e-10, whose F is -inf).
      if (!step_.allFinite() || !std::isfinite(decrement) || std::isnan(objective))
        throw_non_finite();
      if (!(decrement > options.tolerance) || iteration >= options.max_iterations) return iteration;
      // Armijo backtracking; near the optimum (decrement < 1e-8) rounding in F would mislead
      // it, and the full step is Newton's quadratic convergence. t halves until F rises enough
      // or the step no longer moves theta in doubles: a floor on t (1e-10) stopped short from a
      // far start, and the solver returned its start as the mode with no error (a probe's 300
      // Poisson counts of 1e12 from theta = 0 need t = 3e-11 to move eta to log 1e12 = 27.6).
      // t * step underflows to 0 after at most 1,075 halvings, so the search ends; where the old
      // floor found its point (t >= 1e-10) the loop is the same, hence the same bits.
      double t = 1.0;
      if (decrement >= 1e-8) {
        for (;; t *= 0.5) {
          trial_ = theta + t * step_;
          if (trial_ == theta) return iteration;  // no ascent left at double precision
          const double value = log_posterior(model, data, precision, trial_);
          if (value >= objective + 1e-4 * t * decrement) {
            objective = value;
            break;
          }
        }
      }
      theta += t * step_;
      if (decrement < 1e-8) objective = log_posterior(model, data, precision, theta);
    }
  }

 private:
  [[noreturn]] static void throw_non_finite() {
    throw std::domain_error(
        "sabandit: Newton's method for the MAP became non-finite; scale the contexts or "
        "rewards down");
  }
  template <RewardModel Model>
  [[nodiscard]] static double log_posterior(const Model& model, const context_buffer& data,
                                            double precision, const Eigen::VectorXd& theta) {
    double value = -0.5 * precision * theta.squaredNorm();
    for (Eigen::Index j = 0; j < data.size(); ++j)
      value += model.log_likelihood(data.reward(j), data.phi(j), theta);
    return value;
  }

  Eigen::VectorXd gradient_, step_, trial_, etas_, weights_, slopes_;
  Eigen::MatrixXd hessian_, weighted_;
  glm_scratch scratch_;
};

}  // namespace sabandit::contextual
