#pragma once
// How a Langevin policy sets an arm's parameter when the arm's warm-up pulls are done: a draw
// from the prior (Alg. 1 line 1) or the warm start of the paper's experiments, here the MAP
// estimate of the warm-up rewards under the prior:
//   maximise  L(theta) = sum_i log p(x_i | theta) + log pi(theta).
// Closed form where the model has one (the Gaussian); otherwise gradient ascent with a line
// search, which converges for the concave L of a log-concave model and a proper prior. An unconverged estimate is never used: the policy reports it instead.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/detail/compiler.hpp"
#include "sabandit/detail/vector_ops.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/models/prior.hpp"
#include "sabandit/policies/langevin/dimension.hpp"
#include "sabandit/random/engine.hpp"
#include "sabandit/random/normal.hpp"

namespace sabandit {

/// Where an arm's chain starts once its warm-up is over.
/// The default is the warm start. With the paper's SA schedule (gamma_19 = 0.011) an iterate
/// moves by about gamma h (xbar - theta) per pull, so a chain started from a N(0, 1) prior draw
/// far from rewards near 3 never reaches them within 10^4 rounds: on SGR and MGR (K = 10,
/// gap 0.5, 50 trials) TS-SA's final regret is 563 +- 143 / 519 +- 111 with the warm start and
/// 4500 +- 209 / 4502 +- 209 (linear) from the prior (examples/policy_table).
enum class initialisation {
  /// theta_a ~ prior: Algorithm 1 line 1. Needs a proper (finite-variance) prior.
  prior,
  /// The MAP estimate of the warm-up rewards under the prior (the maximum-likelihood fit for a
  /// flat prior). The paper's experiments call this the warm start.
  warm_start,
};

/// Stopping rule of the generic warm start.
struct map_options {
  /// Iterations before giving up with std::domain_error (>= 1).
  Eigen::Index max_iterations = 500;
  /// Converged when the Newton step |grad L| / (curvature of L along grad L) is at most
  /// tolerance (1 + |theta|_inf): a relative accuracy on theta, which neither a large
  /// curvature (a Poisson mean of 10^6) nor a vanishing one (no maximiser) can fake (> 0).
  double tolerance = 1e-9;

  /// Saves or restores both options (state/persist.hpp); the policy checks them when rebuilt.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    ar("max_iterations", self.max_iterations);
    ar("tolerance", self.tolerance);
  }
};

/// The warm-up data a warm start fits: the rewards (for the generic gradient) and, for
/// sufficient-statistics models, their mean and count. The two describe the same rewards unless
/// the window is shorter than the warm-up (B < Omega): then mean and count are those of all
/// Omega warm-up rewards and the rewards are the last B of them.
template <class Rewards>
struct warm_up_data {
  const Rewards& rewards;  ///< the rewards the source holds
  double mean;             ///< mean of all warm-up rewards
  double count;            ///< their number
};

