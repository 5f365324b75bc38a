#pragma once
// TS-SA: Thompson sampling with stochastic approximation (the paper's Algorithm 1), with the
// Experiments section's mini-batch of the B most recent rewards and warm-up of Omega pulls.
//
// Per arm it keeps theta_a (d), the last B rewards with their running sum, and a pull count:
// O(K (d + B)) memory whatever the horizon. A round:
//   select  (lines 3-5): theta_{a,t} ~ N(theta_a, tau / n_a I), play argmax <phi_a, theta_{a,t}>
//           (one scalar normal per arm, see detail/gaussian_scores.hpp);
//   update  (lines 6-11): N inner iterations of
//             omega = theta + h g(theta) + N(0, 2h I)            (line 8, LMC proposal)
//             theta = (1 - gamma_n) theta + gamma_n omega        (line 9, SA average)
//           with g the mean log-likelihood gradient over the window (Experiments remark) and
//           n = the arm's pulls before this one; then the new reward joins the window (line 11).
//
// Conventions, stated because the paper uses both: tau is a temperature that *multiplies* the
// sampling variance (Alg. 1 line 4 writes 1/(tau n); the appendix's TS multiplies) so that tau
// means the same in every sabandit policy; at the default tau = 1 the two agree.
// As in Alg. 1, the gradient at the n-th update uses the rewards received *before* this one
// (X_a(n) is the newest, line 8); the reward passed to update() enters the window at line 11.
#include <random>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/kernels/langevin.hpp"
#include "sabandit/kernels/sa_average.hpp"
#include "sabandit/kernels/schedules.hpp"
#include "sabandit/models/gaussian.hpp"
#include "sabandit/policies/detail/arm_statistics.hpp"
#include "sabandit/policies/detail/langevin_arms.hpp"
#include "sabandit/policies/detail/reward_window.hpp"
#include "sabandit/policies/detail/warm_up.hpp"

namespace sabandit {

template <RewardModel Model = gaussian_model, StepSchedule Schedule = polynomial_decay>
class ts_sa {
 public:
  /// Defaults: the appendix's ablation configuration (N = 1, h = 0.532, c1 = 144.07,
  /// c2 = 677.88, c3 = 40.02, alpha = 0.999, B = 27, Omega = 19) with tau = 1.
  struct params {
    Eigen::Index warmup = 19;       ///< Omega >= 1: pulls of each arm before TS-SA starts
    Eigen::Index window = 27;       ///< B >= 1: recent rewards in the gradient
    Eigen::Index inner_steps = 1;   ///< N >= 1: LMC + SA iterations per update
    double step_size = 0.532;       ///< h > 0: Langevin step (Alg. 1 line 8)
    double temperature = 1.0;       ///< tau > 0: multiplies the sampling variance (line 4)
    Schedule sa_schedule = Schedule::paper_default();  ///< gamma_n (line 9)
    langevin_prior prior{};         ///< initialisation when warm-up ends; warm start by default
  };

  explicit ts_sa(Eigen::Index num_arms) : ts_sa(unit_features(num_arms), params{}) {}
  ts_sa(Eigen::Index num_arms, const params& p) : ts_sa(unit_features(num_arms), p) {}
  ts_sa(Eigen::MatrixXd features, const params& p, Model model = Model{})
      : arms_(std::move(features), std::move(model), p.prior),
        params_(validated(p)),
        stats_(arms_.num_arms()),
        warm_up_(p.warmup),
        windows_(p.window, arms_.num_arms()) {}

  [[nodiscard]] Eigen::Index num_arms() const noexcept { return arms_.num_arms(); }
  [[nodiscard]] const params& parameters() const noexcept { return params_; }

  template <std::uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(URBG& gen) {
    if (const auto arm = warm_up_.pending(stats_)) return *arm;
    return arms_.scores().sample_argmax(gen);  // lines 4-5
  }

