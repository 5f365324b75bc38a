// Properties every policy shares: validation, the strong guarantee of update, copies as
// checkpoints, and decisions that depend on the seed alone.
#include <cmath>
#include <limits>

#include "sabandit/sabandit.hpp"
#include "support/catch.hpp"

using namespace sabandit;

namespace {

// One factory per policy, small enough to reach the sampling phase quickly.
struct make_ucb {
  static ucb make(Eigen::Index k) { return ucb(k); }
};
struct make_ts {
  static gaussian_ts make(Eigen::Index k) { return gaussian_ts(k); }
};
struct make_eps {
  static epsilon_ts<> make(Eigen::Index k) { return epsilon_ts<>(k, {.epsilon = 0.2}); }
};
struct make_sa {
  static ts_sa<> make(Eigen::Index k) { return ts_sa<>(k, {.warmup = 3, .window = 5}); }
};
struct make_sgld {
  static ts_sgld<> make(Eigen::Index k) { return ts_sgld<>(k, {.batch_size = 4}); }
};

template <class P>
void play(P& policy, xoshiro256pp& gen, int rounds) {
  for (int t = 0; t < rounds; ++t) {
    const auto arm = policy.select(gen);
    policy.update(arm, 0.3 * static_cast<double>(arm) + standard_normal(gen), gen);
  }
}

template <class P>
std::vector<Eigen::Index> decisions(P policy, xoshiro256pp gen, int rounds) {
  std::vector<Eigen::Index> arms;
  for (int t = 0; t < rounds; ++t) {
    arms.push_back(policy.select(gen));
    policy.update(arms.back(), 0.3 * static_cast<double>(arms.back()), gen);
  }
  return arms;
}

}  // namespace

TEMPLATE_TEST_CASE("a rejected update leaves the policy unchanged", "[policies][errors]", make_ucb,
                   make_ts, make_eps, make_sa, make_sgld) {
  auto policy = TestType::make(4);
  xoshiro256pp gen(5);
  play(policy, gen, 40);
  const auto untouched = policy;
  xoshiro256pp other = gen;
  CHECK_THROWS_AS(policy.update(4, 1.0, other), std::out_of_range);
  CHECK_THROWS_AS(policy.update(-1, 1.0, other), std::out_of_range);
  CHECK_THROWS_WITH(policy.update(0, std::numeric_limits<double>::quiet_NaN(), other),
                    Catch::Contains("reward = nan"));
  CHECK_THROWS_WITH(policy.update(1, std::numeric_limits<double>::infinity(), other),
                    Catch::Contains("reward = inf"));
  CHECK_THROWS_WITH(policy.update(7, 1.0, other), Catch::Contains("arm = 7"));
  CHECK(other == gen);  // nothing was drawn either
  // The following 200 decisions are those of the untouched copy.
  CHECK(decisions(policy, gen, 200) == decisions(untouched, gen, 200));
}

TEMPLATE_TEST_CASE("a copy is a checkpoint: same seed, same trajectory", "[policies]", make_ucb,
                   make_ts, make_eps, make_sa, make_sgld) {
  auto policy = TestType::make(5);
  xoshiro256pp gen(8);
  play(policy, gen, 60);
  const auto checkpoint = policy;
  const auto first = decisions(policy, gen, 300);
  CHECK(first == decisions(checkpoint, gen, 300));
  for (auto arm : first) CHECK((arm >= 0 && arm < 5));
}

TEMPLATE_TEST_CASE("warm-up pulls every arm in index order first", "[policies]", make_ucb, make_ts,
                   make_eps, make_sa, make_sgld) {
  auto policy = TestType::make(4);
  xoshiro256pp gen(1);
  const auto arms = decisions(policy, gen, 4);
  CHECK(arms == std::vector<Eigen::Index>{0, 1, 2, 3});
}

