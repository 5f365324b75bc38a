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
  /// arm, from the cursor on, with fewer than `pass` rewards, pass = 1, 2, ..., Omega: counts
  /// only grow, so the cursor only moves forward within a pass (O(1) amortised).
  [[nodiscard]] bool over(const arm_statistics& stats) noexcept {
    return !first_below(rewarded_, pulls_per_arm_, stats, [&](Eigen::Index a) {
      return stats.count(a);
    });
  }

  /// The arm the warm-up plays next, if it is not over: the first arm of least load (rewards
  /// plus awaited selections), which it records as awaiting its reward.
  [[nodiscard]] std::optional<Eigen::Index> select(arm_statistics& stats) noexcept {
    if (over(stats)) return std::nullopt;
    // Loads only grow too (a reward of an awaited selection leaves the load as it was), so the
    // same scan finds the least: every arm before the cursor has at least `pass` of it.
    const auto arm = first_below(loaded_, -1, stats, [&](Eigen::Index a) {
      return stats.count(a) + stats.awaiting(a);
    });
    stats.expect(*arm);
    return arm;
  }

  /// Whether `arm` has had all its warm-up pulls.
  [[nodiscard]] bool done(const arm_statistics& stats, Eigen::Index arm) const noexcept {
    return stats.count(arm) >= static_cast<double>(pulls_per_arm_);
  }

 private:
  struct scan {
    Eigen::Index pass = 1;
    Eigen::Index cursor = 0;
  };

  // The first arm from s.cursor on whose value is below s.pass; when none is, the next pass is
  // the least value plus one (a restored state's values may be far above the pass: one pass at
  // a time would take that many sweeps), up to pass `last` (-1: no last pass); none past it.
  template <class Value>
  static std::optional<Eigen::Index> first_below(scan& s, Eigen::Index last,
                                                 const arm_statistics& stats, Value&& value) {
    const Eigen::Index num_arms = stats.num_arms();
    while (last < 0 || s.pass <= last) {
      while (s.cursor < num_arms && value(s.cursor) >= static_cast<double>(s.pass)) ++s.cursor;
      if (s.cursor < num_arms) return s.cursor;
      double least = value(0);
      for (Eigen::Index a = 1; a < num_arms; ++a) least = std::min(least, value(a));
      s.cursor = 0;
      s.pass = static_cast<Eigen::Index>(least) + 1;  // whole numbers <= 2^53: exact
    }
    return std::nullopt;
  }

  Eigen::Index pulls_per_arm_;
  scan rewarded_;  // over(): rewards
  scan loaded_;    // select(): rewards and awaited selections
};

}  // namespace sabandit::detail
