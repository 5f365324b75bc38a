#pragma once
// TS-SA: Thompson sampling with stochastic approximation (the paper's Algorithm 1), with the
// Experiments section's mini-batch of the B most recent rewards and warm-up of Omega pulls:
// the composition  model x recent_window x sa_averaging  (policies/langevin/core.hpp).
// The gradient source is a parameter: ts_sa<Model, Schedule, langevin::uniform_minibatch>
// (include policies/langevin/uniform_minibatch.hpp) is TS-SA with TS-SGLD's uniform
// mini-batches of B rewards from the whole history, a composition that the core's concepts
// (langevin/parts.hpp) admit with no further code (tests/unit/ts_sa_test.cpp).
//
// Two configurations (docs/scale-free-ts-sa.md):
//  - the default, `params{}`: scale-free. Lines 4 and 8 are measured in the model's Fisher
//    information (step_metric::fisher), with the Newton schedule gamma_n h = 1/(n + 1), B = 1,
//    Omega = 1 (Alg. 1 line 1) and tau = 1: Laplace-approximate Thompson sampling driven by
//    Alg. 1's Langevin + SA loop, right for any reward scale without tuning;
//  - `params::paper()`: Algorithm 1 as printed, with the appendix's values, which assume one
//    reward carries unit information about theta (Gaussian rewards of variance 1). The
//    paper-reproduction jobs use it, bit for bit.
//
// The rest of this comment describes the paper's configuration; the Fisher metric's loop is in
// policies/langevin/core.hpp.
//
// Per arm it keeps theta_a (d), the last B rewards with their running sum, and a pull count:
// O(K (d + B)) memory whatever the horizon. A round:
//   select  (lines 3-5): theta_{a,t} ~ N(theta_a, tau / n_a I), play argmax <phi_a, theta_{a,t}>
//           (one scalar normal per arm, see common/gaussian_scores.hpp);
//   update  (lines 6-11): N inner iterations of
//             omega = theta + h g(theta) + N(0, 2h I)            (line 8, LMC proposal)
//             theta = (1 - gamma_n) theta + gamma_n omega        (line 9, SA average)
//           with g the mean log-likelihood gradient over the window (Experiments remark) and
//           n = the arm's pulls before this one; then the new reward joins the window (line 11).
//
// Conventions, stated because the paper uses both: tau is a temperature that *multiplies* the
// sampling variance (Alg. 1 line 4 writes 1/(tau n); the appendix's TS multiplies) so that tau
// means the same in every sabandit policy; at the default tau = 1 the two agree.
// The prior enters only line 1 (a draw, or the warm start's MAP): TS-SA's drift has no prior
// term, because its target is the paper's stationary exp(T F_T) (section "Stationary Target
// Posterior"), a pure likelihood.
// For a non-Gaussian model the paper's SA schedule moves the iterate very slowly (gamma_19 =
// 0.011, and the logit's curvature is p (1 - p) <= 1/4): the reason for the scale-free default.
#include <algorithm>
#include <concepts>
#include <limits>
#include <string>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/detail/state_fields.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/kernels/schedules.hpp"
#include "sabandit/models/gaussian.hpp"
#include "sabandit/policies/langevin/averaging.hpp"
#include "sabandit/policies/langevin/core.hpp"
#include "sabandit/policies/langevin/recent_window.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit {

/// TS-SA (Algorithm 1) over any RewardModel and GradientSource (the B most recent rewards by
/// default); models Policy. A copy is a checkpoint.
template <RewardModel Model = gaussian_model, SaSchedule Schedule = polynomial_decay,
          langevin::GradientSource Source = langevin::recent_window>
class ts_sa : public langevin::core<Model, Source, langevin::sa_averaging<Schedule>> {
  using core = langevin::core<Model, Source, langevin::sa_averaging<Schedule>>;
  static constexpr bool windowed = std::same_as<Source, langevin::recent_window>;

