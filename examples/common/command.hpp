#pragma once
// The command line of the experiment programs (reproduce_paper, problem_suite,
// contextual_benchmark): checked options (each number read whole by our own validators,
// "--trials must be ≥ 1 (got -5)"), the options common to all jobs, the job table's entry type,
// and run_program, which parses and runs a job with the programs' exit statuses. A job file adds
// its subcommand with add_common_options and returns a `job`.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <new>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include <sabandit/errors.hpp>
#include <sabandit/sim/parallel.hpp>
#include <sabandit/version.hpp>

#include "common/cancel.hpp"
#include "common/checked.hpp"

namespace repro {

namespace fs = std::filesystem;

/// `fmt` (a printf format of at most two doubles) applied to `a` and `b`.
inline std::string format(const char* fmt, double a, double b) {
  char text[64];
  std::snprintf(text, sizeof text, fmt, a, b);
  return text;
}

/// The stream role of every tuning run (reproduce_paper tune, contextual_benchmark): "tune".
inline constexpr std::uint64_t tuning_role = 0x7475'6e65;
/// The seed of every tuning run: a stream key of --seed, never --seed itself, so tuning and
/// evaluation never share a trial.
inline std::uint64_t tuning_seed_of(std::uint64_t seed) {
  return sabandit::stream_key(seed, 1, tuning_role);
}

/// Options every job has.
struct common_options {
  std::uint64_t seed = 2026;
  unsigned threads = 0;
  fs::path out = "results";
  bool plots = true;
  Eigen::Index record_points = 100;
};

/// A job of the command line: its subcommand, and what runs it once parsed, printing its
/// summary to `out`; `seconds()` is the wall time since the job started.
struct job {
  CLI::App* command;
  std::function<void(std::ostream& out, const std::function<double()>& seconds)> run;
};
using seconds_since_start = std::function<double()>;

/// An option whose text `check` reads (throwing usage_error naming `NAME`) and returns in the
/// form CLI11 converts again: decimal, so that "010" is 10, not octal 8.
template <class T, class Check>
CLI::Option* add_checked(CLI::App& app, const std::string& names, T& value, const std::string& help,
                         const std::string& type, Check check) {
  const std::string name = names.substr(0, names.find(','));  // "--trials,-R" -> "--trials"
  CLI::Validator validator([name, check](std::string& input) { input = check(name, input); return std::string(); },
                           "", "");
  return app.add_option(names, value, help)->transform(validator)->capture_default_str()->type_name(type);
}

/// An integer option within [min, max].
template <class T>
CLI::Option* add_integer(CLI::App& app, const std::string& names, T& value, const std::string& help,
                         long long min, long long max = std::numeric_limits<long long>::max()) {
  return add_checked(app, names, value, help, "INT", [min, max](const std::string& name, const std::string& input) {
    const auto v = parse_integer(input);
    if (!v) throw usage_error(name + " must be an integer (got '" + sabandit::printable(input) + "')");
    if (*v < min) throw usage_error(name + " must be ≥ " + std::to_string(min) + " (got " + input + ")");
    if (*v > max) throw usage_error(name + " must be ≤ " + std::to_string(max) + " (got " + input + ")");
    return std::to_string(*v);
  });
}

/// A real option that must be > 0, finite and at most `max`.
inline CLI::Option* add_positive_real(CLI::App& app, const std::string& names, double& value, const std::string& help,
                                      double max = std::numeric_limits<double>::max()) {
  return add_checked(app, names, value, help, "REAL", [max](const std::string& name, const std::string& input) {
    const auto v = parse_real(input);
    if (!v) throw usage_error(name + " must be a finite decimal number (got '" + sabandit::printable(input) + "')");
    if (!(*v > 0)) throw usage_error(name + " must be > 0 (got " + input + ")");
    if (*v > max) throw usage_error(name + " must be ≤ " + format_real(max) + " (got " + input + ")");
    return format_real(*v);
  });
}

/// "A, B or C".
inline std::string or_list(const std::vector<std::string>& items) {
  std::string list;
  for (std::size_t i = 0; i < items.size(); ++i) list += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  return list;
}

/// An option whose value is one of `choices`; anything else is "NAME must be A, B or C (got 'x')".
inline CLI::Option* add_choice(CLI::App& app, const std::string& name, std::string& value, const std::string& help,
                               const std::vector<std::string>& choices) {
  return add_checked(app, name, value, help, or_list(choices), [choices](const std::string& n, const std::string& input) {
    for (const auto& c : choices) {
      if (input == c) return input;
    }
    throw usage_error(n + " must be " + or_list(choices) + " (got '" + input + "')");
  });
}

/// --version: "PROGRAM (sabandit X.Y.Z)", the program being the root of `app`'s tree.
inline void add_version(CLI::App& app) {
  const CLI::App* root = &app;
  while (root->get_parent() != nullptr) root = root->get_parent();
  app.set_version_flag("--version", root->get_name() + " (sabandit " + SABANDIT_VERSION_STRING + ")",
                       "Print the version and exit");
}

/// Adds --version and the options every job has to `job` (a subcommand, `app.add_subcommand(name,
/// description)`, or a program of one job); with `trials`, also --trials (-R), at least `min_trials`. The output folder's default
/// is set first, for --help.
inline CLI::App* add_common_options(CLI::App* job, common_options& c, const char* out_folder, Eigen::Index& horizon,
                                    Eigen::Index* trials = nullptr, const std::string& trials_help = "",
                                    long long min_trials = 1, const std::string& horizon_help = "Rounds per trial") {
  add_version(*job);
  c.out = out_folder;
  add_integer(*job, "--horizon,-T", horizon, horizon_help, 1);
  add_checked(*job, "--seed", c.seed, "Experiment seed, in [0, 2^64 - 1]", "UINT64",
              [](const std::string&, const std::string& input) {
                // A decimal integer in [0, 2^64 - 1], nothing else ("-1", "2^64", "1e23" are errors).
                const auto seed = parse_unsigned(input);
                if (!seed) {
                  throw usage_error("--seed must be an integer in [0, 18446744073709551615] (got '" +
                                    sabandit::printable(input) + "')");
                }
                return std::to_string(*seed);
              });
  add_integer(*job, "--threads", c.threads, "Worker threads (0: one per core); results do not depend on it", 0, 1024);
  job->add_option("--out", c.out,
                  "Output folder: created if missing; the job's files replace the previous ones only once all are "
                  "written")
      ->capture_default_str();
  job->add_flag("!--no-plots", c.plots, "Skip the PNG plots (no gnuplot needed)");
  add_integer(*job, "--record-points", c.record_points, "Rounds recorded per curve", 1, 100000);
  if (trials) add_integer(*job, "--trials,-R", *trials, trials_help, min_trials);
  return job;
}

/// The command line as a shell would take it back: `program`, then `args` with anything but
/// [A-Za-z0-9_./=:-] single-quoted.
inline std::string shell_command(const std::string& program, const std::vector<std::string>& args) {
  std::string text = program;
  for (const auto& a : args) {
    const bool plain = !a.empty() && std::all_of(a.begin(), a.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) != 0 || std::string_view("_./=:-").find(c) != std::string_view::npos;
    });
    std::string quoted = "'";
    for (const char c : a) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    text += " " + (plain ? a : quoted + "'");
  }
  return text;
}

