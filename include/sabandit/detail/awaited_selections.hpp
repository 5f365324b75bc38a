#pragma once
// Per arm, the warm-up's selections whose rewards have not arrived: what lets a warm-up play
// round-robin when rewards arrive late (docs/delayed-feedback.md). Kept by the multi-armed
// policies' statistics (policies/common/arm_statistics.hpp) and by the contextual Langevin
// policies' warm-up (contextual/policy_core.hpp, warm_up_selections).
#include <Eigen/Core>

#include "sabandit/detail/vector_ops.hpp"
#include "sabandit/errors.hpp"

namespace sabandit::detail {

class awaited_selections {
 public:
  /// K arms, none awaited.
  explicit awaited_selections(Eigen::Index num_arms)
      : count_(filled<Eigen::ArrayXd>(num_arms, 0.0)) {}

  /// `arm` was selected in the warm-up: its reward is awaited.
  void expect(Eigen::Index arm) noexcept { count_(arm) += 1.0; }
  /// A reward of `arm` arrived: it answers one awaited selection, if any awaits (a reward of
  /// an arm awaiting none, logged data say, answers nothing).
  void answered(Eigen::Index arm) noexcept {
    if (count_(arm) > 0.0) count_(arm) -= 1.0;
  }
  /// Awaited selections of each arm (whole numbers, as doubles: they add to pull counts).
  [[nodiscard]] const Eigen::ArrayXd& counts() const noexcept { return count_; }

  /// The field `awaiting`, added after 0.2.0 (docs/state-format.md, "Versions", rule 2):
  /// written only while some selection awaits, so a state saved after each selection's reward
  /// is as before, and a state without it (or an older one) awaits none.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    if constexpr (Archive::reading) {
      if (ar.has("awaiting")) {
        ar("awaiting", self.count_, 0.0, bounds::restored_count);
        ar.require((self.count_ == self.count_.floor()).all(), "awaiting must be whole numbers");
      } else {
        self.count_ = filled<Eigen::ArrayXd>(self.count_.size(), 0.0);
      }
    } else if ((self.count_ > 0.0).any()) {
      ar("awaiting", self.count_);
    }
  }

 private:
  Eigen::ArrayXd count_;
};

}  // namespace sabandit::detail
