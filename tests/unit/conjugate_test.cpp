// Exact Thompson sampling over conjugate posteriors, epsilon-TS over any of them, and KL-UCB:
// posterior parameters after known reward sequences, the exact decision probabilities of
// Beta-Bernoulli and inverse-gamma TS, and KL-UCB indices against values computed by hand.
#include <cmath>
#include <limits>
#include <vector>

#include "sabandit/sabandit.hpp"
#include "sabandit/sim.hpp"
#include "support/catch.hpp"
#include "support/stat_checks.hpp"

using namespace sabandit;

namespace {
// Checks that `ts` plays arm 0 with probability p: over n = 10^5 rounds the count is binomial,
// checked at 5 sigma.
template <class Policy>
void check_arm0_probability(Policy& ts, xoshiro256pp& gen, double p) {
  constexpr int n = 100'000;
  int arm0 = 0;
  for (int t = 0; t < n; ++t) arm0 += ts.select(gen) == 0 ? 1 : 0;
  CHECK(std::abs(arm0 - n * p) < 5.0 * std::sqrt(n * p * (1 - p)));
}
}  // namespace

TEST_CASE("Beta-Bernoulli TS: the posterior after a known sequence", "[conjugate]") {
  thompson<bernoulli_model> ts(2);  // Beta(1, 1) prior
  xoshiro256pp gen(1);
  for (double x : {1.0, 0.0, 1.0, 1.0}) ts.update(0, x, gen);
  CHECK(ts.posterior(0).alpha() == 4.0);  // 1 + 3 successes
  CHECK(ts.posterior(0).beta() == 2.0);   // 1 + 1 failure
  CHECK(ts.posterior(0).mean() == Approx(4.0 / 6.0));
  CHECK(ts.posterior(1).alpha() == 1.0);
  CHECK(ts.posterior_means()(0) == Approx(4.0 / 6.0));
}

TEST_CASE("Gamma-Poisson TS: the posterior after a known sequence", "[conjugate]") {
  thompson<poisson_model> ts(1, {.prior = {2.0, 0.5}});
  xoshiro256pp gen(1);
  for (double x : {3.0, 0.0, 5.0}) ts.update(0, x, gen);
  CHECK(ts.posterior(0).shape() == 10.0);  // 2 + 8
  CHECK(ts.posterior(0).rate() == 3.5);    // 0.5 + 3 pulls
  CHECK(ts.posterior(0).mean() == Approx(10.0 / 3.5));
}

TEST_CASE("Inverse-gamma TS over durations: the posterior after a known sequence",
          "[conjugate]") {
  thompson<exponential_model> jeffreys(1);  // InverseGamma(0, 0)
  thompson<exponential_model> informed(1, {.prior = {2.0, 1.0}});
  xoshiro256pp gen(1);
  CHECK(jeffreys.posterior(0).mean() == 0.0);  // no duration yet: nothing to average
  for (double x : {2.0, 0.5, 3.5}) {
    jeffreys.update(0, x, gen);
    informed.update(0, x, gen);
  }
  CHECK(jeffreys.posterior(0).shape() == 3.0);  // 0 + 3 durations
  CHECK(jeffreys.posterior(0).scale() == 6.0);  // 0 + their sum
  CHECK(jeffreys.posterior(0).mean() == 2.0);   // scale / shape: their average
  CHECK(informed.posterior(0).shape() == 5.0);
  CHECK(informed.posterior(0).scale() == 7.0);
  CHECK(informed.posterior_means()(0) == Approx(7.0 / 5.0));
  CHECK_THROWS_WITH(thompson<exponential_model>(2, {.prior = {-1.0, 0.0}}),
                    Catch::Contains("prior.shape = -1"));
  CHECK_THROWS_WITH(thompson<exponential_model>(2, {.prior = {1.0, 1e101}}),
                    Catch::Contains("prior.scale = 1e+101"));
  // Pseudo-durations are positive: a positive count of them has a positive sum, and a sum
  // needs a count (InverseGamma(1e-100, 0) drew 0 / 0 = NaN, a probe's finding).
  CHECK_THROWS_WITH(inverse_gamma_posterior({1e-100, 0.0}),
                    Catch::Contains("prior.scale = 0") && Catch::Contains("exactly when"));
  CHECK_THROWS_WITH(inverse_gamma_posterior({0.0, 2.0}), Catch::Contains("prior.scale = 2"));
  const auto noise = normal_prior{0.0, 1.0};
  CHECK_THROWS_WITH(normal_posterior(noise, -1.0), Catch::Contains("noise_variance = -1"));
  CHECK_THROWS_WITH(normal_posterior(noise, 0.0), Catch::Contains("noise_variance = 0"));
}

