#pragma once
// UCB1 (Auer et al. 2002) as the paper's appendix writes it: play
//   argmax_a  mean_a + tau * sqrt(2 ln t / n_a),
// t the current round (1-based), n_a the pulls of arm a. tau, `bonus_scale`, multiplies the
// exploration bonus (tau = 1 is textbook UCB1 for rewards of unit scale): a standard deviation's
// scale, hence not called `temperature`, the name of a *variance* factor in every sampling
// policy (thompson, epsilon_ts, ts_sa, ts_sgld). Version 0.2 called it `temperature` here too.
#include <cmath>
#include <string>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/detail/vector_ops.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/policies/common/arm_statistics.hpp"
#include "sabandit/policies/common/gaussian_scores.hpp"
#include "sabandit/policies/common/warm_up.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit {

/// UCB1 with a bonus scale: the deterministic baseline of the paper's experiments; models
/// Policy. A regular value: a copy is a checkpoint.
class ucb {
 public:
  /// UCB's parameters, an aggregate for designated initialisers: `ucb(K, {.bonus_scale = 0.5})`.
  struct params {
    /// tau in [1e-100, 1e100]: multiplies the exploration bonus (on the reward's scale, like a
    /// standard deviation; the sampling policies' `temperature` multiplies a variance).
    double bonus_scale = 1.0;
    /// Pulls of every arm before the index is used (>= 1).
    Eigen::Index warmup = 1;
  };

  /// K arms with the default parameters.
  explicit ucb(Eigen::Index num_arms) : ucb(num_arms, params{}) {}

  /// Throws std::invalid_argument naming the parameter and its value unless K >= 1,
  /// bonus_scale is in [1e-100, 1e100] and warmup >= 1; std::length_error if K is beyond
  /// bounds::state_doubles.
  ucb(Eigen::Index num_arms, const params& p)
      : params_(validated(num_arms, p)),
        stats_(num_arms),
        warm_up_(p.warmup),
        means_(detail::filled<Eigen::ArrayXd>(num_arms, 0.0)),
        bonus_shape_(detail::filled<Eigen::ArrayXd>(num_arms, 0.0)),
        scores_(num_arms) {}

  /// K, the number of arms.
  [[nodiscard]] Eigen::Index num_arms() const noexcept { return stats_.num_arms(); }
  /// The parameters in use, e.g. to print them beside a result.
  [[nodiscard]] const params& parameters() const noexcept { return params_; }

  /// O(K) and one logarithm and one square root a round: the arm-dependent part of the bonus,
  /// sqrt(2 / n_a), is cached at update time. The engine is not used (UCB is deterministic).
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(URBG& /*gen*/) {
    if (const auto arm = warm_up_.select(stats_)) return *arm;
    const double round = static_cast<double>(stats_.total() + 1);
    const double scale = params_.bonus_scale * std::sqrt(std::log(round));
    scores_ = means_ + scale * bonus_shape_;
    return detail::argmax(scores_);
  }

  /// Records one reward in O(1). Strong guarantee: an arm outside [0, K) (std::out_of_range)
  /// or a reward that is not finite or beyond |reward| <= 1e150 (std::invalid_argument) throws before anything changes.
  template <uniform_random_bit_generator URBG>
  void update(Eigen::Index arm, double reward, URBG& /*gen*/) {
    detail::require_arm(arm, num_arms());
    detail::require_reward(reward);
    stats_.add(arm, reward);
    cache(arm);
  }

  /// Pulls and reward means per arm (`count(a)`, `mean(a)`), what the index is built from.
  [[nodiscard]] const arm_statistics& statistics() const noexcept { return stats_; }

  /// "ucb", the type in a saved state's header.
  [[nodiscard]] static std::string state_name() { return "ucb"; }
  /// The saved fields (state/persist.hpp): K, the parameters, the statistics. The means and
  /// bonus shapes are rebuilt from the statistics as update() computes them.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    Eigen::Index num_arms = self.num_arms();
    params p = self.params_;
    ar("num_arms", num_arms);
    ar.require_backed("num_arms", num_arms, 2);  // its counts and sums follow
    ar.renamed("bonus_scale", "temperature", p.bonus_scale);  // "temperature" in 0.2
    ar("warmup", p.warmup);
    if constexpr (Archive::reading) self = ucb(num_arms, p);
    ar.nest("statistics", [&] { arm_statistics::persist(self.stats_, ar); });
    if constexpr (Archive::reading) {
      for (Eigen::Index a = 0; a < num_arms; ++a)
        if (self.stats_.count(a) > 0.0) self.cache(a);
    }
  }

 private:
  static params validated(Eigen::Index num_arms, const params& p) {
    detail::require_at_least<Eigen::Index>("num_arms", num_arms, 1);
    detail::require_state_size("ucb", num_arms, 7);
    detail::require_scale("bonus_scale", p.bonus_scale);
    detail::require_at_least<Eigen::Index>("warmup", p.warmup, 1);
    return p;
  }

  // The arm-dependent parts of the index, from the statistics.
  void cache(Eigen::Index arm) {
    means_(arm) = stats_.mean(arm);
    bonus_shape_(arm) = std::sqrt(2.0 / stats_.count(arm));
  }

  params params_;
  arm_statistics stats_;
  detail::warm_up warm_up_;
  Eigen::ArrayXd means_;
  Eigen::ArrayXd bonus_shape_;
  Eigen::ArrayXd scores_;  // scratch, kept so that a round allocates nothing
};

static_assert(Policy<ucb>);

}  // namespace sabandit
