#pragma once
// A K-armed environment built from one reward distribution per arm.
#include <algorithm>
#include <vector>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/envs/arms.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit {

namespace detail {
/// Checks that a gap setting's means best - gap (and, for the paper's MGR, best + gap) are
/// finite and differ from best: a gap lost in best's rounding made every arm the same
/// (make_bernoulli_gap(3, 0.9, 1e-300)), and one past the largest double named an arm's
/// "mean = -inf" (a probe's findings). std::invalid_argument naming gap.
inline void require_gap_applies(double best, double gap, bool both_sides) {
  const double below = best - gap;
  if (!std::isfinite(below) || (both_sides && !std::isfinite(best + gap)))
    throw_invalid("gap", gap,
                  "takes best = " + value_text(best) + " past the largest double; shrink it");
  if (below == best)
    throw_invalid("gap", gap,
                  "is lost in the rounding of best = " + value_text(best) +
                      ": every arm would have the same mean");
}
}  // namespace detail

/// What an arm distribution provides: its mean and a draw from any engine.
template <class A>
concept ArmDistribution = std::copy_constructible<A> && requires(const A& arm, default_engine& gen) {
  { arm.mean() } -> std::convertible_to<double>;
  { arm(gen) } -> std::convertible_to<double>;
};

/// A K-armed bandit whose arm a draws its rewards from `arms[a]`; models Environment.
/// The arms are values, so an environment is cheap to copy and the same for every trial:
/// the randomness lives in the engine the caller passes to pull().
template <ArmDistribution Arm>
class bandit_env {
 public:
  /// Takes the arms, arm a at index a; throws std::invalid_argument when there is none.
  explicit bandit_env(std::vector<Arm> arms) : arms_(std::move(arms)) {
    detail::require_at_least<Eigen::Index>("num_arms", num_arms(), 1);
    best_mean_ = arms_.front().mean();
    for (const auto& arm : arms_) best_mean_ = std::max(best_mean_, arm.mean());
  }

  /// K, the number of arms.
  [[nodiscard]] Eigen::Index num_arms() const noexcept {
    return static_cast<Eigen::Index>(arms_.size());
  }
  /// Arm a's expected reward; throws std::out_of_range for an arm not in [0, K).
  [[nodiscard]] double mean(Eigen::Index arm) const { return at(arm).mean(); }
  /// The largest mean, kept so that regret costs no pass over the arms per round.
  [[nodiscard]] double best_mean() const noexcept { return best_mean_; }
  /// mean_best - mean_a: the pseudo-regret of one pull of arm a.
  [[nodiscard]] double gap(Eigen::Index arm) const { return best_mean_ - mean(arm); }

  /// One reward of arm a drawn with `gen`; the simulator passes arm a's own stream, which is
  /// what makes the k-th pull of an arm the same for every policy (common random numbers).
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double pull(Eigen::Index arm, URBG& gen) const {
    return at(arm)(gen);
  }

  /// The distribution of arm `index`, e.g. to print the setting; throws std::out_of_range.
  [[nodiscard]] const Arm& arm(Eigen::Index index) const { return at(index); }

 private:
  const Arm& at(Eigen::Index arm) const {
    detail::require_arm(arm, num_arms());
    return arms_[static_cast<std::size_t>(arm)];
  }

  std::vector<Arm> arms_;
  double best_mean_ = 0.0;
};

static_assert(Environment<bandit_env<normal_arm>>);

}  // namespace sabandit
