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
// The contextual Langevin policies warm up by the same scans (contextual/policy_core.hpp,
// warm_up_selections), over their arms' pulls.
#include <algorithm>
#include <optional>

#include <Eigen/Core>

namespace sabandit::detail {

class warm_up {
 public:
  explicit warm_up(Eigen::Index pulls_per_arm) : pulls_per_arm_(pulls_per_arm) {}

  /// Whether every arm has its Omega `rewards` (and the policy's own rule decides). The first
  /// arm, from the cursor on, with fewer than `pass` rewards, the pass rising to Omega: counts
  /// only grow, so the cursor only moves forward within a pass (O(1) amortised).
  [[nodiscard]] bool over(const Eigen::ArrayXd& rewards) noexcept {
    return first_below(rewarded_, pulls_per_arm_, rewards, nullptr) < 0;
  }

  /// The arm the warm-up plays next, if it is not over: the first arm of least load, its
  /// `rewards` plus its selections `awaiting` theirs. It records nothing (a contextual policy
  /// checks the context before it records the arm as awaited).
  [[nodiscard]] std::optional<Eigen::Index> next(const Eigen::ArrayXd& rewards,
                                                 const Eigen::ArrayXd& awaiting) noexcept {
    if (over(rewards)) return std::nullopt;
    // Loads only grow too (a reward of an awaited selection leaves the load as it was), so the
    // same scan finds the least: every arm before the cursor has at least `pass` of it.
    return first_below(loaded_, -1, rewards, &awaiting);
  }

  /// next() for a policy's arm_statistics, recorded there as awaiting its reward.
  template <class Statistics>
  [[nodiscard]] std::optional<Eigen::Index> select(Statistics& stats) noexcept {
    const auto arm = next(stats.counts(), stats.awaiting());
    if (arm) stats.expect(*arm);
    return arm;
  }

 private:
  struct scan {
    Eigen::Index pass = 1;
    Eigen::Index cursor = 0;
  };

  // The first arm from s.cursor on whose rewards (plus, if given, awaited selections) are
  // below s.pass; when none is, the next pass is the least plus one (a restored state's counts
  // may be far above the pass: one pass at a time would take that many sweeps), up to pass
  // `last` (-1: no last pass); -1 past it. One function for both scans: a unit compiles it once.
  static Eigen::Index first_below(scan& s, Eigen::Index last, const Eigen::ArrayXd& rewards,
                                  const Eigen::ArrayXd* awaiting) noexcept {
    const Eigen::Index num_arms = rewards.size();
    // In integers: a load reaches 2^53 (a restore allows 2^52 rewards and 2^52 awaited), and
    // a pass of 2^53 + 1 compared as a double is 2^53, below which no load is: the scan looped
    // forever (a review's finding). Counts are whole doubles <= 2^53, so the conversion is exact.
    const auto value = [&](Eigen::Index a) {
      return static_cast<Eigen::Index>(awaiting ? rewards(a) + (*awaiting)(a) : rewards(a));
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
  scan loaded_;    // next(): rewards and awaited selections
};

}  // namespace sabandit::detail
