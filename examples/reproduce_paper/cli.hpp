#pragma once
// The command line of reproduce_paper, as a function of its arguments and two streams, so that
// tests run it in-process. Each job file adds its subcommand (add_common_options, common/command.hpp); the
// job table below lists them, in --help's order.
#include <CLI/CLI.hpp>

#include <ostream>
#include <string>
#include <vector>

#include "common/command.hpp"
#include "reproduce_paper/jobs.hpp"

namespace repro {

/// Runs reproduce_paper with `args` (without the program name); returns the exit status
/// (run_program).
inline int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"Reproduce the TS-SA paper's experiments with sabandit", "reproduce_paper"};
  app.require_subcommand(1);
  add_version(app);
  // The job table: a new job is one line here.
  return run_program(app, {add_figure1(app), add_ablation(app), add_tune(app)}, args, out, err);
}

}  // namespace repro
