// Normal generation: sabandit's ziggurat against the standard library in the same run.
// Report: time per draw (items_per_second); the ratio std / sabandit is the figure of merit.
#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>
#include <random>

#include "sabandit/random.hpp"

namespace {

constexpr Eigen::Index block = 1024;

void BM_engine_mt19937_64(benchmark::State& state) {
  std::mt19937_64 gen(1);
  for (auto _ : state) benchmark::DoNotOptimize(gen());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_engine_mt19937_64);

void BM_engine_xoshiro256pp(benchmark::State& state) {
  sabandit::xoshiro256pp gen(1);
  for (auto _ : state) benchmark::DoNotOptimize(gen());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_engine_xoshiro256pp);

// The baseline: what a straightforward program does.
void BM_normal_std_mt19937_64(benchmark::State& state) {
  std::mt19937_64 gen(1);
  std::normal_distribution<double> normal;
  Eigen::ArrayXd out(block);
  for (auto _ : state) {
    for (Eigen::Index i = 0; i < block; ++i) out(i) = normal(gen);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * block);
}
BENCHMARK(BM_normal_std_mt19937_64);

// The alternative considered in random/normal.hpp: Box–Muller on the fast engine.
void BM_normal_box_muller_xoshiro(benchmark::State& state) {
  sabandit::xoshiro256pp gen(1);
  Eigen::ArrayXd out(block);
  for (auto _ : state) {
    for (Eigen::Index i = 0; i < block; i += 2) {
      const double u1 = sabandit::to_open_unit_interval(gen());
      const double u2 = sabandit::to_unit_interval(gen());
      const double radius = std::sqrt(-2.0 * std::log(u1));
      out(i) = radius * std::cos(2.0 * std::numbers::pi * u2);
      out(i + 1) = radius * std::sin(2.0 * std::numbers::pi * u2);
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * block);
}
BENCHMARK(BM_normal_box_muller_xoshiro);

void BM_normal_sabandit_scalar(benchmark::State& state) {
  sabandit::xoshiro256pp gen(1);
  Eigen::ArrayXd out(block);
  for (auto _ : state) {
    for (Eigen::Index i = 0; i < block; ++i) out(i) = sabandit::standard_normal(gen);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * block);
}
BENCHMARK(BM_normal_sabandit_scalar);

void BM_normal_sabandit_fill(benchmark::State& state) {
  sabandit::xoshiro256pp gen(1);
  Eigen::ArrayXd out(state.range(0));
  for (auto _ : state) {
    sabandit::fill_standard_normal(out, gen);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_normal_sabandit_fill)->Arg(10)->Arg(50)->Arg(block);

void BM_normal_sabandit_fill_mt19937_64(benchmark::State& state) {
  std::mt19937_64 gen(1);
  Eigen::ArrayXd out(block);
  for (auto _ : state) {
    sabandit::fill_standard_normal(out, gen);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * block);
}
BENCHMARK(BM_normal_sabandit_fill_mt19937_64);

}  // namespace