 public:
  /// Defaults: scale-free TS-SA (the header comment, docs/scale-free-ts-sa.md): the Fisher
  /// metric, h = 100, gamma_n = 1 / (h (n + 1)), B = 1, Omega = 1, N = 1, tau = 1, the MAP
  /// warm start, and the prior of the model's exact TS as pseudo-rewards where it has one
  /// (Bernoulli: Beta(1, 1); Poisson: Gamma(1, 1e-4); the normal prior is then flat), else the
  /// model's default normal prior. Every value follows from the derivation in that document;
  /// none was tuned on a problem.
  struct params {
    Eigen::Index warmup = 1;        ///< Omega >= 1: pulls of each arm before TS-SA starts
    /// B >= 1: the rewards in line 8's gradient: the most recent (recent_window), or the
    /// size of a uniform mini-batch of the history (uniform_minibatch).
    Eigen::Index window = 1;
    Eigen::Index inner_steps = 1;   ///< N >= 1: LMC + SA iterations per update
    /// h in (0, 1e6]: Langevin step (line 8). In the Fisher metric the SA average keeps a
    /// jitter of 2 / h of the posterior variance: 2 % at 100. Change it together with
    /// sa_schedule, keeping gamma_n h = 1 / (n + 1) (`newton_schedule(h)`): the constructor
    /// refuses a Newton gain N gamma_n h (n + 1) of 2 or more (h = 200 alone has 2). Keep
    /// h >= 30 there: a smaller one can walk an arm that rarely rewards to a non-finite
    /// iterate (docs/scale-free-ts-sa.md, "A small h diverges").
    double step_size = default_step_size;
    double temperature = 1.0;       ///< tau in [1e-100, 1e100]: sampling variance factor
    Schedule sa_schedule = newton_schedule(default_step_size);  ///< gamma_n (line 9)
    /// Where a chain starts when its warm-up ends: the warm start (MAP) or a prior draw.
    initialisation init = initialisation::warm_start;
    /// pi_a (line 1): flat where prior_rewards carry the model's conjugate prior, and for the
    /// Gaussian; otherwise the model's default normal prior.
    normal_prior prior = default_prior_beside(default_pseudo_rewards<Model>());
    map_options warm_start{};       ///< stopping rule of the generic warm start
    /// Line 8's preconditioner and line 4's spread: the model's Fisher information (scale-free)
    /// or the identity of Alg. 1 as printed. The Fisher metric's step is a Newton step only
    /// with gamma_n h = 1 / (n + 1) (`newton_schedule(h)`); larger steps overshoot the
    /// posterior mean and may run the iterate to the non-finite error.
    step_metric metric = step_metric::fisher;
    /// The conjugate prior as pseudo-rewards (models/prior.hpp): the warm start fits them with
    /// the arm's rewards and the Fisher information counts them, so that the iterate follows
    /// exact TS's posterior mean. Needs a model that reads rewards through their mean.
    pseudo_rewards prior_rewards = default_pseudo_rewards<Model>();

    /// The paper's configuration: Algorithm 1 as printed (identity metric) with the
    /// appendix's ablation values N = 1, h = 0.532, c1 = 144.07, c2 = 677.88, c3 = 40.02,
    /// alpha = 0.999, B = 27, Omega = 19, and tau = 1.
    [[nodiscard]] static params paper() {
      return {.warmup = 19, .window = 27, .inner_steps = 1, .step_size = 0.532,
              .temperature = 1.0, .sa_schedule = Schedule::paper_default(),
              .prior = default_prior<Model>(), .metric = step_metric::identity,
              .prior_rewards = {}};
    }

    /// gamma_n = 1 / (h (n + 1)): the SA weight that makes line 9's drift gamma_n h P g =
    /// g / J, the Newton step of the Fisher metric (n = the arm's pulls before this one, so
    /// n + 1 rewards are in hand). Only for polynomial_decay.
    [[nodiscard]] static Schedule newton_schedule(double h)
      requires std::same_as<Schedule, polynomial_decay>
    {
      // Named here, else c2 = h would be: h in (0, 1e6] and, as c2, at least 1e-100.
      detail::require_step_size("newton_schedule(h)", h);
      detail::require_scale("newton_schedule(h)", h);
      return polynomial_decay(1.0, h, h, 1.0);
    }
    /// h of the default: its SA average keeps 2 / h = 2 % of the posterior variance as jitter.
    static constexpr double default_step_size = 100.0;
    /// The normal prior beside pseudo-rewards: flat where they carry the prior, so that it is
    /// not counted twice; the model's default normal prior where there are none.
    [[nodiscard]] static normal_prior default_prior_beside(const pseudo_rewards& pseudo) {
      return pseudo.empty() ? default_prior<Model>() : normal_prior::flat();
    }