TEST_CASE("Gaussian TS's flat default: N(xbar, sigma^2 / n), the same decisions for shifted and "
          "rescaled rewards",
          "[conjugate]") {
  thompson<gaussian_model> ts(2, {}, gaussian_model(4.0));
  CHECK(ts.parameters().prior.is_flat());
  CHECK(ts.posterior(0).mean() == 0.0);  // no reward yet: nothing to average
  CHECK(std::isinf(ts.posterior(0).variance()));
  xoshiro256pp gen(1);
  CHECK_THROWS_WITH(ts.posterior(0).sample(gen), Catch::Contains("before its first reward"));
  for (double x : {3.0, 5.0}) ts.update(0, x, gen);
  CHECK(ts.posterior(0).mean() == 4.0);      // xbar, exactly (8 x 0.25 x 2: no rounding)
  CHECK(ts.posterior(0).variance() == 2.0);  // sigma^2 / n = 4 / 2

  // The same problem in other units, y = shift + scale x with sigma_y = scale sigma_x: under the
  // flat prior a moved arm's draw is shift + scale (xbar + z / sqrt(n)) up to the rounding of
  // the running sums of values near 1e6 (a reviewer measured at most 4.2e-12 in unit scale over
  // this run), so the argmax can differ only where two unit-scale scores lie within about 1e-11
  // of each other: with score-difference densities summing to about 4e3 over the run, a
  // probability of about 1e-7. The paper's N(0, 10^4) prior shrinks a moved arm's mean by
  // y sigma_y^2 / (10^4 n + sigma_y^2) = y 100 / (n + 100), most of y while n < 100: its
  // decisions differ from the first sampled round.
  constexpr double shift = 1e6, scale = 1e3;
  const std::vector<double> means{0.0, 0.2, 0.5};
  const auto mismatches = [&](const normal_prior& moved_prior) {
    thompson<gaussian_model> unit(3);
    thompson<gaussian_model> moved(3, {.prior = moved_prior}, gaussian_model(scale * scale));
    xoshiro256pp unit_gen(7), moved_gen(7), reward_gen(8);
    int differ = 0;
    for (int t = 0; t < 5'000; ++t) {
      const Eigen::Index a = unit.select(unit_gen);
      differ += moved.select(moved_gen) == a ? 0 : 1;
      const double x = means[static_cast<std::size_t>(a)] + standard_normal(reward_gen);
      unit.update(a, x, unit_gen);
      moved.update(a, shift + scale * x, moved_gen);  // the unit policy's arm: one history
    }
    return differ;
  };
  CHECK(mismatches(normal_prior::flat()) == 0);
  CHECK(mismatches({0.0, 1.0e4}) > 0);
}

