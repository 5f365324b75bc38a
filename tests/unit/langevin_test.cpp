// The Langevin policies over any reward model: the GLM decision rule, the prior and the MAP
// warm start, TS-SGLD's prior drift, and the review's bug fixes (one test each).
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "sabandit/sabandit.hpp"
#include "sabandit/sim.hpp"
#include "support/archetypes.hpp"
#include "support/catch.hpp"
#include "support/stat_checks.hpp"

using namespace sabandit;

TEST_CASE("Langevin policies decide on the linear predictor, not the mean",
          "[langevin][glm]") {
  // Two logistic arms warmed up (flat prior, no pseudo-rewards: the MLE) to logits log(0.8/0.2) = 1.39 and
  // log(0.6/0.4) = 0.41 after 60 pulls each.
  // Alg. 1's metric, whose line-4 spread sqrt(tau / n) |phi_a| the replay below recomputes.
  ts_sa<bernoulli_model> policy(unit_features(2), {.warmup = 60, .window = 60,
                                                   .prior = normal_prior::flat(),
                                                   .metric = step_metric::identity,
                                                   .prior_rewards = {}});
  xoshiro256pp gen(8);
  for (int i = 0; i < 60; ++i) {
    policy.update(0, i % 5 < 4 ? 1.0 : 0.0, gen);  // 48 of 60
    policy.update(1, i % 5 < 3 ? 1.0 : 0.0, gen);  // 36 of 60
  }
  const Eigen::ArrayXd eta = policy.linear_predictors();
  CHECK(eta(0) == Approx(std::log(0.8 / 0.2)).margin(1e-6));  // MLE logits of 48/60, 36/60
  CHECK(eta(1) == Approx(std::log(0.6 / 0.4)).margin(1e-6));
  const Eigen::ArrayXd mean = eta.unaryExpr([](double e) { return sigmoid(e); });

  // Replay each select() with a copy of the engine: K normals z, then
  //   linear-predictor rule:  argmax eta_a + sqrt(tau / n_a) |phi_a| z_a      (Alg. 1 line 5)
  //   old rule:               argmax sigmoid(eta_a) + sqrt(tau / n_a) |phi_a| z_a
  // The policy must agree with the first every time; the second must disagree sometimes (a
  // mean-scale centre with parameter-scale noise), or the test would prove nothing.
  const double spread = std::sqrt(1.0 / 60.0);
  int disagreements_with_old_rule = 0;
  for (int t = 0; t < 2000; ++t) {
    xoshiro256pp replay = gen;
    Eigen::Array2d z;
    fill_standard_normal(z, replay);
    const Eigen::Array2d glm_scores = eta + spread * z, old_scores = mean + spread * z;
    const Eigen::Index glm_choice = glm_scores(0) >= glm_scores(1) ? 0 : 1;  // ties: low index
    const Eigen::Index old_choice = old_scores(0) >= old_scores(1) ? 0 : 1;
    const Eigen::Index chosen = policy.select(gen);
    REQUIRE(chosen == glm_choice);
    disagreements_with_old_rule += chosen != old_choice ? 1 : 0;
  }
  CHECK(disagreements_with_old_rule > 0);
}

TEST_CASE("the warm start is the MAP under the prior, for a generic model", "[langevin][prior]") {
  // One 0 reward, Omega = 1, the Bernoulli default prior N(0, 4): the MAP logit solves
  // -sigmoid(eta) - eta / 4 = 0 (about -1.05), not the MLE -infinity. The Bernoulli model has
  // no closed form, so this exercises the line-searched ascent.
  ts_sa<bernoulli_model> policy(unit_features(1), {.warmup = 1,
                                                   .prior = bernoulli_model::default_prior(),
                                                   .prior_rewards = {}});
  xoshiro256pp gen(1);
  policy.update(0, 0.0, gen);
  const double eta = policy.parameter_estimates()(0, 0);
  CHECK(-sigmoid(eta) - eta / 4.0 == Approx(0.0).margin(1e-8));
  CHECK(eta == Approx(-1.05).margin(0.02));
}

