#pragma once
// The timed loop of the round benchmarks (policies_bench, contextual_bench): `driver.round()`
// plays one round of `driver.policy()`; with a `horizon`, the policy restarts every `horizon`
// rounds from `warmed_up` (untimed), so that a policy whose cost grows with its history (TS-SGLD,
// Laplace TS) is timed over the rounds of an experiment of that length rather than over ever
// longer histories that no longer fit in the cache.
#include <benchmark/benchmark.h>

#include <Eigen/Core>

template <class Driver, class Policy>
void timed_rounds(benchmark::State& state, Driver& driver, const Policy& warmed_up,
                  Eigen::Index horizon) {
  Eigen::Index played = 0;
  for (auto _ : state) {
    if (horizon != 0 && ++played == horizon) {
      state.PauseTiming();
      driver.policy() = warmed_up;
      played = 0;
      state.ResumeTiming();
    }
    driver.round();
  }
  state.SetItemsProcessed(state.iterations());
}
