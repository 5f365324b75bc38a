#pragma once
// Bernoulli(p) variates from any URBG, as 0.0 or 1.0 (the reward type of the bandit code).

#include "sabandit/errors.hpp"
#include "sabandit/random/bits.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit {

/// 1.0 with probability p, else 0.0; p must be in [0, 1]. One engine call: 1.0 when
/// U < p for U uniform on the grid {0, 2^-53, ..., 1 - 2^-53} (uniform01), so the probability
/// is exactly ceil(p 2^53) 2^-53. That is p itself whenever p is a multiple of 2^-53 (every
/// double in [0.5, 1], and 0), and p rounded up by less than 2^-53 otherwise. p = 0 never gives
/// 1.0 and p = 1 always does.
template <uniform_random_bit_generator URBG>
[[nodiscard]] double bernoulli_variate(double p, URBG& gen) {
  if (!(p >= 0.0 && p <= 1.0)) detail::throw_invalid("p", p, "must be in [0, 1]");
  return uniform01(gen) < p ? 1.0 : 0.0;
}

}  // namespace sabandit
