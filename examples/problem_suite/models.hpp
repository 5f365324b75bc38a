#pragma once
// The models job: every policy on Bernoulli and Poisson bandits, beside the Lai–Robbins lower
// bound. A grid job like figure1 (reproduce_paper/grid.hpp): long-form CSV, one PNG per
// setting, a Markdown table and a parameter listing, written as one staged output set; the
// outputs depend only on the arguments, never on the thread count.
#include <cmath>
#include <memory>
#include <cstdio>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <sabandit/sim.hpp>

#include "common/checked.hpp"
#include "common/output.hpp"
#include "reproduce_paper/grid.hpp"

namespace repro {

enum class reward_family { bernoulli, poisson };

/// One cell of the models grid: K - 1 arms of mean best - gap, the best arm last.
struct model_setting {
  reward_family family = reward_family::bernoulli;
  double gap = 0.5;
  Eigen::Index arms = 10;

  [[nodiscard]] const char* family_name() const {
    return family == reward_family::bernoulli ? "Bernoulli" : "Poisson";
  }
  /// The settings: best p = 0.9 for Bernoulli arms, best mean 3 for Poisson arms.
  [[nodiscard]] double best_mean() const { return family == reward_family::bernoulli ? 0.9 : 3.0; }
  [[nodiscard]] std::string id() const {
    char text[64];
    std::snprintf(text, sizeof text, "%s_gap%.1f_K%lld", family_name(), gap, static_cast<long long>(arms));
    return text;
  }
  [[nodiscard]] std::string title() const {
    char text[96];
    std::snprintf(text, sizeof text, "%s (best %g), gap = %.1f, K = %lld", family_name(), best_mean(),
                  gap, static_cast<long long>(arms));
    return text;
  }
};

/// Bernoulli then Poisson; within each, K = 10 then 50, gap 0.1 then 0.5.
inline std::vector<model_setting> models_grid() {
  std::vector<model_setting> grid;
  for (auto family : {reward_family::bernoulli, reward_family::poisson})
    for (Eigen::Index k : {10, 50})
      for (double gap : {0.1, 0.5}) grid.push_back({family, gap, k});
  return grid;
}

/// Calls `body(Model{})` with the reward model of `family`, so that everything downstream is
/// written once, as a template over the model.
template <class Body>
decltype(auto) with_model(reward_family family, Body body) {
  if (family == reward_family::bernoulli) return body(sabandit::bernoulli_model{});
  return body(sabandit::poisson_model{});
}

/// The environment of `where` for `Model`'s rewards.
template <class Model>
auto make_gap_env(const model_setting& where) {
  if constexpr (std::is_same_v<Model, sabandit::bernoulli_model>) {
    return sabandit::make_bernoulli_gap(where.arms, where.best_mean(), where.gap);
  } else {
    return sabandit::make_poisson_gap(where.arms, where.best_mean(), where.gap);
  }
}

/// sabandit's earlier GLM setting for TS-SA (before the scale-free default; not the paper's):
/// gamma_n = 2 / (n + 2), h = 2, every other parameter the appendix's.
template <class Model>
typename sabandit::ts_sa<Model>::params ts_sa_glm_setting() {
  auto p = sabandit::ts_sa<Model>::params::paper();
  p.step_size = 2.0;
  p.sa_schedule = sabandit::polynomial_decay(2.0, 1.0, 2.0, 1.0);
  return p;
}

namespace models_detail {

inline std::string real(double value) { return format_real(value); }

inline std::string conjugate_prior_text(const sabandit::beta_prior& p) {
  return "Beta(" + real(p.alpha) + ", " + real(p.beta) + ") prior";
}
inline std::string conjugate_prior_text(const sabandit::gamma_prior& p) {
  return "Gamma(shape " + real(p.shape) + ", rate " + real(p.rate) + ") prior";
}
template <class Params>
std::string langevin_common_text(const Params& p) {
  return "tau = " + real(p.temperature) + ", h = " + real(p.step_size) + ", N = " +
         std::to_string(p.inner_steps) + ", Omega = " + std::to_string(p.warmup) + ", init = " +
         (p.init == sabandit::initialisation::prior ? "prior" : "warm_start") + ", N(" +
         real(p.prior.mean) + ", " + (std::isinf(p.prior.variance) ? "inf" : real(p.prior.variance)) +
         ") prior on the natural parameter";
}
template <class Model>
std::string describe(const typename sabandit::thompson<Model>::params& p) {
  return "tau = " + real(p.temperature) + ", warm-up = " + std::to_string(p.warmup) + ", " +
         conjugate_prior_text(p.prior);
}
template <class Model>
std::string describe(const typename sabandit::ts_sa<Model>::params& p) {
  const auto& s = p.sa_schedule;
  return langevin_common_text(p) + ", B = " + std::to_string(p.window) + ", gamma_n = " + real(s.c1()) +
         " / (" + real(s.c2()) + " n^" + real(s.alpha()) + " + " + real(s.c3()) + ")" +
         (p.metric == sabandit::step_metric::fisher ? ", Fisher metric (scale-free)" : "") +
         (p.prior_rewards.empty() ? ""
                                  : ", prior as " + real(p.prior_rewards.sum) + " in " +
                                        real(p.prior_rewards.count) + " pseudo-rewards");
}

}  // namespace models_detail

/// The policy registry of the models job, one template over the reward model: every entry is
/// `visit(name, parameters as text, factory)`, the factory building the policy for K arms.
/// Adding a policy to the job is adding one visit here; names, order, plots, table and the
/// parameter file follow from it.
template <class Model, class Visit>
void for_each_model_policy(Eigen::Index arms, Visit visit) {
  using namespace sabandit;
  using models_detail::describe;
  using models_detail::real;
  const ucb::params ucb_params{};  // the paper's UCB, tau = 1
  visit("UCB", "tau = " + real(ucb_params.bonus_scale) + ", warm-up = " + std::to_string(ucb_params.warmup),
        [=](Eigen::Index) { return ucb(arms, ucb_params); });
  const typename kl_ucb<Model>::params kl_params{};
  visit("KL-UCB",
        "c = " + real(kl_params.log_log_coefficient) + " (level log t + c log log t), warm-up = " +
            std::to_string(kl_params.warmup) + ", KL from the model's divergence",
        [=](Eigen::Index) { return kl_ucb<Model>(arms, kl_params); });
  const typename thompson<Model>::params ts_params{};
  visit("TS", describe<Model>(ts_params), [=](Eigen::Index) { return thompson<Model>(arms, ts_params); });
  const typename epsilon_ts<Model>::params eps_params{};
  visit("eps-TS", "epsilon = 1/K, " + describe<Model>(eps_params.posterior),
        [=](Eigen::Index) { return epsilon_ts<Model>(arms, eps_params); });
  const typename ts_sgld<Model>::params sgld_params{};
  visit("TS-SGLD",
        models_detail::langevin_common_text(sgld_params) + ", batch size = " +
            std::to_string(sgld_params.batch_size),
        [=](Eigen::Index) { return ts_sgld<Model>(unit_features(arms), sgld_params); });
  const typename ts_sa<Model>::params sa_default{};  // scale-free (docs/scale-free-ts-sa.md)
  visit("TS-SA (default)", describe<Model>(sa_default),
        [=](Eigen::Index) { return ts_sa<Model>(unit_features(arms), sa_default); });
  const auto sa_params = ts_sa<Model>::params::paper();  // the appendix's values
  visit("TS-SA (paper)", describe<Model>(sa_params),
        [=](Eigen::Index) { return ts_sa<Model>(unit_features(arms), sa_params); });
  const auto sa_glm_params = ts_sa_glm_setting<Model>();
  visit("TS-SA (sabandit GLM setting)", describe<Model>(sa_glm_params),
        [=](Eigen::Index) { return ts_sa<Model>(unit_features(arms), sa_glm_params); });
  // The Gaussian preset, not retuned for these models (issue 11: "without retuning").
  const auto sa_robust_params = ts_sa<Model>::params::robust();
  visit("TS-SA (sabandit robust preset)", describe<Model>(sa_robust_params),
        [=](Eigen::Index) { return ts_sa<Model>(unit_features(arms), sa_robust_params); });
}

/// The job's policies in legend order, from the registry.
inline std::vector<std::string> model_policy_names() {
  std::vector<std::string> names;
  for_each_model_policy<sabandit::bernoulli_model>(
      2, [&](std::string_view name, const std::string&, auto) { names.emplace_back(name); });
  return names;
}

struct models_options {
  common_options common;
  Eigen::Index horizon = 10'000;
  Eigen::Index trials = 50;
  std::vector<model_setting> grid = models_grid();
};

/// A models plot: regret (mean +- 1 s.e.) with the Lai–Robbins line C log t; below, each
/// policy's regret minus TS's. The upper panel's range is set by the policies' curves: where
/// C log T is far above every policy (Poisson, gap 0.1: the bound is asymptotic), the line
/// leaves the top of the plot instead of flattening the curves, and the legend gives C.
inline std::vector<panel_spec> models_panels(const std::vector<std::string>& policies,
                                             const std::vector<sabandit::regret_curve>& curves,
                                             double lai_robbins) {
  std::size_t ts = 0;
  for (std::size_t pi = 0; pi < policies.size(); ++pi) ts = policies[pi] == "TS" ? pi : ts;
  double highest = 0.0;
  std::vector<series> lines;
  for (std::size_t pi = 0; pi < policies.size(); ++pi) {
    lines.push_back(styled_series(policies[pi], curves[pi]));
    for (std::size_t k = 0; k < lines.back().y.size(); ++k) highest = std::max(highest, lines.back().y[k] + lines.back().se[k]);
  }
  auto panels = regret_panels(std::move(lines), curves[ts].mean_regret, "regret minus TS's regret");
  auto& regret = panels.front();
  regret.y_max = 1.1 * highest;
  series bound{"", {"#7F7F7F", 1, 1.5}, {}, {}, {}};
  bound.x.assign(curves.front().rounds.begin(), curves.front().rounds.end());
  for (const long long t : bound.x) bound.y.push_back(lai_robbins * std::log(static_cast<double>(t)));
  char label[96];
  std::snprintf(label, sizeof label, "Lai–Robbins bound C log t, C = %.1f%s", lai_robbins,
                bound.y.front() > *regret.y_max ? " (above this plot)" : "");
  bound.label = label;
  regret.lines.push_back(std::move(bound));
  return panels;
}

inline grid_result run_models(const models_options& o) {
  const auto policies = model_policy_names();
  const auto runs = static_cast<long long>(o.grid.size() * policies.size());
  const long long policy_rounds = grid_policy_rounds(o.horizon, o.trials, runs, o.common.record_points);
  output_set outputs(o.common.out, "models_");  // --out is writable, or we stop here

  const auto config = grid_config(o.common, o.horizon, o.trials);
  grid_run run("models", runs * o.trials);
  std::ostringstream table;
  auto columns = policies;
  columns.insert(columns.end(), {"Lai–Robbins C", "C log T"});
  table << setting_table_header(columns);
  std::string params_text =
      "# sabandit problem_suite models: the parameters of every policy, per reward model.\n"
      "# TS-SGLD and TS-SA use the model's GLM likelihood with unit features (one parameter per "
      "arm).\n";
  for (const auto family : {reward_family::bernoulli, reward_family::poisson}) {
    with_model(family, [&]<class Model>(Model) {
      params_text += std::string("\n[") + model_setting{family}.family_name() + "]\n";
      for_each_model_policy<Model>(2, [&](std::string_view name, const std::string& text, auto) {
        params_text += std::string(name) + ": " + text + "\n";
      });
    });
  }

  for (const auto& where : o.grid) {
    std::vector<sabandit::regret_curve> curves;
    table << "| " << where.title() << " |";
    const double lai_robbins = with_model(where.family, [&]<class Model>(Model model) {
      const auto env = make_gap_env<Model>(where);
      for_each_model_policy<Model>(where.arms, [&](std::string_view name, const std::string&, auto factory) {
        curves.push_back(run.add(where.id(), std::string(name), [&](auto hook) {
          return simulate_cancellable(env, factory, config, hook);
        }));
        table << ' ' << mean_se(curves.back()) << " |";
      });
      return sabandit::lai_robbins_constant(model, env);
    });
    char bound[96];
    std::snprintf(bound, sizeof bound, " %.2f | %.1f |\n", lai_robbins,
                  lai_robbins * std::log(static_cast<double>(o.horizon)));
    table << bound;
    plot_run(outputs, o.common, "models_" + where.id() + ".png", where.title(), o.horizon, o.trials,
             models_panels(policies, curves, lai_robbins));
  }
  table << final_regret_note(o.horizon, o.trials, o.common.seed)
        << " Lai–Robbins C = sum over suboptimal arms of gap / KL(mu_a, mu*); C log T is the "
           "asymptotic lower bound at T.\n";
  outputs.write("models.md", table.str());
  outputs.write("models_params.txt", params_text);
  return run.commit(outputs, "models.csv", table.str(), policy_rounds);
}

inline job add_models(CLI::App& app) {
  auto o = std::make_shared<models_options>();
  return {add_common_options(app.add_subcommand("models",
                                                "Bernoulli and Poisson bandits: {Bernoulli, Poisson} x gap {0.1, 0.5} x "
                                                "K {10, 50}, nine policies and the Lai-Robbins bound"),
                             o->common, "results/models", o->horizon, &o->trials, "Trials per setting"),
          [o](std::ostream& out, const seconds_since_start& seconds) {
            run_models(*o).print(out, "models", seconds(), o->common);
          }};
}

}  // namespace repro
