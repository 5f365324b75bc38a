#pragma once
// The command line of reproduce_paper, as a function of its arguments and two streams, so that
// tests run it in-process. Every number is checked by our own validators, which read the whole
// token (std::from_chars) and report "--trials must be ≥ 1 (got -5)"; an unknown subcommand is
// named with the list of valid ones; --help and --version answer without running anything.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <limits>
#include <new>
#include <ostream>
#include <string>
#include <vector>

#include <sabandit/version.hpp>

#include "reproduce_paper/contextual.hpp"
#include "reproduce_paper/jobs.hpp"
#include "reproduce_paper/models.hpp"
#include "reproduce_paper/problems.hpp"
#include "reproduce_paper/study.hpp"

namespace repro {

namespace cli_detail {

inline std::string long_name(const std::string& names) {
  // "--trials,-R" -> "--trials"
  return names.substr(0, names.find(','));
}

/// An integer option within [min, max], validated on the whole token before CLI11 converts it.
template <class T>
CLI::Option* add_integer(CLI::App& app, const std::string& names, T& value, const std::string& help,
                         long long min, long long max = std::numeric_limits<long long>::max()) {
  const std::string name = long_name(names);
  CLI::Validator check(
      [name, min, max](std::string& input) -> std::string {
        const auto v = parse_integer(input);
        if (!v) {
          throw usage_error(name + " must be an integer (got '" + sabandit::printable(input) + "')");
        }
        if (*v < min) throw usage_error(name + " must be ≥ " + std::to_string(min) + " (got " + input + ")");
        if (*v > max) throw usage_error(name + " must be ≤ " + std::to_string(max) + " (got " + input + ")");
        // CLI11 converts the option's text again, after this check, and reads a leading 0 as
        // octal ("010" is 8) or a 0x as hex: it gets the decimal value we read instead.
        input = std::to_string(*v);
        return {};
      },
      "", "");
  auto* option = app.add_option(names, value, help)->transform(check)->capture_default_str();
  option->type_name("INT");
  return option;
}

/// A seed: a decimal integer in [0, 2^64 - 1], nothing else ("-1", "2^64", "1e23" are errors).
inline CLI::Option* add_seed(CLI::App& app, std::uint64_t& value) {
  CLI::Validator check(
      [](std::string& input) -> std::string {
        const auto seed = parse_unsigned(input);
        if (!seed) {
          throw usage_error("--seed must be an integer in [0, 18446744073709551615] (got '" +
                            sabandit::printable(input) + "')");
        }
        input = std::to_string(*seed);  // decimal for CLI11's conversion too (add_integer)
        return {};
      },
      "", "");
  auto* option = app.add_option("--seed", value, "Experiment seed, in [0, 2^64 - 1]")
                     ->transform(check)
                     ->capture_default_str();
  option->type_name("UINT64");
  return option;
}

/// A real option that must be > 0, finite and at most `max`.
inline CLI::Option* add_positive_real(CLI::App& app, const std::string& names, double& value,
                                      const std::string& help,
                                      double max = std::numeric_limits<double>::max()) {
  const std::string name = long_name(names);
  CLI::Validator check(
      [name, max](std::string& input) -> std::string {
        const auto v = parse_real(input);
        if (!v) {
          throw usage_error(name + " must be a finite decimal number (got '" +
                            sabandit::printable(input) + "')");
        }
        if (!(*v > 0)) throw usage_error(name + " must be > 0 (got " + input + ")");
        if (*v > max) {
          throw usage_error(name + " must be ≤ " + format_real(max) + " (got " + input + ")");
        }
        input = format_real(*v);  // what we read, for CLI11's own conversion
        return {};
      },
      "", "");
  auto* option = app.add_option(names, value, help)->transform(check)->capture_default_str();
  option->type_name("REAL");
  return option;
}

/// An option whose value is one of `choices`; anything else is "NAME must be A, B or C (got 'x')".
inline CLI::Option* add_choice(CLI::App& app, const std::string& name, std::string& value,
                               const std::string& help, const std::vector<std::string>& choices) {
  std::string list;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    list += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
  }
  CLI::Validator check(
      [name, choices, list](std::string& input) -> std::string {
        for (const auto& c : choices) {
          if (input == c) return {};
        }
        throw usage_error(name + " must be " + list + " (got '" + input + "')");
      },
      "", "");
  auto* option = app.add_option(name, value, help)->check(check)->capture_default_str();
  option->type_name(list);
  return option;
}

/// Options every job has. The output folder's default is set first, so that --help shows it.
inline void add_common(CLI::App& app, common_options& c, const char* out_folder, Eigen::Index& horizon,
                       const std::string& horizon_help = "Rounds per trial") {
  c.out = out_folder;
  add_integer(app, "--horizon,-T", horizon, horizon_help, 1);
  add_seed(app, c.seed);
  add_integer(app, "--threads", c.threads, "Worker threads (0: one per core); results do not depend on it",
              0, 1024);
  app.add_option("--out", c.out,
                 "Output folder: created if missing; the job's files replace the previous ones only "
                 "once all are written")
      ->capture_default_str();
  app.add_flag("!--no-plots", c.plots, "Skip the PNG plots (no gnuplot needed)");
  add_integer(app, "--record-points", c.record_points, "Rounds recorded per curve", 1, 100000);
}

/// What figure1 and models print: the table, then the wall time in total and by policy (the
/// rest of the total is plotting and writing).
inline void print_grid_summary(std::ostream& out, const char* job, const std::string& table,
                               long long policy_rounds, double seconds, const common_options& common,
                               const std::vector<std::string>& policies,
                               const std::vector<double>& seconds_per_policy) {
  char line[512];
  out << table << '\n';
  std::snprintf(line, sizeof line,
                "%s: %lld policy-rounds in %.2f s wall (%.3g rounds/s) on %u threads; outputs in ", job,
                policy_rounds, seconds, static_cast<double>(policy_rounds) / seconds,
                sabandit::resolve_threads(common.threads));
  out << line << common.out.string() << "\nwall time by policy:";
  for (std::size_t i = 0; i < policies.size(); ++i) {
    std::snprintf(line, sizeof line, " %s %.2f s%s", policies[i].c_str(), seconds_per_policy[i],
                  i + 1 < policies.size() ? "," : "\n");
    out << line;
  }
}

inline std::string version_text() {
  return std::string("reproduce_paper (sabandit ") + SABANDIT_VERSION_STRING + ")";
}

inline void add_version(CLI::App& app) { app.set_version_flag("--version", version_text(), "Print the version and exit"); }

/// A job's subcommand with --version and the options every job has.
inline CLI::App* add_job(CLI::App& app, const std::string& name, const std::string& description,
                         common_options& common, const char* out_folder, Eigen::Index& horizon,
                         const std::string& horizon_help = "Rounds per trial") {
  auto* job = app.add_subcommand(name, description);
  add_version(*job);
  add_common(*job, common, out_folder, horizon, horizon_help);
  return job;
}

/// add_job with --trials (-R), at least `min_trials`.
inline CLI::App* add_job(CLI::App& app, const std::string& name, const std::string& description,
                         common_options& common, const char* out_folder, Eigen::Index& horizon, Eigen::Index& trials,
                         const std::string& trials_help, long long min_trials = 1) {
  auto* job = add_job(app, name, description, common, out_folder, horizon);
  add_integer(*job, "--trials,-R", trials, trials_help, min_trials);
  return job;
}

}  // namespace cli_detail

