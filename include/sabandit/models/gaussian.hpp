#pragma once
// Gaussian rewards with known noise variance: x ~ N(<phi, theta>, sigma^2), the identity link
// of the paper's Preliminaries. log p(x | theta) is a concave quadratic in theta (strongly
// concave along phi, with curvature |phi|^2 / sigma^2): the log-concavity that the paper's
// assumptions on the likelihood need.
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/detail/vector_ops.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/models/canonical_link.hpp"
#include "sabandit/models/normal_posterior.hpp"
#include "sabandit/models/prior.hpp"
#include "sabandit/models/support.hpp"

namespace sabandit {

/// Gaussian rewards of known variance with the identity link (the paper's setting); a RewardModel with sufficient statistics, a closed-form warm start, a conjugate (normal) posterior and a divergence.
class gaussian_model : public canonical_link<gaussian_model> {
 public:
  /// Flat: the warm start is then the warm-up window's mean, as in the paper's experiments,
  /// and TS-SGLD's drift has no prior term. Gaussian rewards of known scale make the
  /// likelihood alone well posed after one pull, so no prior is needed to keep it finite.
  [[nodiscard]] static normal_prior default_prior() { return normal_prior::flat(); }

  /// sigma^2 in [1e-100, 1e100] (bounds::min_scale, bounds::max_scale); the paper's
  /// experiments use 1.
  explicit gaussian_model(double noise_variance = 1.0) : noise_variance_(noise_variance) {
    detail::require_scale("noise_variance", noise_variance);
  }

  /// sigma^2.
  [[nodiscard]] double noise_variance() const noexcept { return noise_variance_; }

  /// "gaussian", the name in a saved policy's type (state/persist.hpp).
  [[nodiscard]] static std::string state_name() { return "gaussian"; }
  /// Saves or restores sigma^2; restoring re-runs the constructor's check.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    double noise_variance = self.noise_variance_;
    ar("noise_variance", noise_variance);
    if constexpr (Archive::reading) self = gaussian_model(noise_variance);
  }

  /// The support (models/support.hpp): every reward within the numeric contract, finite with
  /// |x| <= 1e150 (errors.hpp); throws std::invalid_argument naming the reward otherwise.
  static void validate_reward(double x) { detail::require_reward(x); }

  // --- Conjugate posterior (Gaussian TS, epsilon-TS) -------------------------------------
  /// TS's prior is on the mean: N(mu0, sigma0^2).
  using conjugate_prior_type = normal_prior;
  /// The normal posterior that gaussian_ts samples.
  using posterior_type = normal_posterior;
  /// Flat (Jeffreys' prior for a location, optimal for TS: Korda, Kaufmann and Munos 2013):
  /// after thompson's warm-up pull the posterior is N(xbar, sigma^2 / n), so TS decides the same
  /// when the rewards are shifted or rescaled (with sigma^2). The reproduction of the paper's TS
  /// baseline (whose prior the paper does not state) uses N(0, 10^4), which shrinks an arm's mean towards 0 by about xbar sigma^2 / (10^4 n): a
  /// hundred standard deviations after one pull for rewards near 10^6 with sigma = 1, which
  /// kept TS on its first arm (examples/reproduce_paper sets N(0, 10^4) itself).
  [[nodiscard]] static normal_prior default_conjugate_prior() { return normal_prior::flat(); }
  /// The posterior before any reward, for rewards of this model's variance.
  [[nodiscard]] normal_posterior posterior(const normal_prior& prior) const {
    return {prior, noise_variance_};
  }

  // --- Divergence (KL-UCB) ----------------------------------------------------------------
  /// KL(N(p, sigma^2) || N(q, sigma^2)) = (p - q)^2 / (2 sigma^2): KL-UCB then reduces to
  /// UCB1's index p + sqrt(2 sigma^2 log t / n).
  [[nodiscard]] double divergence(double p, double q) const noexcept {
    return (p - q) * (p - q) / (2.0 * noise_variance_);
  }
  /// The reward variance at mean q (constant for the Gaussian).
  [[nodiscard]] double reward_variance(double /*q*/) const noexcept { return noise_variance_; }
  /// Means are unbounded above.
  [[nodiscard]] static double mean_upper_limit() noexcept {
    return std::numeric_limits<double>::infinity();
  }

  /// E[x | theta] = eta = <phi, theta> (identity link; canonical_link.hpp: the mean and the
  /// gradients phi (xbar - eta) / sigma^2).
  [[nodiscard]] static double mean_at(double eta) noexcept { return eta; }
  /// The identity link: eta = mu.
  [[nodiscard]] static double link_at(double mu) noexcept { return mu; }
  /// The posterior of the mean is normal already: the coordinate is mu itself
  /// (models/information.hpp, NormalizingCoordinateModel).
  [[nodiscard]] static double normalizing_coordinate(double mu) noexcept { return mu; }
  /// d mu / d eta = 1.
  [[nodiscard]] static double normalizing_slope(const vector_cref& /*phi*/,
                                                const vector_cref& /*theta*/) noexcept {
    return 1.0;
  }
  /// The same at eta.
  [[nodiscard]] static double normalizing_slope_at(double /*eta*/) noexcept { return 1.0; }
  /// The dispersion a = sigma^2.
  [[nodiscard]] double dispersion() const noexcept { return noise_variance_; }

  /// log N(x; <phi, theta>, sigma^2).
  [[nodiscard]] double log_likelihood(double x, const vector_cref& phi,
                                      const vector_cref& theta) const {
    const double residual = x - mean(phi, theta);
    return -0.5 * std::log(2.0 * std::numbers::pi * noise_variance_) -
           0.5 * residual * residual / noise_variance_;
  }

  /// The MAP estimate of theta from `count` rewards of mean `xbar` under `prior`, in closed
  /// form. The posterior moves theta only along phi, so theta = mean 1 + c phi with
  ///   c = (count r / sigma^2) / (1/sigma0^2 + count |phi|^2 / sigma^2),  r = xbar - <phi, mean 1>;
  /// for the flat prior c = r / |phi|^2: the maximiser of the likelihood nearest the prior mean
  /// (with mean 0, phi xbar / |phi|^2).
  void map_estimate(double xbar, double count, const vector_cref& phi, const normal_prior& prior,
                    vector_ref theta) const {
    const double residual = xbar - prior.mean * detail::sum(phi);
    const double phi_norm2 = detail::squared_norm(phi);
    const double c =
        prior.is_flat()
            ? residual / phi_norm2
            : (count * residual / noise_variance_) /
                  (prior.precision() + count * phi_norm2 / noise_variance_);
    detail::scaled_plus(theta, c, phi, prior.mean);
  }

 private:
  double noise_variance_;
};

static_assert(WindowMeanRewardModel<gaussian_model>);
static_assert(ClosedFormMapModel<gaussian_model>);
static_assert(ConjugateRewardModel<gaussian_model>);
static_assert(DivergenceRewardModel<gaussian_model>);
static_assert(SupportDeclaringModel<gaussian_model>);

}  // namespace sabandit
