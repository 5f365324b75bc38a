#pragma once
// Which rewards a model can have produced: its support. Every policy that has a model checks a
// reward against it before anything changes, so a reward the likelihood cannot explain (-1 for
// a Poisson count, 2 for a Bernoulli outcome) is rejected by name and value instead of
// silently steering a chain, and every policy over the same model accepts the same rewards.
//
// A model declares its support with `m.validate_reward(x)`, which throws std::invalid_argument
// for x outside it; a model that declares none accepts every reward within the numeric
// contract (errors.hpp, bounds::reward). The contract applies to every model, declared support
// or not: the policies' sums and gradients rely on it, so a support can only narrow it.
// The built-in supports are written once here, for the model and its conjugate posterior alike.
//
// A model may also declare the interval its support spans, `M::reward_range()`: then every
// mean of its rewards lies in it too, which a restore checks each saved reward sum against
// (a Bernoulli arm's sum within [0, n]), since the sums are all a state keeps of the rewards
// of UCB-type and conjugate policies. The support alone cannot say it: a Poisson mean is rarely
// a whole number.
#include <cmath>
#include <limits>

#include "sabandit/concepts.hpp"
#include "sabandit/errors.hpp"

namespace sabandit::detail {

/// Bernoulli outcomes, and the fractional rewards of [0, 1] that Beta-Bernoulli TS takes as the
/// success probability of a Bernoulli trial (Agrawal & Goyal 2012): x in [0, 1].
inline void require_unit_interval_reward(double reward) {
  if (!(reward >= 0.0 && reward <= 1.0))
    throw_invalid("reward", reward, "must be in [0, 1] for Bernoulli rewards");
}

/// Poisson counts: a whole number in [0, 1e150] (bounds::reward). A fraction or a negative
/// number has no Poisson probability.
inline void require_count_reward(double reward) {
  if (!(reward >= 0.0 && reward <= bounds::reward && reward == std::floor(reward)))
    throw_invalid("reward", reward, "must be a whole number in [0, 1e150] for Poisson rewards");
}

/// Exponential durations: a number in (0, 1e150]. A duration of 0 has a finite likelihood, but
/// an arm whose rewards are all 0 has no maximum-likelihood mean and an improper Jeffreys
/// posterior: a clock that rounds short durations to 0 should record its resolution instead.
inline void require_positive_reward(double reward) {
  if (!(reward > 0.0 && reward <= bounds::reward))
    throw_invalid("reward", reward,
                  "must be in (0, 1e150] for exponential rewards (a duration; record a clock's "
                  "resolution for one that rounds to 0)");
}

/// The check every policy with a model runs on a reward before it changes anything: the
/// numeric contract (finite, |reward| <= 1e150) for a NaN or an infinity, whose message says
/// "finite" (a NaN is in no support, and "must be in [0, 1]" would hide what went wrong); then
/// the model's declared support, whose message is the more specific one for a finite reward
/// (2 is "not in [0, 1]"); then the contract's bound.
template <class Model>
void require_supported_reward(const Model& model, double reward) {
  if (!std::isfinite(reward)) require_reward(reward);
  if constexpr (SupportDeclaringModel<Model>) model.validate_reward(reward);
  require_reward(reward);
}

/// Whether `sum` can be the floating-point sum, in any order, of `count` rewards in `range`:
/// within [count lower, count upper] up to the rounding of its count - 1 additions, at most
/// count eps times the sum of the rewards' magnitudes (the bound arm_statistics.hpp uses,
/// Higham (4.4)). A sum of non-negative rewards is never negative: each rounding keeps its
/// sign.
[[nodiscard]] inline bool sum_in_range(double sum, double count, const reward_interval& range) {
  const double magnitude = std::fmax(std::fabs(range.lower), std::fabs(range.upper));
  const double rounding = count * std::numeric_limits<double>::epsilon() * count * magnitude;
  if (range.lower >= 0.0 && sum < 0.0) return false;
  return sum >= count * range.lower - rounding && sum <= count * range.upper + rounding;
}

}  // namespace sabandit::detail