TEST_CASE("a posterior's draw names a temperature outside [1e-100, 1e100], drawing nothing",
          "[conjugate][errors]") {
  // Direct users of a posterior (thompson checks its own params first): tau <= 0 named the
  // gamma sampler's "shape", and the normal posterior returned NaN for tau < 0.
  xoshiro256pp gen(4);
  const xoshiro256pp before = gen;
  const auto named = Catch::Contains("temperature = -1");
  CHECK_THROWS_WITH(beta_posterior({1.0, 1.0}).sample(gen, -1.0), named);
  CHECK_THROWS_WITH(gamma_posterior({2.0, 1.0}).sample(gen, -1.0), named);
  CHECK_THROWS_WITH(gamma_posterior({2.0, 1.0}).log_sample(gen, -1.0), named);
  CHECK_THROWS_WITH(inverse_gamma_posterior({2.0, 1.0}).sample(gen, -1.0), named);
  CHECK_THROWS_WITH(inverse_gamma_posterior({2.0, 1.0}).log_sample(gen, -1.0), named);
  CHECK_THROWS_WITH(gaussian_model().posterior({0.0, 1.0}).sample(gen, -1.0), named);
  CHECK_THROWS_WITH(gamma_posterior({2.0, 1.0}).sample(gen, 0.0),
                    Catch::Contains("temperature = 0"));
  CHECK(gen == before);
}

TEST_CASE("inverse-gamma TS plays each arm with its exact posterior probability",
          "[conjugate][statistical]") {
  // Jeffreys' prior, one duration each: arm 0 saw 2, so its mean is 2 / G0, and arm 1 saw 1,
  // so 1 / G1, with G0, G1 ~ Gamma(1, 1) = Exp(1) independent:
  //   P(2 / G0 > 1 / G1) = P(G0 < 2 G1) = 1 - E[e^(-2 G1)] = 1 - 1/3 = 2/3.
  thompson<exponential_model> ts(2);
  xoshiro256pp gen(8);
  ts.update(0, 2.0, gen);
  ts.update(1, 1.0, gen);
  check_arm0_probability(ts, gen, 2.0 / 3.0);
}

TEST_CASE("gamma and inverse-gamma TS stay fair at a large temperature", "[conjugate][statistical]") {
  // Two arms with the same rewards and tau = 1e4: shape / tau is about 1e-4, where most gamma
  // draws underflow to 0, and draws of the mean tie at 0 (gamma) or +infinity (inverse
  // gamma), which the lowest index would win (about 0.93 of rounds, once). Compared on their
  // logarithms, the arms are exchangeable: P(arm 0) = 1/2, checked at 5 sigma.
  xoshiro256pp gen(9);
  thompson<exponential_model> durations(2, {.temperature = 1e4});
  thompson<poisson_model> counts(2, {.temperature = 1e4});
  for (Eigen::Index a = 0; a < 2; ++a) {
    durations.update(a, 1.0, gen);
    counts.update(a, 1.0, gen);
  }
  check_arm0_probability(durations, gen, 0.5);
  check_arm0_probability(counts, gen, 0.5);
}

TEST_CASE("Beta-Bernoulli TS plays each arm with its exact posterior probability",
          "[conjugate][statistical]") {
  // Arm 0 ~ Beta(2, 1) (density 2x), arm 1 ~ Beta(1, 2) (density 2(1 - y)):
  //   P(X > Y) = int_0^1 2x (2x - x^2) dx = 4/3 - 1/2 = 5/6.
  thompson<bernoulli_model> ts(2);
  xoshiro256pp gen(7);
  ts.update(0, 1.0, gen);
  ts.update(1, 0.0, gen);
  check_arm0_probability(ts, gen, 5.0 / 6.0);
}

TEST_CASE("a tempered beta or gamma draw keeps the posterior mean", "[conjugate][statistical]") {
  // tau = 2. Beta(6, 4) tempered is Beta(3, 2): mean 0.6, variance 0.04 (untempered: 0.0218,
  // 1.83x less). Gamma(6, 2) tempered is Gamma(3, 1): mean 3, variance 3 (untempered: 1.5).
  // Over n = 10^5 draws, at 5 sigma: the means' standard errors are sqrt(var / n) (6.3e-4 and
  // 5.5e-3); the sample variances' are sqrt((mu4 - var^2) / n) with mu4 = (kurtosis + 3) var^2:
  // Beta(3, 2)'s excess kurtosis is -0.643, so 1.47e-4; Gamma(3, 1)'s is 2, so 0.019.
  beta_posterior beta({6.0, 4.0});
  gamma_posterior gamma({6.0, 2.0});
  xoshiro256pp gen(3);
  constexpr int n = 100'000;
  std::vector<double> beta_draws(n), gamma_draws(n);
  for (std::size_t i = 0; i < beta_draws.size(); ++i) {
    beta_draws[i] = beta.sample(gen, 2.0);
    gamma_draws[i] = gamma.sample(gen, 2.0);
  }
  const auto b = test::sample_moments(beta_draws), g = test::sample_moments(gamma_draws);
  CHECK(std::abs(b.mean - 0.6) < 5 * 0.2 / std::sqrt(n));
  CHECK(std::abs(g.mean - 3.0) < 5 * std::sqrt(3.0 / n));
  CHECK(std::abs(b.variance - 0.04) < 5 * 1.47e-4);
  CHECK(std::abs(g.variance - 3.0) < 5 * 0.019);
}

