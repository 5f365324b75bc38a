// TS-SA against Algorithm 1 line by line, and its constant memory.
#include <cmath>

#include "sabandit/sabandit.hpp"
#include "support/archetypes.hpp"
#include "support/catch.hpp"

using namespace sabandit;

TEST_CASE("TS-SA warm start and one update follow Alg. 1 lines 8-11", "[ts_sa]") {
  const double h = 0.4;
  const auto schedule = polynomial_decay(2.0, 3.0, 1.0, 0.9);
  ts_sa<> policy(2, {.warmup = 3, .window = 4, .step_size = h, .temperature = 0.5,
                     .sa_schedule = schedule});
  xoshiro256pp gen(21);
  for (double x : {1.0, 2.0, 3.0}) policy.update(0, x, gen);
  // Warm start: the Gaussian MLE of the warm-up window, i.e. its mean.
  CHECK(policy.parameter_estimates()(0, 0) == Approx(2.0));

  // Next update (n = 3 pulls before it): one LMC proposal with the window {1, 2, 3}
  // (the new reward 10 enters only at line 11), then the SA average with gamma_3.
  xoshiro256pp replay = gen;
  const double xi = standard_normal(replay);
  const double theta = 2.0, gamma = schedule(3);
  const double grad = (2.0 - theta) / 1.0;
  const double omega = theta + h * grad + std::sqrt(2 * h) * xi;
  policy.update(0, 10.0, gen);
  CHECK(policy.parameter_estimates()(0, 0) == Approx((1 - gamma) * theta + gamma * omega));
  CHECK(gen == replay);  // exactly one normal was drawn
  CHECK(policy.windows().size(0) == 4);
  CHECK(policy.windows().mean(0) == Approx(4.0));  // {1, 2, 3, 10}
}

TEST_CASE("TS-SA samples with variance tau / n around theta (Alg. 1 line 4)", "[ts_sa][statistical]") {
  // Two arms after warm-up: arm 0 at theta = 0 with n = 4, arm 1 at theta = 0.3 with n = 4.
  // Scores are N(theta_a, tau/n): P(arm 0) = Phi((0 - 0.3) / sqrt(2 tau / n)).
  const double tau = 0.5;
  ts_sa<> policy(2, {.warmup = 4, .window = 4, .temperature = tau});
  xoshiro256pp gen(4);
  for (int i = 0; i < 4; ++i) {
    policy.update(0, 0.0, gen);
    policy.update(1, 0.3, gen);
  }
  const double p0 = 0.5 * std::erfc(0.3 / std::sqrt(2 * tau / 4) / std::sqrt(2.0));
  constexpr int n = 100'000;
  int arm0 = 0;
  for (int t = 0; t < n; ++t) arm0 += policy.select(gen) == 0 ? 1 : 0;
  CHECK(std::abs(arm0 - n * p0) < 5.0 * std::sqrt(n * p0 * (1 - p0)));  // binomial, 5 sigma
}

TEST_CASE("TS-SA memory does not grow with the number of updates", "[ts_sa]") {
  ts_sa<> policy(10);
  xoshiro256pp gen(3);
  const auto window_bytes = [&] {
    return policy.windows().storage().size() * static_cast<Eigen::Index>(sizeof(double));
  };
  const auto before = window_bytes();
  for (int t = 0; t < 20'000; ++t) {
    const auto arm = policy.select(gen);
    policy.update(arm, standard_normal(gen), gen);
  }
  CHECK(window_bytes() == before);
  CHECK(policy.windows().capacity() == 27);
  CHECK(policy.windows().storage().cols() == 10);
  CHECK(policy.parameter_estimates().size() == 10);
  for (Eigen::Index a = 0; a < 10; ++a) CHECK(policy.windows().size(a) == 27);
}

