// reproduce_paper: the paper's experiments — the Figure 1 grid, the TS-SA ablations and the
// standardized tuning — as CSV, PNG plots and Markdown tables. `reproduce_paper --help`.
// sabandit's own evaluation (the models and problems jobs) is problem_suite's.
#include <iostream>
#include <string>
#include <vector>

#include "reproduce_paper/cli.hpp"

int main(int argc, char** argv) {
  repro::install_signal_handlers();  // SIGINT, SIGTERM, SIGHUP: stop cleanly (common/cancel.hpp)
  const std::vector<std::string> args(argv + 1, argv + argc);
  return repro::run_cli(args, std::cout, std::cerr);
}
