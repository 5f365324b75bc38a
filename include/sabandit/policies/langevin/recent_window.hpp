#pragma once
// Gradient source of TS-SA: the B most recent rewards of the arm (paper, Experiments remark:
// g = (1/m) sum_{i<m} grad log p(X_{n-i} | theta), m = min(n, B)). Constant memory, O(K B).
// One of the two gradient sources a Langevin chain is composed from (langevin/core.hpp);
// the other is TS-SGLD's uniform_minibatch.
#include <algorithm>
#include <limits>
#include <string>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/policies/langevin/reward_windows.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit::langevin {

/// TS-SA's gradient source: the B most recent rewards of each arm.
class recent_window {
 public:
  /// `capacity` is B >= 1 (validated by the caller, which names the parameter).
  recent_window(Eigen::Index capacity, Eigen::Index num_arms) : windows_(capacity, num_arms) {}

  /// Doubles allocated per arm: the window of B rewards, its sum, size and head.
  [[nodiscard]] static Eigen::Index doubles_per_arm(Eigen::Index capacity) noexcept {
    return capacity > std::numeric_limits<Eigen::Index>::max() - 3 ? capacity : capacity + 3;
  }
  /// Doubles allocated for all arms together: none.
  [[nodiscard]] static Eigen::Index shared_doubles(Eigen::Index /*capacity*/) noexcept {
    return 0;
  }

  /// The windows themselves, for inspection (constant memory can be checked on them).
  [[nodiscard]] const reward_windows& windows() const noexcept { return windows_; }

  /// The source's name in the type of a saved state (ts_sa<..., uniform_minibatch>).
  [[nodiscard]] static std::string state_name() { return "recent_window"; }
  /// Saves or restores the windows (state/persist.hpp).
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    ar.nest("windows", [&] { reward_windows::persist(self.windows_, ar); });
  }
  /// Whether the window of `arm` holds what `pulls` pulls leave in it: min(pulls, B) rewards.
  [[nodiscard]] bool holds(Eigen::Index arm, Eigen::Index pulls) const noexcept {
    return windows_.size(arm) == std::min(pulls, windows_.capacity());
  }

  /// The rewards a warm start fits: the window at the end of the warm-up.
  [[nodiscard]] auto rewards(Eigen::Index arm) const noexcept { return windows_.rewards(arm); }

  /// Records a reward; `undo` takes it back when a later step of the same update fails.
  void record(Eigen::Index arm, double reward) noexcept { windows_.push(arm, reward); }
  /// What one record() changes, for undo().
  using undo_record = reward_windows::undo_record;
  /// The state that the next record(arm, x) will change.
  [[nodiscard]] undo_record before_record(Eigen::Index arm) const noexcept {
    return windows_.before_push(arm);
  }
  /// Undoes the record() since before_record().
  void undo(Eigen::Index arm, const undo_record& saved) noexcept { windows_.undo(arm, saved); }

  /// The mean log-likelihood gradient over the window at `theta`. Deterministic: the engine is
  /// not used. Sufficient-statistics models read the running sum: O(d), not O(B d).
  /// The vectors are any Eigen vectors (fixed-size views in the d = 1 path).
  template <RewardModel Model, class Phi, class Theta, class Grad,
            uniform_random_bit_generator URBG>
  void gradient(const Model& model, Eigen::Index arm, const Phi& phi, const Theta& theta,
                Grad&& grad, URBG& /*gen*/) {
    if constexpr (WindowMeanRewardModel<Model>) {
      model.grad_log_likelihood_at_mean(windows_.mean(arm), phi, theta, grad);
    } else {
      model.grad_log_likelihood(windows_.rewards(arm), phi, theta, grad);
    }
  }

 private:
  reward_windows windows_;
};

}  // namespace sabandit::langevin