TEST_CASE("invalid parameters are rejected with the parameter's name and value",
          "[policies][errors]") {
  CHECK_THROWS_WITH(ucb(0), Catch::Contains("num_arms = 0"));
  CHECK_THROWS_WITH(ucb(3, {.bonus_scale = 0.0}), Catch::Contains("bonus_scale = 0"));
  CHECK_THROWS_WITH(gaussian_ts(0), Catch::Contains("num_arms = 0"));
  CHECK_THROWS_WITH(gaussian_ts(3, {.temperature = -1.0}), Catch::Contains("temperature = -1"));
  CHECK_THROWS_WITH(gaussian_ts(3, {.prior = {0.0, 0.0}}), Catch::Contains("prior.variance = 0"));
  CHECK_THROWS_WITH(gaussian_ts(3, {.warmup = 0}), Catch::Contains("warmup = 0"));
  CHECK_THROWS_WITH(epsilon_ts<>(3, {.epsilon = 1.0}), Catch::Contains("epsilon = 1"));
  CHECK_THROWS_WITH(epsilon_ts<>(3, {.epsilon = -0.1}), Catch::Contains("epsilon = -0.1"));
  CHECK_THROWS_WITH(ts_sa<>(0), Catch::Contains("num_arms = 0"));
  CHECK_THROWS_WITH(ts_sa<>(3, {.step_size = 0.0}), Catch::Contains("step_size (h) = 0"));
  CHECK_THROWS_WITH(ts_sa<>(3, {.window = 0}), Catch::Contains("window (B) = 0"));
  CHECK_THROWS_WITH(ts_sa<>(3, {.warmup = 0}), Catch::Contains("warmup (Omega) = 0"));
  CHECK_THROWS_WITH(ts_sa<>(3, {.inner_steps = 0}), Catch::Contains("inner_steps (N) = 0"));
  CHECK_THROWS_WITH(ts_sa<>(3, {.temperature = 0.0}), Catch::Contains("temperature (tau) = 0"));
  CHECK_THROWS_WITH(ts_sa<>(3, {.warmup = 1, .sa_schedule = polynomial_decay(5, 1, 0, 1)}),
                    Catch::Contains("sa_schedule(warmup) = 5"));
  CHECK_THROWS_WITH(ts_sgld<>(3, {.batch_size = 0}), Catch::Contains("batch_size = 0"));
  CHECK_THROWS_WITH(ts_sgld<>(3, {.temperature = 0.0}), Catch::Contains("temperature (tau) = 0"));
  CHECK_THROWS_WITH(ts_sa<>(Eigen::MatrixXd::Zero(2, 3), {}), Catch::Contains("features.col(0)"));
  CHECK_THROWS_WITH(ts_sa<>(Eigen::MatrixXd(0, 3), {}), Catch::Contains("dimension d) = 0"));
  ts_sa<>::params bad_prior;
  bad_prior.prior.variance = -2.0;
  CHECK_THROWS_WITH(ts_sa<>(3, bad_prior), Catch::Contains("prior.variance = -2"));
}

TEST_CASE("Gaussian TS posterior follows the appendix's formula", "[policies]") {
  gaussian_ts ts(2, {.temperature = 0.5, .prior = {1.0, 4.0}});
  xoshiro256pp gen(1);
  ts.update(0, 2.0, gen);
  ts.update(0, 4.0, gen);
  // N((mu0/s0^2 + n xbar)/(1/s0^2 + n), tau/(1/s0^2 + n)) with n = 2, xbar = 3.
  CHECK(ts.posterior_means()(0) == Approx((1.0 / 4.0 + 6.0) / (0.25 + 2.0)));
  CHECK(ts.posterior_stddevs()(0) == Approx(std::sqrt(0.5 / 2.25)));
  CHECK(ts.posterior_means()(1) == Approx(1.0));  // the prior, before any pull
}

TEST_CASE("UCB plays the arm with the largest index", "[policies]") {
  ucb policy(3, {.bonus_scale = 0.5});
  xoshiro256pp gen(1);
  policy.update(0, 1.0, gen);
  policy.update(1, 1.2, gen);
  policy.update(2, 0.0, gen);
  policy.update(2, 0.2, gen);
  // t = 5: index = mean + 0.5 sqrt(2 ln 5 / n): 1 + 0.897, 1.2 + 0.897, 0.1 + 0.634.
  CHECK(policy.select(gen) == 1);
}

TEST_CASE("epsilon-TS takes the greedy branch with probability epsilon", "[policies][statistical]") {
  // Two arms: arm 0 has posterior mean ~1 and sd ~0.01, arm 1 one reward 0.5 (sd ~1).
  // TS plays arm 1 with p1 = Phi((m1 - m0) / sqrt(s0^2 + s1^2)); the greedy branch always
  // plays arm 0, so P(arm 1) = (1 - epsilon) p1.
  for (double eps : {0.0, 0.25, 0.7}) {
    epsilon_ts<> policy(2, {.epsilon = eps});
    xoshiro256pp gen(77);
    for (int i = 0; i < 10'000; ++i) policy.update(0, 1.0, gen);
    policy.update(1, 0.5, gen);
    const auto& post = policy.posterior();
    const double z = (post.posterior_means()(1) - post.posterior_means()(0)) /
                     std::hypot(post.posterior_stddevs()(0), post.posterior_stddevs()(1));
    const double p1 = 0.5 * std::erfc(-z / std::sqrt(2.0));
    const double expected = (1.0 - eps) * p1;
    constexpr int n = 200'000;
    int arm1 = 0;
    for (int t = 0; t < n; ++t) arm1 += policy.select(gen) == 1 ? 1 : 0;
    // Binomial(n, expected): 5 sigma band (false alarm 5.7e-7 per epsilon).
    const double sd = std::sqrt(n * expected * (1 - expected));
    CHECK(std::abs(arm1 - n * expected) < 5.0 * sd);
  }
}

TEST_CASE("TS-SA warm-up is round-robin, Omega pulls each", "[policies]") {
  ts_sa<> policy(3, {.warmup = 2});
  xoshiro256pp gen(1);
  const auto arms = decisions(policy, gen, 6);
  CHECK(arms == std::vector<Eigen::Index>{0, 1, 2, 0, 1, 2});
}
