// The cost of one round (select + update) of every contextual policy at the data sets' shapes
// (issue 21): d = 37, K = 6 (Satellite's 36 features and the constant) and d = 65, K = 10
// (digits' 64 and the constant), in steady state. Logistic Laplace TS, which re-solves its MAP
// every round, is the baseline of the same run; issue 21's goal for contextual TS-SA is
// <= 20 us and <= 50 us per round on this machine.
//
// Contexts and Bernoulli rewards are pre-drawn from a logistic problem (contexts (z, 1) with
// z ~ N(0, I), theta*_a ~ N(0, 4 I / d)), so that only the policy is timed and learning is real.
// Each policy first plays `warm_up` rounds (untimed); the timed rounds then restart every
// `horizon` rounds from a copy of the warmed-up policy (untimed), as policies_bench does for
// TS-SGLD: Laplace TS's and TS-SGLD's cost grows with their histories, and this times them over
// rounds 2,000 to 3,000 of an experiment rather than over ever longer histories.
#include <benchmark/benchmark.h>

#include <cmath>
#include <utility>

#include "sabandit/contextual/epsilon_greedy_ridge.hpp"
#include "sabandit/contextual/laplace_ts.hpp"
#include "sabandit/contextual/linear_ts.hpp"
#include "sabandit/contextual/linucb.hpp"
#include "sabandit/contextual/ts_sa.hpp"
#include "sabandit/contextual/ts_sgld.hpp"
#include "sabandit/models/bernoulli.hpp"
#include "sabandit/random/bits.hpp"
#include "sabandit/random/normal.hpp"
#include "sabandit/random/xoshiro.hpp"
#include "timed_rounds.hpp"

namespace {

namespace ctx = sabandit::contextual;
constexpr Eigen::Index pool = 4096;       // pre-drawn rounds (a power of 2)
constexpr Eigen::Index warm_up = 2000;    // untimed rounds before timing
constexpr Eigen::Index horizon = 1000;    // timed rounds before restarting from the warm copy

// Pre-drawn contexts (d x pool) and rewards (K x pool) of a logistic problem.
struct logistic_rounds {
  logistic_rounds(Eigen::Index d, Eigen::Index k) : contexts(d, pool), rewards(k, pool) {
    sabandit::xoshiro256pp gen(2026);
    Eigen::MatrixXd theta(d, k);
    sabandit::fill_standard_normal(theta, gen);
    theta *= 2.0 / std::sqrt(static_cast<double>(d));
    sabandit::fill_standard_normal(contexts, gen);
    contexts.row(d - 1).setOnes();
    for (Eigen::Index t = 0; t < pool; ++t) {
      for (Eigen::Index a = 0; a < k; ++a) {
        const double p = sabandit::sigmoid(contexts.col(t).dot(theta.col(a)));
        rewards(a, t) = sabandit::to_unit_interval(sabandit::random_bits64(gen)) < p ? 1.0 : 0.0;
      }
    }
  }
  Eigen::MatrixXd contexts, rewards;
};

template <class P>
class round_driver {
 public:
  round_driver(P policy, Eigen::Index d, Eigen::Index k)
      : policy_(std::move(policy)), rounds_(d, k) {}
  void round() {
    const auto x = rounds_.contexts.col(t_);
    const auto arm = policy_.select(x, gen_);
    policy_.update(x, arm, rounds_.rewards(arm, t_), gen_);
    t_ = (t_ + 1) & (pool - 1);
  }
  P& policy() { return policy_; }

 private:
  P policy_;
  logistic_rounds rounds_;
  sabandit::xoshiro256pp gen_{1};
  Eigen::Index t_ = 0;
};

// Steady-state rounds of the policy `make(d, K)` (see the header comment).
template <class Make>
void run_rounds(benchmark::State& state, Make make) {
  const Eigen::Index d = state.range(0), k = state.range(1);
  round_driver driver(make(d, k), d, k);
  for (Eigen::Index t = 0; t < warm_up; ++t) driver.round();
  const auto warmed_up = driver.policy();
  timed_rounds(state, driver, warmed_up, horizon);
}

void BM_laplace_ts(benchmark::State& s) {
  run_rounds(s, [](Eigen::Index d, Eigen::Index k) { return ctx::laplace_ts<>(k, d); });
}
void BM_ts_sa(benchmark::State& s) {
  run_rounds(s, [](Eigen::Index d, Eigen::Index k) {
    return ctx::ts_sa<sabandit::bernoulli_model>(k, d);
  });
}
void BM_ts_sgld(benchmark::State& s) {
  run_rounds(s, [](Eigen::Index d, Eigen::Index k) {
    return ctx::ts_sgld<sabandit::bernoulli_model>(k, d);
  });
}
void BM_linucb(benchmark::State& s) {
  run_rounds(s, [](Eigen::Index d, Eigen::Index k) { return ctx::linucb<>(k, d); });
}
void BM_linear_ts(benchmark::State& s) {
  run_rounds(s, [](Eigen::Index d, Eigen::Index k) { return ctx::linear_ts<>(k, d); });
}
void BM_epsilon_greedy_ridge(benchmark::State& s) {
  run_rounds(s, [](Eigen::Index d, Eigen::Index k) { return ctx::epsilon_greedy_ridge<>(k, d); });
}

}  // namespace

// (d, K): Satellite's shape and digits'.
#define SABANDIT_SHAPES ->Args({37, 6})->Args({65, 10})->Unit(benchmark::kMicrosecond)
BENCHMARK(BM_laplace_ts) SABANDIT_SHAPES;
BENCHMARK(BM_ts_sa) SABANDIT_SHAPES;
BENCHMARK(BM_ts_sgld) SABANDIT_SHAPES;
BENCHMARK(BM_linucb) SABANDIT_SHAPES;
BENCHMARK(BM_linear_ts) SABANDIT_SHAPES;
BENCHMARK(BM_epsilon_greedy_ridge) SABANDIT_SHAPES;