    /// sabandit's earlier preset (before the scale-free default), kept for the programs that
    /// use it: the identity metric, chosen on tuning seeds by the study job since retired
    /// (docs/ts-sa-study.md, an archive of commit 6ab21af). Only for Gaussian rewards of variance 1; prefer `params{}`.
    /// gamma_n = 1 / (h n) makes line 9's iterate the running mean of the proposals, so a bad
    /// warm-up estimate is forgotten at rate 1/n (the appendix's gamma_n ~ 0.21 / n keeps most of
    /// it); h = 100 shrinks the Langevin noise that the average keeps, 2 / (h n) in variance, far
    /// below the decision spread tau / n of line 4. Written for unit-variance rewards
    /// (gaussian_model(1)): the drift is gamma_n h / sigma^2 and the spread does not grow with
    /// sigma^2, so for another sigma^2 multiply h and tau by it (and keep c2 = 100).
    [[nodiscard]] static params robust()
      requires std::same_as<Schedule, polynomial_decay>
    {
      constexpr double h = 100.0;
      return {.warmup = 5, .window = 1, .inner_steps = 1, .step_size = h, .temperature = 0.7,
              .sa_schedule = polynomial_decay(1.0, h, 0.0, 1.0), .prior = default_prior<Model>(),
              .metric = step_metric::identity, .prior_rewards = {}};
    }
  };

  // The constructors, select and update are defined below the class, not inside it, so that
  // they are not inline: an explicit instantiation declaration (sabandit/instances/ts_sa.hpp)
  // then keeps every translation unit but one from compiling them, which is most of what this
  // header costs to compile (docs/performance.md, "Compile cost").

  /// K arms of the paper's setting (d = 1, phi = 1) with the default parameters.
  explicit ts_sa(Eigen::Index num_arms);
  /// K arms with phi_a = 1, over `model` (a Gaussian's noise variance: gaussian_model(sigma2)).
  /// Throws std::length_error, before allocating, if the state (about
  /// K (B + 9) doubles) is beyond bounds::state_doubles.
  ts_sa(Eigen::Index num_arms, const params& p, Model model = Model{});
  /// features: d x K, column a is phi_a (non-zero, finite).
  ts_sa(Eigen::MatrixXd features, const params& p, Model model = Model{});

  /// The parameters as validated at construction.
  [[nodiscard]] const params& parameters() const noexcept { return params_; }

  /// During the warm-up, the warm-up's arm (round-robin); then lines 4-5: one scalar normal per arm, argmax (ties to the lowest index).
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(URBG& gen);

  /// Strong guarantee: the arm and reward are checked, the new iterate is computed aside and
  /// committed only if finite. No allocation.
  template <uniform_random_bit_generator URBG>
  void update(Eigen::Index arm, double reward, URBG& gen);

  /// The reward windows (B x K), to show that memory does not grow with the horizon.
  [[nodiscard]] const langevin::reward_windows& windows() const noexcept
    requires windowed
  {
    return this->source().windows();
  }

