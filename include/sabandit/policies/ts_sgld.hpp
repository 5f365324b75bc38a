#pragma once
// TS-SGLD (Mazumdar et al. 2020) as the paper's appendix and Table 1 describe the baseline:
// each arm keeps its full reward history; every round, every arm's chain takes N SGLD steps
//   theta <- theta + h_n g(theta) + sqrt(tau / n) N(0, 2 h_n I)      (Preliminaries, eq. 2)
// from the previous round's last iterate, with g the mean log-likelihood gradient on a
// mini-batch drawn uniformly (with replacement) from the arm's whole history, and the
// decision is argmax_a <phi_a, theta_a> at the last iterate (Table 1, last row).
// tau is a temperature (multiplies the posterior variance; the Preliminaries' divisor 1/tau);
// h_n is a StepSchedule: constant by default, or decaying as Mazumdar et al. use
// (e.g. polynomial_decay{h0, 1, 0, 1} for h0 / n).
// Memory grows with the number of pulls: that is the baseline's defining cost (Table 1).
#include <cmath>
#include <random>
#include <vector>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/kernels/langevin.hpp"
#include "sabandit/kernels/schedules.hpp"
#include "sabandit/models/gaussian.hpp"
#include "sabandit/policies/detail/arm_statistics.hpp"
#include "sabandit/policies/detail/langevin_arms.hpp"
#include "sabandit/policies/detail/warm_up.hpp"
#include "sabandit/random/bits.hpp"

namespace sabandit {

template <RewardModel Model = gaussian_model, StepSchedule Schedule = constant_step>
class ts_sgld {
 public:
  struct params {
    Eigen::Index warmup = 1;        ///< pulls of each arm before sampling (>= 1)
    Eigen::Index batch_size = 32;   ///< mini-batch size drawn from the history (>= 1)
    Eigen::Index inner_steps = 1;   ///< N >= 1 SGLD steps per arm per round (appendix: 1)
    Schedule step_size = Schedule(0.1);  ///< h_n
    double temperature = 1.0;       ///< tau > 0
    langevin_prior prior{};         ///< initialisation when warm-up ends; warm start by default
  };

  explicit ts_sgld(Eigen::Index num_arms) : ts_sgld(unit_features(num_arms), params{}) {}
  ts_sgld(Eigen::Index num_arms, const params& p) : ts_sgld(unit_features(num_arms), p) {}
  ts_sgld(Eigen::MatrixXd features, const params& p, Model model = Model{})
      : arms_(std::move(features), std::move(model), p.prior),
        params_(validated(p)),
        stats_(arms_.num_arms()),
        warm_up_(p.warmup),
        history_(static_cast<std::size_t>(arms_.num_arms())),
        batch_(WindowMeanRewardModel<Model> ? 0 : p.batch_size) {}

  [[nodiscard]] Eigen::Index num_arms() const noexcept { return arms_.num_arms(); }
  [[nodiscard]] const params& parameters() const noexcept { return params_; }

  /// Moves every arm's chain N steps, then plays the best last iterate.
  template <std::uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(URBG& gen) {
    if (const auto arm = warm_up_.pending(stats_)) return *arm;
    for (Eigen::Index arm = 0; arm < num_arms(); ++arm) advance_chain(arm, gen);
    return arms_.scores().center_argmax();
  }

  template <std::uniform_random_bit_generator URBG>
  void update(Eigen::Index arm, double reward, URBG& gen) {
    detail::require_arm(arm, num_arms());
    detail::require_reward(reward);
    auto& rewards = history_[static_cast<std::size_t>(arm)];
    rewards.push_back(reward);  // strong guarantee of its own
    if (static_cast<Eigen::Index>(rewards.size()) == params_.warmup) {
      try {
        arms_.initialise(arm, history(arm), gen);
        arms_.commit(arm, 0.0);
      } catch (...) {
        rewards.pop_back();
        throw;
      }
    }
    stats_.add(arm, reward);
  }

  [[nodiscard]] const Eigen::MatrixXd& parameter_estimates() const noexcept {
    return arms_.parameters();
  }
  [[nodiscard]] const detail::arm_statistics& statistics() const noexcept { return stats_; }
  /// Arm a's full reward history, as an Eigen view.
  [[nodiscard]] Eigen::Map<const Eigen::VectorXd> history(Eigen::Index arm) const noexcept {
    const auto& rewards = history_[static_cast<std::size_t>(arm)];
    return {rewards.data(), static_cast<Eigen::Index>(rewards.size())};
  }

 private:
  static params validated(const params& p) {
    detail::require_at_least<Eigen::Index>("warmup", p.warmup, 1);
    detail::require_at_least<Eigen::Index>("batch_size", p.batch_size, 1);
    detail::require_at_least<Eigen::Index>("inner_steps (N)", p.inner_steps, 1);
    detail::require_positive("step_size(1) (h)", p.step_size(1));
    detail::require_positive("temperature (tau)", p.temperature);
    return p;
  }

  template <std::uniform_random_bit_generator URBG>
  void advance_chain(Eigen::Index arm, URBG& gen) {
    const auto& rewards = history_[static_cast<std::size_t>(arm)];
    const auto n = static_cast<Eigen::Index>(rewards.size());
    const double h = params_.step_size(n);
    const double noise_scale = std::sqrt(params_.temperature / static_cast<double>(n));
    Eigen::VectorXd& theta = arms_.load(arm);
    const Eigen::Index steps = inner_steps(params_.step_size, n, params_.inner_steps);
    for (Eigen::Index j = 0; j < steps; ++j) {
      langevin_step(theta, minibatch_gradient(arm, rewards, gen), h, noise_scale,
                    arms_.proposal(), gen);
      theta = arms_.proposal();
    }
    arms_.commit(arm, 0.0);
  }

  /// The mean log-likelihood gradient on batch_size rewards drawn uniformly, with replacement,
  /// from the arm's whole history. Sufficient-statistics models need only the batch's sum.
  template <std::uniform_random_bit_generator URBG>
  const Eigen::VectorXd& minibatch_gradient(Eigen::Index arm, const std::vector<double>& rewards,
                                            URBG& gen) {
    const auto n = static_cast<std::uint64_t>(rewards.size());
    if constexpr (WindowMeanRewardModel<Model>) {
      double sum = 0.0;
      for (Eigen::Index i = 0; i < params_.batch_size; ++i) sum += rewards[uniform_index(gen, n)];
      return arms_.gradient_at_mean(arm, sum / static_cast<double>(params_.batch_size));
    } else {
      for (Eigen::Index i = 0; i < batch_.size(); ++i) batch_(i) = rewards[uniform_index(gen, n)];
      return arms_.gradient(arm, batch_);
    }
  }

  detail::langevin_arms<Model> arms_;
  params params_;
  detail::arm_statistics stats_;
  detail::warm_up warm_up_;
  std::vector<std::vector<double>> history_;
  Eigen::VectorXd batch_;  // mini-batch scratch; unused (empty) for sufficient-statistics models
};

static_assert(Policy<ts_sgld<>>);

}  // namespace sabandit
