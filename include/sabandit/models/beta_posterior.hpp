#pragma once
// The conjugate posterior of Bernoulli rewards: Beta(alpha0 + successes, beta0 + failures)
// (exact Beta-Bernoulli Thompson sampling, Agrawal & Goyal 2012). A reward x in [0, 1] adds x
// to alpha and 1 - x to beta, which is exact for x in {0, 1}. A tempered draw divides both
// parameters by tau: the mean is unchanged and the variance grows by about tau (a power
// posterior, the analogue of the Gaussian TS temperature).
#include <cmath>

#include "sabandit/errors.hpp"
#include "sabandit/models/support.hpp"
#include "sabandit/random/beta.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit {

/// Beta(alpha, beta) prior on a success probability. Beta(1, 1) is uniform.
struct beta_prior {
  double alpha = 1.0;  ///< in [1e-100, 1e100]: prior successes
  double beta = 1.0;   ///< in [1e-100, 1e100]: prior failures

  /// Saves or restores both parameters (state/persist.hpp); checked when the policy is rebuilt.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    ar("alpha", self.alpha);
    ar("beta", self.beta);
  }
};

/// Beta(alpha, beta) on a success probability, updated by Bernoulli rewards.
class beta_posterior {
 public:
  /// Starts at the prior; throws std::invalid_argument unless alpha and beta are in
  /// [1e-100, 1e100] (errors.hpp: their sums and quotients stay finite).
  explicit beta_posterior(const beta_prior& prior) : alpha_(prior.alpha), beta_(prior.beta) {
    detail::require_scale("prior.alpha", prior.alpha);
    detail::require_scale("prior.beta", prior.beta);
  }

  /// Bernoulli rewards lie in [0, 1]; anything else would make beta or alpha meaningless. The
  /// same check as bernoulli_model's (models/support.hpp).
  static void validate_reward(double x) { detail::require_unit_interval_reward(x); }
  /// Adds one reward x in [0, 1] (checked by validate_reward first).
  void update(double x) noexcept {
    alpha_ += x;
    beta_ += 1.0 - x;
  }

  /// Prior plus observed successes.
  [[nodiscard]] double alpha() const noexcept { return alpha_; }
  /// Prior plus observed failures.
  [[nodiscard]] double beta() const noexcept { return beta_; }
  /// Saves or restores alpha and beta (state/persist.hpp), which must be finite and > 0.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    ar("alpha", self.alpha_);
    ar("beta", self.beta_);
    ar.require(self.alpha_ > 0.0 && std::isfinite(self.alpha_) && self.beta_ > 0.0 &&
                   std::isfinite(self.beta_),
               "a beta posterior's parameters are finite and > 0");
  }
  /// Whether this posterior is `prior` updated by `count` rewards summing to `sum`, up to the
  /// rounding of the updates: what restore checks (state/persist.hpp).
  [[nodiscard]] bool agrees_with(const beta_prior& prior, double count, double sum) const noexcept {
    const double magnitude = prior.alpha + prior.beta + count;
    return detail::sums_agree(alpha_, prior.alpha + sum, count, magnitude) &&
           detail::sums_agree(beta_, prior.beta + (count - sum), count, magnitude);
  }
  /// alpha / (alpha + beta).
  [[nodiscard]] double mean() const noexcept { return alpha_ / (alpha_ + beta_); }
  /// alpha beta / ((alpha + beta)^2 (alpha + beta + 1)).
  [[nodiscard]] double variance() const noexcept {
    const double total = alpha_ + beta_;
    return alpha_ * beta_ / (total * total * (total + 1.0));
  }
  /// A draw from Beta(alpha / tau, beta / tau). Throws std::invalid_argument naming the
  /// temperature unless tau is in [1e-100, 1e100] (thompson's range).
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double sample(URBG& gen, double temperature = 1.0) const {
    detail::require_temperature(temperature);
    return beta_variate(alpha_ / temperature, beta_ / temperature, gen);
  }

 private:
  double alpha_, beta_;
};

}  // namespace sabandit