TEST_CASE("the generic warm start converges where fixed-step ascent diverged",
          "[langevin][prior]") {
  // A generic-path Gaussian with sigma^2 = 0.2 and 19 rewards: curvature 95, so the old fixed
  // step 0.5 multiplied the error by |1 - 47.5| each step (theta = -8e17 after 100 steps). The
  // line search must find the MAP, sum x / (m + sigma^2 / sigma0^2) for a N(0, 1) prior.
  struct narrow_gaussian : test::reward_model_archetype {
    double log_likelihood(double x, const vector_cref& phi, const vector_cref& theta) const {
      return test::reward_model_archetype::log_likelihood(x, phi, theta) / 0.2;
    }
    void grad_log_likelihood(const vector_cref& xs, const vector_cref& phi,
                             const vector_cref& theta, vector_ref grad) const {
      test::reward_model_archetype::grad_log_likelihood(xs, phi, theta, grad);
      grad /= 0.2;
    }
  };
  ts_sa<narrow_gaussian> policy(unit_features(1), {.warmup = 19, .window = 19}, {});
  xoshiro256pp gen(4);
  double sum = 0;
  for (int i = 0; i < 19; ++i) {
    const double x = 3.0 + standard_normal(gen);
    sum += x;
    policy.update(0, x, gen);
  }
  CHECK(policy.parameter_estimates()(0, 0) == Approx(sum / (19 + 0.2)).epsilon(1e-8));
}

TEST_CASE("an unconverged warm start throws, names the arm, and changes nothing",
          "[langevin][prior][errors]") {
  ts_sa<bernoulli_model> policy(unit_features(3),
                                {.warmup = 2, .warm_start = {.max_iterations = 1}});
  xoshiro256pp gen(3);
  policy.update(2, 1.0, gen);
  const auto before = policy;
  // The values as every message shows them (errors.hpp, value_text): the shortest text that
  // reads back as the double, in any locale; std::to_string showed "0.500000".
  CHECK_THROWS_WITH(policy.update(2, 1.0, gen),
                    Catch::Contains("arm 2") && Catch::Contains("after 1 iterations") &&
                        Catch::Contains("(last Newton step 0.52074704") &&
                        Catch::Contains(" at |theta| = 0.5)"));
  CHECK(policy.statistics().count(2) == before.statistics().count(2));
  CHECK(policy.windows().size(2) == before.windows().size(2));
  CHECK(policy.windows().mean(2) == before.windows().mean(2));
  CHECK(policy.parameter_estimates() == before.parameter_estimates());
}

TEST_CASE("TS-SGLD's drift includes the prior, scaled 1/n", "[langevin][prior][statistical]") {
  // One arm, 4 rewards of 0 (so every mini-batch gradient is exactly -theta), prior N(2, 0.5),
  // sigma^2 = 1, tau = 2. The target is the tempered posterior: mean
  //   (mu0 / sigma0^2 + n xbar) / (1 / sigma0^2 + n) = 4 / 6.
  // With h = 0.1 the chain is the AR(1) theta' = (1 - 1.5 h) theta + h + sqrt(2 h tau / n) xi:
  // mean exactly 2/3, rho = 0.85, noise variance 0.1, stationary variance 0.1 / (1 - rho^2) =
  // 0.3604 (0.1802 if tau were ignored). Over M = 20,000 steps the effective sample size is
  // M (1 - rho) / (1 + rho) = 1,622: the time average has standard error sqrt(0.3604 / 1622) =
  // 0.0149, the sample variance about var sqrt(2 / M (1 + rho^2) / (1 - rho^2)) = 0.0090; both
  // at 5 sigma. Without the prior term the mean would be 0.
  ts_sgld<> policy(unit_features(1), {.warmup = 4, .temperature = 2.0, .prior = {2.0, 0.5}});
  xoshiro256pp gen(12);
  for (int i = 0; i < 4; ++i) policy.update(0, 0.0, gen);
  CHECK(policy.parameter_estimates()(0, 0) == Approx(4.0 / 6.0));  // the warm start: the MAP
  constexpr int steps = 20'000;
  std::vector<double> chain(steps);
  for (int t = 0; t < steps; ++t) {
    (void)policy.select(gen);
    chain[static_cast<std::size_t>(t)] = policy.parameter_estimates()(0, 0);
  }
  const auto m = test::sample_moments(chain);
  CHECK(std::abs(m.mean - 2.0 / 3.0) < 5 * 0.0149);
  CHECK(std::abs(m.variance - 0.3604) < 5 * 0.0090);
}

