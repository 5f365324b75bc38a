#pragma once
// The conjugate posterior of Gaussian rewards with known noise variance sigma^2 under a normal
// prior N(mu0, sigma0^2) on the mean (Gaussian TS; paper, appendix "Baseline Implementation"):
//   precision = 1/sigma0^2 + n / sigma^2,   mean = (mu0/sigma0^2 + sum_i x_i / sigma^2) / precision.
// A tempered draw multiplies the variance by tau, as the appendix's TS does:
//   N(mean, tau / precision).
// The flat prior (sigma0^2 = +infinity, Jeffreys' prior for a location) gives N(xbar, sigma^2/n):
// the posterior moves with the rewards when they are shifted or scaled, which no proper prior
// does. It has no draw before the first reward; thompson's warm-up gives every arm one.
#include <cmath>
#include <stdexcept>

#include "sabandit/errors.hpp"
#include "sabandit/models/prior.hpp"
#include "sabandit/random/engine.hpp"
#include "sabandit/random/normal.hpp"

namespace sabandit {

/// The normal posterior of a Gaussian mean with known noise variance.
class normal_posterior {
 public:
  /// The prior N(prior.mean, prior.variance), or the flat prior (variance +infinity), for
  /// rewards of variance `noise_variance`, in [1e-100, 1e100] as gaussian_model's
  /// (std::invalid_argument naming it otherwise: -1 gave NaN draws).
  normal_posterior(const normal_prior& prior, double noise_variance)
      : prior_precision_(validated(prior).precision()),
        prior_weight_(prior.mean / prior.variance),
        noise_precision_((detail::require_scale("noise_variance", noise_variance),
                          1.0 / noise_variance)) {}

  /// Any reward within the numeric contract (finite, |x| <= 1e150) is in the Gaussian's
  /// support: the same check as gaussian_model's.
  static void validate_reward(double x) { detail::require_reward(x); }
  /// Adds one reward.
  void update(double x) noexcept {
    count_ += 1.0;
    sum_ += x;
  }

  /// 1 / precision: +infinity under the flat prior before any reward.
  [[nodiscard]] double variance() const noexcept {
    return 1.0 / (prior_precision_ + count_ * noise_precision_);
  }
  /// The posterior mean (the prior mean before any reward; 0 under the flat prior, whose
  /// variance is then +infinity).
  [[nodiscard]] double mean() const noexcept {
    if (!has_information()) return 0.0;
    return (prior_weight_ + sum_ * noise_precision_) * variance();
  }
  /// A draw from N(mean, tau variance). Throws std::invalid_argument naming the temperature
  /// unless tau is in [1e-100, 1e100] (thompson's range; a negative tau gave NaN), and
  /// std::domain_error under the flat prior before any reward (it has no distribution yet).
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double sample(URBG& gen, double temperature = 1.0) const {
    detail::require_temperature(temperature);
    if (!has_information())
      throw std::domain_error(
          "sabandit: a normal posterior under the flat prior has no draw before its first "
          "reward (thompson's warm-up, at least one pull of each arm, gives it one)");
    return mean() + std::sqrt(temperature * variance()) * standard_normal(gen);
  }
  /// Whether the posterior is proper: a proper prior, or at least one reward.
  [[nodiscard]] bool has_information() const noexcept {
    return prior_precision_ > 0.0 || count_ > 0.0;
  }
  /// 1 / sigma^2, the rewards' precision.
  [[nodiscard]] double noise_precision() const noexcept { return noise_precision_; }
  /// Whether this posterior is `prior` updated by `count` rewards summing to `sum` (as the
  /// policy's statistics record them, in the same order: equal to the bit): what restore
  /// checks (state/persist.hpp).
  [[nodiscard]] bool agrees_with(const normal_prior& prior, double count, double sum) const noexcept {
    return prior_precision_ == prior.precision() && prior_weight_ == prior.mean / prior.variance &&
           count_ == count && sum_ == sum;
  }
  /// Rewards seen.
  [[nodiscard]] double count() const noexcept { return count_; }
  /// Their sum.
  [[nodiscard]] double sum() const noexcept { return sum_; }
  /// Saves or restores the five numbers (state/persist.hpp): precisions finite (the prior's
  /// >= 0, 0 for the flat prior, whose weight is then 0; the noise's 1 / sigma^2 for a
  /// sigma^2 the constructor takes, in [1e-100, 1e100]), a whole count and a finite sum.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    ar("prior_precision", self.prior_precision_);
    ar("prior_weight", self.prior_weight_);
    ar("noise_precision", self.noise_precision_);
    ar("count", self.count_, 0.0, bounds::restored_count);
    ar("sum", self.sum_);
    // The noise's bounds are 1 / sigma^2 at sigma^2's (rounding is monotone): a probe's
    // precision of 5e-324 made every posterior mean infinite, one of 1e300 every draw greedy.
    ar.require(self.prior_precision_ >= 0.0 && std::isfinite(self.prior_precision_) &&
                   self.noise_precision_ >= 1.0 / bounds::max_scale &&
                   self.noise_precision_ <= 1.0 / bounds::min_scale &&
                   std::isfinite(self.prior_weight_) && std::isfinite(self.sum_) &&
                   self.count_ == std::floor(self.count_) &&
                   (self.prior_precision_ > 0.0 || self.prior_weight_ == 0.0),
               "a normal posterior's numbers are finite, its noise precision in [1e-100, 1e100], "
               "its prior precision >= 0 (0, the flat prior, with weight 0), its count whole");
  }

 private:
  static const normal_prior& validated(const normal_prior& prior) {
    detail::validate(prior, /*sampled=*/false);  // flat allowed: the rewards make it proper
    return prior;
  }

  double prior_precision_;
  double prior_weight_;
  double noise_precision_;
  double count_ = 0.0;
  double sum_ = 0.0;
};

}  // namespace sabandit
