#pragma once
// The command line of reproduce_paper, as a function of its arguments and two streams, so that
// tests run it in-process. Each job file adds its subcommand (add_job, command.hpp); the job
// table below lists them, in --help's order. An unknown subcommand is named with the list of
// valid ones; --help and --version answer without running anything.
#include <CLI/CLI.hpp>

#include <chrono>
#include <new>
#include <ostream>
#include <string>
#include <vector>

#include "reproduce_paper/command.hpp"
#include "reproduce_paper/contextual.hpp"
#include "reproduce_paper/jobs.hpp"
#include "reproduce_paper/models.hpp"
#include "reproduce_paper/problems.hpp"
#include "reproduce_paper/study.hpp"

namespace repro {

/// Runs reproduce_paper with `args` (without the program name); returns the exit status:
/// 0 success, 1 the job failed, 2 a bad command line or parameter file, 128 + N stopped by
/// signal N (SIGINT, SIGTERM, SIGHUP).
inline int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"Reproduce the TS-SA paper's experiments with sabandit", "reproduce_paper"};
  app.require_subcommand(1);
  add_version(app);
  // The job table: a new job is one line here.
  const std::vector<job> jobs = {add_figure1(app), add_ablation(app), add_tune(app),
                                 add_models(app),  add_study(app),    add_problems(app, args),
                                 add_contextual(app, args)};
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
    const auto rest = app.remaining();
    if (error.get_exit_code() != 0 && app.get_subcommands().empty() && !rest.empty() && !rest.front().empty() &&
        rest.front().front() != '-') {
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
    err << "reproduce_paper: " << stop.what()
        << "; the partial outputs were removed and the previous ones left as they were\n";
    return 128 + stop.signal_number;
  } catch (const std::bad_alloc&) {
    err << "reproduce_paper: not enough memory for this job (--trials x --record-points, or --configs, too large?)\n";
    return 1;
  } catch (const std::exception& error) {
    err << "reproduce_paper: " << error.what() << '\n';
    return 1;
  }
  return 0;
}

}  // namespace repro
