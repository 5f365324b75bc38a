#pragma once
// The conjugate posterior of exponential rewards (durations) on their mean mu:
// InverseGamma(shape0 + n, scale0 + sum_i x_i), i.e. the rate 1 / mu is
// Gamma(shape0 + n, scale0 + sum_i x_i). The default prior is Jeffreys' (shape0 = scale0 = 0,
// p(mu) proportional to 1 / mu): it is the only one with no unit, so that durations in seconds
// and in minutes give the same decisions (the draws scale with the rewards). It is improper, and
// its posterior is proper once an arm has one reward, which thompson's warm-up (>= 1) provides.
// A tempered draw divides shape and scale by tau, as gamma_posterior does (a power posterior).
#include <cmath>

#include "sabandit/errors.hpp"
#include "sabandit/models/support.hpp"
#include "sabandit/random/engine.hpp"
#include "sabandit/random/gamma.hpp"

namespace sabandit {

/// InverseGamma(shape, scale) prior on an exponential mean: `shape` pseudo-rewards whose sum is
/// `scale`. The default, {0, 0}, is Jeffreys' prior.
struct inverse_gamma_prior {
  double shape = 0.0;  ///< 0, or in [1e-100, 1e100]
  double scale = 0.0;  ///< 0, or in [1e-100, 1e100]

  /// Saves or restores both parameters (state/persist.hpp); checked when the policy is rebuilt.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    ar("shape", self.shape);
    ar("scale", self.scale);
  }
};

/// InverseGamma(shape, scale) on an exponential mean, updated by durations.
class inverse_gamma_posterior {
 public:
  /// Starts at the prior; throws std::invalid_argument unless shape and scale are each 0 or in
  /// [1e-100, 1e100] (errors.hpp: their sums and quotients stay finite), and both 0 (Jeffreys')
  /// or both positive: shape pseudo-durations, which are positive, sum to a positive scale
  /// (InverseGamma(1e-100, 0) drew 0 / 0 = NaN).
  explicit inverse_gamma_posterior(const inverse_gamma_prior& prior)
      : shape_(prior.shape), scale_(prior.scale) {
    detail::require_zero_or_scale("prior.shape", prior.shape);
    detail::require_zero_or_scale("prior.scale", prior.scale);
    if ((prior.shape == 0.0) != (prior.scale == 0.0))
      detail::throw_invalid("prior.scale", prior.scale,
                            "must be 0 exactly when prior.shape is 0: shape positive durations "
                            "sum to a positive scale; Jeffreys' prior is shape = scale = 0");
  }

  /// Durations are positive: the same check as exponential_model's (models/support.hpp).
  static void validate_reward(double x) { detail::require_positive_reward(x); }
  /// Adds one duration x > 0 (checked by validate_reward first).
  void update(double x) noexcept {
    shape_ += 1.0;
    scale_ += x;
  }

  /// Prior shape plus the number of durations.
  [[nodiscard]] double shape() const noexcept { return shape_; }
  /// Prior scale plus the sum of the durations.
  [[nodiscard]] double scale() const noexcept { return scale_; }
  /// Whether this posterior is `prior` updated by `count` durations summing to `sum`, up to
  /// the rounding of the updates: what restore checks (state/persist.hpp).
  [[nodiscard]] bool agrees_with(const inverse_gamma_prior& prior, double count,
                                 double sum) const noexcept {
    return detail::sums_agree(shape_, prior.shape + count, count, prior.shape + count) &&
           detail::sums_agree(scale_, prior.scale + sum, count, prior.scale + std::abs(sum));
  }
  /// The estimate of the mean that epsilon-TS's greedy arm uses: scale / shape = 1 / E[rate],
  /// which under Jeffreys' prior is the durations' average. (The inverse gamma's own mean,
  /// scale / (shape - 1), is infinite up to shape 1, and would make an arm with one pull the
  /// greedy choice.) 0 while shape is 0: no duration and Jeffreys' prior.
  [[nodiscard]] double mean() const noexcept { return shape_ > 0.0 ? scale_ / shape_ : 0.0; }
  /// Saves or restores shape and scale (state/persist.hpp), which must be finite and >= 0.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    ar("shape", self.shape_);
    ar("scale", self.scale_);
    ar.require(self.shape_ >= 0.0 && std::isfinite(self.shape_) && self.scale_ >= 0.0 &&
                   std::isfinite(self.scale_),
               "an inverse gamma posterior's parameters are finite and >= 0");
  }
  /// A draw of the mean from InverseGamma(shape / tau, scale / tau): (scale / tau) / G with
  /// G ~ Gamma(shape / tau, 1). Needs shape > 0 (one duration, under Jeffreys' prior): throws
  /// std::invalid_argument naming the shape otherwise, and naming the temperature unless tau
  /// is in [1e-100, 1e100]. +infinity where G underflows to 0 (shape / tau below about 0.001:
  /// random/gamma.hpp); log_sample does not.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double sample(URBG& gen, double temperature = 1.0) const {
    detail::require_temperature(temperature);
    return (scale_ / temperature) / gamma_variate(shape_ / temperature, gen);
  }
  /// The logarithm of sample(gen, temperature), from the same engine calls: finite however
  /// small G is, so that thompson's argmax over arms stays a comparison where draws of the
  /// mean would all be +infinity (a tie that the lowest index would win).
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double log_sample(URBG& gen, double temperature = 1.0) const {
    detail::require_temperature(temperature);
    return std::log(scale_ / temperature) - gamma_sampler(shape_ / temperature).log_variate(gen);
  }

 private:
  double shape_, scale_;
};

}  // namespace sabandit
