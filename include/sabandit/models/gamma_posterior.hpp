#pragma once
// The conjugate posterior of Poisson rewards: Gamma(shape0 + sum_i x_i, rate0 + n) on the mean.
// A tempered draw divides shape and rate by tau: the mean is unchanged and the variance grows
// by tau (a power posterior, the analogue of the Gaussian TS temperature).
#include <cmath>

#include "sabandit/errors.hpp"
#include "sabandit/models/support.hpp"
#include "sabandit/random/engine.hpp"
#include "sabandit/random/gamma.hpp"

namespace sabandit {

/// Gamma(shape, rate) prior on a Poisson mean (mean shape / rate, variance shape / rate^2).
struct gamma_prior {
  double shape = 1.0;   ///< in [1e-100, 1e100]
  double rate = 1e-4;   ///< in [1e-100, 1e100]; the default is nearly flat: an exponential of mean 10^4

  /// Saves or restores both parameters (state/persist.hpp); checked when the policy is rebuilt.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    ar("shape", self.shape);
    ar("rate", self.rate);
  }
};

/// Gamma(shape, rate) on a Poisson mean, updated by counts.
class gamma_posterior {
 public:
  /// Starts at the prior; throws std::invalid_argument unless shape and rate are in
  /// [1e-100, 1e100] (errors.hpp: their sums and quotients stay finite).
  explicit gamma_posterior(const gamma_prior& prior) : shape_(prior.shape), rate_(prior.rate) {
    detail::require_scale("prior.shape", prior.shape);
    detail::require_scale("prior.rate", prior.rate);
  }

  /// Poisson rewards are counts: negative or fractional ones have no likelihood. The same
  /// check as poisson_model's (models/support.hpp).
  static void validate_reward(double x) { detail::require_count_reward(x); }
  /// Adds one count x >= 0 (checked by validate_reward first).
  void update(double x) noexcept {
    shape_ += x;
    rate_ += 1.0;
  }

  /// Prior shape plus the sum of the counts.
  [[nodiscard]] double shape() const noexcept { return shape_; }
  /// Prior rate plus the number of counts.
  [[nodiscard]] double rate() const noexcept { return rate_; }
  /// Whether this posterior is `prior` updated by `count` counts summing to `sum`, up to the
  /// rounding of the updates: what restore checks (state/persist.hpp).
  [[nodiscard]] bool agrees_with(const gamma_prior& prior, double count, double sum) const noexcept {
    return detail::sums_agree(shape_, prior.shape + sum, count, prior.shape + std::abs(sum)) &&
           detail::sums_agree(rate_, prior.rate + count, count, prior.rate + count);
  }
  /// shape / rate.
  [[nodiscard]] double mean() const noexcept { return shape_ / rate_; }
  /// Saves or restores shape and rate (state/persist.hpp), which must be finite and > 0.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    ar("shape", self.shape_);
    ar("rate", self.rate_);
    ar.require(self.shape_ > 0.0 && std::isfinite(self.shape_) && self.rate_ > 0.0 &&
                   std::isfinite(self.rate_),
               "a gamma posterior's parameters are finite and > 0");
  }
  /// shape / rate^2.
  [[nodiscard]] double variance() const noexcept { return shape_ / (rate_ * rate_); }
  /// A draw from Gamma(shape / tau, rate / tau). Throws std::invalid_argument naming the
  /// temperature unless tau is in [1e-100, 1e100] (thompson's range).
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double sample(URBG& gen, double temperature = 1.0) const {
    detail::require_temperature(temperature);
    return gamma_variate(shape_ / temperature, gen) * (temperature / rate_);
  }
  /// The logarithm of sample(gen, temperature), from the same engine calls: finite where the
  /// draw underflows to 0 (shape / tau below about 0.001), which would tie arms at 0.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double log_sample(URBG& gen, double temperature = 1.0) const {
    detail::require_temperature(temperature);
    return gamma_sampler(shape_ / temperature).log_variate(gen) + std::log(temperature / rate_);
  }

 private:
  double shape_, rate_;
};

}  // namespace sabandit
