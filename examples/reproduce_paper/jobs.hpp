#pragma once
// The three jobs of the reproduction: figure1, ablation, tune. Each writes CSV (long form),
// PNG plots (gnuplot) and a Markdown table into its output folder and returns the table.
// Outputs depend only on the arguments, never on the thread count or the machine's speed, so
// a rerun reproduces them byte for byte; wall time goes to the terminal only.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <sabandit/sim.hpp>

#include "reproduce_paper/output.hpp"
#include "reproduce_paper/progress.hpp"
#include "reproduce_paper/suite.hpp"

namespace repro {

struct common_options {
  std::uint64_t seed = 2026;
  unsigned threads = 0;
  fs::path out = "results";
  bool plots = true;
  Eigen::Index record_points = 100;
};

inline std::string format(const char* fmt, double a, double b) {
  char text[64];
  std::snprintf(text, sizeof text, fmt, a, b);
  return text;
}

inline series to_series(const std::string& label, const sabandit::regret_curve& c,
                        policy_style style) {
  series s{label, style.color, style.dash_type, {}, c.mean_regret, c.standard_error};
  s.x.assign(c.rounds.begin(), c.rounds.end());
  return s;
}

// ---------------------------------------------------------------------------------- figure1

struct figure1_options {
  common_options common;
  Eigen::Index horizon = 10'000;
  Eigen::Index trials = 50;
  std::vector<setting> grid = figure1_grid();
  suite_params params;
};

struct figure1_result {
  std::string table;          ///< Markdown: final regret +- s.e. per setting and policy
  long long policy_rounds = 0;
  std::vector<double> seconds_per_policy = std::vector<double>(policy_names.size(), 0.0);
};

inline figure1_result run_figure1(const figure1_options& o) {
  const sabandit::run_config config{.horizon = o.horizon, .trials = o.trials,
                                    .seed = o.common.seed, .threads = o.common.threads,
                                    .record_points = o.common.record_points};
  progress bar("figure1", static_cast<long long>(o.grid.size() * policy_names.size()) * o.trials);
  std::string csv = std::string(sabandit::regret_csv_header) + "\n";
  std::ostringstream table;
  table << "| setting |";
  for (const auto& p : policy_names) table << ' ' << p << " |";
  table << "\n|---|";
  for (std::size_t i = 0; i < policy_names.size(); ++i) table << "---|";
  table << '\n';
  figure1_result result;
  for (const auto& where : o.grid) {
    std::vector<series> lines;
    std::vector<double> finals;
    table << "| " << where.title() << " |";
    for (std::size_t pi = 0; pi < policy_names.size(); ++pi) {
      const auto& policy = policy_names[pi];
      const double started = bar.seconds();
      const auto curve = run_policy(policy, o.params, where, config, bar.hook());
      result.seconds_per_policy[pi] += bar.seconds() - started;
      std::ostringstream rows;
      sabandit::write_regret_csv_rows(rows, where.id(), policy, curve);
      csv += rows.str();
      lines.push_back(to_series(policy, curve, style_of(policy)));
      finals.push_back(curve.final_regret());
      table << ' ' << format("%.1f ± %.1f", curve.final_regret(), curve.final_standard_error())
            << " |";
      result.policy_rounds += o.horizon * o.trials;
    }
    table << '\n';
    if (o.common.plots) {
      plot_png(o.common.out / ("figure1_" + where.id() + ".png"), where.title(), "round",
               "cumulative pseudo-regret (mean ± 1 s.e.)", lines);
    }
  }
  char footer[256];
  std::snprintf(footer, sizeof footer,
                "\nFinal cumulative pseudo-regret at T = %lld, mean ± standard error over %lld "
                "trials, seed %llu.\n",
                static_cast<long long>(o.horizon), static_cast<long long>(o.trials),
                static_cast<unsigned long long>(o.common.seed));
  table << footer;
  write_file_atomically(o.common.out / "figure1.csv", csv);
  write_file_atomically(o.common.out / "figure1.md", table.str());
  write_file_atomically(o.common.out / "figure1_params.txt", o.params.to_text());
  result.table = table.str();
  return result;
}

// --------------------------------------------------------------------------------- ablation

struct ablation_options {
  common_options common;
  Eigen::Index horizon = 1'000;  ///< the appendix: T = 1,000
  Eigen::Index trials = 100;     ///< the appendix: 100 trials
};

/// One panel: a TS-SA parameter varied around the appendix's default configuration.
struct panel {
  std::string name;
  std::vector<double> values;
  sabandit::ts_sa<>::params base;  ///< the default, with the appendix's per-panel changes
  void (*apply)(sabandit::ts_sa<>::params&, double);
};

/// Replaces one coefficient of the SA schedule gamma_n = c1 / (c2 n^alpha + c3):
/// 0 = c1, 1 = c2, 2 = c3, 3 = alpha.
inline void set_sa_coefficient(sabandit::ts_sa<>::params& p, std::size_t which, double value) {
  const auto& s = p.sa_schedule;
  std::array<double, 4> c{s.c1(), s.c2(), s.c3(), s.alpha()};
  c[which] = value;
  p.sa_schedule = sabandit::polynomial_decay(c[0], c[1], c[2], c[3]);
}

inline std::vector<panel> ablation_panels() {
  using P = sabandit::ts_sa<>::params;
  const P paper{};
  P small_window = paper;
  small_window.window = 5;  // the appendix: B = 5 for the c1, c2, c3, alpha panels
  P small_step = paper;
  small_step.step_size = 0.05;  // the appendix: h = 0.05 for the N panel
  return {
      {"Omega", {1, 5, 10, 20, 30, 50}, paper,
       [](P& p, double v) { p.warmup = static_cast<Eigen::Index>(v); }},
      {"B", {1, 5, 10, 20, 27, 50}, paper,
       [](P& p, double v) { p.window = static_cast<Eigen::Index>(v); }},
      {"N", {1, 2, 5, 10, 20}, small_step,
       [](P& p, double v) { p.inner_steps = static_cast<Eigen::Index>(v); }},
      {"h", {0.01, 0.05, 0.1, 0.25, 0.532, 1.0}, paper, [](P& p, double v) { p.step_size = v; }},
      {"c1", {10, 50, 144.07, 300, 600}, small_window,
       [](P& p, double v) { set_sa_coefficient(p, 0, v); }},
      {"c2", {100, 300, 677.88, 1000, 2000}, small_window,
       [](P& p, double v) { set_sa_coefficient(p, 1, v); }},
      {"c3", {0, 10, 40.02, 100, 500}, small_window,
       [](P& p, double v) { set_sa_coefficient(p, 2, v); }},
      {"alpha", {0.5, 0.7, 0.9, 0.999, 1.0}, small_window,
       [](P& p, double v) { set_sa_coefficient(p, 3, v); }},
  };
}

inline std::string run_ablation(const ablation_options& o) {
  const sabandit::run_config config{.horizon = o.horizon, .trials = o.trials,
                                    .seed = o.common.seed, .threads = o.common.threads,
                                    .record_points = o.common.record_points};
  const auto panels = ablation_panels();
  long long total = 0;
  for (const auto& p : panels) total += static_cast<long long>(p.values.size()) * o.trials;
  progress bar("ablation", total);
  const auto env = sabandit::make_sgr({.num_arms = 10, .gap = 0.5});
  std::string csv = "panel,value,round,mean_regret,std_error,optimal_fraction\n";
  std::ostringstream table;
  table << "| parameter | value | final regret (mean ± s.e.) |\n|---|---|---|\n";
  // A sequential palette, light to dark, for increasing values.
  const char* palette[] = {"#c6dbef", "#9ecae1", "#6baed6", "#3182bd", "#08519c", "#08306b"};
  for (const auto& p : panels) {
    std::vector<series> lines;
    for (std::size_t i = 0; i < p.values.size(); ++i) {
      auto params = p.base;
      p.apply(params, p.values[i]);
      const auto curve = sabandit::simulate(
          env, [&](Eigen::Index) { return sabandit::ts_sa<>(10, params); }, config, bar.hook());
      char value[32];
      std::snprintf(value, sizeof value, "%g", p.values[i]);
      std::ostringstream rows;
      sabandit::write_regret_csv_rows(rows, p.name, value, curve);
      csv += rows.str();
      lines.push_back(to_series(p.name + " = " + value, curve, {palette[i % 6], 1}));
      table << "| " << p.name << " | " << value << " | "
            << format("%.1f ± %.1f", curve.final_regret(), curve.final_standard_error()) << " |\n";
    }
    if (o.common.plots) {
      plot_png(o.common.out / ("ablation_" + p.name + ".png"),
               "TS-SA ablation: " + p.name + " (SGR, K = 10, gap = 0.5)", "round",
               "cumulative pseudo-regret (mean ± 1 s.e.)", lines);
    }
  }
  char footer[200];
  std::snprintf(footer, sizeof footer, "\nSGR, K = 10, gap = 0.5, T = %lld, %lld trials, seed %llu.\n",
                static_cast<long long>(o.horizon), static_cast<long long>(o.trials),
                static_cast<unsigned long long>(o.common.seed));
  table << footer;
  write_file_atomically(o.common.out / "ablation.csv", csv);
  write_file_atomically(o.common.out / "ablation.md", table.str());
  return table.str();
}

// ------------------------------------------------------------------------------------- tune

struct tune_options {
  common_options common;
  setting where{false, 0.5, 10};
  Eigen::Index horizon = 10'000;
  Eigen::Index configs = 27;         ///< random configurations per policy (rung 0)
  Eigen::Index initial_trials = 4;   ///< trials per configuration at rung 0
  Eigen::Index eta = 3;              ///< keep the best 1/eta, give them eta times the trials
  Eigen::Index rungs = 3;
  Eigen::Index eval_trials = 50;
};

/// A tunable parameter: name, range, and whether it is searched on a log scale.
struct dimension {
  std::string key;
  double low, high;
  bool log_scale;
};

/// Successive halving's rungs: configurations alive and trials for each of them.
struct rung {
  Eigen::Index configs;
  Eigen::Index trials;
};
inline std::vector<rung> halving_plan(const tune_options& o) {
  std::vector<rung> plan;
  for (Eigen::Index n = o.configs, r = o.initial_trials;
       static_cast<Eigen::Index>(plan.size()) < o.rungs;
       n = std::max<Eigen::Index>(1, n / o.eta), r *= o.eta) {
    plan.push_back({n, r});
  }
  return plan;
}

/// The parameters the paper tunes for each policy (Experiments, "standardized tuning").
inline std::vector<dimension> search_space(const std::string& policy) {
  const dimension tau{policy + ".tau", 0.01, 10.0, true};
  if (policy == "TS-SA") return {tau, {"TS-SA.h", 0.01, 2.0, true}};
  if (policy == "TS-SGLD") return {tau, {"TS-SGLD.h", 0.001, 1.0, true}};
  if (policy == "eps-TS") return {tau, {"eps-TS.epsilon", 0.0, 0.5, false}};
  return {tau};
}

/// Random search with successive halving (Jamieson & Talwalkar 2016), the same budget for every
/// policy: `configs` random points, each rung keeps the best 1/eta on `eta` times the trials.
/// Random search is robust with one or two dimensions, and halving spends most trials on the
/// promising points. Tuning seeds are streams of (seed, 1, tuning), evaluation uses `seed`
/// itself: the two never share a trial.
inline std::string run_tune(const tune_options& o) {
  constexpr std::uint64_t tuning_role = 0x7475'6e65;  // "tune"
  const std::uint64_t tuning_seed = sabandit::stream_key(o.common.seed, 1, tuning_role);
  const auto plan = halving_plan(o);
  long long budget = 0;
  for (const auto& r : plan) budget += r.configs * r.trials;
  progress bar("tune", budget * static_cast<long long>(policy_names.size()) +
                           o.eval_trials * static_cast<long long>(policy_names.size()));
  suite_params best;
  std::string log = "policy,rung,config,trials,mean_final_regret,parameters\n";
  std::string log_rows;
  for (std::size_t pi = 0; pi < policy_names.size(); ++pi) {
    const auto& policy = policy_names[pi];
    const auto space = search_space(policy);
    auto sampler = sabandit::make_stream(o.common.seed, pi, tuning_role);
    std::vector<suite_params> candidates(static_cast<std::size_t>(o.configs));
    for (auto& c : candidates) {
      for (const auto& d : space) {
        const double u = sabandit::uniform01(sampler);
        c.set(d.key, d.log_scale ? std::exp(std::log(d.low) + u * (std::log(d.high) - std::log(d.low)))
                                 : d.low + u * (d.high - d.low));
      }
    }
    std::vector<std::size_t> alive(candidates.size());
    std::iota(alive.begin(), alive.end(), 0);
    for (std::size_t rung = 0; rung < plan.size(); ++rung) {
      const Eigen::Index trials = plan[rung].trials;
      std::vector<std::pair<double, std::size_t>> scores;
      for (std::size_t c : alive) {
        const sabandit::run_config config{.horizon = o.horizon, .trials = trials, .seed = tuning_seed,
                                          .threads = o.common.threads, .record_points = 1};
        const double regret =
            run_policy(policy, candidates[c], o.where, config, bar.hook()).final_regret();
        scores.emplace_back(regret, c);
        char row[256];
        std::snprintf(row, sizeof row, "%s,%lld,%zu,%lld,%.6f,", policy.c_str(),
                      static_cast<long long>(rung), c, static_cast<long long>(trials), regret);
        log_rows += row;
        for (std::size_t i = 0; i < space.size(); ++i) {
          char cell[64];
          std::snprintf(cell, sizeof cell, "%s%s=%.6g", i ? ";" : "", space[i].key.c_str(),
                        candidates[c].get(space[i].key));
          log_rows += cell;
        }
        log_rows += "\n";
      }
      std::stable_sort(scores.begin(), scores.end());  // ties keep candidate order
      const auto keep =
          static_cast<std::size_t>(rung + 1 < plan.size() ? plan[rung + 1].configs : 1);
      alive.clear();
      for (std::size_t i = 0; i < keep; ++i) alive.push_back(scores[i].second);
    }
    for (const auto& d : space) best.set(d.key, candidates[alive.front()].get(d.key));
  }
  // Evaluation on disjoint seeds.
  std::ostringstream table;
  table << "| policy | tuned parameters | final regret (mean ± s.e.) |\n|---|---|---|\n";
  const sabandit::run_config eval{.horizon = o.horizon, .trials = o.eval_trials,
                                  .seed = o.common.seed, .threads = o.common.threads,
                                  .record_points = 1};
  for (const auto& policy : policy_names) {
    const auto curve = run_policy(policy, best, o.where, eval, bar.hook());
    std::string tuned;
    for (const auto& d : search_space(policy)) {
      char cell[64];
      std::snprintf(cell, sizeof cell, "%s%s = %.4g", tuned.empty() ? "" : ", ",
                    d.key.substr(d.key.find('.') + 1).c_str(), best.get(d.key));
      tuned += cell;
    }
    table << "| " << policy << " | " << tuned << " | "
          << format("%.1f ± %.1f", curve.final_regret(), curve.final_standard_error()) << " |\n";
  }
  char footer[300];
  std::snprintf(footer, sizeof footer,
                "\nTuned on %s, T = %lld: %lld random configurations, successive halving "
                "(eta = %lld, %lld rungs, %lld trials at rung 0) on tuning seeds; evaluated on "
                "%lld trials of seed %llu.\n",
                o.where.title().c_str(), static_cast<long long>(o.horizon),
                static_cast<long long>(o.configs), static_cast<long long>(o.eta),
                static_cast<long long>(o.rungs), static_cast<long long>(o.initial_trials),
                static_cast<long long>(o.eval_trials), static_cast<unsigned long long>(o.common.seed));
  table << footer;
  write_file_atomically(o.common.out / "tune.csv", log + log_rows);
  write_file_atomically(o.common.out / "tuned_params.txt", best.to_text());
  write_file_atomically(o.common.out / "tune.md", table.str());
  return table.str();
}

}  // namespace repro
