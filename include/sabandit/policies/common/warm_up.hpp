#pragma once
// The warm-up every policy begins with: each arm is pulled `pulls_per_arm` times, round-robin
// in index order (0, 1, ..., K-1, 0, 1, ...), before the policy's own rule decides (the paper's Omega; 1 for UCB and TS, where it
// is the textbook "pull every arm once first").
#include <optional>

#include <Eigen/Core>

#include "sabandit/policies/common/arm_statistics.hpp"

namespace sabandit::detail {

class warm_up {
 public:
  explicit warm_up(Eigen::Index pulls_per_arm) : pulls_per_arm_(pulls_per_arm) {}

  [[nodiscard]] Eigen::Index pulls_per_arm() const noexcept { return pulls_per_arm_; }

  /// The next arm still short of its warm-up pulls, if any: the first arm, from the cursor on,
  /// with fewer than `pass` pulls, where pass = 1, 2, ..., Omega. Counts only grow, so the
  /// cursor only moves forward within a pass: O(1) amortised, and O(1) once warm-up is over.
  [[nodiscard]] std::optional<Eigen::Index> pending(const arm_statistics& stats) noexcept {
    while (pass_ <= pulls_per_arm_) {
      while (cursor_ < stats.num_arms() && stats.count(cursor_) >= static_cast<double>(pass_)) {
        ++cursor_;
      }
      if (cursor_ < stats.num_arms()) return cursor_;
      cursor_ = 0;
      ++pass_;
    }
    return std::nullopt;
  }

  /// Whether `arm` has had all its warm-up pulls.
  [[nodiscard]] bool done(const arm_statistics& stats, Eigen::Index arm) const noexcept {
    return stats.count(arm) >= static_cast<double>(pulls_per_arm_);
  }

 private:
  Eigen::Index pulls_per_arm_;
  Eigen::Index pass_ = 1;
  Eigen::Index cursor_ = 0;
};

}  // namespace sabandit::detail
