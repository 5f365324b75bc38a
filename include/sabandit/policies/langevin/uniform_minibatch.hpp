#pragma once
// Gradient source of TS-SGLD (Mazumdar et al. 2020; paper, appendix "Baseline
// Implementation"): each arm keeps its whole reward history, and a gradient is the mean
// log-likelihood gradient on `batch_size` rewards drawn uniformly, with replacement, from it.
// Memory grows with the pulls: that is the baseline's defining cost (Table 1).
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/random/bits.hpp"

namespace sabandit::langevin {

/// TS-SGLD's gradient source: uniform mini-batches of each arm's whole history.
class uniform_minibatch {
 public:
  /// `batch_size` >= 1 (validated by the caller, which names the parameter).
  uniform_minibatch(Eigen::Index batch_size, Eigen::Index num_arms)
      : history_(static_cast<std::size_t>(num_arms)), batch_(batch_size) {}

  /// Rewards per mini-batch.
  [[nodiscard]] Eigen::Index batch_size() const noexcept { return batch_.size(); }

  /// Doubles allocated per arm at construction: an empty history (3 words). The history then
  /// grows with the pulls, one double each; a failed growth throws std::bad_alloc and changes
  /// nothing.
  [[nodiscard]] static Eigen::Index doubles_per_arm(Eigen::Index /*batch_size*/) noexcept {
    return 3;
  }
  /// Doubles allocated for all arms together: the mini-batch scratch.
  [[nodiscard]] static Eigen::Index shared_doubles(Eigen::Index batch_size) noexcept {
    return batch_size;
  }

  /// Arm a's whole history, as an Eigen view (also what a warm start fits).
  [[nodiscard]] Eigen::Map<const Eigen::VectorXd> rewards(Eigen::Index arm) const noexcept {
    const auto& r = history_[static_cast<std::size_t>(arm)];
    return {r.data(), static_cast<Eigen::Index>(r.size())};
  }

  /// Appends a reward (strong guarantee: a failed allocation changes nothing); `restore`
  /// removes it again when a later step of the same update fails.
  void record(Eigen::Index arm, double reward) {
    history_[static_cast<std::size_t>(arm)].push_back(reward);
  }
  /// What one record() changes, for restore().
  struct checkpoint {
    /// The history's length before the record().
    std::size_t size;
  };
  /// The state that the next record(arm, x) will change.
  [[nodiscard]] checkpoint save(Eigen::Index arm) const noexcept {
    return {history_[static_cast<std::size_t>(arm)].size()};
  }
  /// Undoes a record() since save().
  void restore(Eigen::Index arm, const checkpoint& saved) {
    history_[static_cast<std::size_t>(arm)].resize(saved.size);
  }

  /// Saves or restores every arm's history (state/persist.hpp).
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    for (std::size_t a = 0; a < self.history_.size(); ++a)
      ar("history." + std::to_string(a), self.history_[a]);
  }
  /// Whether the history of `arm` holds what `pulls` pulls leave in it: every reward.
  [[nodiscard]] bool holds(Eigen::Index arm, Eigen::Index pulls) const noexcept {
    return history_[static_cast<std::size_t>(arm)].size() == static_cast<std::size_t>(pulls);
  }

  /// The mini-batch gradient at `theta`: batch_size uniform indices into the history. For
  /// sufficient-statistics models only the batch's sum is formed (no gather into scratch).
  template <RewardModel Model, std::uniform_random_bit_generator URBG>
  void gradient(const Model& model, Eigen::Index arm, const vector_cref& phi,
                const vector_cref& theta, vector_ref grad, URBG& gen) {
    const auto& rewards = history_[static_cast<std::size_t>(arm)];
    const auto n = static_cast<std::uint64_t>(rewards.size());
    if constexpr (WindowMeanRewardModel<Model>) {
      double sum = 0.0;
      for (Eigen::Index i = 0; i < batch_.size(); ++i) sum += rewards[uniform_index(gen, n)];
      model.grad_log_likelihood_at_mean(sum / static_cast<double>(batch_.size()), phi, theta,
                                        grad);
    } else {
      for (Eigen::Index i = 0; i < batch_.size(); ++i) batch_(i) = rewards[uniform_index(gen, n)];
      model.grad_log_likelihood(batch_, phi, theta, grad);
    }
  }

 private:
  std::vector<std::vector<double>> history_;
  Eigen::VectorXd batch_;  // gather scratch of the generic path, kept so a round allocates nothing
};

}  // namespace sabandit::langevin
