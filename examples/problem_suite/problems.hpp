#pragma once
// The problems job: the problems users bring, not the paper's. Bernoulli rates from 1% to 60%
// (click-through, sign-up, A/B), Poisson counts with means from 0.5 to 100, Gaussian rewards
// with sigma from 0.05 to 10, exponential durations (log link) and arms with d-dimensional
// features, each with its own horizon. Two disjoint sets: `tuning`, the few problems a
// developer may look at while choosing defaults, and `evaluation`, the rest, whose arm means
// differ from every tuning mean and whose default seed differs too, so that a default chosen
// on the first set is judged on problems and trials it never saw.
// Outputs as the other grid jobs (reproduce_paper/grid.hpp): problems.csv (one row per problem
// and policy), problems_curves.csv (long form), one PNG per problem and problems.md, staged and
// the same bytes for any thread count.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <sabandit/sim.hpp>

#include "common/checked.hpp"
#include "common/output.hpp"
#include "problem_suite/models.hpp"
#include "reproduce_paper/grid.hpp"

namespace repro {

/// The trials whose regret grew "linearly": over rounds T/2..T by at least `threshold`, half the
/// smallest gap per round, i.e. an optimal arm got at most half of the late pulls (equal gaps);
/// a learning policy's late slope falls towards 0 (its regret is O(log T)).
inline int linear_trials(const sabandit::regret_curve& curve, double threshold) {
  return static_cast<int>(std::count_if(curve.per_trial.begin(), curve.per_trial.end(),
      [&](const sabandit::trial_record& t) { return t.regret - t.regret_half >= threshold; }));
}

enum class reward_kind { bernoulli, poisson, gaussian, exponential };

/// One problem: K arms given by their means, a reward family and a horizon; with d > 1, arm a
/// has features phi_a (d x K, N(0, 1/d) entries from `features_seed`) and a parameter whose
/// linear predictor gives its mean (envs/glm.hpp's parameters_with_predictors), so that the
/// environment is again one mean per arm and only the policies see the features.
struct problem {
  std::string id;     ///< file-name part
  std::string title;  ///< what it stands for
  reward_kind kind = reward_kind::bernoulli;
  std::vector<double> means;
  Eigen::Index horizon = 10'000;
  double noise_sd = 1.0;           ///< Gaussian rewards only
  Eigen::Index dimension = 1;      ///< d; 1: phi_a = 1, one parameter per arm
  std::uint64_t features_seed = 0; ///< d > 1: the features are part of the problem, not of --seed

