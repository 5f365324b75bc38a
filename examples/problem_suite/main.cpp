// problem_suite: every policy with its defaults on the problems users bring (Bernoulli,
// Poisson, Gaussian, exponential and feature bandits) and on Bernoulli and Poisson bandits
// beside the Lai–Robbins bound, as CSV, PNG plots and Markdown tables. `problem_suite --help`.
#include <iostream>
#include <string>
#include <vector>

#include "problem_suite/cli.hpp"

int main(int argc, char** argv) {
  repro::install_signal_handlers();  // SIGINT, SIGTERM, SIGHUP: stop cleanly (common/cancel.hpp)
  const std::vector<std::string> args(argv + 1, argv + argc);
  return repro::run_problem_suite_cli(args, std::cout, std::cerr);
}
