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

#include "reproduce_paper/jobs.hpp"
#include "reproduce_paper/models.hpp"

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
          throw usage_error(name + " must be an integer (got '" + input + "')");
        }
        if (*v < min) throw usage_error(name + " must be ≥ " + std::to_string(min) + " (got " + input + ")");
        if (*v > max) throw usage_error(name + " must be ≤ " + std::to_string(max) + " (got " + input + ")");
        return {};
      },
      "", "");
  auto* option = app.add_option(names, value, help)->check(check)->capture_default_str();
  option->type_name("INT");
  return option;
}

/// A seed: a decimal integer in [0, 2^64 - 1], nothing else ("-1", "2^64", "1e23" are errors).
inline CLI::Option* add_seed(CLI::App& app, std::uint64_t& value) {
  CLI::Validator check(
      [](std::string& input) -> std::string {
        if (!parse_unsigned(input)) {
          throw usage_error("--seed must be an integer in [0, 18446744073709551615] (got '" + input + "')");
        }
        return {};
      },
      "", "");
  auto* option = app.add_option("--seed", value, "Experiment seed, in [0, 2^64 - 1]")
                     ->check(check)
                     ->capture_default_str();
  option->type_name("UINT64");
  return option;
}

/// A real option that must be > 0 and finite.
inline CLI::Option* add_positive_real(CLI::App& app, const std::string& names, double& value,
                                      const std::string& help) {
  const std::string name = long_name(names);
  CLI::Validator check(
      [name](std::string& input) -> std::string {
        const auto v = parse_real(input);
        if (!v) throw usage_error(name + " must be a finite decimal number (got '" + input + "')");
        if (!(*v > 0)) throw usage_error(name + " must be > 0 (got " + input + ")");
        return {};
      },
      "", "");
  auto* option = app.add_option(names, value, help)->check(check)->capture_default_str();
  option->type_name("REAL");
  return option;
}

/// Options every job has. The output folder's default is set first, so that --help shows it.
inline void add_common(CLI::App& app, common_options& c, const char* out_folder, Eigen::Index& horizon) {
  c.out = out_folder;
  add_integer(app, "--horizon,-T", horizon, "Rounds per trial", 1);
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

}  // namespace cli_detail

/// Runs reproduce_paper with `args` (without the program name); returns the exit status:
/// 0 success, 1 the job failed, 2 a bad command line or parameter file, 128 + N stopped by
/// signal N (SIGINT, SIGTERM).
inline int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  using namespace cli_detail;
  CLI::App app{"Reproduce the TS-SA paper's experiments with sabandit", "reproduce_paper"};
  app.require_subcommand(1);
  add_version(app);

  figure1_options fig;
  std::string params_file;
  auto* figure1 = app.add_subcommand("figure1", "Figure 1: {SGR, MGR} x gap {0.1, 0.5} x K {10, 50}, five policies");
  add_version(*figure1);
  add_common(*figure1, fig.common, "results/figure1", fig.horizon);
  add_integer(*figure1, "--trials,-R", fig.trials, "Trials per setting", 1);
  figure1->add_option("--params", params_file,
                      "Parameter file (as written by figure1 or tune: every parameter of every policy)");

  ablation_options abl;
  auto* ablation = app.add_subcommand("ablation", "TS-SA ablations around the appendix's default configuration");
  add_version(*ablation);
  add_common(*ablation, abl.common, "results/ablation", abl.horizon);
  add_integer(*ablation, "--trials,-R", abl.trials, "Trials per value", 1);

  tune_options tun;
  std::string env_name = "SGR";
  auto* tune = app.add_subcommand("tune", "Standardized tuning: the same search budget for every policy");
  add_version(*tune);
  add_common(*tune, tun.common, "results/tune", tun.horizon);
  tune->add_option("--env", env_name, "Setting to tune on: SGR or MGR")
      ->check(CLI::Validator(
          [](std::string& input) -> std::string {
            if (input != "SGR" && input != "MGR") throw usage_error("--env must be SGR or MGR (got '" + input + "')");
            return {};
          },
          "", ""))
      ->capture_default_str();
  add_integer(*tune, "--arms,-K", tun.where.arms, "Arms", 2, 100000);
  add_positive_real(*tune, "--gap", tun.where.gap, "Gap between the best and the other means");
  add_integer(*tune, "--configs", tun.configs, "Random configurations per policy", 1);
  add_integer(*tune, "--initial-trials", tun.initial_trials, "Trials per configuration at the first rung", 1);
  add_integer(*tune, "--eta", tun.eta, "Halving factor", 2, 100);
  add_integer(*tune, "--rungs", tun.rungs, "Halving rungs", 1);
  add_integer(*tune, "--eval-trials", tun.eval_trials, "Trials of the final evaluation (disjoint seeds)", 1);

  models_options mod;
  auto* models = app.add_subcommand(
      "models", "Bernoulli and Poisson bandits: {Bernoulli, Poisson} x gap {0.1, 0.5} x K {10, 50}, "
                "seven policies and the Lai-Robbins bound");
  add_version(*models);
  add_common(*models, mod.common, "results/models", mod.horizon);
  add_integer(*models, "--trials,-R", mod.trials, "Trials per setting", 1);

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
        return usage("unknown subcommand '" + rest.front() + "'; valid subcommands: figure1, ablation, tune, models");
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
      if (!params_file.empty()) fig.params = suite_params::from_file(params_file);
      const auto result = run_figure1(fig);
      print_grid_summary(out, "figure1", result.table, result.policy_rounds, wall(), fig.common,
                         policy_names, result.seconds_per_policy);
    } else if (models->parsed()) {
      const auto result = run_models(mod);
      print_grid_summary(out, "models", result.table, result.policy_rounds, wall(), mod.common,
                         result.policies, result.seconds_per_policy);
    } else if (ablation->parsed()) {
      out << run_ablation(abl) << '\n';
      std::snprintf(line, sizeof line, "ablation: %.2f s wall; outputs in ", wall());
      out << line << abl.common.out.string() << '\n';
    } else if (tune->parsed()) {
      tun.where.mixture = env_name == "MGR";
      out << run_tune(tun) << '\n';
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