/// The message for arguments no option took (CLI11's ExtrasError printed them reversed, as
/// the reversed vector it parses, and without a hint): them in command-line order, then, for
/// the first long option among them, where it belongs: the parsed job's own option given out of
/// place (before the subcommand, or after "--"), another subcommand's option, or the parsed
/// job's nearest option name ("--trails": did you mean --trials?).
inline std::string extras_message(const CLI::App& app, const std::vector<job>& jobs) {
  const CLI::App* parsed = &app;
  for (const auto& j : jobs)
    if (j.command->parsed()) parsed = j.command;
  std::string listed, first;  // every extra argument; the first long option among them
  for (const auto& arg : app.remaining(true)) {
    listed += (listed.empty() ? "" : " ") + arg;
    if (first.empty() && arg.rfind("--", 0) == 0) first = arg.substr(0, arg.find('='));
  }
  const std::string message =
      (parsed == &app ? "" : parsed->get_name() + ": ") + "unexpected argument(s): " + listed;
  if (first.empty()) return message;
  const auto long_names = [](const CLI::App* command) {
    std::vector<std::string> names;
    for (const CLI::Option* option : command->get_options())
      for (const auto& name : option->get_lnames()) names.push_back("--" + name);
    return names;
  };
  const auto has = [&](const CLI::App* command) {
    const auto names = long_names(command);
    return std::find(names.begin(), names.end(), first) != names.end();
  };
  if (parsed != &app && has(parsed))
    return message + " (" + first + " is an option of '" + parsed->get_name() +
           "': give it after the subcommand, and before any '--')";
  for (const auto& j : jobs) {
    if (j.command != parsed && has(j.command))
      return message + " (" + first + " is an option of '" + j.command->get_name() + "')";
  }
  // Levenshtein distance, for one near-miss suggestion (at most 2 edits).
  const auto distance = [](const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      std::size_t diagonal = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= b.size(); ++j) {
        const std::size_t above = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
        diagonal = above;
      }
    }
    return row[b.size()];
  };
  std::string best;
  std::size_t best_distance = 3;
  for (const auto& name : long_names(parsed)) {
    if (const auto d = distance(first, name); d < best_distance) {
      best = name;
      best_distance = d;
    }
  }
  return best.empty() ? message : message + " (did you mean " + best + "?)";
}

