#pragma once
// The argmax of the contextual policies, with ties broken uniformly at random: greedy and
// LinUCB tie exactly at the start (every estimate 0, every LinUCB width alpha |x|), and a
// lowest-index rule would then play arm 0 until the data said otherwise.
#include <cstdint>
#include <random>

#include <Eigen/Core>

#include "sabandit/random/bits.hpp"
#include "sabandit/random/lemire32.hpp"

namespace sabandit::contextual {

/// A uniform index in [0, n), 1 <= n < 2^32, from one 64-bit word of `gen` (its low half;
/// more words only in the rare case that Lemire's exact test rejects it).
template <std::uniform_random_bit_generator URBG>
[[nodiscard]] Eigen::Index uniform_index(Eigen::Index n, URBG& gen) {
  const auto bound = static_cast<std::uint32_t>(n);
  const auto word = static_cast<std::uint32_t>(random_bits64(gen));
  return detail::lemire32_index(detail::lemire32_accept(word, bound, gen), bound);
}

/// argmax_a scores(a), a uniformly random one of the maximisers when several tie exactly.
/// Draws from `gen` only when there is a tie, so that a problem without ties consumes the
/// same stream whatever the tie rule.
template <std::uniform_random_bit_generator URBG>
[[nodiscard]] Eigen::Index argmax_random_ties(const Eigen::ArrayXd& scores, URBG& gen) {
  Eigen::Index best = 0, ties = 1;
  for (Eigen::Index a = 1; a < scores.size(); ++a) {
    if (scores(a) > scores(best)) {
      best = a;
      ties = 1;
    } else if (scores(a) == scores(best)) {
      ++ties;
    }
  }
  if (ties == 1) return best;
  Eigen::Index pick = uniform_index(ties, gen);
  for (Eigen::Index a = best;; ++a) {
    if (scores(a) == scores(best) && pick-- == 0) return a;
  }
}

}  // namespace sabandit::contextual
