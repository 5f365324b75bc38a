// Random generation: the engines, sabandit's ziggurat and its samplers against the standard
// library in the same run.
// Report: time per draw (items_per_second); the ratio std / sabandit is the figure of merit.
#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

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

// Skipping n outputs: the state step repeated n times (the baseline) against discard(n),
// which jumps by the characteristic polynomial from xoshiro256pp::jump_threshold on. The
// threshold is where the two times cross.
void BM_discard_by_steps(benchmark::State& state) {
  sabandit::xoshiro256pp gen(1);
  auto words = gen.state();
  for (auto _ : state) {
    for (auto n = state.range(0); n != 0; --n) sabandit::xoshiro256pp::step(words);
    benchmark::DoNotOptimize(words);
  }
}
BENCHMARK(BM_discard_by_steps)->RangeMultiplier(4)->Range(1 << 10, 1 << 18);

void BM_discard(benchmark::State& state) {
  sabandit::xoshiro256pp gen(1);
  for (auto _ : state) {
    gen.discard(static_cast<unsigned long long>(state.range(0)));
    benchmark::DoNotOptimize(gen);
  }
}
BENCHMARK(BM_discard)->RangeMultiplier(4)->Range(1 << 10, 1 << 18)->Arg(-1);  // -1: 2^64 - 1

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

// The samplers of gamma.hpp, beta.hpp, poisson.hpp and bernoulli.hpp, each against the
// standard library's distribution on std::mt19937_64 (the baseline a straightforward program
// uses), and sabandit's sampler on both engines to separate the engine from the algorithm.
// Each fills a block of 1024 draws at one parameter; the std distributions are built once
// (they precompute their constants); sabandit's free functions take the parameter per call, and
// its *_sampler value types precompute like std's.
// Names: BM_<family>_<std|sabandit>_<engine>/<parameter>.
namespace {

template <class Engine, class Draw>
void fill_block(benchmark::State& state, Engine& gen, Draw& draw) {
  Eigen::ArrayXd out(block);
  for (auto _ : state) {
    for (Eigen::Index i = 0; i < block; ++i) out(i) = static_cast<double>(draw(gen));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * block);
}

/// Registers `draw` (callable with an engine, possibly stateful like a std distribution) on a
/// fresh Engine(1); each run starts from a copy of `draw`.
template <class Engine, class Draw>
void register_draws(const std::string& name, Draw draw) {
  benchmark::RegisterBenchmark(name.c_str(), [draw](benchmark::State& state) {
    Engine gen(1);
    Draw fresh = draw;
    fill_block(state, gen, fresh);
  });
}

template <class StdDraw, class SabanditDraw>
void register_family(const std::string& family, const std::string& parameter, StdDraw std_draw,
                     SabanditDraw sabandit_draw) {
  register_draws<std::mt19937_64>("BM_" + family + "_std_mt19937_64/" + parameter, std_draw);
  register_draws<sabandit::xoshiro256pp>("BM_" + family + "_sabandit_xoshiro/" + parameter,
                                         sabandit_draw);
  register_draws<std::mt19937_64>("BM_" + family + "_sabandit_mt19937_64/" + parameter,
                                  sabandit_draw);
}

/// The value-type sampler (constants computed once, as std's distributions do) on xoshiro.
template <class Sampler>
void register_sampler(const std::string& family, const std::string& parameter, Sampler sampler) {
  register_draws<sabandit::xoshiro256pp>("BM_" + family + "_sabandit_sampler_xoshiro/" + parameter,
                                         sampler);
}

std::string parameter_name(const std::string& prefix, double value) {
  std::ostringstream out;
  out << prefix << value;
  return out.str();
}

const bool samplers_registered = [] {
  for (double shape : {0.5, 2.5, 100.0}) {
    register_family("gamma", parameter_name("shape_", shape), std::gamma_distribution<double>(shape),
                    [shape](auto& g) { return sabandit::gamma_variate(shape, g); });
    register_sampler("gamma", parameter_name("shape_", shape), sabandit::gamma_sampler(shape));
  }
  // The standard library has no beta distribution: its baseline is the textbook X / (X + Y) of
  // two std::gamma_distribution draws.
  for (auto [a, b] : {std::pair{0.5, 0.5}, std::pair{2.0, 5.0}}) {
    register_family(
        "beta", parameter_name("a_", a) + parameter_name("_b_", b),
        [gamma_a = std::gamma_distribution<double>(a),
         gamma_b = std::gamma_distribution<double>(b)](auto& g) mutable {
          const double x = gamma_a(g);
          return x / (x + gamma_b(g));
        },
        [a, b](auto& g) { return sabandit::beta_variate(a, b, g); });
    register_sampler("beta", parameter_name("a_", a) + parameter_name("_b_", b),
                     sabandit::beta_sampler(a, b));
  }
  for (double mu : {0.3, 3.0, 37.0, 1e4}) {
    register_family("poisson", parameter_name("mu_", mu), std::poisson_distribution<long>(mu),
                    [mu](auto& g) { return sabandit::poisson_variate(mu, g); });
    register_sampler("poisson", parameter_name("mu_", mu), sabandit::poisson_sampler(mu));
  }
  register_family("bernoulli", "p_0.3", std::bernoulli_distribution(0.3),
                  [](auto& g) { return sabandit::bernoulli_variate(0.3, g); });
  return true;
}();

}  // namespace