/// Runs reproduce_paper with `args` (without the program name); returns the exit status:
/// 0 success, 1 the job failed, 2 a bad command line or parameter file, 128 + N stopped by
/// signal N (SIGINT, SIGTERM, SIGHUP).
inline int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  using namespace cli_detail;
  CLI::App app{"Reproduce the TS-SA paper's experiments with sabandit", "reproduce_paper"};
  app.require_subcommand(1);
  add_version(app);

  figure1_options fig;
  std::string params_file;
  auto* figure1 = add_job(app, "figure1", "Figure 1: {SGR, MGR} x gap {0.1, 0.5} x K {10, 50}, five policies",
                          fig.common, "results/figure1", fig.horizon, fig.trials, "Trials per setting");
  figure1->add_option("--params", params_file,
                      "Parameter file (as written by figure1 or tune: every parameter of every policy, "
                      "and optional [K = INT, gap = REAL] sections for settings of their own)");

  ablation_options abl;
  auto* ablation = add_job(app, "ablation", "TS-SA ablations around the appendix's default configuration",
                           abl.common, "results/ablation", abl.horizon, abl.trials, "Trials per value");

  tune_options tun;
  std::string env_name = "SGR";
  auto* tune = add_job(app, "tune", "Standardized tuning: the same search budget for every policy and setting",
                       tun.common, "results/tune", tun.horizon);
  add_choice(*tune, "--env", env_name, "Reward model tuned on", {"SGR", "MGR"});
  std::string protocol = "single";
  add_choice(*tune, "--protocol", protocol,
             "single: tune on --env, --arms, --gap only; paper: one search per (K, gap) of Figure 1 "
             "on --env, as the appendix does (SGR and MGR share it)",
             {"single", "paper"});
  std::string space = "h-alpha";
  add_choice(*tune, "--ts-sa-space", space,
             "TS-SA's tuned parameters: h-alpha (the appendix), h-tau (the Experiments section), "
             "wide (h, alpha, tau, N, B, Omega)",
             {"h-alpha", "h-tau", "wide"});
  add_integer(*tune, "--arms,-K", tun.where.arms, "Arms", 2, 100000);
  // At most 1e100: the arms' means 3 - gap then keep rewards far inside the library's bound
  // of 1e150, whose error would otherwise name a reward, not --gap.
  add_positive_real(*tune, "--gap", tun.where.gap, "Gap between the best and the other means",
                    1e100);
  add_integer(*tune, "--configs", tun.configs, "Random configurations per policy", 1);
  add_integer(*tune, "--initial-trials", tun.initial_trials, "Trials per configuration at the first rung", 1);
  add_integer(*tune, "--eta", tun.eta, "Halving factor", 2, 100);
  add_integer(*tune, "--rungs", tun.rungs, "Halving rungs", 1);
  add_integer(*tune, "--eval-trials", tun.eval_trials,
              "Trials of the evaluation on each tuned setting (the evaluation seed); 0: none", 0);

  models_options mod;
  auto* models = add_job(app, "models",
                         "Bernoulli and Poisson bandits: {Bernoulli, Poisson} x gap {0.1, 0.5} x K {10, 50}, "
                         "eight policies and the Lai-Robbins bound",
                         mod.common, "results/models", mod.horizon, mod.trials, "Trials per setting");

  study_options stu;
  auto* study = add_job(app, "study",
                        "Why TS-SA loses with the appendix's defaults (docs/ts-sa-study.md): sweeps and failure "
                        "modes on tuning seeds, the preset's selection, and its evaluation on --seed",
                        stu.common, "results/study", stu.horizon, stu.trials, "Trials per cell", 2);
  add_integer(*study, "--trial-points", stu.trial_points, "Rounds recorded per trial (the per-trial plot)", 1, 100000);
  study->add_option("--tuned", stu.tuned_params,
                    "tune --protocol paper's tuned_params.txt: adds the per-setting tuned TS-SA to the evaluation");

  problems_options pro;
  auto* problems = add_job(app, "problems",
                           "The problems users bring: Bernoulli, Poisson, Gaussian, exponential and feature "
                           "bandits, every policy with its defaults; a tuning set and a disjoint evaluation set",
                           pro.common, "results/problems", pro.horizon,
                           "Rounds per trial for every problem (default 0: each problem's own T, 10,000 to 200,000)");
  add_integer(*problems, "--trials,-R", pro.trials, "Trials per problem and policy", 2);
  std::string problem_set = "evaluation";
  add_choice(*problems, "--set", problem_set,
             "evaluation: the problems defaults are judged on (default --seed 2026); tuning: the few a "
             "developer may look at while choosing them (default --seed 7), no arm mean in common",
             {"evaluation", "tuning"});

  contextual_options ctx;
  auto* contextual = add_job(app, "contextual", "Shuttle, Satellite and digits as contextual bandits (scripts/contextual-data)",
                             ctx.common, "results/contextual", ctx.horizon, "Most rounds per trial: T = min(n, this)");
  add_integer(*contextual, "--trials,-R", ctx.trials, "Permutations of the rows per data set and policy", 1);
  add_integer(*contextual, "--tune-trials", ctx.tune_trials, "Permutations per candidate setting when tuning; 0: defaults", 0);
  contextual->add_option("--data", ctx.data, "scripts/contextual-data's cache folder")->capture_default_str();
  contextual->add_option("--datasets", ctx.datasets, "Only these data sets (shuttle, satellite, digits)")->delimiter(',');
  contextual->add_option("--policies", ctx.policies, "Only these policies (names as in the tables)")->delimiter(',');

  const auto usage = [&](const std::string& message) {
    err << "reproduce_paper: " << message << "\nRun with --help for more information.\n";
    return 2;
  };
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses a reversed vector
    app.parse(reversed);
  } catch (const usage_error& error) {
    return usage(error.what());
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() != 0 && app.get_subcommands().empty()) {
      const auto rest = app.remaining();
      if (!rest.empty() && !rest.front().empty() && rest.front().front() != '-') {
        return usage("unknown subcommand '" + rest.front() + "'; valid subcommands: figure1, ablation, tune, models, study, problems, contextual");
      }
    }
    return app.exit(error, out, err) == 0 ? 0 : 2;  // 0: --help, --version
  }

  try {
    const auto start = std::chrono::steady_clock::now();
    const auto wall = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    char line[512];
    if (figure1->parsed()) {
      if (!params_file.empty()) fig.params = grid_params::from_file(params_file);
      const auto result = run_figure1(fig);
      print_grid_summary(out, "figure1", result.table, result.policy_rounds, wall(), fig.common,
                         policy_names, result.seconds_per_policy);
    } else if (models->parsed()) {
      const auto result = run_models(mod);
      print_grid_summary(out, "models", result.table, result.policy_rounds, wall(), mod.common,
                         result.policies, result.seconds_per_policy);
    } else if (problems->parsed()) {
      pro.tuning_set = problem_set == "tuning";
      if (problems->count("--seed") == 0) pro.common.seed = pro.tuning_set ? tuning_seed : evaluation_seed;
      pro.args = args;
      const auto result = run_problems(pro);
      print_grid_summary(out, "problems", result.table, result.policy_rounds, wall(), pro.common,
                         result.policies, result.seconds_per_policy);
    } else if (contextual->parsed()) {
      ctx.args = args;
      const auto result = run_contextual(ctx);
      out << result.table << '\n';
      std::snprintf(line, sizeof line, "contextual: %lld policy-rounds in %.2f s wall; outputs in ", result.policy_rounds, wall());
      out << line << ctx.common.out.string() << '\n';
    } else if (ablation->parsed()) {
      out << run_ablation(abl) << '\n';
      std::snprintf(line, sizeof line, "ablation: %.2f s wall; outputs in ", wall());
      out << line << abl.common.out.string() << '\n';
    } else if (study->parsed()) {
      const auto result = run_study(stu);
      out << result.table << '\n';
      std::snprintf(line, sizeof line, "study: %.2f s wall; outputs in ", wall());
      out << line << stu.common.out.string() << "; chosen candidate: " << result.chosen << '\n';
    } else if (tune->parsed()) {
      tun.where.mixture = env_name == "MGR";
      tun.per_setting = protocol == "paper";
      if (tun.per_setting && (tune->count("--arms") + tune->count("--gap")) > 0) {
        return usage("--arms and --gap choose the one setting of --protocol single; --protocol paper "
                     "tunes every (K, gap) of Figure 1");
      }
      tun.space = space == "h-tau" ? ts_sa_space::h_tau : space == "wide" ? ts_sa_space::wide : ts_sa_space::h_alpha;
      out << run_tune(tun).table << '\n';
      std::snprintf(line, sizeof line, "tune: %.2f s wall; outputs in ", wall());
      out << line << tun.common.out.string() << " (rerun figure1 with --params "
          << (tun.common.out / "tuned_params.txt").string() << ")\n";
    }
  } catch (const usage_error& error) {
    return usage(error.what());
  } catch (const cancelled& stop) {
    err << "reproduce_paper: " << stop.what()
        << "; the partial outputs were removed and the previous ones left as they were\n";
    return 128 + stop.signal_number;
  } catch (const std::bad_alloc&) {
    err << "reproduce_paper: not enough memory for this job (--trials x --record-points, or "
           "--configs, too large?)\n";
    return 1;
  } catch (const std::exception& error) {
    err << "reproduce_paper: " << error.what() << '\n';
    return 1;
  }
  return 0;
}

}  // namespace repro
