#pragma once
// Bernoulli rewards with the logistic (canonical) link: x in {0, 1},
//   P(x = 1 | theta) = sigmoid(eta),  eta = <phi, theta>,
//   log p(x | theta) = x eta - softplus(eta),  softplus(eta) = log(1 + e^eta).
// Log-concave in theta: x eta is linear and softplus is convex (its second derivative
// sigmoid(eta) (1 - sigmoid(eta)) is positive), which is the concavity the paper's analysis
// assumes. It is not *strongly* concave far from the data (the curvature vanishes as
// |eta| grows), which is why the warm start uses a proper prior by default.
//
// Numerics: every function is evaluated without exp of a positive argument, so it stays finite
// and accurate for |eta| up to the largest double (tested at |eta| = 700).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/detail/vector_ops.hpp"
#include "sabandit/models/beta_posterior.hpp"
#include "sabandit/models/canonical_link.hpp"
#include "sabandit/models/prior.hpp"
#include "sabandit/models/support.hpp"

namespace sabandit {

/// log(1 + e^eta) without overflow: max(eta, 0) + log1p(e^-|eta|).
[[nodiscard]] inline double softplus(double eta) noexcept {
  return std::fmax(eta, 0.0) + std::log1p(std::exp(-std::fabs(eta)));
}

/// 1 / (1 + e^-eta) without overflow: the exponential is always of a non-positive argument.
[[nodiscard]] inline double sigmoid(double eta) noexcept {
  if (eta >= 0.0) return 1.0 / (1.0 + std::exp(-eta));
  const double e = std::exp(eta);
  return e / (1.0 + e);
}

/// Bernoulli rewards with the logistic link; a RewardModel with a conjugate (beta) posterior and a divergence.
class bernoulli_model : public canonical_link<bernoulli_model> {
 public:
  /// N(0, 2^2) on the logit scale: 95% of its mass on success probabilities in
  /// [0.02, 0.98], and proper, so a warm-up of all zeros or all ones keeps a finite MAP
  /// (the maximum-likelihood logit would be -infinity or +infinity).
  [[nodiscard]] static normal_prior default_prior() { return {0.0, 4.0}; }
  /// "bernoulli", the name in a saved policy's type (the model has no state of its own).
  [[nodiscard]] static std::string state_name() { return "bernoulli"; }

  /// The support (models/support.hpp): x in [0, 1], outcomes 0 and 1 and the fractional
  /// rewards that Beta-Bernoulli TS reads as success probabilities; throws
  /// std::invalid_argument naming the reward otherwise. Every policy over the model checks it.
  static void validate_reward(double x) { detail::require_unit_interval_reward(x); }
  /// [0, 1]: every mean of its rewards is a probability (a restore checks the saved sums).
  [[nodiscard]] static reward_interval reward_range() noexcept { return {0.0, 1.0}; }

  // --- Conjugate posterior (exact Beta-Bernoulli TS, epsilon-TS) --------------------------
  /// TS's prior is on the success probability.
  using conjugate_prior_type = beta_prior;
  /// The Beta posterior that thompson<bernoulli_model> samples.
  using posterior_type = beta_posterior;
  /// Beta(1, 1): uniform on the success probability (Agrawal & Goyal 2012).
  [[nodiscard]] static beta_prior default_conjugate_prior() { return {1.0, 1.0}; }
  /// The same prior as pseudo-rewards, scale-free TS-SA's default (models/prior.hpp): alpha
  /// successes in alpha + beta rewards.
  [[nodiscard]] static pseudo_rewards default_pseudo_rewards() {
    const beta_prior prior = default_conjugate_prior();
    return {prior.alpha, prior.alpha + prior.beta};
  }
  /// The posterior before any reward: the prior itself.
  [[nodiscard]] beta_posterior posterior(const beta_prior& prior) const {
    return beta_posterior(prior);
  }

