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

/// Whether k x is a double for every k <= count (a whole number up to 2^53): x = m 2^e with m
/// odd, and count |m| < 2^53. Then the running sum of `count` rewards each <= x is <= count x
/// with no rounding allowance: each partial sum is at most the double k x, and rounding is
/// monotone (1 for Bernoulli: its sums never exceed the count; 0 for every lower bound of 0).
[[nodiscard]] inline bool multiples_exact(double x, double count) {
  if (x == 0.0) return true;
  if (!std::isfinite(x)) return false;
  int exponent = 0;
  double odd = std::ldexp(std::frexp(std::fabs(x), &exponent), 53);  // a whole number < 2^53
  while (std::fmod(odd, 2.0) == 0.0) odd /= 2.0;
  return count * odd < 0x1p53;
}

/// Whether `sum` can be the floating-point running sum of `count` rewards in `range`: within
/// [count lower, count upper], exactly where those multiples are doubles (multiples_exact),
/// else up to the rounding of the count - 1 additions, at most count eps times the sum of the
/// rewards' magnitudes (the bound arm_statistics.hpp uses, Higham (4.4)). No rewards sum to +0;
/// a sum of non-negative rewards is never negative, not even -0 (0 + -0 is +0). An infinite
/// bound leaves its side open.
/// What else the range declares is exact too: a sum of whole numbers is a whole number (below
/// 2^53 the additions are exact; above it every double is whole), and a sum of positive
/// rewards is positive (a positive addend never rounds a positive sum to 0). Above a lower
/// bound other than 0 the sum can round onto count x lower, so there it is not checked.
[[nodiscard]] inline bool sum_in_range(double sum, double count, const reward_interval& range) {
  if (count == 0.0) return sum == 0.0 && !std::signbit(sum);
  if (range.lower >= 0.0 && std::signbit(sum)) return false;
  if (range.whole && std::isfinite(sum) && sum != std::floor(sum)) return false;
  if (range.lower_excluded && range.lower == 0.0 && !(sum > 0.0)) return false;
  const double magnitude = std::fmax(std::fabs(range.lower), std::fabs(range.upper));
  const double rounding = count * std::numeric_limits<double>::epsilon() * count * magnitude;
  const double lowest =
      count * range.lower - (multiples_exact(range.lower, count) ? 0.0 : rounding);
  const double highest =
      count * range.upper + (multiples_exact(range.upper, count) ? 0.0 : rounding);
  return sum >= lowest && sum <= highest;
}

}  // namespace sabandit::detail