  /// "ts_sa<model,schedule>" (another source adds its name), the type in a saved state's header.
  [[nodiscard]] static std::string state_name() {
    std::string name = "ts_sa<" + detail::component_name<Model>() + "," +
                       detail::component_name<Schedule>();
    if constexpr (!windowed) name += "," + detail::component_name<Source>();
    return name + ">";
  }
  /// The saved fields (state/persist.hpp): the Langevin core's, with B and the SA schedule.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    core::persist_policy(self, ar, self.params_, [&](params& p, Eigen::Index num_arms) {
      ar("window", p.window);
      if constexpr (windowed) ar.require_backed("window", p.window, num_arms);  // B x K follow
      int metric = p.metric == step_metric::fisher ? 1 : 0;
      ar.optional("metric", metric, 0, 0, 1);  // 0: identity (also older states), 1: Fisher
      p.metric = metric == 1 ? step_metric::fisher : step_metric::identity;
      detail::persist_component("sa_schedule", p.sa_schedule, ar);
      ar.nest("prior_rewards", [&] { pseudo_rewards::persist(p.prior_rewards, ar); });
    });
  }

 private:
  static params validated(const params& p) {
    langevin::validate_common(p);
    detail::require_at_least<Eigen::Index>("window (B)", p.window, 1);
    // gamma_Omega in (0, 1] first, the plainer error (the core checks it again).
    langevin::sa_averaging<Schedule>(p.sa_schedule).validate(p.warmup);
    require_stable_gain(p);
    return p;
  }
  // In the Fisher metric each of lines 8-9's N inner steps moves an arm's iterate by
  // r_n = gamma_n h (n + 1) Newton steps (langevin/core.hpp, advance_fisher_in: the drift
  // gamma h P g with P = m / J, m = n + 1 rewards in hand). The default's N r_n = 1 is the
  // posterior recursion. Past it the update overshoots the posterior mean. Along a run of zero
  // rewards at a low rate the mean then falls like M^(-N r) over M rewards, the information
  // with it, and the noise variance per update goes like M^(N r - 2): from N r = 2 on it no
  // longer shrinks, and the iterate walks to exp's overflow. step_size = 300 alone (r = 3)
  // diverged so on a 3-4.5 % click-rate problem, and so did inner_steps = 3. Hence
  // N sup r_n < 2 over n >= Omega, checked for polynomial_decay: with g(n) = (n + 1) /
  // (c2 n^alpha + c3), g' changes sign at most once, from - to +, so the supremum over
  // [Omega, 2^63) is at one of its ends (alpha = 1: monotone, the far end is c1 h / c2;
  // alpha < 1 or c2 = 0: growing without bound, but only as far as a policy can count).
  // Other schedules are the caller's to keep below 2.
  static void require_stable_gain([[maybe_unused]] const params& p) {
    if constexpr (std::same_as<Schedule, polynomial_decay>) {
      if (p.metric != step_metric::fisher) return;
      const auto gain_at = [&](Eigen::Index n) {
        return static_cast<double>(p.inner_steps) * p.sa_schedule(n) * p.step_size *
               (static_cast<double>(n) + 1.0);
      };
      const double gain =
          std::max(gain_at(p.warmup), gain_at(std::numeric_limits<Eigen::Index>::max()));
      if (!(gain < 2.0)) {
        detail::throw_invalid(
            detail::join({"N gamma_n h (n + 1), the Fisher metric's Newton gain (sa_schedule "
                          "with step_size (h) = ",
                          detail::value_text(p.step_size), ", inner_steps (N) = ",
                          std::to_string(p.inner_steps), ")"}),
            gain,
            "must stay below 2 for every n >= warmup: pass sa_schedule = newton_schedule(N h) "
            "with step_size = h (gain 1); a greedier policy is a lower temperature");
      }
    }
  }

  params params_;
};

template <RewardModel Model, SaSchedule Schedule, langevin::GradientSource Source>
ts_sa<Model, Schedule, Source>::ts_sa(Eigen::Index num_arms) : ts_sa(num_arms, params{}) {}

template <RewardModel Model, SaSchedule Schedule, langevin::GradientSource Source>
ts_sa<Model, Schedule, Source>::ts_sa(Eigen::Index num_arms, const params& p, Model model)
    : ts_sa(unit_features(core::require_state(num_arms, 1, p.window)), p, std::move(model)) {}

template <RewardModel Model, SaSchedule Schedule, langevin::GradientSource Source>
ts_sa<Model, Schedule, Source>::ts_sa(Eigen::MatrixXd features, const params& p, Model model)
    : core(std::move(features), std::move(model), validated(p).window,
           langevin::sa_averaging<Schedule>(p.sa_schedule),
           {p.warmup, p.inner_steps, p.temperature, p.init, p.prior, p.warm_start, p.metric,
            p.prior_rewards}),
      params_(p) {}

template <RewardModel Model, SaSchedule Schedule, langevin::GradientSource Source>
template <uniform_random_bit_generator URBG>
Eigen::Index ts_sa<Model, Schedule, Source>::select(URBG& gen) {
  if (const auto arm = this->warm_up_arm()) return *arm;
  return this->sample_argmax(gen);  // lines 4-5
}

template <RewardModel Model, SaSchedule Schedule, langevin::GradientSource Source>
template <uniform_random_bit_generator URBG>
void ts_sa<Model, Schedule, Source>::update(Eigen::Index arm, double reward, URBG& gen) {
  core::update(arm, reward, gen, [&](Eigen::Index n) {
    // Lines 6-10 from theta_a(n); line 11 stores theta_a(n + 1), then the reward joins.
    const auto& theta = this->advance_unweighted(arm, n, params_.step_size, gen);
    this->commit(arm, theta, n + 1);
  });
}

static_assert(Policy<ts_sa<>>);

}  // namespace sabandit
