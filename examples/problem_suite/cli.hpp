#pragma once
// The command line of problem_suite, as a function of its arguments and two streams, so that
// tests run it in-process; its jobs are sabandit's own evaluation, not the paper's (that is
// reproduce_paper): the models job and the problems job.
#include <CLI/CLI.hpp>

#include <ostream>
#include <string>
#include <vector>

#include "common/command.hpp"
#include "problem_suite/models.hpp"
#include "problem_suite/problems.hpp"

namespace repro {

/// Runs problem_suite with `args` (without the program name); returns the exit status
/// (run_program).
inline int run_problem_suite_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"sabandit's policies on the problems users bring and on Bernoulli and Poisson bandits",
               "problem_suite"};
  app.require_subcommand(1);
  add_version(app);
  return run_program(app, {add_problems(app, args), add_models(app)}, args, out, err);
}

}  // namespace repro
