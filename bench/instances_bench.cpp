// What the declared instances (sabandit/instances.hpp) cost per round: a unit that calls
// select() and update() cannot inline them into its loop. Blocks of 256 rounds of the same
// policy, compiled from its header (this unit) and called through its declared instance
// (instances_bench_declared.cpp), alternate, every block timed, so that both see the same
// machine; the counter declared_over_header is the ratio of their times per round.
#include <benchmark/benchmark.h>

#include <chrono>

#include "instances_rounds.hpp"
#include "sabandit/models/bernoulli.hpp"
#include "sabandit/policies/ts_sa.hpp"
#include "sabandit/policies/ts_sgld.hpp"

namespace bench {
Eigen::Index declared_rounds(sabandit::ts_sa<sabandit::bernoulli_model>& policy,
                             sabandit::xoshiro256pp& gen, int rounds);
Eigen::Index declared_rounds(sabandit::ts_sgld<sabandit::bernoulli_model>& policy,
                             sabandit::xoshiro256pp& gen, int rounds);
}  // namespace bench

namespace {

template <class Policy>
void BM_ratio_declared_to_header(benchmark::State& state) {
  const Eigen::Index k = state.range(0);
  Policy header(k);
  Policy declared(k);
  sabandit::xoshiro256pp header_gen(1);
  sabandit::xoshiro256pp declared_gen(1);
  // Past every warm-up, and TS-SGLD's histories of a few hundred rewards, before timing.
  benchmark::DoNotOptimize(bench::play_rounds(header, header_gen, 100 * static_cast<int>(k)));
  benchmark::DoNotOptimize(bench::declared_rounds(declared, declared_gen, 100 * static_cast<int>(k)));
  constexpr int block = 256;
  double header_seconds = 0.0;
  double declared_seconds = 0.0;
  using clock = std::chrono::steady_clock;
  for (auto _ : state) {
    const auto start = clock::now();
    benchmark::DoNotOptimize(bench::play_rounds(header, header_gen, block));
    const auto middle = clock::now();
    benchmark::DoNotOptimize(bench::declared_rounds(declared, declared_gen, block));
    const auto end = clock::now();
    header_seconds += std::chrono::duration<double>(middle - start).count();
    declared_seconds += std::chrono::duration<double>(end - middle).count();
  }
  const double rounds = static_cast<double>(state.iterations()) * block;
  state.counters["header_ns"] = 1e9 * header_seconds / rounds;
  state.counters["declared_ns"] = 1e9 * declared_seconds / rounds;
  state.counters["declared_over_header"] = declared_seconds / header_seconds;
}

}  // namespace

BENCHMARK_TEMPLATE(BM_ratio_declared_to_header, sabandit::ts_sa<sabandit::bernoulli_model>)
    ->Arg(10)->Arg(50);
BENCHMARK_TEMPLATE(BM_ratio_declared_to_header, sabandit::ts_sgld<sabandit::bernoulli_model>)
    ->Arg(10)->Arg(50);
