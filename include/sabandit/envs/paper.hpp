#pragma once
// The two reward settings of the paper's Experiments section.
//  SGR: the optimal arm's rewards are N(3, 1), the other K - 1 arms' N(3 - gap, 1).
//  MGR: the optimal arm's rewards are 1/2 N(3, 1) + 1/2 N(3 + gap, 1), the others'
//       1/2 N(3 - gap, 1) + 1/2 N(3, 1); the means are 3 + gap/2 and 3 - gap/2, so the gap
//       between means is again `gap`.
// The optimal arm is the *last* index. Every policy here breaks exact ties towards the lowest
// index, so this placement can never flatter a policy through tie-breaking.
#include <vector>

#include <Eigen/Core>

#include "sabandit/envs/arms.hpp"
#include "sabandit/envs/bandit_env.hpp"
#include "sabandit/errors.hpp"

namespace sabandit {

/// One cell of the paper's grid; the defaults are its Figure 1 values at K = 10, gap = 0.5.
struct paper_setting {
  Eigen::Index num_arms = 10;  ///< K >= 2
  double gap = 0.5;            ///< Delta > 0
  double best_mean = 3.0;      ///< mu_1
  double noise_variance = 1.0; ///< sigma^2 > 0
};

namespace detail {
inline void validate(const paper_setting& s) {
  require_at_least<Eigen::Index>("num_arms", s.num_arms, 2);
  // An arm holds a few doubles (MGR's: a vector of two components of 3 doubles each, its
  // header and the allocator's words, about 12): checked before allocating.
  require_state_size("a paper setting", s.num_arms, 12);
  require_positive("gap", s.gap);
  require_finite("best_mean", s.best_mean);
  require_gap_applies(s.best_mean, s.gap, /*both_sides=*/true);  // MGR's best arm has best + gap
  require_positive("noise_variance", s.noise_variance);
}
}  // namespace detail

/// Single Gaussian Rewards.
[[nodiscard]] inline bandit_env<normal_arm> make_sgr(const paper_setting& s) {
  detail::validate(s);
  std::vector<normal_arm> arms(static_cast<std::size_t>(s.num_arms - 1),
                               normal_arm(s.best_mean - s.gap, s.noise_variance));
  arms.emplace_back(s.best_mean, s.noise_variance);
  return bandit_env<normal_arm>(std::move(arms));
}

/// Mixture Gaussian Rewards.
[[nodiscard]] inline bandit_env<normal_mixture_arm> make_mgr(const paper_setting& s) {
  detail::validate(s);
  const double v = s.noise_variance;
  const normal_mixture_arm other({{0.5, s.best_mean - s.gap, v}, {0.5, s.best_mean, v}});
  std::vector<normal_mixture_arm> arms(static_cast<std::size_t>(s.num_arms - 1), other);
  arms.emplace_back(std::vector<normal_mixture_arm::component>{{0.5, s.best_mean, v},
                                                               {0.5, s.best_mean + s.gap, v}});
  return bandit_env<normal_mixture_arm>(std::move(arms));
}

}  // namespace sabandit