TEST_CASE("TS-SA window mean stays exact over long runs", "[ts_sa]") {
  // The running sum is resynchronised every B pushes: compare with a direct sum.
  ts_sa<> policy(1, {.warmup = 1, .window = 7});
  xoshiro256pp gen(9);
  for (int t = 0; t < 100'003; ++t) policy.update(0, 1e6 + standard_normal(gen), gen);
  const auto& w = policy.windows();
  CHECK(w.mean(0) == Approx(w.rewards(0).mean()).epsilon(1e-14));
}

TEST_CASE("TS-SA initialisation from the prior", "[ts_sa]") {
  ts_sa<>::params p{.warmup = 2, .init = initialisation::prior, .prior = {5.0, 1e-12}};
  ts_sa<> policy(1, p);
  xoshiro256pp gen(2);
  policy.update(0, -3.0, gen);
  policy.update(0, -3.0, gen);
  CHECK(policy.parameter_estimates()(0, 0) == Approx(5.0).margin(1e-5));
}

TEST_CASE("TS-SA with a generic model warm-starts at the MAP", "[ts_sa]") {
  ts_sa<test::reward_model_archetype> policy(unit_features(1), {.warmup = 3},
                                             test::reward_model_archetype{});
  xoshiro256pp gen(2);
  for (double x : {1.0, 2.0, 6.0}) policy.update(0, x, gen);
  // Unit-variance Gaussian likelihood and the default N(0, 1) prior: the MAP is the
  // conjugate posterior mean, sum x / (m + 1) = 9 / 4; the solver's tolerance is 1e-9 (m + 1).
  CHECK(policy.parameter_estimates()(0, 0) == Approx(2.25).margin(1e-8));
}

TEST_CASE("TS-SA with the theory's schedule runs N(n) = ceil(T/n) inner steps", "[ts_sa]") {
  ts_sa<gaussian_model, horizon_schedule> policy(
      unit_features(2), {.warmup = 1, .window = 1, .sa_schedule = horizon_schedule(50)});
  xoshiro256pp gen(2), replay(2);
  policy.update(0, 1.0, gen);
  policy.update(0, 1.0, gen);  // n = 1: 50 inner steps, one normal each
  for (int i = 0; i < 50; ++i) (void)standard_normal(replay);
  CHECK(gen == replay);
}

TEST_CASE("TS-SA in d = 3 with features", "[ts_sa]") {
  Eigen::MatrixXd phi(3, 4);
  phi << 1, 0, 0, 1,  //
      0, 1, 0, 1,     //
      0, 0, 1, 1;
  ts_sa<> policy(phi, {.warmup = 2, .window = 4});
  xoshiro256pp gen(6);
  for (int t = 0; t < 400; ++t) {
    const auto arm = policy.select(gen);
    policy.update(arm, arm == 3 ? 2.0 : 0.0, gen);
  }
  // Warm start fits <phi_a, theta_a> = window mean; arm 3 is the best and dominates.
  CHECK(phi.col(3).dot(policy.parameter_estimates().col(3)) == Approx(2.0).margin(0.2));
  CHECK(policy.statistics().count(3) > 300);
}

TEST_CASE("a non-finite Langevin iterate is reported and not stored", "[ts_sa][errors]") {
  // h = 1e6 is the largest step accepted (h = 1e308 now throws at construction) and unstable:
  // each inner step multiplies theta's distance to the window mean by about 1 - gamma h = -2e5,
  // so 60 steps overflow and the proposal is infinite.
  ts_sa<> policy(2, {.warmup = 1, .window = 4, .inner_steps = 60, .step_size = 1e6});
  xoshiro256pp gen(1);
  policy.update(0, 1.0, gen);
  policy.update(1, 2.0, gen);
  const auto before = policy;
  CHECK_THROWS_WITH(policy.update(0, 1.5, gen), Catch::Contains("non-finite"));
  CHECK(policy.parameter_estimates() == before.parameter_estimates());
  CHECK(policy.windows().size(0) == before.windows().size(0));
  CHECK(policy.statistics().count(0) == before.statistics().count(0));
}