TEST_CASE("the warm start has no maximiser to find: it throws, never stores", "[langevin][prior][errors]") {
  // A flat prior and a warm-up of zeros: the logit's likelihood increases towards -infinity.
  // The gradient vanishes (about e^-21 at -21) but the Newton step does not, so the search must
  // give up with an error rather than store a finite garbage logit.
  ts_sa<bernoulli_model> policy(unit_features(2),
                                {.warmup = 3, .prior = normal_prior::flat(), .prior_rewards = {}});
  xoshiro256pp gen(1);
  policy.update(0, 0.0, gen);
  policy.update(0, 0.0, gen);
  const auto before = policy;
  CHECK_THROWS_WITH(policy.update(0, 0.0, gen), Catch::Contains("arm 0") &&
                                                    Catch::Contains("no maximiser"));
  CHECK(policy.parameter_estimates() == before.parameter_estimates());
  CHECK(policy.statistics().count(0) == 2.0);
}

TEST_CASE("a model whose gradient is not finite is named as such by the warm start",
          "[langevin][prior][errors]") {
  // A user's model returning NaN from its gradient (a 0 / 0 in it): the ascent cannot take a
  // step from the prior's mean, and the error says why, not "no maximiser" after 0 iterations.
  struct nan_gradient {
    [[nodiscard]] double mean(const vector_cref& phi, const vector_cref& theta) const {
      return phi.dot(theta);
    }
    [[nodiscard]] double log_likelihood(double x, const vector_cref& phi,
                                        const vector_cref& theta) const {
      return -0.5 * (x - phi.dot(theta)) * (x - phi.dot(theta));
    }
    void grad_log_likelihood(const vector_cref& /*xs*/, const vector_cref& /*phi*/,
                             const vector_cref& /*theta*/, vector_ref grad) const {
      grad.setConstant(std::numeric_limits<double>::quiet_NaN());
    }
  };
  ts_sa<nan_gradient> policy(unit_features(2), {.warmup = 1}, nan_gradient{});
  xoshiro256pp gen(1);
  const auto before = policy;
  CHECK_THROWS_WITH(policy.update(1, 0.5, gen),
                    Catch::Contains("warm start of arm 1 met a gradient that is not finite "
                                    "(NaN or infinite) after 0 iterations") &&
                        Catch::Contains("must be finite there"));
  CHECK(policy.statistics().count(1) == 0.0);
  CHECK(policy.parameter_estimates() == before.parameter_estimates());
}

TEST_CASE("the warm start converges for a large Poisson mean", "[langevin][prior]") {
  // 19 counts of mean ~10^6: the curvature 19 e^eta ~ 2e7 makes a raw-gradient test unreachable
  // (one ulp of eta moves the gradient by ~1e-8 x 2e7); the Newton-step test is relative to eta.
  ts_sa<poisson_model> policy(unit_features(1), {.warmup = 19, .window = 19,
                                                 .prior = poisson_model::default_prior(),
                                                 .prior_rewards = {}});
  xoshiro256pp gen(2);
  double sum = 0;
  for (int i = 0; i < 19; ++i) {
    const double x = poisson_variate(1e6, gen);
    sum += x;
    policy.update(0, x, gen);
  }
  // MAP with the N(0, 4) prior: 19 (xbar - e^eta) = eta / 4, so e^eta = xbar - eta / 76.
  const double eta = policy.parameter_estimates()(0, 0);
  CHECK(std::exp(eta) == Approx(sum / 19 - eta / 76).epsilon(1e-8));
}

