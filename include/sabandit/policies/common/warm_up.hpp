#pragma once
// The warm-up every policy begins with: each arm is pulled `pulls_per_arm` times, round-robin
// in index order (0, 1, ..., K-1, 0, 1, ...), before the policy's own rule decides (the paper's
// Omega; 1 for UCB and TS, where it is the textbook "pull every arm once first").
//
// Rewards may arrive late: a service selects for a batch of requests, or a click is known only
// minutes later. The warm-up therefore counts an arm's selections still awaiting their reward
// (arm_statistics::awaiting) with its rewards, its "load", and plays the first arm of least
// load: a batch of K selections before any reward covers every arm once, where counting rewards
// alone played arm 0 until its first reward came. When each select() is followed by its
// update() the load is the count, so the order is the one the paper's experiments use. The
// warm-up ends when every arm has Omega rewards; until then, with selections still awaited,
// it goes on round-robin (no policy's own rule can score an arm without a reward).
#include <algorithm>
#include <optional>

#include <Eigen/Core>

#include "sabandit/policies/common/arm_statistics.hpp"

namespace sabandit::detail {

class warm_up {
 public:
  explicit warm_up(Eigen::Index pulls_per_arm) : pulls_per_arm_(pulls_per_arm) {}

  [[nodiscard]] Eigen::Index pulls_per_arm() const noexcept { return pulls_per_arm_; }

  /// Whether every arm has its Omega rewards (and the policy's own rule decides). The first
  /// arm, from the cursor on, with fewer than `pass` rewards, the pass rising to Omega: counts
  /// only grow, so the cursor only moves forward within a pass (O(1) amortised).
  [[nodiscard]] bool over(const arm_statistics& stats) noexcept {
    return first_below(rewarded_, pulls_per_arm_, stats, false) < 0;
  }

  /// The arm the warm-up plays next, if it is not over: the first arm of least load (rewards
  /// plus awaited selections), which it records as awaiting its reward.
  [[nodiscard]] std::optional<Eigen::Index> select(arm_statistics& stats) noexcept {
    if (over(stats)) return std::nullopt;
    // Loads only grow too (a reward of an awaited selection leaves the load as it was), so the
    // same scan finds the least: every arm before the cursor has at least `pass` of it.
    const Eigen::Index arm = first_below(loaded_, -1, stats, true);
    stats.expect(arm);
    return arm;
  }

 private:
  struct scan {
    Eigen::Index pass = 1;
    Eigen::Index cursor = 0;
  };

  // The first arm from s.cursor on whose rewards (and, `loaded`, awaited selections) are below
  // s.pass; when none is, the next pass is the least plus one (a restored state's counts may be
  // far above the pass: one pass at a time would take that many sweeps), up to pass `last`
  // (-1: no last pass); -1 past it. One function for both scans: a unit compiles it once.
  static Eigen::Index first_below(scan& s, Eigen::Index last, const arm_statistics& stats,
                                  bool loaded) noexcept {
    const Eigen::Index num_arms = stats.num_arms();
    // In integers: a load reaches 2^53 (a restore allows 2^52 rewards and 2^52 awaited), and
    // a pass of 2^53 + 1 compared as a double is 2^53, below which no load is: the scan looped
    // forever (a review's finding). Counts are whole doubles <= 2^53, so the conversion is exact.
    const auto value = [&](Eigen::Index a) {
      return static_cast<Eigen::Index>(loaded ? stats.count(a) + stats.awaiting(a)
                                              : stats.count(a));
    };
    while (last < 0 || s.pass <= last) {
      while (s.cursor < num_arms && value(s.cursor) >= s.pass) ++s.cursor;
      if (s.cursor < num_arms) return s.cursor;
      Eigen::Index least = value(0);
      for (Eigen::Index a = 1; a < num_arms; ++a) least = std::min(least, value(a));
      s.cursor = 0;
      s.pass = least + 1;
    }
    return -1;
  }

  Eigen::Index pulls_per_arm_;
  scan rewarded_;  // over(): rewards
  scan loaded_;    // select(): rewards and awaited selections
};

}  // namespace sabandit::detail
