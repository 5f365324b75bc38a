#pragma once
// The argmax of the contextual policies, with ties broken uniformly at random: greedy and
// LinUCB tie exactly at the start (every estimate 0, every LinUCB width alpha |x|), and a
// lowest-index rule would then play arm 0 until the data said otherwise.
#include <cstdint>

#include <Eigen/Core>

#include "sabandit/random/bits.hpp"
#include "sabandit/random/engine.hpp"
#include "sabandit/random/lemire32.hpp"

// In sabandit::detail, not a contextual::detail (contextual/simulate.hpp says why).
namespace sabandit::detail {
/// A uniform index in [0, n), n >= 1, from one 64-bit word of `gen` (its low half, by
/// Lemire's exact 32-bit method: more words only when its test rejects), the contextual
/// policies' draw of an arm, a tie or a history slot. A count of 2^32 or more (a contextual
/// TS-SGLD history that long, over 32 GiB of pairs, which nothing else bounds) takes
/// sabandit::uniform_index's 64-bit draw instead: as a 32-bit bound it would wrap, to a smaller
/// range that never reaches the newest entries, or for a multiple of 2^32 to 0, a division by
/// zero in Lemire's test. Count first, engine second is this helper's order, not the public
/// uniform_index(gen, n)'s: it is not for users.
template <uniform_random_bit_generator URBG>
[[nodiscard]] Eigen::Index index_below(Eigen::Index n, URBG& gen) {
  if (n < 1 || n > Eigen::Index{0xFFFFFFFF})
    return static_cast<Eigen::Index>(sabandit::uniform_index(gen, n));  // throws for n < 1
  const auto bound = static_cast<std::uint32_t>(n);
  const auto word = static_cast<std::uint32_t>(random_bits64(gen));
  return lemire32_index(lemire32_accept(word, bound, gen), bound);
}
}  // namespace sabandit::detail

namespace sabandit::contextual {

/// argmax_a scores(a), a uniformly random one of the maximisers when several tie exactly.
/// Draws from `gen` only when there is a tie, so that a problem without ties consumes the
/// same stream whatever the tie rule.
template <uniform_random_bit_generator URBG>
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
  Eigen::Index pick = detail::index_below(ties, gen);
  for (Eigen::Index a = best;; ++a) {
    if (scores(a) == scores(best) && pick-- == 0) return a;
  }
}

}  // namespace sabandit::contextual