TEST_CASE("a tempered inverse-gamma draw keeps the mean rate", "[conjugate][statistical]") {
  // tau = 2. InverseGamma(6, 12) tempered is InverseGamma(3, 6): the rate 1 / draw is
  // Gamma(3) / 6, of mean 0.5 = shape / scale and variance 3 / 36 = 1/12 (untempered:
  // Gamma(6) / 12, variance 1/24, 2x less). Over n = 10^5 draws, at 5 sigma: the mean's
  // standard error is sqrt(1/12 / n) = 9.1e-4; the variance's is sqrt((mu4 - var^2) / n) with
  // mu4 = (2 + 3) var^2 (Gamma(3)'s excess kurtosis is 2), so 2 var / sqrt(n) = 5.3e-4.
  inverse_gamma_posterior posterior({6.0, 12.0});
  xoshiro256pp gen(4);
  constexpr int n = 100'000;
  std::vector<double> rates(n);
  for (double& rate : rates) rate = 1.0 / posterior.sample(gen, 2.0);
  const auto moments = test::sample_moments(rates);
  CHECK(std::abs(moments.mean - 0.5) < 5 * std::sqrt(1.0 / 12.0 / n));
  CHECK(std::abs(moments.variance - 1.0 / 12.0) < 5 * 2.0 / 12.0 / std::sqrt(double{n}));
}

TEST_CASE("conjugate TS rejects rewards outside the model's support, unchanged",
          "[conjugate][errors]") {
  thompson<bernoulli_model> bernoulli(2);
  thompson<poisson_model> poisson(2);
  xoshiro256pp gen(1);
  bernoulli.update(0, 1.0, gen);
  const auto before = bernoulli;
  CHECK_THROWS_WITH(bernoulli.update(0, 2.0, gen), Catch::Contains("reward = 2"));
  CHECK(bernoulli.posterior(0).alpha() == before.posterior(0).alpha());
  CHECK(bernoulli.statistics().count(0) == before.statistics().count(0));
  CHECK_THROWS_WITH(poisson.update(1, -1.0, gen), Catch::Contains("reward = -1"));
  CHECK(poisson.statistics().count(1) == 0.0);
  thompson<exponential_model> durations(2);
  CHECK_THROWS_WITH(durations.update(1, 0.0, gen), Catch::Contains("reward = 0"));
  CHECK(durations.posterior(1).shape() == 0.0);
  CHECK_THROWS_WITH(thompson<bernoulli_model>(2, {.prior = {0.0, 1.0}}),
                    Catch::Contains("prior.alpha = 0"));
  CHECK_THROWS_WITH(kl_ucb<>(2, {.log_log_coefficient = -1.0}),
                    Catch::Contains("log_log_coefficient = -1"));
}