TEST_CASE("with B < Omega the warm start fits all Omega warm-up rewards", "[langevin][prior]") {
  // Omega = 6, B = 2: the window keeps {5, 6}, but the warm start is the mean of 1..6.
  ts_sa<> policy(unit_features(1), {.warmup = 6, .window = 2});
  xoshiro256pp gen(1);
  for (double x : {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}) policy.update(0, x, gen);
  CHECK(policy.parameter_estimates()(0, 0) == Approx(3.5));
  CHECK(policy.windows().mean(0) == Approx(5.5));
}

TEST_CASE("TS-SA's drift has no prior term", "[langevin][prior]") {
  // Two policies whose starts differ (flat prior: theta = 1; tight N(2, 1e-6): theta ~ 2) take
  // one update on the same engine stream. A prior-free drift is affine in theta with slope
  // 1 - gamma h, so the gap between them shrinks by exactly that factor; a prior term in the
  // drift would pull the tight one towards 2 with force 1e6 and break the identity.
  auto paper = ts_sa<>::params::paper();  // Alg. 1's metric: the drift is h g exactly
  paper.warmup = 1;
  paper.window = 4;
  auto tight_prior = paper;
  tight_prior.prior = {2.0, 1e-6};
  ts_sa<> flat(unit_features(1), paper);
  ts_sa<> tight(unit_features(1), tight_prior);
  xoshiro256pp g1(5), g2(5);
  flat.update(0, 1.0, g1);
  tight.update(0, 1.0, g2);
  const double start_gap =
      flat.parameter_estimates()(0, 0) - tight.parameter_estimates()(0, 0);
  flat.update(0, 2.0, g1);
  tight.update(0, 2.0, g2);
  const double gamma = polynomial_decay::paper_default()(1), h = 0.532;
  CHECK(flat.parameter_estimates()(0, 0) - tight.parameter_estimates()(0, 0) ==
        Approx(start_gap * (1 - gamma * h)).epsilon(1e-9));
}