  /// Strong guarantee: the arm and reward are checked, the new iterate is computed aside and
  /// committed only if finite. No allocation.
  template <std::uniform_random_bit_generator URBG>
  void update(Eigen::Index arm, double reward, URBG& gen) {
    detail::require_arm(arm, num_arms());
    detail::require_reward(reward);
    const auto pulls_before = static_cast<Eigen::Index>(stats_.count(arm));
    if (pulls_before < params_.warmup) {
      const auto saved = windows_.save(arm);
      windows_.push(arm, reward);
      if (pulls_before + 1 == params_.warmup) {
        try {  // warm-up ends: theta_a from the prior or the warm-up rewards (line 1)
          arms_.initialise(arm, windows_.rewards(arm), gen);
          arms_.commit(arm, spread(pulls_before + 1));
        } catch (...) {
          windows_.restore(arm, saved);
          throw;
        }
      }
      stats_.add(arm, reward);
      return;
    }
    // Lines 6-10: N(n) iterations of LMC proposal + SA average from theta_a(n).
    const Eigen::Index n = pulls_before;
    const double gamma = params_.sa_schedule(n);
    Eigen::VectorXd& theta = arms_.load(arm);
    const Eigen::Index steps = inner_steps(params_.sa_schedule, n, params_.inner_steps);
    for (Eigen::Index j = 0; j < steps; ++j) {
      const Eigen::VectorXd& grad = gradient(arm);
      langevin_step(theta, grad, params_.step_size, 1.0, arms_.proposal(), gen);  // line 8
      sa_average(theta, arms_.proposal(), gamma);                               // line 9
    }
    arms_.commit(arm, spread(n + 1));  // line 11: theta_a(n + 1)
    windows_.push(arm, reward);        // line 11: X_a(n + 1)
    stats_.add(arm, reward);
  }

  /// theta_a for every arm (d x K): the SA-averaged iterates.
  [[nodiscard]] const Eigen::MatrixXd& parameter_estimates() const noexcept {
    return arms_.parameters();
  }
  [[nodiscard]] const Eigen::MatrixXd& features() const noexcept { return arms_.features(); }
  [[nodiscard]] const detail::arm_statistics& statistics() const noexcept { return stats_; }
  /// The reward windows (B x K), to show that memory does not grow with the horizon.
  [[nodiscard]] const detail::reward_windows& windows() const noexcept { return windows_; }

 private:
  static params validated(const params& p) {
    detail::require_at_least<Eigen::Index>("warmup (Omega)", p.warmup, 1);
    detail::require_at_least<Eigen::Index>("window (B)", p.window, 1);
    detail::require_at_least<Eigen::Index>("inner_steps (N)", p.inner_steps, 1);
    detail::require_positive("step_size (h)", p.step_size);
    detail::require_positive("temperature (tau)", p.temperature);
    // gamma_n is a convex weight: it must lie in (0, 1] from the first update on (n = Omega).
    const double first_gamma = p.sa_schedule(p.warmup);
    if (!(first_gamma > 0.0 && first_gamma <= 1.0))
      detail::throw_invalid("sa_schedule(warmup)", first_gamma, "must be in (0, 1]");
    return p;
  }

  // sqrt(tau / n): the standard deviation of line 4's sampling distribution.
  [[nodiscard]] double spread(Eigen::Index pulls) const noexcept {
    return std::sqrt(params_.temperature / static_cast<double>(pulls));
  }

  const Eigen::VectorXd& gradient(Eigen::Index arm) {
    if constexpr (WindowMeanRewardModel<Model>) {
      return arms_.gradient_at_mean(arm, windows_.mean(arm));  // running sum: O(d)
    } else {
      return arms_.gradient(arm, windows_.rewards(arm));
    }
  }

  detail::langevin_arms<Model> arms_;
  params params_;
  detail::arm_statistics stats_;
  detail::warm_up warm_up_;
  detail::reward_windows windows_;
};

static_assert(Policy<ts_sa<>>);

}  // namespace sabandit
