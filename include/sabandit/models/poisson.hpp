#pragma once
// Poisson rewards (counts) with the log (canonical) link: x in {0, 1, 2, ...},
//   E[x | theta] = e^eta,  eta = <phi, theta>,
//   log p(x | theta) = x eta - e^eta - log(x!).
// Log-concave in theta: x eta is linear and e^eta convex, the concavity the paper's analysis
// assumes; strongly concave only where e^eta is bounded below, hence a proper default prior.
//
// Numerics: e^eta is finite for eta <= 709.78; every value and gradient is finite at
// |eta| = 700 (tested). Beyond that the mean itself is not representable as a double.
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/detail/vector_ops.hpp"
#include "sabandit/models/canonical_link.hpp"
#include "sabandit/models/gamma_posterior.hpp"
#include "sabandit/models/prior.hpp"
#include "sabandit/models/support.hpp"

namespace sabandit {

/// Poisson counts with the log link; a RewardModel with a conjugate (gamma) posterior and a divergence.
class poisson_model : public canonical_link<poisson_model> {
 public:
  /// N(0, 2^2) on the log-mean scale: 95% of its mass on means in [0.02, 50], and proper, so
  /// a warm-up of all zeros keeps a finite MAP (the maximum-likelihood log-mean is -infinity).
  [[nodiscard]] static normal_prior default_prior() { return {0.0, 4.0}; }
  /// "poisson", the name in a saved policy's type (the model has no state of its own).
  [[nodiscard]] static std::string state_name() { return "poisson"; }

  /// The support (models/support.hpp): whole numbers in [0, 1e150]; throws
  /// std::invalid_argument naming the reward otherwise. Every policy over the model checks it.
  static void validate_reward(double x) { detail::require_count_reward(x); }
  /// [0, 1e150], whole numbers: a restore checks that each saved sum is a whole number, not
  /// negative.
  [[nodiscard]] static reward_interval reward_range() noexcept {
    return {.lower = 0.0, .upper = bounds::reward, .whole = true};
  }

  // --- Conjugate posterior (exact Gamma-Poisson TS, epsilon-TS) ----------------------------
  /// TS's prior is on the Poisson mean.
  using conjugate_prior_type = gamma_prior;
  /// The Gamma posterior that thompson<poisson_model> samples.
  using posterior_type = gamma_posterior;
  /// Gamma(1, 10^-4): nearly flat on the mean, so the first pulls dominate.
  [[nodiscard]] static gamma_prior default_conjugate_prior() { return {}; }
  /// The same prior as pseudo-rewards, scale-free TS-SA's default (models/prior.hpp): shape
  /// events in an exposure of rate.
  [[nodiscard]] static pseudo_rewards default_pseudo_rewards() {
    const gamma_prior prior = default_conjugate_prior();
    return {prior.shape, prior.rate};
  }
  /// The posterior before any reward: the prior itself.
  [[nodiscard]] gamma_posterior posterior(const gamma_prior& prior) const {
    return gamma_posterior(prior);
  }

  // --- Divergence (KL-UCB for exponential families, Cappe et al. 2013) ----------------------
  /// KL(Poisson(p) || Poisson(q)) = q - p + p log(p / q), with 0 log 0 = 0, evaluated as
  /// p (x - log1p(x)) with x = (q - p) / p: the two terms of the plain form nearly cancel for
  /// large means (at p = 10^15 they would leave an error of 1-15% of the confidence width).
  [[nodiscard]] double divergence(double p, double q) const noexcept {
    if (!(p > 0.0)) return q;
    const double x = (q - p) / p;
    return p * (x - std::log1p(x));
  }
  /// q: the Poisson variance at mean q.
  [[nodiscard]] double reward_variance(double q) const noexcept { return q; }
  /// Means are unbounded above.
  [[nodiscard]] static double mean_upper_limit() noexcept {
    return std::numeric_limits<double>::infinity();
  }

  /// E[x | theta] = e^eta, eta = <phi, theta> (canonical_link.hpp: the mean and the gradients
  /// phi (xbar - e^eta)).
  [[nodiscard]] static double mean_at(double eta) noexcept { return std::exp(eta); }
  /// The log link log(mu); NaN below 0, -infinity at 0.
  [[nodiscard]] static double link_at(double mu) noexcept { return std::log(mu); }
  /// 3 mu^(1/3) = the integral of V^(-2/3) = mu^(-2/3): the Gamma posterior's cube root, normal
  /// to first order (Wilson & Hilferty 1931; models/information.hpp).
  [[nodiscard]] static double normalizing_coordinate(double mu) noexcept {
    return 3.0 * std::cbrt(mu);
  }
  /// d/d eta 3 e^(eta / 3) = e^(eta / 3) = mu^(1/3).
  [[nodiscard]] static double normalizing_slope(const vector_cref& phi,
                                                const vector_cref& theta) noexcept {
    return normalizing_slope_at(detail::dot(phi, theta));
  }
  /// The same at eta.
  [[nodiscard]] static double normalizing_slope_at(double eta) noexcept {
    return std::exp(eta / 3.0);
  }
  /// The dispersion: 1.
  [[nodiscard]] static constexpr double dispersion() noexcept { return 1.0; }

  /// x eta - e^eta - lgamma(x + 1); x is a count (lgamma extends it to any x > -1).
  [[nodiscard]] double log_likelihood(double x, const vector_cref& phi,
                                      const vector_cref& theta) const {
    const double eta = detail::dot(phi, theta);
    return x * eta - std::exp(eta) - std::lgamma(x + 1.0);
  }
};

static_assert(WindowMeanRewardModel<poisson_model>);
static_assert(ConjugateRewardModel<poisson_model>);
static_assert(DivergenceRewardModel<poisson_model>);
static_assert(SupportDeclaringModel<poisson_model>);

}  // namespace sabandit