TEST_CASE("TS-SGLD's documented step (Mazumdar's c/n on the sum = constant c here) learns",
          "[langevin][regret][statistical]") {
  // The header's mapping: a step c/n on the gradient of the sum of n log-likelihoods is the
  // constant c on the mean gradient. With c = 0.05 the old advice (polynomial_decay{c, 1, 0,
  // 1}, i.e. c/n on the mean) froze the chain: regret 4,045 +- 425. Sublinear regret on SGR as
  // in regret_test.cpp: the second half adds less than half of the first (ln-regret: 0.08,
  // linear: 1).
  const auto env = make_sgr({.num_arms = 10, .gap = 0.5});
  const auto curve = simulate(env, [](Eigen::Index) { return ts_sgld<>(10, {.step_size = 0.05}); },
                              {.horizon = 10'000, .trials = 20, .seed = 2026, .record_points = 2});
  INFO("R(T/2) = " << curve.mean_regret[0] << ", R(T) = " << curve.mean_regret[1]);
  CHECK(curve.mean_regret[1] - curve.mean_regret[0] < 0.5 * curve.mean_regret[0]);
  CHECK(curve.mean_regret[1] < 4500.0 / 4);  // a quarter of uniform play's T gap (K-1)/K
}

TEST_CASE("epsilon-TS's default epsilon is 1/K: the greedy arm's share follows it",
          "[policies][statistical]") {
  // K = 4 arms: arm 2 is ahead in posterior mean by 1e-3 only, and every posterior is wide
  // (one reward each, temperature 1e6), so TS's draw picks each arm with probability 1/4 and
  // the greedy branch picks arm 2. Arm 2's share is then epsilon + (1 - epsilon) / 4 = 0.4375
  // at the default epsilon = 1/K = 1/4 (0.25 if epsilon were 0, 0.625 at 1/2).
  // Binomial, n = 20,000: sd sqrt(0.4375 x 0.5625 / n) = 0.0035; the bound is 5 sd.
  epsilon_ts<> policy(4, {.epsilon = std::nullopt, .posterior = {.temperature = 1e6}});
  CHECK(policy.epsilon() == 0.25);
  xoshiro256pp gen(9);
  for (Eigen::Index a = 0; a < 4; ++a) policy.update(a, a == 2 ? 1e-3 : 0.0, gen);
  constexpr int n = 20'000;
  int greedy = 0;
  for (int t = 0; t < n; ++t) greedy += policy.select(gen) == 2 ? 1 : 0;
  CHECK(std::abs(greedy / double(n) - 0.4375) < 5.0 * 0.0035);
}

TEST_CASE("TS-SGLD has features() and a bounds-checked history()", "[policies][errors]") {
  Eigen::MatrixXd phi(2, 3);
  phi << 1, 0, 1, 0, 1, 1;
  ts_sgld<> policy(phi, {});
  CHECK(policy.features() == phi);
  xoshiro256pp gen(1);
  policy.update(1, 0.5, gen);
  CHECK(policy.history(1).size() == 1);
  CHECK_THROWS_AS(policy.history(3), std::out_of_range);
  CHECK_THROWS_AS(policy.history(-1), std::out_of_range);
}

TEST_CASE("a flat prior cannot be sampled from", "[langevin][prior][errors]") {
  CHECK_THROWS_WITH(ts_sa<>(2, {.init = initialisation::prior}),
                    Catch::Contains("prior.variance = inf"));
  CHECK_THROWS_WITH(ts_sgld<bernoulli_model>(unit_features(2), {.prior = {0.0, -1.0}}),
                    Catch::Contains("prior.variance = -1"));
  CHECK_THROWS_WITH(ts_sa<>(2, {.prior = {std::nan(""), 1.0}}), Catch::Contains("prior.mean"));
  CHECK_THROWS_WITH(ts_sa<>(2, {.warm_start = {.tolerance = 0.0}}),
                    Catch::Contains("warm_start.tolerance = 0"));
}

namespace {
/// K = 10 arms with seeded random features in d = 5; the last arm's linear predictor is
/// `best`, the others' `other`.
struct feature_setting {
  Eigen::MatrixXd phi, theta;
  feature_setting(double best, double other) {
    xoshiro256pp gen(5);
    phi = random_features(5, 10, gen);
    Eigen::VectorXd eta = Eigen::VectorXd::Constant(10, other);
    eta(9) = best;
    theta = parameters_with_predictors(phi, eta);
  }
};

/// Sublinear regret as in regret_test.cpp: below a quarter of uniform play's T gap (K-1)/K,
/// and the second half of the horizon adds less than half of the first (ln-regret: 0.08,
/// linear: 1).
template <class Env, class Factory>
void check_learns(const Env& env, const Factory& factory, double gap) {
  const run_config config{.horizon = 5'000, .trials = 20, .seed = 2026, .record_points = 2};
  const auto curve = simulate(env, factory, config);
  const double half = curve.mean_regret[0], full = curve.mean_regret[1];
  INFO("R(T/2) = " << half << ", R(T) = " << full << " +- " << curve.final_standard_error());
  CHECK(full < 0.25 * 5'000 * gap * 0.9);
  CHECK(full - half < 0.5 * half);
}
}  // namespace

TEST_CASE("d = 5 features end to end: linear-Gaussian, both Langevin policies",
          "[langevin][glm][regret][statistical]") {
  const feature_setting s(3.0, 2.5);
  const auto env = make_linear_gaussian(s.phi, s.theta);
  check_learns(env, [&](Eigen::Index) { return ts_sgld<>(s.phi, {}); }, 0.5);
  check_learns(env, [&](Eigen::Index) {
    return ts_sa<>(s.phi, {});
  }, 0.5);
}

TEST_CASE("d = 5 features end to end: logistic, both Langevin policies",
          "[langevin][glm][regret][statistical]") {
  const feature_setting s(std::log(0.9 / 0.1), std::log(0.4 / 0.6));
  const auto env = make_logistic(s.phi, s.theta);
  check_learns(env, [&](Eigen::Index) { return ts_sgld<bernoulli_model>(s.phi, {}); }, 0.5);
  check_learns(env, [&](Eigen::Index) { return ts_sa<bernoulli_model>(s.phi, {}); }, 0.5);
}

namespace {

// The Gaussian model behind Eigen::Ref signatures only, as a user's model may be written: the
// Langevin policies' d = 1 path (policies/langevin/dimension.hpp) passes it 1 x 1 fixed-size
// maps, which convert to Eigen::Ref, so its gradient runs Eigen's run-time-sized code where
// the built-in model's template runs scalar code.
struct ref_only_gaussian {
  static normal_prior default_prior() { return gaussian_model::default_prior(); }
  [[nodiscard]] double mean(const vector_cref& phi, const vector_cref& theta) const {
    return inner.mean(phi, theta);
  }
  [[nodiscard]] double log_likelihood(double x, const vector_cref& phi,
                                      const vector_cref& theta) const {
    return inner.log_likelihood(x, phi, theta);
  }
  void grad_log_likelihood(const vector_cref& rewards, const vector_cref& phi,
                           const vector_cref& theta, vector_ref grad) const {
    inner.grad_log_likelihood(rewards, phi, theta, grad);
  }
  void grad_log_likelihood_at_mean(double xbar, const vector_cref& phi, const vector_cref& theta,
                                   vector_ref grad) const {
    inner.grad_log_likelihood_at_mean(xbar, phi, theta, grad);
  }
  void map_estimate(double xbar, double count, const vector_cref& phi, const normal_prior& prior,
                    vector_ref theta) const {
    inner.map_estimate(xbar, count, phi, prior, theta);
  }
  gaussian_model inner = gaussian_model();
};
static_assert(ClosedFormMapModel<ref_only_gaussian>);

// Plays `a` and `b` side by side from equal engines on the same rewards; true if every
// decision and the final iterates are the same, bit for bit.
template <class A, class B>
bool same_trajectory(A a, B b) {
  xoshiro256pp gen_a(31), gen_b(31), env(32);
  for (int t = 0; t < 3000; ++t) {
    const auto arm = a.select(gen_a);
    if (b.select(gen_b) != arm) return false;
    const double reward = 0.1 * static_cast<double>(arm) + standard_normal(env);
    a.update(arm, reward, gen_a);
    b.update(arm, reward, gen_b);
  }
  const Eigen::MatrixXd& x = a.parameter_estimates();
  const Eigen::MatrixXd& y = b.parameter_estimates();
  return std::memcmp(x.data(), y.data(), sizeof(double) * static_cast<std::size_t>(x.size())) == 0;
}

}  // namespace

TEST_CASE("a model with only Eigen::Ref signatures runs the d = 1 path to the same bits",
          "[langevin]") {
  // The built-in model's fixed-size scalar code and Eigen's run-time-sized code for a length-1
  // vector do the same operations in the same order; the committed outputs (all d = 1) rely on
  // it. Flat prior (the Gaussian's default) and a proper one (TS-SGLD's drift has its gradient).
  for (const normal_prior prior : {normal_prior::flat(), normal_prior{0.5, 4.0}}) {
    CHECK(same_trajectory(ts_sgld<>(5, {.prior = prior}),
                          ts_sgld<ref_only_gaussian>(5, {.prior = prior})));
    // Alg. 1's metric: the Fisher metric reads the built-in model's own information, which
    // the Ref-only model lacks (it gets the difference quotient: the same law, not the bits).
    CHECK(same_trajectory(ts_sa<>(5, {.prior = prior, .metric = step_metric::identity}),
                          ts_sa<ref_only_gaussian>(
                              5, {.prior = prior, .metric = step_metric::identity})));
  }
}

TEST_CASE("TS-SGLD preconditioned by the Fisher metric is stable where the identity diverges",
          "[langevin][fisher]") {
  // Gaussian rewards with sigma = 0.05: one reward's curvature is 1 / sigma^2 = 400, so the
  // identity metric's h = 0.1 multiplies a chain's distance to the mini-batch mean by
  // 1 - 0.1 * 400 = -39 each round and overflows. Preconditioned by P = sigma^2 (flat prior)
  // the same h moves it a tenth of the way: the chain is stable and concentrates.
  std::vector<normal_arm> arms{normal_arm(0.50, 0.0025), normal_arm(0.56, 0.0025)};
  bandit_env env(arms);
  const auto play = [&](ts_sgld<>::params p) {
    ts_sgld<> policy(unit_features(2), p, gaussian_model(0.0025));
    xoshiro256pp gen(4), rewards(5);
    int best = 0;
    for (int t = 0; t < 3000; ++t) {
      const auto arm = policy.select(gen);
      best += arm == 1 ? 1 : 0;
      policy.update(arm, env.pull(arm, rewards), gen);
    }
    return best;
  };
  CHECK_THROWS_AS(play({}), std::domain_error);
  // The gap is 1.2 sigma: after the first few hundred pulls the posterior sd of each mean is
  // below sigma / 10, and a chain at the posterior picks the worse arm with vanishing odds.
  CHECK(play({.metric = step_metric::fisher}) > 2700);
  // Past 2 there the chain moves by 1 - 5 = -4 times its distance each round and diverges; the
  // error states the Fisher metric's bound (it stated none).
  CHECK_THROWS_WITH(play({.step_size = 5.0, .metric = step_metric::fisher}),
                    Catch::Contains("the Fisher metric measures h in one reward's curvature: "
                                    "keep h below about 2"));
}

TEMPLATE_TEST_CASE("a Langevin policy's K-arm constructor keeps the model it is given",
                   "[langevin]", ts_sa<gaussian_model>, ts_sgld<gaussian_model>) {
  // As for every other policy, policy(K, params, model) is policy(unit_features(K), params,
  // model): an independent check wrote ts_sa<gaussian_model>(K, {}, gaussian_model(s2)) for
  // sigma != 1, and it did not compile. A dropped model would match the unit-variance policy.
  const gaussian_model noisy(4.0);
  TestType by_count(3, {}, noisy), by_features(unit_features(3), {}, noisy), unit_variance(3, {});
  xoshiro256pp gen_count(7), gen_features(7), gen_unit(7), world(8);
  for (int t = 0; t < 60; ++t) {
    const Eigen::Index arm = t % 3;  // each policy's own select moves TS-SGLD's chains
    REQUIRE(by_count.select(gen_count) == by_features.select(gen_features));
    (void)unit_variance.select(gen_unit);
    const double reward = 0.5 * static_cast<double>(arm) + 2.0 * standard_normal(world);
    by_count.update(arm, reward, gen_count);
    by_features.update(arm, reward, gen_features);
    unit_variance.update(arm, reward, gen_unit);
  }
  CHECK(by_count.parameter_estimates() == by_features.parameter_estimates());
  CHECK(by_count.parameter_estimates() != unit_variance.parameter_estimates());
}
