// The C++ side of python/bench/bench.py: sabandit::simulate's wall time per round for the same
// environment, policy and run configuration as sabandit.simulate() from Python.
// Usage: sabandit_python_bench_cpp POLICY K HORIZON TRIALS REPEATS, POLICY one of
// gaussian_ts, bernoulli_ts, ts_sa. Prints the best of REPEATS, in ns per round.
#include <sabandit/sabandit.hpp>
#include <sabandit/sim.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

template <class Env, class Policy>
double best_ns_per_round(const Env& env, const Policy& prototype, const sabandit::run_config& config,
                         int repeats) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    const auto curve = sabandit::simulate(env, [&](Eigen::Index) { return prototype; }, config);
    const std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - start;
    if (!(curve.final_regret() >= 0.0)) std::abort();
    best = std::min(best, elapsed.count() / static_cast<double>(config.horizon * config.trials));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s gaussian_ts|bernoulli_ts|ts_sa K HORIZON TRIALS REPEATS\n", argv[0]);
    return 2;
  }
  const std::string policy = argv[1];
  const Eigen::Index k = std::atol(argv[2]);
  const sabandit::run_config config{.horizon = std::atol(argv[3]), .trials = std::atol(argv[4]),
                                    .seed = 1, .threads = 1, .record_points = 100};
  const int repeats = std::atoi(argv[5]);
  double ns = 0.0;
  if (policy == "gaussian_ts") {
    ns = best_ns_per_round(sabandit::make_sgr({.num_arms = k}), sabandit::thompson<>(k), config, repeats);
  } else if (policy == "bernoulli_ts") {
    ns = best_ns_per_round(sabandit::make_bernoulli_gap(k, 0.5, 0.1),
                           sabandit::thompson<sabandit::bernoulli_model>(k), config, repeats);
  } else if (policy == "ts_sa") {
    ns = best_ns_per_round(sabandit::make_sgr({.num_arms = k}), sabandit::ts_sa<>(k), config, repeats);
  } else {
    std::fprintf(stderr, "unknown policy %s\n", policy.c_str());
    return 2;
  }
  std::printf("%.2f\n", ns);
}
