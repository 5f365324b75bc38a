// contextual_benchmark: classification data sets as contextual bandits, every contextual policy
// tuned with the same budget, then evaluated (docs/contextual-experiments.md). --help.
#include <iostream>
#include <string>
#include <vector>

#include "contextual_benchmark/job.hpp"

int main(int argc, char** argv) {
  repro::install_signal_handlers();  // SIGINT, SIGTERM, SIGHUP: stop cleanly (common/cancel.hpp)
  const std::vector<std::string> args(argv + 1, argv + argc);
  return repro::run_contextual_cli(args, std::cout, std::cerr);
}