// Blocks from the multi-lane engine (random/lanes.hpp) against the scalar engine, in the same
// run: 64-bit words, uniform indices into a range of 5,000 (TS-SGLD's mini-batches at
// mid-horizon) and standard normals. Names: BM_<what>_<scalar|lanes<L>>[/block size].
namespace {

constexpr std::uint32_t index_range = 5000;

/// Times `fill(engine, out)` on blocks of `size` values of type Value.
template <class Engine, class Value, class Fill>
void time_blocks(benchmark::State& state, std::size_t size, Fill fill) {
  Engine gen(1);
  std::vector<Value> out(size);
  for (auto _ : state) {
    fill(gen, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(size));
}

void BM_words_scalar(benchmark::State& state) {
  time_blocks<sabandit::xoshiro256pp, std::uint64_t>(state, block, [](auto& gen, auto& out) {
    for (auto& x : out) x = gen();
  });
}
template <std::size_t Lanes>
void BM_words_lanes(benchmark::State& state) {
  time_blocks<sabandit::xoshiro256pp_lanes<Lanes>, std::uint64_t>(
      state, block, [](auto& gen, auto& out) { gen.fill(std::span(out)); });
}
void BM_indices_scalar(benchmark::State& state) {
  time_blocks<sabandit::xoshiro256pp, std::uint32_t>(state, block, [](auto& gen, auto& out) {
    for (auto& x : out) x = static_cast<std::uint32_t>(sabandit::uniform_index(gen, index_range));
  });
}
template <std::size_t Lanes>
void BM_indices_lanes(benchmark::State& state) {
  time_blocks<sabandit::xoshiro256pp_lanes<Lanes>, std::uint32_t>(
      state, block, [](auto& gen, auto& out) { gen.fill_indices(out, index_range); });
}
void BM_normals_scalar(benchmark::State& state) {
  time_blocks<sabandit::xoshiro256pp, double>(
      state, static_cast<std::size_t>(state.range(0)),
      [](auto& gen, auto& out) {
        const auto size = static_cast<Eigen::Index>(out.size());
        sabandit::fill_standard_normal(Eigen::Map<Eigen::ArrayXd>(out.data(), size), gen);
      });
}
template <std::size_t Lanes>
void BM_normals_lanes(benchmark::State& state) {
  time_blocks<sabandit::xoshiro256pp_lanes<Lanes>, double>(
      state, static_cast<std::size_t>(state.range(0)),
      [](auto& gen, auto& out) { gen.fill_normals(out); });
}
BENCHMARK(BM_words_scalar);
BENCHMARK_TEMPLATE(BM_words_lanes, 4);
BENCHMARK_TEMPLATE(BM_words_lanes, 8);
BENCHMARK(BM_indices_scalar);
BENCHMARK_TEMPLATE(BM_indices_lanes, 4);
BENCHMARK_TEMPLATE(BM_indices_lanes, 8);
BENCHMARK(BM_normals_scalar)->Arg(10)->Arg(50)->Arg(block);
BENCHMARK_TEMPLATE(BM_normals_lanes, 4)->Arg(10)->Arg(50)->Arg(block);
BENCHMARK_TEMPLATE(BM_normals_lanes, 8)->Arg(block);

}  // namespace