  // --- Divergence (KL-UCB, Garivier & Cappe 2011) -------------------------------------------
  /// KL(Bernoulli(p) || Bernoulli(q)) = p log(p/q) + (1-p) log((1-p)/(1-q)), with 0 log 0 = 0;
  /// +infinity where q puts no mass on an outcome p has.
  [[nodiscard]] double divergence(double p, double q) const noexcept {
    const auto term = [](double a, double b) { return a > 0.0 ? a * std::log(a / b) : 0.0; };
    return term(p, q) + term(1.0 - p, 1.0 - q);
  }
  /// q (1 - q): the Bernoulli variance at mean q.
  [[nodiscard]] double reward_variance(double q) const noexcept { return q * (1.0 - q); }
  /// Means are probabilities.
  [[nodiscard]] static double mean_upper_limit() noexcept { return 1.0; }

  /// P(x = 1 | theta) = sigmoid(eta), eta = <phi, theta> (canonical_link.hpp: the mean and
  /// the gradients phi (xbar - sigmoid(eta))).
  [[nodiscard]] static double mean_at(double eta) noexcept { return sigmoid(eta); }
  /// B(mu; 1/3, 1/3) = the integral over [0, mu] of V^(-2/3) = (t (1 - t))^(-2/3): the
  /// coordinate in which the Beta posterior is normal to first order (models/information.hpp).
  /// For mu <= 1/2 the series sum_k c_k mu^(k + 1/3) / (k + 1/3), c_k the coefficients of
  /// (1 - t)^(-2/3) (c_0 = 1, c_k = c_{k-1} (k - 1/3) / k), whose terms shrink at least like
  /// 2^-k: 56 terms reach the double's precision. Above 1/2, the symmetry
  /// B(mu) = 2 B(1/2) - B(1 - mu). Clamped to [0, 1] outside it.
  [[nodiscard]] static double normalizing_coordinate(double mu) noexcept {
    const auto lower_half = [](double x) {
      double term = 1.0, sum = 0.0, power = std::cbrt(x);
      for (int k = 0; k < 56; ++k) {
        sum += term * power / (k + 1.0 / 3.0);
        term *= (k + 2.0 / 3.0) / (k + 1.0);
        power *= x;
      }
      return sum;
    };
    const double x = std::clamp(mu, 0.0, 1.0);
    return x <= 0.5 ? lower_half(x) : 2.0 * lower_half(0.5) - lower_half(1.0 - x);
  }
  /// d/d eta B(sigmoid(eta); 1/3, 1/3) = (p (1 - p))^(-2/3) p (1 - p) = (p (1 - p))^(1/3).
  [[nodiscard]] static double normalizing_slope(const vector_cref& phi,
                                                const vector_cref& theta) noexcept {
    return normalizing_slope_at(detail::dot(phi, theta));
  }
  /// The same at eta.
  [[nodiscard]] static double normalizing_slope_at(double eta) noexcept {
    const double p = sigmoid(eta);
    return std::cbrt(p * (1.0 - p));
  }
  /// The logit log(mu / (1 - mu)); NaN outside [0, 1], infinite at 0 and 1.
  [[nodiscard]] static double link_at(double mu) noexcept {
    return mu >= 0.0 && mu <= 1.0 ? std::log(mu) - std::log1p(-mu)
                                  : std::numeric_limits<double>::quiet_NaN();
  }
  /// The dispersion: 1.
  [[nodiscard]] static constexpr double dispersion() noexcept { return 1.0; }

  /// x eta - softplus(eta). Defined for any x (the cross-entropy for x in [0, 1]).
  [[nodiscard]] double log_likelihood(double x, const vector_cref& phi,
                                      const vector_cref& theta) const {
    const double eta = detail::dot(phi, theta);
    return x * eta - softplus(eta);
  }
};

static_assert(WindowMeanRewardModel<bernoulli_model>);
static_assert(ConjugateRewardModel<bernoulli_model>);
static_assert(DivergenceRewardModel<bernoulli_model>);
static_assert(SupportDeclaringModel<bernoulli_model>);

}  // namespace sabandit
