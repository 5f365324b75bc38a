#pragma once
// Gradient source of TS-SGLD (Mazumdar et al. 2020; paper, appendix "Baseline
// Implementation"): each arm keeps its whole reward history, and a gradient is the mean
// log-likelihood gradient on `batch_size` rewards drawn uniformly, with replacement, from it.
// Memory grows with the pulls: that is the baseline's defining cost (Table 1).
//
// A round's mini-batches are drawn in one block (begin_round; rounds of more than max_block
// indices keep the scalar path): K x N x batch_size uniform
// indices from a multi-lane engine (random/lanes.hpp) keyed by one word of the caller's engine,
// Lemire-mapped on 32-bit values, then gathered arm by arm with four partial sums
// (kernels/minibatch_sum.hpp). The per-arm scalar draw (uniform_index on the caller's engine,
// one 64-bit word an index) remains as the fallback for a gradient asked outside a round, and
// is what the tests compare the block's mini-batch law with. Both give each mini-batch B
// independent uniform picks from the history; only the numbers differ.
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/detail/compiler.hpp"
#include "sabandit/kernels/minibatch_sum.hpp"
#include "sabandit/random/bits.hpp"
#include "sabandit/random/engine.hpp"
#include "sabandit/random/lanes.hpp"
#include "sabandit/random/lemire32.hpp"

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

  /// Appends a reward (strong guarantee: a failed allocation changes nothing); `undo`
  /// removes it again when a later step of the same update fails.
  void record(Eigen::Index arm, double reward) {
    history_[static_cast<std::size_t>(arm)].push_back(reward);
  }
  /// What one record() changes, for undo().
  struct undo_record {
    /// The history's length before the record().
    std::size_t size;
  };
  /// The state that the next record(arm, x) will change.
  [[nodiscard]] undo_record before_record(Eigen::Index arm) const noexcept {
    return {history_[static_cast<std::size_t>(arm)].size()};
  }
  /// Undoes the record() since before_record().
  void undo(Eigen::Index arm, const undo_record& saved) {
    history_[static_cast<std::size_t>(arm)].resize(saved.size);
  }

  /// The source's name in the type of a saved state (ts_sa<..., uniform_minibatch>).
  [[nodiscard]] static std::string state_name() { return "uniform_minibatch"; }
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

  /// Most 32-bit indices a round draws in one block: 2^24 (64 MiB of scratch), above any
  /// realistic K x N x B (K = 1000 arms, N = 10 steps, batches of 1024 need 2^23.3), so that
  /// the block's memory is bounded whatever N and the batch size, and K x N x B cannot
  /// overflow. A larger round draws every mini-batch on the scalar path (other numbers, the
  /// same law; slower).
  static constexpr std::size_t max_block = std::size_t{1} << 24;

  /// Draws the mini-batches of a round at once: `steps` for every arm, each of batch_size
  /// indices into the arm's history as it is now, all from one block of the lane engine keyed
  /// by one word of `gen`. The next `steps` gradient() calls of each arm use them, in order;
  /// the scratch grows to K x steps x batch_size 32-bit indices on the first round (std::bad_alloc
  /// leaves the source unchanged). Arms with an empty history or more than 2^32 - 1 rewards
  /// keep the scalar path, and so does every arm when the block would exceed max_block
  /// indices (then nothing is drawn from `gen` here).
  template <uniform_random_bit_generator URBG>
  void begin_round(Eigen::Index steps, URBG& gen) {
    const auto arms = history_.size();
    std::size_t per_arm = 0, block = 0;
    if (detail::mul_overflow(static_cast<std::size_t>(steps),
                             static_cast<std::size_t>(batch_.size()), &per_arm) ||
        detail::mul_overflow(arms, per_arm, &block) || block > max_block) {
      rounds_.clear();  // every gradient() of this round draws on the scalar path
      return;
    }
    if (raw_.size() != block || rounds_.size() != arms) {
      raw_.resize(block);  // may throw: before anything changed
      rounds_.resize(arms);
    }
    lanes_ = xoshiro256pp_lanes<>(random_bits64(gen));
    lanes_.fill(std::span(raw_));
    for (std::size_t a = 0; a < arms; ++a) {
      const auto n = history_[a].size();
      const bool blocked = n != 0 && n <= std::numeric_limits<std::uint32_t>::max();
      rounds_[a] = {blocked ? n : 0, 0, static_cast<std::size_t>(steps)};
    }
  }

  /// The mini-batch gradient at `theta`: batch_size uniform indices into the history, those of
  /// begin_round while the arm has some left (and its history has not changed), else drawn
  /// here from `gen`. For sufficient-statistics models only the batch's sum is formed (no
  /// gather into scratch).
  /// The vectors are any Eigen vectors (fixed-size views in TS-SGLD's d = 1 path).
  template <RewardModel Model, class Phi, class Theta, class Grad,
            uniform_random_bit_generator URBG>
  void gradient(const Model& model, Eigen::Index arm, const Phi& phi, const Theta& theta,
                Grad&& grad, URBG& gen) {
    const auto& rewards = history_[static_cast<std::size_t>(arm)];
    std::uint32_t* picks = next_block(arm, rewards.size());
    if constexpr (WindowMeanRewardModel<Model>) {
      const double sum = picks != nullptr ? block_sum(rewards, picks) : scalar_sum(rewards, gen);
      model.grad_log_likelihood_at_mean(sum / static_cast<double>(batch_.size()), phi, theta,
                                        grad);
    } else {
      if (picks != nullptr) {
        block_gather(rewards, picks);
      } else {
        const auto n = static_cast<std::uint64_t>(rewards.size());
        for (Eigen::Index i = 0; i < batch_.size(); ++i)
          batch_(i) = rewards[uniform_index(gen, n)];
      }
      model.grad_log_likelihood(batch_, phi, theta, grad);
    }
  }

 private:
  // Where an arm is in the round drawn by begin_round.
  struct round_state {
    std::size_t history;  // the history's length the indices were drawn for; 0: none drawn
    std::size_t used;     // mini-batches of the round already used
    std::size_t steps;    // mini-batches drawn
  };

  // The arm's next mini-batch of the round (its raw 32-bit values), or nullptr when the scalar
  // path must draw one.
  std::uint32_t* next_block(Eigen::Index arm, std::size_t history) noexcept {
    if (rounds_.empty()) return nullptr;
    auto& round = rounds_[static_cast<std::size_t>(arm)];
    if (round.history != history || round.history == 0 || round.used == round.steps)
      return nullptr;
    const auto batch = static_cast<std::size_t>(batch_.size());
    return raw_.data() + (static_cast<std::size_t>(arm) * round.steps + round.used++) * batch;
  }

  // Applies `use(i, index)` to the mini-batch's picks, mapping the raw values by Lemire's
  // multiply-shift as it goes; returns false, having done nothing exact yet, when some value
  // needs the exact test. Then the values are made exact in place (redraws from the round's
  // lanes, in order) and the caller runs it again.
  template <class Use>
  bool map_picks(const std::uint32_t* picks, std::uint32_t n, Use&& use) const noexcept {
    std::uint32_t suspect = 0;
    for (std::size_t i = 0; i < static_cast<std::size_t>(batch_.size()); ++i)
      use(i, detail::lemire32_map(picks[i], n, suspect));
    return suspect == 0;
  }
  void make_exact(std::uint32_t* picks, std::uint32_t n) noexcept {
    for (std::size_t i = 0; i < static_cast<std::size_t>(batch_.size()); ++i)
      picks[i] = detail::lemire32_accept(picks[i], n, lanes_);
  }

  // The sum of the picked rewards (kernels/minibatch_sum.hpp: four partial sums in a fixed
  // association, the same bits on every instruction set).
  [[nodiscard]] double block_sum(const std::vector<double>& rewards, std::uint32_t* picks) {
    const auto n = static_cast<std::uint32_t>(rewards.size());
    const auto batch = static_cast<std::size_t>(batch_.size());
    auto result = minibatch_sum(rewards.data(), picks, batch, n);
    if (result.suspect) {  // rare: make every value pass the exact test, then sum them again
      make_exact(picks, n);
      result = minibatch_sum(rewards.data(), picks, batch, n);
    }
    return result.sum;
  }
  void block_gather(const std::vector<double>& rewards, std::uint32_t* picks) {
    const auto n = static_cast<std::uint32_t>(rewards.size());
    const auto put = [&](std::size_t i, std::uint32_t index) {
      batch_(static_cast<Eigen::Index>(i)) = rewards[index];
    };
    if (!map_picks(picks, n, put)) {
      make_exact(picks, n);
      map_picks(picks, n, put);
    }
  }

  // The scalar path: one 64-bit Lemire draw from the caller's engine per pick.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double scalar_sum(const std::vector<double>& rewards, URBG& gen) const {
    const auto n = static_cast<std::uint64_t>(rewards.size());
    double sum = 0.0;
    for (Eigen::Index i = 0; i < batch_.size(); ++i) sum += rewards[uniform_index(gen, n)];
    return sum;
  }

  std::vector<std::vector<double>> history_;
  Eigen::VectorXd batch_;  // gather scratch of the generic path, kept so a round allocates nothing
  std::vector<std::uint32_t> raw_;    // the round's mini-batches, 32-bit values: arm, then step
  std::vector<round_state> rounds_;   // per arm: its place in the round
  xoshiro256pp_lanes<> lanes_;        // the round's lanes, for the rare exact redraws
};

}  // namespace sabandit::langevin
