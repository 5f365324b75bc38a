#pragma once
// How a Langevin policy sets an arm's parameter when the arm's warm-up pulls are done: a draw
// from the prior (Alg. 1 line 1) or the warm start of the paper's experiments, here the MAP
// estimate of the warm-up rewards under the prior:
//   maximise  L(theta) = sum_i log p(x_i | theta) + log pi(theta).
// Closed form where the model has one (the Gaussian); otherwise gradient ascent with a line
// search, which converges for the concave L of a log-concave model and a proper prior. An unconverged estimate is never used: the policy reports it instead.
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/models/prior.hpp"
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

/// Stopping rule of the generic warm start's gradient ascent.
struct map_options {
  /// Iterations before giving up with std::domain_error (>= 1).
  Eigen::Index max_iterations = 500;
  /// Converged when |grad L|_inf <= tolerance * (m + 1/sigma0^2), i.e. when the gradient per
  /// unit of curvature scale is below `tolerance` (> 0).
  double tolerance = 1e-9;
};

namespace detail {

inline void validate(const map_options& options) {
  require_at_least<Eigen::Index>("warm_start.max_iterations", options.max_iterations, 1);
  require_positive("warm_start.tolerance", options.tolerance);
}

/// The generic warm start: gradient ascent on L with a line search. Writes the maximiser into
/// `theta` or throws std::domain_error naming the arm, the iteration count and the remaining
/// gradient; `theta` is then unspecified and the caller must not store it. `grad`, `trial` and
/// `trial_grad` are scratch of size d; none may alias another.
///
/// The line search reads only gradients: along the ray theta + t grad, the slope
/// grad L(theta + t grad) . grad decreases in t because L is concave, so a step whose far end
/// still slopes upwards gains (without comparing values of L, whose rounding at 1e-16 |L|
/// would stall the search near the optimum). Each iteration tries twice the last step and
/// halves it until the slope test passes, which keeps the step within a factor 2 of the line's
/// maximiser: on a quadratic each iteration at least halves the distance to the MAP.
template <RewardModel Model, class Rewards>
void ascend_to_map(const Model& model, const Rewards& rewards, const vector_cref& phi,
                   const normal_prior& prior, const map_options& options, Eigen::Index arm,
                   Eigen::VectorXd& theta, Eigen::VectorXd& grad, Eigen::VectorXd& trial,
                   Eigen::VectorXd& trial_grad) {
  const double m = static_cast<double>(rewards.size());
  const auto gradient = [&](const Eigen::VectorXd& t, Eigen::VectorXd& out) {
    model.grad_log_likelihood(rewards, phi, t, out);  // grad L = m grad F + grad log pi
    out *= m;
    prior.add_log_density_gradient(t, 1.0, out);
  };
  const double threshold = options.tolerance * (m + prior.precision());
  theta.setConstant(prior.mean);
  gradient(theta, grad);
  double step = 1.0 / (m + prior.precision());  // the Newton step of a unit-curvature model
  Eigen::Index iteration = 0;
  for (; iteration < options.max_iterations; ++iteration) {
    if (!grad.allFinite()) break;
    if (grad.lpNorm<Eigen::Infinity>() <= threshold) return;
    bool accepted = false;
    step *= 2.0;
    for (int halving = 0; halving < 100 && !accepted; ++halving) {
      trial = theta + step * grad;
      gradient(trial, trial_grad);
      if (trial_grad.allFinite() && trial_grad.dot(grad) >= 0.0) {
        theta.swap(trial);
        grad.swap(trial_grad);
        accepted = true;
      } else {
        step *= 0.5;
      }
    }
    if (!accepted) break;
  }
  if (grad.allFinite() && grad.lpNorm<Eigen::Infinity>() <= threshold) return;
  throw std::domain_error(
      "sabandit: the warm start of arm " + std::to_string(arm) + " did not converge after " +
      std::to_string(iteration) + " iterations (|gradient| = " +
      std::to_string(grad.lpNorm<Eigen::Infinity>()) + ", tolerance " + std::to_string(threshold) +
      "); use a proper prior (smaller prior.variance) or check the rewards against the model");
}

/// theta_a at the end of arm a's warm-up (Alg. 1 line 1, or the warm start), into `theta`.
template <RewardModel Model, class Rewards, std::uniform_random_bit_generator URBG>
void initial_parameter(const Model& model, const Rewards& rewards, const vector_cref& phi,
                       initialisation init, const normal_prior& prior,
                       const map_options& options, Eigen::Index arm, URBG& gen,
                       Eigen::VectorXd& theta, Eigen::VectorXd& grad, Eigen::VectorXd& trial,
                       Eigen::VectorXd& trial_grad) {
  if (init == initialisation::prior) {
    fill_standard_normal(theta, gen);
    theta = prior.mean + std::sqrt(prior.variance) * theta.array();
  } else if constexpr (ClosedFormMapModel<Model>) {
    model.map_estimate(rewards.mean(), static_cast<double>(rewards.size()), phi, prior, theta);
  } else {
    ascend_to_map(model, rewards, phi, prior, options, arm, theta, grad, trial, trial_grad);
  }
}

}  // namespace detail
}  // namespace sabandit
