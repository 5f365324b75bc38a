// The cost of one round (select + update) of each policy, against two references measured in
// the same run: the floor (drawing K normals with sabandit's sampler) and the straightforward
// baseline (bench/baseline.hpp). Rewards are pre-drawn so that only the policy is timed.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include "baseline.hpp"
#include "sabandit/sabandit.hpp"

namespace {

constexpr int reward_pool = 4096;

Eigen::ArrayXd reward_table() {
  sabandit::xoshiro256pp gen(99);
  Eigen::ArrayXd rewards(reward_pool);
  sabandit::fill_standard_normal(rewards, gen);
  return rewards;
}

void BM_floor_k_normals(benchmark::State& state) {
  sabandit::xoshiro256pp gen(1);
  Eigen::ArrayXd out(state.range(0));
  for (auto _ : state) {
    sabandit::fill_standard_normal(out, gen);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations());
}

template <class P>
void run_rounds(benchmark::State& state, P policy) {
  const auto rewards = reward_table();
  sabandit::xoshiro256pp gen(1);
  int t = 0;
  const auto round = [&] {
    const auto arm = policy.select(gen);
    // The arm's index shifts its mean, so that learning is real (arm K-1 is best).
    policy.update(arm, rewards(t++ & (reward_pool - 1)) + 1e-3 * static_cast<double>(arm), gen);
  };
  for (Eigen::Index i = 0; i < 30 * state.range(0); ++i) round();  // past every warm-up
  for (auto _ : state) round();
  state.SetItemsProcessed(state.iterations());
  state.SetComplexityN(state.range(0));
}

void BM_round_gaussian_ts(benchmark::State& s) { run_rounds(s, sabandit::gaussian_ts(s.range(0))); }
void BM_round_epsilon_ts(benchmark::State& s) { run_rounds(s, sabandit::epsilon_ts<>(s.range(0))); }
void BM_round_ucb(benchmark::State& s) { run_rounds(s, sabandit::ucb(s.range(0))); }
void BM_round_ts_sa(benchmark::State& s) { run_rounds(s, sabandit::ts_sa<>(s.range(0))); }
void BM_round_ts_sgld(benchmark::State& s) { run_rounds(s, sabandit::ts_sgld<>(s.range(0))); }

template <class Plain>
void run_plain(benchmark::State& state, Plain policy) {
  const auto rewards = reward_table();
  int t = 0;
  const auto round = [&] {
    const std::size_t arm = policy.select();
    policy.update(arm, rewards(t++ & (reward_pool - 1)) + 1e-3 * static_cast<double>(arm));
  };
  for (Eigen::Index i = 0; i < 30 * state.range(0); ++i) round();
  for (auto _ : state) round();
  state.SetItemsProcessed(state.iterations());
}
void BM_round_baseline_gaussian_ts(benchmark::State& s) {
  run_plain(s, baseline::plain_gaussian_ts(static_cast<std::size_t>(s.range(0)), 1));
}
void BM_round_baseline_ucb(benchmark::State& s) {
  run_plain(s, baseline::plain_ucb(static_cast<std::size_t>(s.range(0))));
}

// The K values of the README table.
#define SABANDIT_TABLE_ARGS Arg(10)->Arg(50)->Arg(1000)
BENCHMARK(BM_floor_k_normals)->SABANDIT_TABLE_ARGS;
BENCHMARK(BM_round_gaussian_ts)->SABANDIT_TABLE_ARGS;
BENCHMARK(BM_round_ts_sa)->SABANDIT_TABLE_ARGS;
BENCHMARK(BM_round_ucb)->SABANDIT_TABLE_ARGS;
BENCHMARK(BM_round_epsilon_ts)->SABANDIT_TABLE_ARGS;
BENCHMARK(BM_round_ts_sgld)->SABANDIT_TABLE_ARGS;
BENCHMARK(BM_round_baseline_gaussian_ts)->SABANDIT_TABLE_ARGS;
BENCHMARK(BM_round_baseline_ucb)->SABANDIT_TABLE_ARGS;

// Scaling in K: Google Benchmark fits the per-round cost against O(K).
BENCHMARK(BM_round_gaussian_ts)->Name("scaling/gaussian_ts")->RangeMultiplier(4)->Range(2, 4096)->Complexity(benchmark::oN);
BENCHMARK(BM_round_ts_sa)->Name("scaling/ts_sa")->RangeMultiplier(4)->Range(2, 4096)->Complexity(benchmark::oN);
BENCHMARK(BM_round_ucb)->Name("scaling/ucb")->RangeMultiplier(4)->Range(2, 4096)->Complexity(benchmark::oN);

// Heap in use according to glibc: small chunks (uordblks) plus mmapped large ones (hblkhd).
std::size_t heap_in_use() {
  const auto info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

// TS-SA's heap in use after T rounds: constant in T. TS-SGLD for contrast.
template <class P>
void heap_after_rounds(benchmark::State& state, P make) {
  const auto rewards = reward_table();
  for (auto _ : state) {
    const auto before = heap_in_use();
    auto policy = make();
    sabandit::xoshiro256pp gen(1);
    for (Eigen::Index t = 0; t < state.range(0); ++t) {
      const auto arm = policy.select(gen);
      policy.update(arm, rewards(t & (reward_pool - 1)), gen);
    }
    state.counters["heap_bytes"] = static_cast<double>(heap_in_use() - before);
    benchmark::DoNotOptimize(policy);
  }
}
void BM_memory_ts_sa(benchmark::State& s) {
  heap_after_rounds(s, [] { return sabandit::ts_sa<>(10); });
}
void BM_memory_ts_sgld(benchmark::State& s) {
  heap_after_rounds(s, [] { return sabandit::ts_sgld<>(10, {.batch_size = 1}); });
}
BENCHMARK(BM_memory_ts_sa)->RangeMultiplier(10)->Range(1000, 1000000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_memory_ts_sgld)->RangeMultiplier(10)->Range(1000, 1000000)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
