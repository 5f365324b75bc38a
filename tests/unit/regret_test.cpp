// End-to-end: every policy on the paper's SGR, K = 10, Delta = 0.5, T = 10,000, 50 trials.
//
// Bounds, for rewards that are 1-sub-Gaussian (sigma^2 = 1):
//  - uniform play: E R_T = T Delta (K - 1) / K = 4,500;
//  - UCB's finite-time bound (Lattimore & Szepesvari, Bandit Algorithms, Thm 7.2):
//      E R_T <= 3 sum_a Delta_a + sum_a 16 ln T / Delta_a = 13.5 + 9 * 16 * 9.21 / 0.5 = 2,666;
//    it is checked for UCB only: Gaussian TS has a bound of the same order (Agrawal & Goyal
//    2017, Thm 1.3) but with other constants, and the Langevin policies and epsilon-TS have
//    no finite-time bound with stated constants, so for them the checks are the two below.
//  - sublinear growth: with R_T ~ c ln T the second half adds c ln 2 against c ln(T/2) for the
//    first, a ratio of 0.08; linear regret gives 1. We require < 0.5.
// The mean over 50 trials has a standard error of about 2-5% of itself here (measured), so a
// policy at its expected regret clears these bounds by many standard errors; a broken one
// (linear regret, 4,500) cannot pass either.
#include <optional>

#include "sabandit/sim.hpp"
#include "support/catch.hpp"

using namespace sabandit;

namespace {
constexpr double uniform_regret = 10'000 * 0.5 * 9.0 / 10.0;
constexpr double ucb_bound = 3 * 9 * 0.5 + 9 * 16 * 9.210340371976184 / 0.5;

template <class Factory>
void check_sublinear(const Factory& factory, std::optional<double> bound = std::nullopt) {
  const auto env = make_sgr({.num_arms = 10, .gap = 0.5});
  const auto curve = simulate(env, factory, {.horizon = 10'000, .trials = 50, .seed = 2026,
                                             .record_points = 2});
  const double half = curve.mean_regret[0], full = curve.mean_regret[1];
  INFO("R(T/2) = " << half << ", R(T) = " << full << " +- " << curve.final_standard_error());
  if (bound) CHECK(full <= *bound);
  CHECK(full < uniform_regret / 4);
  CHECK(full - half < 0.5 * half);
}
}  // namespace

TEST_CASE("UCB: sublinear regret on SGR", "[regret][statistical]") {
  check_sublinear([](Eigen::Index) { return ucb(10); }, ucb_bound);
}
TEST_CASE("Gaussian TS: sublinear regret on SGR", "[regret][statistical]") {
  check_sublinear([](Eigen::Index) { return gaussian_ts(10); });
}
TEST_CASE("epsilon-TS: sublinear regret on SGR", "[regret][statistical]") {
  check_sublinear([](Eigen::Index) { return epsilon_ts<>(10); });
}
TEST_CASE("TS-SGLD: sublinear regret on SGR", "[regret][statistical]") {
  check_sublinear([](Eigen::Index) { return ts_sgld<>(10); });
}
TEST_CASE("TS-SA: sublinear regret on SGR", "[regret][statistical]") {
  check_sublinear([](Eigen::Index) { return ts_sa<>(10); });
}

TEST_CASE("TS-SA's paper configuration: sublinear regret on SGR", "[regret][statistical]") {
  check_sublinear([](Eigen::Index) { return ts_sa<>(10, ts_sa<>::params::paper()); });
}

TEST_CASE("scale-free TS-SA is within 10% of Beta-Bernoulli TS at low click rates",
          "[regret][statistical][fisher]") {
  // Rates 3.0-4.0 %, K = 4, T = 10,000, 40 trials on one seed: both policies see the same
  // rewards (simulate() gives each arm of each trial its own stream), so the per-trial
  // difference d = R_SA - 1.1 R_TS has a small variance. The design target
  // (docs/scale-free-ts-sa.md) is E[R_SA] <= 1.1 E[R_TS]; by the CLT on the 40 paired d's the
  // test fails a policy at the target with probability 0.13 % (3 standard errors). Alg. 1
  // with the paper's values has about 4 times TS's regret here, 30 standard errors away.
  std::vector<bernoulli_arm> arms;
  for (double p : {0.030, 0.034, 0.037, 0.040}) arms.emplace_back(p);
  const bandit_env env(arms);
  const run_config config{.horizon = 10'000, .trials = 40, .seed = 77};
  const auto sa = simulate(env, [](Eigen::Index) { return ts_sa<bernoulli_model>(4); }, config);
  const auto ts = simulate(env, [](Eigen::Index) { return thompson<bernoulli_model>(4); }, config);
  Eigen::ArrayXd d(config.trials);
  for (Eigen::Index r = 0; r < config.trials; ++r)
    d(r) = sa.final_regrets[static_cast<std::size_t>(r)] -
           1.1 * ts.final_regrets[static_cast<std::size_t>(r)];
  const double mean = d.mean();
  const auto n = static_cast<double>(d.size());
  const double se = std::sqrt((d - mean).square().sum() / (n - 1) / n);
  INFO("TS-SA " << sa.final_regret() << " +- " << sa.final_standard_error() << ", TS "
                << ts.final_regret() << " +- " << ts.final_standard_error());
  CHECK(mean <= 3.0 * se);
}