TEST_CASE("epsilon-TS over the Beta posterior", "[conjugate]") {
  epsilon_ts<bernoulli_model> policy(3, {.epsilon = 0.5});
  xoshiro256pp gen(2);
  for (Eigen::Index a = 0; a < 3; ++a) policy.update(a, a == 2 ? 1.0 : 0.0, gen);
  constexpr int n = 10'000;
  int best = 0;
  for (int t = 0; t < n; ++t) best += policy.select(gen) == 2 ? 1 : 0;
  // The greedy branch (probability 1/2) always plays arm 2 (posterior mean 2/3 against 1/3);
  // the TS branch plays it with probability P(Beta(2, 1) > both of two Beta(1, 2)) =
  // int_0^1 2x (2x - x^2)^2 dx = 2 - 8/5 + 1/3 = 11/15. So p = 1/2 + 11/30 = 13/15, binomial,
  // checked at 5 sigma (plain TS would give 11/15, 39 sigma away).
  const double p = 13.0 / 15.0;
  CHECK(std::abs(best - n * p) < 5.0 * std::sqrt(n * p * (1 - p)));
}

TEST_CASE("KL-UCB indices match values computed by hand", "[kl_ucb]") {
  // Computed by bisection in double precision (200 halvings), independently of this code:
  //   Bernoulli, mean 0.5, n = 10, log 100:  q = 0.887908761645861
  //   Poisson,   mean 2,   n = 5,  log 50:   q = 4.324878193007090
  //   Bernoulli, mean 0,   n = 20, log 1000: q = 1 - exp(-log(1000) / 20) (closed form)
  //   Gaussian,  sigma^2 = 2: mean + sqrt(2 sigma^2 log t / n) (UCB1's form).
  CHECK(kl_ucb_index(bernoulli_model{}, 0.5, 10, std::log(100.0)) ==
        Approx(0.887908761645861).margin(1e-10));
  CHECK(kl_ucb_index(poisson_model{}, 2.0, 5, std::log(50.0)) ==
        Approx(4.324878193007090).margin(1e-10));
  CHECK(kl_ucb_index(bernoulli_model{}, 0.0, 20, std::log(1000.0)) ==
        Approx(1.0 - std::exp(-std::log(1000.0) / 20)).margin(1e-10));
  CHECK(kl_ucb_index(gaussian_model(2.0), 1.0, 8, std::log(30.0)) ==
        Approx(1.0 + std::sqrt(2 * 2.0 * std::log(30.0) / 8)).margin(1e-10));
  CHECK(kl_ucb_index(bernoulli_model{}, 1.0, 3, 2.0) == 1.0);
  CHECK(kl_ucb_index(bernoulli_model{}, 0.3, 3, 0.0) == 0.3);
  // The policy keeps the model it was given: its divergence is the index's.
  const kl_ucb<gaussian_model> policy(3, {}, gaussian_model(2.0));
  CHECK(policy.model().noise_variance() == 2.0);
}

TEST_CASE("KL-UCB, Beta-Bernoulli TS and epsilon-TS: sublinear regret on a Bernoulli bandit",
          "[kl_ucb][conjugate][regret][statistical]") {
  // K = 10, p = 0.9 / 0.8, T = 5000, 20 trials. Lai-Robbins: E R_T ~ sum_a Delta_a log T /
  // KL(p_a, p*) = 9 x 0.1 x 8.5 / 0.044 = 174, and KL-UCB and TS attain it asymptotically;
  // uniform play pays T x 0.1 x 0.9 = 450. Require below uniform play's half and a second half
  // adding less than half of the first (logarithmic growth: 0.08; linear: 1).
  const auto env = make_bernoulli_gap(10, 0.9, 0.1);
  const run_config config{.horizon = 5'000, .trials = 20, .seed = 11, .record_points = 2};
  const auto check = [&](const regret_curve& curve) {
    INFO("R(T/2) = " << curve.mean_regret[0] << ", R(T) = " << curve.mean_regret[1]);
    CHECK(curve.mean_regret[1] < 225.0);
    CHECK(curve.mean_regret[1] - curve.mean_regret[0] < 0.5 * curve.mean_regret[0]);
  };
  check(simulate(env, [](Eigen::Index) { return kl_ucb<bernoulli_model>(10); }, config));
  check(simulate(env, [](Eigen::Index) { return thompson<bernoulli_model>(10); }, config));
  check(simulate(env, [](Eigen::Index) { return epsilon_ts<bernoulli_model>(10); }, config));
}
