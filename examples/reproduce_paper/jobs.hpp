#pragma once
// The paper's three jobs: figure1, ablation, tune. Each writes CSV (long form), PNG plots
// (gnuplot) and a Markdown table into its output folder and returns the table.
// Outputs depend only on the arguments, never on the thread count or the machine's speed, so
// a rerun reproduces them byte for byte; wall time goes to the terminal only.
// Each job checks its sizes (no product of counts may overflow) and that --out is writable
// before computing, writes its whole output set into a staging folder and swaps it in at the
// end (common/output.hpp), and stops cleanly on SIGINT or SIGTERM (common/cancel.hpp).
#include <algorithm>
#include <array>
#include <memory>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <utility>
#include <sstream>
#include <string>
#include <vector>

#include <sabandit/sim.hpp>

#include "common/checked.hpp"
#include "common/command.hpp"
#include "common/output.hpp"
#include "reproduce_paper/grid.hpp"
#include "reproduce_paper/suite.hpp"

namespace repro {

/// "JOB: 1.23 s wall; outputs in OUT": what the jobs without a grid print last.
inline std::string wall_line(const char* name, double seconds, const common_options& c) {
  char line[128];
  std::snprintf(line, sizeof line, "%s: %.2f s wall; outputs in ", name, seconds);
  return line + c.out.string();
}

// ---------------------------------------------------------------------------------- figure1

struct figure1_options {
  common_options common;
  Eigen::Index horizon = 10'000;
  Eigen::Index trials = 50;
  std::vector<setting> grid = figure1_grid();
  grid_params params;  ///< per-setting sections optional (tune --protocol paper writes them)
};

inline grid_result run_figure1(const figure1_options& o) {
  const auto runs = static_cast<long long>(o.grid.size() * policy_names.size());
  const long long policy_rounds = grid_policy_rounds(o.horizon, o.trials, runs, o.common.record_points);
  o.params.base.validate();
  o.params.require_sections_in(o.grid);
  output_set outputs(o.common.out, "figure1_");  // --out is writable, or we stop here

  const auto config = grid_config(o.common, o.horizon, o.trials);
  grid_run run("figure1", runs * o.trials);
  std::ostringstream table;
  table << setting_table_header(policy_names);
  for (const auto& where : o.grid) {
    std::vector<sabandit::regret_curve> curves;
    std::vector<series> lines;
    table << "| " << where.title() << " |";
    for (const auto& policy : policy_names) {
      curves.push_back(run.add(where.id(), policy, [&](auto hook) {
        return run_policy(policy, o.params.at(where), where, config, hook);
      }));
      table << ' ' << mean_se(curves.back()) << " |";
      lines.push_back(styled_series(policy, curves.back()));
    }
    table << '\n';
    plot_run(outputs, o.common, "figure1_" + where.id() + ".png", where.title(), o.horizon, o.trials,
             regret_panels(lines, curves.front().mean_regret, "regret minus TS's regret"));
  }
  table << final_regret_note(o.horizon, o.trials, o.common.seed)
        << " Every policy has the parameters of figure1_params.txt: TS-SA is Algorithm 1 as printed"
           " (the identity metric), not the library's scale-free default"
           " (docs/scale-free-ts-sa.md).\n";
  outputs.write("figure1.md", table.str());
  outputs.write("figure1_params.txt", o.params.to_text());
  return run.commit(outputs, "figure1.csv", table.str(), policy_rounds);
}

inline job add_figure1(CLI::App& app) {
  auto o = std::make_shared<figure1_options>();
  auto file = std::make_shared<std::string>();
  auto* command = add_common_options(
      app.add_subcommand("figure1", "Figure 1: {SGR, MGR} x gap {0.1, 0.5} x K {10, 50}, five policies"), o->common,
      "results/figure1", o->horizon, &o->trials, "Trials per setting");
  command->add_option("--params", *file,
                      "Parameter file (as written by figure1 or tune: every parameter of every policy, and optional "
                      "[K = INT, gap = REAL] sections for settings of their own)");
  return {command, [o, file](std::ostream& out, const seconds_since_start& seconds) {
            if (!file->empty()) o->params = grid_params::from_file(*file);
            run_figure1(*o).print(out, "figure1", seconds(), o->common);
          }};
}

// --------------------------------------------------------------------------------- ablation

struct ablation_options {
  common_options common;
  Eigen::Index horizon = 1'000;  ///< the appendix: T = 1,000
  Eigen::Index trials = 100;     ///< the appendix: 100 trials
};

/// One panel: a TS-SA parameter (the parameter file's TS-SA.NAME) varied around the appendix's
/// default configuration.
struct panel {
  std::string name;
  std::vector<double> values;
  sabandit::ts_sa<>::params base;  ///< the default, with the appendix's per-panel changes
};

inline std::vector<panel> ablation_panels() {
  using P = sabandit::ts_sa<>::params;
  const P paper = P::paper();
  P small_window = paper;
  small_window.window = 5;  // the appendix: B = 5 for the c1, c2, c3, alpha panels
  P small_step = paper;
  small_step.step_size = 0.05;  // the appendix: h = 0.05 for the N panel
  return {{"Omega", {1, 5, 10, 20, 30, 50}, paper},
          {"B", {1, 5, 10, 20, 27, 50}, paper},
          {"N", {1, 2, 5, 10, 20}, small_step},
          {"h", {0.01, 0.05, 0.1, 0.25, 0.532, 1.0}, paper},
          {"c1", {10, 50, 144.07, 300, 600}, small_window},
          {"c2", {100, 300, 677.88, 1000, 2000}, small_window},
          {"c3", {0, 10, 40.02, 100, 500}, small_window},
          {"alpha", {0.5, 0.7, 0.9, 0.999, 1.0}, small_window}};
}

inline std::string run_ablation(const ablation_options& o) {
  const auto panels = ablation_panels();
  long long total = 0;
  for (const auto& p : panels) {
    total = checked_add(total, checked_mul(static_cast<long long>(p.values.size()), o.trials, "--trials (R)"),
                        "--trials (R)");
  }
  (void)checked_mul(total, o.horizon, "--trials (R) x --horizon (T) x ablation values");
  check_run_size(o.horizon, o.common.record_points);
  output_set outputs(o.common.out, "ablation_");

  const auto config = grid_config(o.common, o.horizon, o.trials);
  grid_run run("ablation", total, "panel,value,round,mean_regret,std_error,optimal_fraction\n");
  const auto env = sabandit::make_sgr({.num_arms = 10, .gap = 0.5});
  std::ostringstream table;
  table << "| parameter | value | final regret (mean ± s.e.) |\n|---|---|---|\n";
  // Increasing values: a sequential palette (viridis, dark to light, without its faint yellow
  // end) and a dash pattern each, so that neighbours differ in both.
  const char* palette[] = {"#440154", "#414487", "#2A788E", "#22A884", "#7AD151", "#B8A200"};
  for (const auto& p : panels) {
    std::vector<series> lines;
    for (std::size_t i = 0; i < p.values.size(); ++i) {
      suite_params varied;
      varied.sa = p.base;
      varied.set("TS-SA." + p.name, p.values[i]);
      const auto& params = varied.sa;
      char value[32];
      std::snprintf(value, sizeof value, "%g", p.values[i]);
      const auto curve = run.add(p.name, value, [&](auto hook) {
        return simulate_cancellable(env, [&](Eigen::Index) { return sabandit::ts_sa<>(10, params); }, config, hook);
      });
      lines.push_back(to_series(p.name + " = " + value, curve,
                                {palette[i % 6], static_cast<int>(i % 5) + 1, 2}));
      table << "| " << p.name << " | " << value << " | " << mean_se(curve) << " |\n";
    }
    plot_run(outputs, o.common, "ablation_" + p.name + ".png", "TS-SA ablation: " + p.name + " (SGR, K = 10, gap = 0.5)",
             o.horizon, o.trials, {{"cumulative pseudo-regret (mean ± 1 s.e.)", lines, false}});
  }
  char footer[200];
  std::snprintf(footer, sizeof footer, "\nSGR, K = 10, gap = 0.5, T = %lld, %lld trials, seed %llu.\n",
                static_cast<long long>(o.horizon), static_cast<long long>(o.trials),
                static_cast<unsigned long long>(o.common.seed));
  table << footer;
  outputs.write("ablation.csv", run.csv);
  outputs.write("ablation.md", table.str());
  outputs.commit();
  return table.str();
}

inline job add_ablation(CLI::App& app) {
  auto o = std::make_shared<ablation_options>();
  return {add_common_options(app.add_subcommand("ablation", "TS-SA ablations around the appendix's default configuration"),
                             o->common, "results/ablation", o->horizon, &o->trials, "Trials per value"),
          [o](std::ostream& out, const seconds_since_start& seconds) {
            out << run_ablation(*o) << '\n' << wall_line("ablation", seconds(), o->common) << '\n';
          }};
}

// ------------------------------------------------------------------------------------- tune

/// TS-SA's search space in the tune job. The paper names two: its Experiments section tunes
/// "the SGLD step size h and temperature tau", its appendix ("Additional Experimental Details")
/// "the SGLD step size and the SA coefficient alpha". The wide one is sabandit's: every
/// parameter the appendix's sensitivity study varies except c1, c2, c3.
enum class ts_sa_space { h_alpha, h_tau, wide };

/// The spaces' names on the command line and in tune.md, in the enum's order.
inline const std::vector<std::string> space_names = {"h-alpha", "h-tau", "wide"};

struct tune_options {
  common_options common;
  setting where{false, 0.5, 10};     ///< --protocol single: the setting tuned on
  bool per_setting = false;          ///< --protocol paper: one search per (K, gap) of Figure 1
  ts_sa_space space = ts_sa_space::h_alpha;
  Eigen::Index horizon = 10'000;
  Eigen::Index configs = 27;         ///< random configurations per policy (rung 0)
  Eigen::Index initial_trials = 4;   ///< trials per configuration at rung 0
  Eigen::Index eta = 3;              ///< keep the best 1/eta, give them eta times the trials
  Eigen::Index rungs = 3;
  Eigen::Index eval_trials = 50;     ///< 0: no evaluation here (figure1 --params does it)
};

/// The settings a tune run searches: the one of --protocol single, or, for --protocol paper,
/// each (K, gap) of Figure 1 on the reward model of `o.where` (SGR unless --env MGR): the
/// appendix tunes per K in {10, 50} and gap in {0.1, 0.5}.
inline std::vector<setting> tuning_settings(const tune_options& o) {
  if (!o.per_setting) return {o.where};
  std::vector<setting> settings;
  for (const auto& s : figure1_grid()) {
    if (s.mixture == o.where.mixture) settings.push_back(s);
  }
  return settings;
}

/// A tunable parameter: name, range, whether it is searched on a log scale, and whether it is
/// an integer (rounded after drawing).
struct dimension {
  std::string key;
  double low, high;
  bool log_scale;
  bool integer = false;
};

/// Successive halving's rungs: configurations alive and trials for each of them.
struct rung {
  Eigen::Index configs;
  Eigen::Index trials;
};
inline std::vector<rung> halving_plan(const tune_options& o) {
  std::vector<rung> plan;
  Eigen::Index n = o.configs;
  Eigen::Index r = o.initial_trials;
  while (static_cast<Eigen::Index>(plan.size()) < o.rungs) {
    plan.push_back({n, r});
    if (static_cast<Eigen::Index>(plan.size()) == o.rungs) break;
    n = std::max<Eigen::Index>(1, n / o.eta);
    r = checked_mul(r, o.eta, "--initial-trials x --eta^(--rungs - 1)");
  }
  return plan;
}

/// Trials of one policy's search, all rungs: sum of configurations x trials, checked.
inline long long search_trials(const std::vector<rung>& plan) {
  long long budget = 0;
  for (const auto& r : plan) {
    budget = checked_add(budget, checked_mul(r.configs, r.trials, "--configs x trials per rung"),
                         "the search budget (--configs, --initial-trials, --eta, --rungs)");
  }
  return budget;
}

/// The parameters tuned for each policy: the baselines' are the appendix's ("Baseline
/// Implementation": UCB tau; TS tau; eps-TS tau and epsilon; TS-SGLD h and tau), TS-SA's
/// depend on `space`. Ranges: tau log-uniform in [0.01, 10]; TS-SA's h in [0.01, 10] (wider
/// than a plain Langevin chain's stable h < 2 sigma^2, because line 9's average moves the iterate
/// by gamma_n h, about 0.011 h at n = 19 with the appendix's schedule); alpha uniform in
/// [0.5, 1], the exponents for which sum gamma_n = infinity and sum gamma_n^2 < infinity
/// (Robbins and Monro's conditions); the wide space's N in [1, 20], B in [1, 100] and Omega in
/// [1, 50], log-uniform integers, bracket the appendix's ablation values.
inline std::vector<dimension> search_space(const std::string& policy, ts_sa_space space) {
  const dimension tau{policy + ".tau", 0.01, 10.0, true};
  if (policy == "TS-SA") {
    const dimension h{"TS-SA.h", 0.01, 10.0, true};
    const dimension alpha{"TS-SA.alpha", 0.5, 1.0, false};
    if (space == ts_sa_space::h_tau) return {h, tau};
    if (space == ts_sa_space::h_alpha) return {h, alpha};
    return {h, alpha, tau, {"TS-SA.N", 1, 20, true, true}, {"TS-SA.B", 1, 100, true, true},
            {"TS-SA.Omega", 1, 50, true, true}};
  }
  if (policy == "TS-SGLD") return {tau, {"TS-SGLD.h", 0.001, 1.0, true}};
  if (policy == "eps-TS") return {tau, {"eps-TS.epsilon", 0.0, 0.5, false}};
  return {tau};
}

/// "h = 0.5, alpha = 0.7": the tuned values of one policy, as the tables show them.
inline std::string tuned_text(const suite_params& params, const std::vector<dimension>& space) {
  std::string text;
  for (const auto& d : space) {
    char cell[64];
    std::snprintf(cell, sizeof cell, "%s%s = %.4g", text.empty() ? "" : ", ",
                  d.key.substr(d.key.find('.') + 1).c_str(), params.get(d.key));
    text += cell;
  }
  return text;
}

/// The winner of one policy's search on one setting, with its score on the final rung.
struct search_result {
  suite_params params;
  double final_rung_regret = 0.0;
  Eigen::Index final_rung_trials = 0;
};

/// Random search with successive halving (Jamieson & Talwalkar 2016) for one policy on one
/// setting: `configs` random points, each rung keeps the best 1/eta on `eta` times the trials.
/// Appends one log row per evaluated configuration to `log`.
template <class Hook>
search_result search_policy(const tune_options& o, std::size_t policy_index, const setting& where,
                            std::uint64_t tuning_seed, Hook hook,
                            std::string& log) {
  const auto& policy = policy_names[policy_index];
  const auto plan = halving_plan(o);
  const auto space = search_space(policy, o.space);
  auto sampler = sabandit::make_stream(o.common.seed, policy_index, tuning_role);
  std::vector<suite_params> candidates(static_cast<std::size_t>(o.configs));
  for (auto& c : candidates) {
    for (const auto& d : space) {
      const double u = sabandit::uniform01(sampler);
      const double value = d.log_scale ? std::exp(std::log(d.low) + u * (std::log(d.high) - std::log(d.low)))
                                       : d.low + u * (d.high - d.low);
      c.set(d.key, d.integer ? std::round(value) : value);  // an integer is written "7", read back as 7
    }
  }
  std::vector<std::size_t> alive(candidates.size());
  std::iota(alive.begin(), alive.end(), 0);
  search_result result;
  for (std::size_t rung = 0; rung < plan.size(); ++rung) {
    const Eigen::Index trials = plan[rung].trials;
    std::vector<std::pair<double, std::size_t>> scores;
    for (std::size_t c : alive) {
      const sabandit::run_config config{.horizon = o.horizon, .trials = trials, .seed = tuning_seed,
                                        .threads = o.common.threads, .record_points = 1};
      const double regret = run_policy(policy, candidates[c], where, config, hook).final_regret();
      scores.emplace_back(regret, c);
      char row[256];
      std::snprintf(row, sizeof row, "%s,%s,%lld,%zu,%lld,%.6f,", where.id().c_str(), policy.c_str(),
                    static_cast<long long>(rung), c, static_cast<long long>(trials), regret);
      log += row;
      for (std::size_t i = 0; i < space.size(); ++i) {
        log += (i ? ";" : "") + space[i].key + "=" + candidates[c].get_text(space[i].key);
      }
      log += "\n";
    }
    std::stable_sort(scores.begin(), scores.end());  // ties keep candidate order
    const auto keep = static_cast<std::size_t>(rung + 1 < plan.size() ? plan[rung + 1].configs : 1);
    alive.clear();
    for (std::size_t i = 0; i < keep; ++i) alive.push_back(scores[i].second);
    result.final_rung_regret = scores.front().first;
    result.final_rung_trials = trials;
  }
  result.params = candidates[alive.front()];
  return result;
}

struct tune_result {
  std::string table;   ///< Markdown: per setting and policy, the tuned values and their scores
  grid_params tuned;   ///< what tuned_params.txt holds
};

/// The tune job: for each setting of tuning_settings(), every policy searched with the same
/// budget (search_policy). Tuning seeds are streams of (seed, 1, tuning), evaluation uses `seed`
/// itself, as figure1 does: the two never share a trial. Random search is robust with one or two
/// dimensions, and halving spends most trials on the promising points.
inline tune_result run_tune(const tune_options& o) {
  const std::uint64_t tuning_seed = tuning_seed_of(o.common.seed);
  const auto plan = halving_plan(o);
  const auto settings = tuning_settings(o);
  const auto policies = static_cast<long long>(policy_names.size());
  const std::string budget_options = "the tuning budget (--configs, --initial-trials, --eta, --rungs, --eval-trials)";
  const long long all_trials = checked_mul(
      checked_mul(checked_add(search_trials(plan), o.eval_trials, budget_options), policies, budget_options),
      static_cast<long long>(settings.size()), budget_options);
  (void)checked_mul(all_trials, o.horizon, budget_options + " x --horizon (T)");
  check_run_size(o.horizon, 1);
  output_set outputs(o.common.out);
  progress bar("tune", all_trials);

  tune_result result;
  std::string log = "setting,policy,rung,config,trials,mean_final_regret,parameters\n";
  std::ostringstream table;
  table << "| setting | policy | tuned parameters | tuning seeds: mean regret of the winner (final rung) |"
        << (o.eval_trials > 0 ? " evaluation seed: mean ± s.e. |" : "") << "\n|---|---|---|---|"
        << (o.eval_trials > 0 ? "---|" : "") << "\n";
  const sabandit::run_config eval{.horizon = o.horizon, .trials = std::max<Eigen::Index>(o.eval_trials, 1),
                                  .seed = o.common.seed, .threads = o.common.threads, .record_points = 1};
  for (const auto& where : settings) {
    suite_params best;
    std::vector<search_result> winners;
    for (std::size_t pi = 0; pi < policy_names.size(); ++pi) {
      winners.push_back(search_policy(o, pi, where, tuning_seed, bar.hook(), log));
      for (const auto& d : search_space(policy_names[pi], o.space)) {
        best.set_text(d.key, winners.back().params.get_text(d.key));
      }
    }
    const setting_key key{where.arms, where.gap};
    if (o.per_setting) {
      result.tuned.set_section(key, best);
    } else {
      result.tuned.base = best;
    }
    for (std::size_t pi = 0; pi < policy_names.size(); ++pi) {
      const auto& policy = policy_names[pi];
      table << "| " << (o.per_setting ? key.header().substr(1, key.header().size() - 2) : where.title())
            << " | " << policy << " | " << tuned_text(best, search_space(policy, o.space)) << " | "
            << format("%.1f (%.0f trials)", winners[pi].final_rung_regret,
                      static_cast<double>(winners[pi].final_rung_trials))
            << " |";
      if (o.eval_trials > 0) {
        const auto curve = run_policy(policy, best, where, eval, bar.hook());
        table << ' ' << mean_se(curve) << " |";
      }
      table << '\n';
    }
  }
  const std::string evaluated =
      o.eval_trials > 0 ? "; evaluated on " + std::to_string(static_cast<long long>(o.eval_trials)) +
                              " trials of seed " + std::to_string(o.common.seed) + ", the setting's own"
                        : "; figure1 --params tuned_params.txt evaluates them on seed " + std::to_string(o.common.seed);
  char footer[600];
  std::snprintf(footer, sizeof footer,
                "\n%s on %s, T = %lld, TS-SA space %s: for each policy and setting %lld random "
                "configurations, successive halving (eta = %lld, %lld rungs, %lld trials at rung 0; "
                "%lld trials per policy and setting) on tuning seeds (derived from seed %llu, "
                "disjoint from it)",
                o.per_setting ? "Tuned per (K, gap)" : "Tuned",
                o.per_setting ? (o.where.mixture ? "MGR" : "SGR") : o.where.title().c_str(),
                static_cast<long long>(o.horizon), space_names[static_cast<std::size_t>(o.space)].c_str(), static_cast<long long>(o.configs),
                static_cast<long long>(o.eta), static_cast<long long>(o.rungs),
                static_cast<long long>(o.initial_trials), search_trials(plan),
                static_cast<unsigned long long>(o.common.seed));
  table << footer << evaluated << ".\n";
  outputs.write("tune.csv", log);
  outputs.write("tuned_params.txt", result.tuned.to_text());
  outputs.write("tune.md", table.str());
  outputs.commit();
  result.table = table.str();
  return result;
}

inline job add_tune(CLI::App& app) {
  auto o = std::make_shared<tune_options>();
  auto choice = std::make_shared<std::array<std::string, 3>>(std::array<std::string, 3>{"SGR", "single", "h-alpha"});
  auto* tune = add_common_options(
      app.add_subcommand("tune", "Standardized tuning: the same search budget for every policy and setting"), o->common,
      "results/tune", o->horizon);
  add_choice(*tune, "--env", (*choice)[0], "Reward model tuned on", {"SGR", "MGR"});
  add_choice(*tune, "--protocol", (*choice)[1],
             "single: tune on --env, --arms, --gap only; paper: one search per (K, gap) of Figure 1 on --env, as the "
             "appendix does (SGR and MGR share it)",
             {"single", "paper"});
  add_choice(*tune, "--ts-sa-space", (*choice)[2],
             "TS-SA's tuned parameters: h-alpha (the appendix), h-tau (the Experiments section), wide (h, alpha, "
             "tau, N, B, Omega)",
             space_names);
  add_integer(*tune, "--arms,-K", o->where.arms, "Arms", 2, 100000);
  // At most 1e100: the arms' means 3 - gap then keep rewards far inside the library's bound
  // of 1e150, whose error would otherwise name a reward, not --gap.
  add_positive_real(*tune, "--gap", o->where.gap, "Gap between the best and the other means", 1e100);
  add_integer(*tune, "--configs", o->configs, "Random configurations per policy", 1);
  add_integer(*tune, "--initial-trials", o->initial_trials, "Trials per configuration at the first rung", 1);
  add_integer(*tune, "--eta", o->eta, "Halving factor", 2, 100);
  add_integer(*tune, "--rungs", o->rungs, "Halving rungs", 1);
  add_integer(*tune, "--eval-trials", o->eval_trials,
              "Trials of the evaluation on each tuned setting (the evaluation seed); 0: none", 0);
  return {tune, [o, choice, tune](std::ostream& out, const seconds_since_start& seconds) {
            const auto& [env, protocol, space] = *choice;
            o->where.mixture = env == "MGR";
            o->per_setting = protocol == "paper";
            if (o->per_setting && tune->count("--arms") + tune->count("--gap") > 0) {
              throw usage_error("--arms and --gap choose the one setting of --protocol single; --protocol paper "
                                "tunes every (K, gap) of Figure 1");
            }
            o->space = static_cast<ts_sa_space>(std::find(space_names.begin(), space_names.end(), space) - space_names.begin());
            out << run_tune(*o).table << '\n' << wall_line("tune", seconds(), o->common) << " (rerun figure1 with --params "
                << (o->common.out / "tuned_params.txt").string() << ")\n";
          }};
}

}  // namespace repro