  [[nodiscard]] Eigen::Index arms() const { return static_cast<Eigen::Index>(means.size()); }
  [[nodiscard]] Eigen::MatrixXd features() const {
    if (dimension == 1) return sabandit::unit_features(arms());
    sabandit::xoshiro256pp gen(features_seed);
    return sabandit::random_features(dimension, arms(), gen);
  }
  /// The smallest positive gap mu* - mu_a: what the linear-regret test measures against.
  [[nodiscard]] double smallest_gap() const {
    const double best = *std::max_element(means.begin(), means.end());
    double gap = best;
    for (const double m : means) gap = m < best ? std::min(gap, best - m) : gap;
    return gap;
  }
  /// "Bernoulli, K = 6, means 0.018 to 0.03" (with sigma and d where they apply).
  [[nodiscard]] std::string setting_text() const {
    static const char* const family[] = {"Bernoulli", "Poisson", "Gaussian", "exponential"};
    const auto [low, high] = std::minmax_element(means.begin(), means.end());
    std::string text = family[static_cast<int>(kind)];
    if (kind == reward_kind::gaussian) text += ", sigma = " + format_real(noise_sd);
    if (dimension > 1) text += ", d = " + std::to_string(dimension) + " features";
    return text + ", K = " + std::to_string(arms()) + ", means " + format_real(*low) + " to " +
           format_real(*high);
  }
};

/// The evaluation set's default seed (every other job's), and the tuning set's: different, so
/// that the two sets never share a trial even when a problem were alike.
inline constexpr std::uint64_t evaluation_seed = 2026;
inline constexpr std::uint64_t tuning_seed = 7;

/// The problems a developer may look at while choosing defaults: one per common family.
inline std::vector<problem> tuning_problems() {
  using enum reward_kind;
  return {
      {"tune_bernoulli_signup", "Sign-up rates", bernoulli, {0.032, 0.038, 0.044, 0.061, 0.041}, 50'000},
      {"tune_poisson_orders", "Orders per hour", poisson, {7.0, 7.5, 8.0, 8.6, 7.8}, 10'000},
      {"tune_gaussian_revenue", "Revenue per visit", gaussian, {10.0, 10.4, 10.9, 11.5, 10.7, 11.1}, 10'000, 2.0},
      {"tune_logistic_d4", "Conversion with item features", bernoulli,
       {0.30, 0.34, 0.38, 0.45, 0.32, 0.41, 0.36, 0.28}, 10'000, 1.0, 4, 41},
  };
}

/// The problems defaults are judged on; no arm mean equals a tuning problem's.
inline std::vector<problem> evaluation_problems() {
  using enum reward_kind;
  std::vector<double> signup50;  // K = 50: 49 rates 0.151, 0.153, ..., 0.247 and the best 0.31
  for (int a = 0; a < 49; ++a) signup50.push_back(0.151 + 0.002 * a);
  signup50.push_back(0.31);
  return {
      {"bernoulli_ctr", "Ad click-through rates", bernoulli,
       {0.020, 0.022, 0.025, 0.030, 0.018, 0.021}, 200'000},
      {"bernoulli_rare", "Rare purchases (base rate 1%)", bernoulli,
       {0.010, 0.012, 0.009, 0.011, 0.014, 0.010, 0.013, 0.008, 0.012, 0.018}, 200'000},
      {"bernoulli_k50", "Fifty landing pages", bernoulli, signup50, 50'000},
      {"bernoulli_ab", "A/B test of a 60% flow", bernoulli, {0.54, 0.60}, 10'000},
      {"bernoulli_email", "E-mail subject lines", bernoulli, {0.18, 0.21, 0.23, 0.20, 0.26}, 20'000},
      {"poisson_callcentre", "Call-centre calls handled per hour", poisson, {3.0, 3.2, 2.5, 3.5}, 20'000},
      {"poisson_purchases", "Purchases per session", poisson, {0.50, 0.62, 0.55, 0.71, 0.58}, 20'000},
      {"poisson_orders", "Daily orders per store", poisson, {100.0, 96.0, 92.0, 98.0, 90.0}, 10'000},
      {"gaussian_small_noise", "Conversion value, low noise", gaussian,
       {0.50, 0.52, 0.47, 0.55, 0.53, 0.49, 0.51, 0.54, 0.48, 0.56}, 10'000, 0.05},
      {"gaussian_large_noise", "Basket value, high noise", gaussian, {50.0, 53.0, 48.0, 56.0, 51.0}, 20'000, 10.0},
      {"exponential_sessions", "Session length in minutes", exponential, {4.0, 4.6, 5.2, 4.9, 5.8}, 20'000},
      {"logistic_d3", "Clicks with item features", bernoulli,
       {0.11, 0.14, 0.09, 0.17, 0.12, 0.21, 0.16, 0.10, 0.15, 0.25}, 20'000, 1.0, 3, 3},
      {"linear_gaussian_d5", "Ratings with item features", gaussian,
       {1.0, 1.3, 0.8, 1.6, 1.1, 1.9, 1.4, 0.9, 1.2, 2.2}, 10'000, 1.0, 5, 5},
  };
}

/// Calls `body(model, env)` with `p`'s reward model and environment, so that everything
/// downstream is written once, as a template over the model. Gaussian policies are given the
/// true noise variance (a user who knows sigma passes gaussian_model(sigma^2)).
template <class Body>
void with_problem(const problem& p, Body body) {
  using namespace sabandit;
  const auto env = [&]<class Arm>(auto make_arm) {
    std::vector<Arm> arms;
    for (const double m : p.means) arms.push_back(make_arm(m));
    return bandit_env<Arm>(std::move(arms));
  };
  const double variance = p.noise_sd * p.noise_sd;
  switch (p.kind) {
    case reward_kind::bernoulli:
      return body(bernoulli_model{}, env.template operator()<bernoulli_arm>([](double m) { return bernoulli_arm(m); }));
    case reward_kind::poisson:
      return body(poisson_model{}, env.template operator()<poisson_arm>([](double m) { return poisson_arm(m); }));
    case reward_kind::gaussian:
      return body(gaussian_model(variance),
                  env.template operator()<normal_arm>([&](double m) { return normal_arm(m, variance); }));
    case reward_kind::exponential:
      return body(exponential_model{},
                  env.template operator()<exponential_arm>([](double m) { return exponential_arm(m); }));
  }
}

/// The job's policies in table order; the first present on a problem is its reference.
inline const std::vector<std::string>& problem_policy_names() {
  static const std::vector<std::string> names{"TS",  "TS-SGLD",       "TS-SGLD (Fisher)", "KL-UCB",
                                              "UCB", "TS-SA (paper)", "TS-SA (default)"};
  return names;
}

/// The policy registry: `visit(name, make)`, `make()` building a fresh policy, every policy
/// with its default parameters but TS-SA (paper) and TS-SGLD (Fisher), TS-SGLD with the optional
/// Fisher preconditioning (ts_sgld::params::metric). Exact TS where the model has a conjugate
/// posterior, KL-UCB where it has a divergence; those two and UCB model one mean per arm, so
/// they run only where phi_a = 1 (d = 1): the features are for the Langevin policies.
template <class Model, class Visit>
void for_each_problem_policy(const Model& model, const Eigen::MatrixXd& phi, Visit visit) {
  using namespace sabandit;
  const Eigen::Index k = phi.cols();
  const bool one_mean_per_arm = phi.rows() == 1;
  if constexpr (ConjugateRewardModel<Model>) {
    if (one_mean_per_arm) visit("TS", [=] { return thompson<Model>(k, {}, model); });
  }
  visit("TS-SGLD", [=] { return ts_sgld<Model>(phi, {}, model); });
  visit("TS-SGLD (Fisher)",
        [=] { return ts_sgld<Model>(phi, {.metric = step_metric::fisher}, model); });
  if constexpr (DivergenceRewardModel<Model>) {
    if (one_mean_per_arm) visit("KL-UCB", [=] { return kl_ucb<Model>(k, {}, model); });
  }
  if (one_mean_per_arm) visit("UCB", [=] { return ucb(k); });
  visit("TS-SA (paper)", [=] { return ts_sa<Model>(phi, ts_sa<Model>::params::paper(), model); });
  visit("TS-SA (default)", [=] { return ts_sa<Model>(phi, {}, model); });
}

struct problems_options {
  common_options common;
  bool tuning_set = false;         ///< --set tuning; else the evaluation set
  Eigen::Index horizon = 0;        ///< 0: each problem's own T
  Eigen::Index trials = 40;
  std::vector<std::string> args;   ///< the command line, printed in problems.md
  std::vector<problem> problems;   ///< empty: the set's
};

/// One problem x policy cell.
struct problem_cell {
  std::string policy;
  sabandit::regret_curve curve;  ///< with every trial's record (regret_curve::per_trial)
  std::string failure;  ///< empty: ran; else why not (a diverged iterate, a failed warm start)
};

namespace problems_detail {

/// A failure's message as one CSV field: no commas or line breaks.
inline std::string csv_field(std::string text) {
  for (char& c : text) c = c == ',' ? ';' : c == '\n' ? ' ' : c;
  return text;
}

inline const problem_cell* reference_of(const std::vector<problem_cell>& cells) {
  return cells.front().failure.empty() ? &cells.front() : nullptr;
}

inline double ratio(const problem_cell& cell, const problem_cell* reference) {
  if (!reference || !cell.failure.empty() || reference->curve.final_regret() <= 0.0) return NAN;
  return cell.curve.final_regret() / reference->curve.final_regret();
}

/// Per policy over the problems it ran on: the geometric mean and the worst of its ratios to
/// the reference, its linear trials, and the problems where it failed.
struct policy_summary {
  int problems = 0;
  double log_ratio_sum = 0.0;
  int ratios = 0;
  double worst_ratio = 0.0;
  std::string worst_problem;
  int linear = 0;
  long long trials = 0;
  int failures = 0;
};

}  // namespace problems_detail

inline grid_result run_problems(const problems_options& o) {
  using namespace problems_detail;
  const auto problems = !o.problems.empty() ? o.problems : o.tuning_set ? tuning_problems() : evaluation_problems();
  const auto horizon_of = [&](const problem& p) { return o.horizon > 0 ? o.horizon : p.horizon; };
  long long policy_rounds = 0;
  long long trials_total = 0;
  for (const auto& p : problems) {
    int runs = 0;
    with_problem(p, [&](const auto& model, const auto&) {
      for_each_problem_policy(model, p.features(), [&](std::string_view, auto) { ++runs; });
    });
    policy_rounds = checked_add(
        policy_rounds, grid_policy_rounds(horizon_of(p), o.trials, runs, o.common.record_points),
        "the total of --horizon (T) x --trials (R) x policies");
    trials_total += runs * o.trials;
  }
  output_set outputs(o.common.out, "problems_");  // --out is writable, or we stop here

  grid_run run("problems", trials_total);
  const std::string set_name = o.tuning_set ? "tuning" : "evaluation";
  std::string summary_csv =
      "set,problem,policy,horizon,trials,seed,mean_regret,std_error,reference,ratio,worst_regret,"
      "linear_trials,linear_threshold,lai_robbins_c,status\n";
  std::ostringstream table;
  table << "| problem | policy | regret at T (mean ± s.e.) | ratio to reference | worst trial | linear trials |\n"
        << "|---|---|---|---|---|---|\n";
  std::map<std::string, policy_summary> summaries;

  for (const auto& p : problems) {
    const Eigen::Index horizon = horizon_of(p);
    const sabandit::run_config config{.horizon = horizon, .trials = o.trials, .seed = o.common.seed,
                                      .threads = o.common.threads, .record_points = o.common.record_points};
    std::vector<problem_cell> cells;
    double lai_robbins = NAN;  // every model here has a divergence; one without would leave it unknown
    with_problem(p, [&](const auto& model, const auto& env) {
      if constexpr (sabandit::DivergenceRewardModel<std::decay_t<decltype(model)>>) {
        lai_robbins = sabandit::lai_robbins_constant(model, env);
      }
      for_each_problem_policy(model, p.features(), [&](std::string_view name, auto make) {
        problem_cell cell{std::string(name), {}, {}};
        try {
          cell.curve = run.add(p.id, cell.policy, [&](auto hook) {
            return simulate_cancellable(env, [&](Eigen::Index) { return make(); }, config, hook);
          });
        } catch (const std::domain_error& failure) {  // the library's "non-finite iterate", "warm start failed"
          cell.failure = failure.what();
        }
        cells.push_back(std::move(cell));
      });
    });

    const problem_cell* reference = reference_of(cells);
    const double threshold = 0.5 * p.smallest_gap() * static_cast<double>(horizon - horizon / 2);
    char limits[96];
    std::snprintf(limits, sizeof limits, "; linear above %.4g, C log 2 = %.4g", threshold,
                  lai_robbins * std::log(2.0));
    const std::string title = p.title + " (" + p.setting_text() + ", T = " + std::to_string(horizon) + limits + ")";
    std::vector<series> lines;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const auto& cell = cells[c];
      auto& s = summaries[cell.policy];
      ++s.problems;
      const double r = ratio(cell, reference);
      char text[160];
      std::snprintf(text, sizeof text, "%s,%s,%s,%lld,%lld,%llu,", set_name.c_str(), p.id.c_str(),
                    cell.policy.c_str(), static_cast<long long>(horizon), static_cast<long long>(o.trials),
                    static_cast<unsigned long long>(o.common.seed));
      summary_csv += text;
      table << "| " << (c == 0 ? title : "") << " | " << cell.policy << " | ";
      if (!cell.failure.empty()) {
        ++s.failures;
        std::snprintf(text, sizeof text, ",,%s,,,,%.6g,%.6g,failed: ", cells.front().policy.c_str(), threshold,
                      lai_robbins);
        summary_csv += text + csv_field(cell.failure) + "\n";
        table << "failed: " << cell.failure << " | | | |\n";
        continue;
      }
      const auto& curve = cell.curve;
      const int linear = linear_trials(curve, threshold);
      const double worst = *std::max_element(curve.final_regrets.begin(), curve.final_regrets.end());
      s.linear += linear;
      s.trials += o.trials;
      std::snprintf(text, sizeof text, "%.6g,%.6g,%s,%.6g,%.6g,%d,%.6g,%.6g,ok\n", curve.final_regret(),
                    curve.final_standard_error(), cells.front().policy.c_str(), r, worst, linear,
                    threshold, lai_robbins);
      summary_csv += text;
      char ratio_text[64];
      if (&cell == reference) {
        std::snprintf(ratio_text, sizeof ratio_text, "1 (%s)", cell.policy.c_str());
      } else if (std::isnan(r)) {
        std::snprintf(ratio_text, sizeof ratio_text, "n/a");
      } else {
        std::snprintf(ratio_text, sizeof ratio_text, "%.2f", r);
        s.log_ratio_sum += std::log(r);
        ++s.ratios;
        if (r > s.worst_ratio) {
          s.worst_ratio = r;
          s.worst_problem = p.id;
        }
      }
      std::snprintf(text, sizeof text, "%s | %.1f | %d / %lld |\n", ratio_text, worst, linear,
                    static_cast<long long>(o.trials));
      table << mean_se(curve) << " | " << text;
      lines.push_back(styled_series(cell.policy, curve));
    }
    if (!lines.empty()) {
      plot_run(outputs, o.common, "problems_" + p.id + ".png", p.title + " (" + p.setting_text() + ")", horizon,
               o.trials,
               reference ? regret_panels(lines, reference->curve.mean_regret, "regret minus " + cells.front().policy + "'s")
                         : std::vector<panel_spec>{{"cumulative pseudo-regret (mean ± 1 s.e.)", lines, false}});
    }
  }

  std::ostringstream md;
  md << "# problem_suite problems: the " << set_name << " set\n\n"
     << "Command: `" << shell_command("problem_suite", o.args) << "`\n\n"
     << table.str()
     << "\nRegret: cumulative pseudo-regret at T, sum over rounds of mu* - mu_{A_t}, mean ± standard error over "
     << o.trials << " trials, seed " << o.common.seed
     << "; every policy of a problem sees the same rewards (common random numbers). Ratio: mean regret over "
        "the reference's, the problem's first row: exact TS (Beta(1, 1), Gamma(1, 1e-4), a flat normal or "
        "Jeffreys' InverseGamma(0, 0) prior, Gaussian rewards with the true sigma) where the model has a "
        "conjugate posterior and one mean per arm, TS-SGLD otherwise (features). Worst trial: the largest final regret of "
        "a trial. Linear trials: trials whose regret grows by at least half the smallest gap per round over "
        "the second half, R(T) - R(T/2) >= (Delta_min / 2) (T - T/2), i.e. (for equal gaps) at most half of "
        "the late pulls go to an optimal arm. A consistent policy has E[R(T)] ~ C log T (Lai & Robbins 1985), "
        "so E[R(T) - R(T/2)] tends to C log 2, with C = sum over suboptimal arms of Delta_a / KL(mu_a, mu*) "
        "(the model's divergence); each problem's first row gives the threshold beside C log 2, which at the problems' own horizons "
        "lies 3.7 to 130 times below it: a trial above the threshold has stopped learning. Policies: their default parameters (UCB tau = 1, KL-UCB c = 0, TS-SGLD and "
        "TS-SA `params{}`), TS-SA (paper) `params::paper()`, TS-SGLD (Fisher) `{.metric = step_metric::fisher}`; exact TS, KL-UCB and UCB only where d = 1.\n";
  md << "\n| policy | problems | geometric mean of ratios | worst ratio (problem) | linear trials | failed |\n"
     << "|---|---|---|---|---|---|\n";
  for (const auto& name : problem_policy_names()) {
    const auto it = summaries.find(name);
    if (it == summaries.end()) continue;
    const auto& s = it->second;
    char row[320];
    if (s.ratios > 0) {
      std::snprintf(row, sizeof row, "| %s | %d | %.2f | %.2f (%s) | %d / %lld | %d |\n", name.c_str(), s.problems,
                    std::exp(s.log_ratio_sum / s.ratios), s.worst_ratio, s.worst_problem.c_str(), s.linear,
                    s.trials, s.failures);
    } else {
      std::snprintf(row, sizeof row, "| %s | %d | reference | | %d / %lld | %d |\n", name.c_str(), s.problems,
                    s.linear, s.trials, s.failures);
    }
    md << row;
  }
  md << "\nRatios are to each problem's reference (TS where it runs, else TS-SGLD); a policy that is itself "
        "the reference on some problems has ratios only on the others.\n";
  outputs.write("problems.csv", summary_csv);
  outputs.write("problems.md", md.str());
  return run.commit(outputs, "problems_curves.csv", md.str(), policy_rounds);
}

/// `args`: the command line, which problems.md prints.
inline job add_problems(CLI::App& app, const std::vector<std::string>& args) {
  auto o = std::make_shared<problems_options>();
  auto set = std::make_shared<std::string>("evaluation");
  auto* problems = add_common_options(
      app.add_subcommand("problems", "The problems users bring: Bernoulli, Poisson, Gaussian, exponential and feature "
                                     "bandits, every policy with its defaults; a tuning set and a disjoint evaluation set"),
      o->common, "results/problems", o->horizon, &o->trials, "Trials per problem and policy", 2,
      "Rounds per trial for every problem (default 0: each problem's own T, 10,000 to 200,000)");
  add_choice(*problems, "--set", *set,
             "evaluation: the problems defaults are judged on (default --seed 2026); tuning: the few a developer may "
             "look at while choosing them (default --seed 7), no arm mean in common",
             {"evaluation", "tuning"});
  return {problems, [o, set, problems, args](std::ostream& out, const seconds_since_start& seconds) {
            o->tuning_set = *set == "tuning";
            if (problems->count("--seed") == 0) o->common.seed = o->tuning_set ? tuning_seed : evaluation_seed;
            o->args = args;
            run_problems(*o).print(out, "problems", seconds(), o->common);
          }};
}

}  // namespace repro