namespace detail {

inline void validate(const map_options& options) {
  require_at_least<Eigen::Index>("warm_start.max_iterations", options.max_iterations, 1);
  require_positive("warm_start.tolerance", options.tolerance);
}

/// The generic warm start: gradient ascent on L with a line search. Writes the maximiser into
/// `theta` or throws std::domain_error naming the arm, the iteration count and the last Newton
/// step; `theta` is then unspecified and the caller must not store it. `grad`, `trial` and
/// `trial_grad` are scratch of size d; none may alias another.
///
/// The line search reads only gradients: along the ray theta + t grad, the slope
/// grad L(theta + t grad) . grad decreases in t because L is concave, so a step whose far end
/// still slopes upwards gains (without comparing values of L, whose rounding at 1e-16 |L|
/// would stall the search near the optimum). Each iteration tries twice the last step and
/// halves it until the slope test passes, which keeps the step within a factor 2 of the line's
/// maximiser: on a quadratic each iteration at least halves the distance to the MAP.
/// The accepted step also measures the curvature along the ray (a secant of the slope), and
/// with it the Newton step that remains: where L has no maximiser (a flat prior and all-zero
/// Bernoulli rewards) the gradient vanishes but that step does not, so the search runs out of
/// iterations and throws instead of storing a logit of -21.
template <RewardModel Model, class Rewards, class Phi>
SABANDIT_COLD void ascend_to_map(const Model& model, const warm_up_data<Rewards>& data,
                                 const Phi& phi, const normal_prior& prior,
                                 const map_options& options, Eigen::Index arm,
                                 Eigen::VectorXd& theta, Eigen::VectorXd& grad,
                                 Eigen::VectorXd& trial, Eigen::VectorXd& trial_grad) {
  // Once per arm, hence cold. The ascent sees the scratch (and phi, from the caller) through
  // the run-time-sized views the chain steps with (langevin/dimension.hpp), writable where the
  // chain writes and read-only where the chain's commit reads, so it instantiates almost no
  // vector operation of its own (on Eigen::VectorXd it compiled a second set). An accepted
  // step swaps the roles of two buffers, not their storage (a Map's assignment would copy
  // coefficients); the maximiser is copied into `theta` at the end, bit for bit.
  const Eigen::Index d = theta.size();
  const auto view = [d](double* first) { return Eigen::Map<Eigen::VectorXd>(first, d); };
  const auto read = [d](const double* first) {
    return Eigen::Map<const Eigen::VectorXd>(first, d);
  };
  double *at = theta.data(), *slope = grad.data(), *far = trial.data(),
         *far_slope = trial_grad.data();
  const auto gradient = [&](double* where, double* into) {
    // grad L = m grad F + grad log pi; F from the mean alone where it is sufficient.
    const auto t = view(where);
    auto out = view(into);
    if constexpr (WindowMeanRewardModel<Model>) {
      model.grad_log_likelihood_at_mean(data.mean, phi, t, out);
    } else {
      model.grad_log_likelihood(data.rewards, phi, t, out);
    }
    detail::scaled(out, data.count, out);
    prior.add_log_density_gradient(t, 1.0, out);
  };
  std::fill(at, at + d, prior.mean);
  gradient(at, slope);
  double step = 1.0 / (data.count + prior.precision());  // Newton's, for unit curvature
  double newton_step = std::numeric_limits<double>::infinity();
  const auto converged = [&] {
    return detail::all_finite(read(slope)) &&
           (detail::all_zero(read(slope)) ||
            newton_step <= options.tolerance * (1.0 + detail::max_abs(read(at))));
  };
  Eigen::Index iteration = 0;
  for (; iteration < options.max_iterations && !converged(); ++iteration) {
    if (!detail::all_finite(read(slope))) break;
    const double grad_norm2 = detail::squared_norm(read(slope));
    bool accepted = false;
    step *= 2.0;
    // Up to 1,100 halvings: enough to bring any finite step below the smallest double, so an
    // extreme but accepted reward (a Poisson count of 1e150, whose first gradient is 1e150)
    // still finds the region where the model's mean is finite. Only searches that failed
    // before take more than 100.
    for (int halving = 0; halving < 1100 && !accepted; ++halving) {
      detail::add_scaled(view(far), view(at), step, view(slope));
      gradient(far, far_slope);
      const double far_end_slope = detail::dot(read(far_slope), read(slope));
      if (detail::all_finite(read(far_slope)) && far_end_slope >= 0.0) {
        // Curvature along the unit ray: (slope at 0 - slope at step) / (step |grad|^2).
        const double curvature = (grad_norm2 - far_end_slope) / (step * grad_norm2);
        std::swap(at, far);
        std::swap(slope, far_slope);
        newton_step = curvature > 0.0 ? detail::norm(read(slope)) / curvature
                                      : std::numeric_limits<double>::infinity();
        accepted = true;
      } else {
        step *= 0.5;
      }
    }
    if (!accepted) break;
  }
  if (at != theta.data()) detail::copy(view(theta.data()), view(at));
  if (converged()) return;
  // Where the gradient at the prior's mean, where the ascent starts, is not finite, no step
  // can be taken, for the model's fault, which the message names: a probe's Python model with
  // a NaN gradient was told only that the log-posterior may have no maximiser. (A gradient that
  // is not finite only away from the start makes the line search refuse those steps, and ends
  // in the first reading. One message with two readings: each throw site is a function's worth
  // of compile time in every unit that warm-starts.)
  const bool finite_gradient = detail::all_finite(read(slope));
  throw std::domain_error(detail::join(
      {"sabandit: the warm start of arm ", std::to_string(arm),
       finite_gradient ? " did not converge after "
                       : " met a gradient that is not finite (NaN or infinite) after ",
       std::to_string(iteration), " iterations (last Newton step ",
       detail::value_text(newton_step), " at |theta| = ",
       detail::value_text(detail::max_abs(read(at))),
       finite_gradient
           ? "): the log-posterior may have no maximiser (use a proper prior: a finite "
             "prior.variance) or the rewards may lie outside the model's support"
           : "): the model's grad_log_likelihood (or grad_log_likelihood_at_mean) must be "
             "finite there (check_model's gradient check tests it)"}));
}

/// theta_a at the end of arm a's warm-up (Alg. 1 line 1, or the warm start), into `theta`.
template <RewardModel Model, class Rewards, class Phi, uniform_random_bit_generator URBG>
void initial_parameter(const Model& model, const warm_up_data<Rewards>& data, const Phi& phi,
                       initialisation init, const normal_prior& prior, const map_options& options,
                       Eigen::Index arm, URBG& gen,
                       Eigen::VectorXd& theta, Eigen::VectorXd& grad, Eigen::VectorXd& trial,
                       Eigen::VectorXd& trial_grad) {
  if (init == initialisation::prior) {
    // theta = mean + sd xi, xi ~ N(0, I): the normals through the chain's run-time-sized view
    // (langevin/dimension.hpp), whose fill the chain compiles anyway, then entry by entry, the
    // operations of the vector expression mean + sd xi.array(), in the same order.
    fill_standard_normal(langevin::column_view<Eigen::Dynamic>(theta), gen);
    const double sd = std::sqrt(prior.variance);
    for (Eigen::Index i = 0; i < theta.size(); ++i) theta(i) = prior.mean + sd * theta(i);
  } else if constexpr (ClosedFormMapModel<Model>) {
    model.map_estimate(data.mean, data.count, phi, prior, theta);
  } else {
    ascend_to_map(model, data, phi, prior, options, arm, theta, grad, trial, trial_grad);
  }
}

}  // namespace detail
}  // namespace sabandit
