// The cost of one round (select + update) of each policy, against two references measured in
// the same run: the floor (drawing K normals with sabandit's sampler) and the straightforward
// baseline (bench/baseline.hpp). Rewards are pre-drawn so that only the policy is timed.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <chrono>

#include "baseline.hpp"
#include "timed_rounds.hpp"
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

// One policy playing rounds on pre-drawn rewards, past every warm-up once constructed.
template <class P>
class round_driver {
 public:
  explicit round_driver(P policy) : policy_(std::move(policy)) {
    for (Eigen::Index i = 0; i < 30 * policy_.num_arms(); ++i) round();  // past every warm-up
  }
  void round() {
    const auto arm = policy_.select(gen_);
    // The arm's index shifts its mean, so that learning is real (arm K-1 is best).
    policy_.update(arm, rewards_(t_++ & (reward_pool - 1)) + 1e-3 * static_cast<double>(arm), gen_);
  }
  P& policy() { return policy_; }

 private:
  P policy_;
  Eigen::ArrayXd rewards_ = reward_table();
  sabandit::xoshiro256pp gen_{1};
  int t_ = 0;
};

// Rounds of `policy` on pre-drawn rewards, after every warm-up. With a `horizon`, the policy
// restarts every `horizon` rounds from a copy of its warmed-up self (untimed): TS-SGLD's cost
// grows with its histories, and this times it over the rounds of an experiment of that length
// rather than over ever longer histories that no longer fit in the cache.
template <class P>
void run_rounds(benchmark::State& state, P policy, Eigen::Index horizon = 0) {
  round_driver driver(std::move(policy));
  const P warmed_up = driver.policy();
  timed_rounds(state, driver, warmed_up, horizon);
  state.SetComplexityN(state.range(0));
}

void BM_round_gaussian_ts(benchmark::State& s) { run_rounds(s, sabandit::gaussian_ts(s.range(0))); }
void BM_round_epsilon_ts(benchmark::State& s) { run_rounds(s, sabandit::epsilon_ts<>(s.range(0))); }
void BM_round_ucb(benchmark::State& s) { run_rounds(s, sabandit::ucb(s.range(0))); }
void BM_round_ts_sa(benchmark::State& s) { run_rounds(s, sabandit::ts_sa<>(s.range(0))); }

// TS-SA with its default parameters against Gaussian TS, both at K arms, in the same run
// (arguments d, K): blocks of 256 rounds of each alternate, every block timed, so that both
// see the same machine (clock, caches, the other users of the 2 shared cores) and the ratio
// of their times per round, reported as the counter ts_sa_over_ts, is the figure to quote;
// ts_ns and ts_sa_ns are the two times per round. With d > 1, TS-SA gets d x K features
// (random_features) and TS, which has no features, plays the same K arms.
void BM_ratio_ts_sa_to_gaussian_ts(benchmark::State& state) {
  const Eigen::Index d = state.range(0);
  const Eigen::Index k = state.range(1);
  sabandit::xoshiro256pp features_gen(5);
  round_driver ts{sabandit::gaussian_ts(k)};
  round_driver sa(sabandit::ts_sa<>(d == 1 ? sabandit::unit_features(k)
                                           : sabandit::random_features(d, k, features_gen),
                                    {}));
  constexpr int block = 256;
  double ts_seconds = 0.0;
  double sa_seconds = 0.0;
  using clock = std::chrono::steady_clock;
  for (auto _ : state) {
    const auto start = clock::now();
    for (int i = 0; i < block; ++i) ts.round();
    const auto middle = clock::now();
    for (int i = 0; i < block; ++i) sa.round();
    const auto end = clock::now();
    ts_seconds += std::chrono::duration<double>(middle - start).count();
    sa_seconds += std::chrono::duration<double>(end - middle).count();
  }
  const double rounds = static_cast<double>(state.iterations()) * block;
  state.counters["ts_ns"] = 1e9 * ts_seconds / rounds;
  state.counters["ts_sa_ns"] = 1e9 * sa_seconds / rounds;
  state.counters["ts_sa_over_ts"] = sa_seconds / ts_seconds;
  state.SetItemsProcessed(state.iterations() * 2 * block);
}

// TS-SGLD over figure1's horizon, T = 10,000 rounds.
constexpr Eigen::Index figure1_horizon = 10000;
void BM_round_ts_sgld(benchmark::State& s) {
  run_rounds(s, sabandit::ts_sgld<>(s.range(0)), figure1_horizon);
}