/// Runs the program `app` with `args` (without the program name): `jobs` are its subcommands
/// (add_common_options), or the program itself when it has one job; returns the exit status: 0 success, 1
/// the job failed, 2 a bad command line or parameter file (also sizes beyond the library's bound,
/// its sabandit::state_size_error), 128 + N stopped by signal N (SIGINT,
/// SIGTERM, SIGHUP). An unknown subcommand is named with the list of valid ones; --help and
/// --version answer without running anything.
inline int run_program(CLI::App& app, const std::vector<job>& jobs, const std::vector<std::string>& args,
                       std::ostream& out, std::ostream& err) {
  const std::string program = app.get_name();
  const auto usage = [&](const std::string& message) {
    err << program << ": " << message << "\nRun with --help for more information.\n";
    return 2;
  };
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses a reversed vector
    app.parse(reversed);
  } catch (const usage_error& error) {
    return usage(error.what());
  } catch (const CLI::ExtrasError&) {
    return usage(extras_message(app, jobs));
  } catch (const CLI::ParseError& error) {
    const auto rest = app.remaining();
    if (error.get_exit_code() != 0 && jobs.front().command != &app && app.get_subcommands().empty() &&
        !rest.empty() && !rest.front().empty() && rest.front().front() != '-') {
      std::string names;
      for (const auto& j : jobs) names += (names.empty() ? "" : ", ") + j.command->get_name();
      return usage("unknown subcommand '" + rest.front() + "'; valid subcommands: " + names);
    }
    return app.exit(error, out, err) == 0 ? 0 : 2;  // 0: --help, --version
  }
  try {
    const auto start = std::chrono::steady_clock::now();
    const std::function<double()> seconds = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    for (const auto& j : jobs) {
      if (j.command->parsed()) j.run(out, seconds);
    }
  } catch (const usage_error& error) {
    return usage(error.what());
  } catch (const cancelled& stop) {
    err << program << ": " << stop.what()
        << "; the partial outputs were removed and the previous ones left as they were\n";
    return 128 + stop.signal_number;
  } catch (const sabandit::state_size_error& error) {
    // The library's size bound (bounds::state_doubles): sizes that fit 64 bits but not the
    // bound, e.g. --trials x --record-points, are a bad command line like those that overflow.
    // The library's message names its own terms (trials, recorded points): say which options.
    return usage(std::string("a size on the command line (--trials, --record-points, ...) is "
                             "beyond the library's bound: ") + error.what());
  } catch (const std::bad_alloc&) {
    err << program << ": not enough memory for this job (--trials x --record-points, or --configs, too large?)\n";
    return 1;
  } catch (const std::exception& error) {
    err << program << ": " << error.what() << '\n';
    return 1;
  }
  return 0;
}

}  // namespace repro