// TS-SGLD with 0.2.0's mini-batch draws: the same policy, but every mini-batch drawn arm by arm
// from the caller's engine (the source's scalar path, which 0.2.0 used throughout) instead of
// the round's block. Only select() differs: it skips begin_round. It shares this release's
// other changes (the d = 1 path, the commit), so the "3x faster than 0.2.0" target is measured
// on figure1 against the 0.2.0 program itself (README, Performance).
class ts_sgld_scalar_batches : public sabandit::ts_sgld<> {
 public:
  explicit ts_sgld_scalar_batches(Eigen::Index arms) : ts_sgld(arms), moved_(1, arms) {}
  template <class URBG>
  Eigen::Index select(URBG& gen) {
    if (const auto arm = warm_up_arm()) return *arm;
    for (Eigen::Index a = 0; a < num_arms(); ++a) {
      const double pulls = statistics().count(a);
      const sabandit::langevin::step_settings step{
          parameters().step_size, std::sqrt(parameters().temperature / pulls), 1.0 / pulls};
      moved_.col(a) = advance(a, static_cast<Eigen::Index>(pulls), step, gen);
    }
    commit_all(moved_);
    return greedy_argmax();
  }

 private:
  Eigen::MatrixXd moved_;
};
void BM_round_ts_sgld_scalar_batches(benchmark::State& s) {
  run_rounds(s, ts_sgld_scalar_batches(s.range(0)), figure1_horizon);
}

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

// Issue 13, item 3: the decision step that TS, eps-TS and TS-SA share (argmax of K scores
// centre + spread z), before and after, in the same run. Before (0.2.0): fill K normals into
// scratch through the engine reference, then centre + spread * z as an Eigen expression, then
// the two-pass argmax. After: gaussian_scores::sample_argmax, one pass on a register copy of
// the engine. Same normals, same decisions.
struct engine_by_reference {  // draws through a pointer, as 0.2.0's fill did through a reference
  using result_type = std::uint64_t;
  static constexpr result_type min() { return sabandit::xoshiro256pp::min(); }
  static constexpr result_type max() { return sabandit::xoshiro256pp::max(); }
  result_type operator()() { return (*engine)(); }
  sabandit::xoshiro256pp* engine;
};
void BM_decision_before(benchmark::State& state) {
  const auto rewards = reward_table();
  const Eigen::ArrayXd centre = rewards.head(state.range(0)), spread = centre.abs() + 0.1;
  Eigen::ArrayXd scores(state.range(0));
  sabandit::xoshiro256pp gen(1);
  engine_by_reference through{&gen};
  for (auto _ : state) {
    sabandit::fill_standard_normal(scores, through);
    scores = centre + spread * scores;
    benchmark::DoNotOptimize(sabandit::detail::argmax(scores));
  }
  state.SetItemsProcessed(state.iterations());
}
void BM_decision_after(benchmark::State& state) {
  const auto rewards = reward_table();
  sabandit::detail::gaussian_scores scores(state.range(0));
  for (Eigen::Index a = 0; a < state.range(0); ++a)
    scores.set(a, rewards(a), std::abs(rewards(a)) + 0.1);
  sabandit::xoshiro256pp gen(1);
  for (auto _ : state) benchmark::DoNotOptimize(scores.sample_argmax(gen));
  state.SetItemsProcessed(state.iterations());
}

// The K values of the README table.
#define SABANDIT_TABLE_ARGS Arg(10)->Arg(50)->Arg(1000)
BENCHMARK(BM_floor_k_normals)->SABANDIT_TABLE_ARGS;
BENCHMARK(BM_round_gaussian_ts)->SABANDIT_TABLE_ARGS;
BENCHMARK(BM_round_ts_sa)->SABANDIT_TABLE_ARGS;
BENCHMARK(BM_round_ucb)->SABANDIT_TABLE_ARGS;
BENCHMARK(BM_round_epsilon_ts)->SABANDIT_TABLE_ARGS;
BENCHMARK(BM_round_ts_sgld)->SABANDIT_TABLE_ARGS;
BENCHMARK(BM_round_ts_sgld_scalar_batches)->SABANDIT_TABLE_ARGS;
BENCHMARK(BM_decision_before)->SABANDIT_TABLE_ARGS;
BENCHMARK(BM_decision_after)->SABANDIT_TABLE_ARGS;
BENCHMARK(BM_round_baseline_gaussian_ts)->SABANDIT_TABLE_ARGS;
BENCHMARK(BM_round_baseline_ucb)->SABANDIT_TABLE_ARGS;

// Arguments (d, K), d first so that the smoke test's filter (K = 2 or 10) picks K = 10.
BENCHMARK(BM_ratio_ts_sa_to_gaussian_ts)->Args({1, 10})->Args({1, 50})->Args({5, 10})->Args({5, 50});

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
