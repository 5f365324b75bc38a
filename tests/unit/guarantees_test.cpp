// docs/guarantees.md, tested: the numeric contract (rewards within 1e150, scale
// parameters within [1e-100, 1e100], h <= 1e6), the strong guarantee of update() and select(),
// checked integer arithmetic and bounded allocation. Regressions of issue 10 are marked.
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <stdexcept>
#include <utility>
#include <vector>

#include "sabandit/sabandit.hpp"
#include "sabandit/sim.hpp"
#include "support/catch.hpp"

using namespace sabandit;

namespace {

struct make_ucb {
  static ucb make() { return ucb(2); }
};
struct make_ts {
  static gaussian_ts make() { return gaussian_ts(2); }
};
struct make_eps {
  static epsilon_ts<> make() { return epsilon_ts<>(2, {.epsilon = 0.2}); }
};
struct make_kl {
  static kl_ucb<gaussian_model> make() { return kl_ucb<gaussian_model>(2); }
};
struct make_sa {
  static ts_sa<> make() { return ts_sa<>(2, {.warmup = 3, .window = 5}); }
};
// TS-SA with a constant SA weight, which forgets an old iterate geometrically. With the paper's
// schedule gamma_n ~ 0.21 / n and h = 0.532, an iterate's distance to the window mean shrinks by
// prod (1 - 0.11 / n) ~ n^-0.11 per pull: halving an offset of 1e150 takes about 500x more
// pulls. That long memory is the SA average's design, not an overflow, so the test of learning
// after alternating extremes uses a forgetting schedule.
struct make_sa_forgetting {
  static ts_sa<gaussian_model, constant_schedule> make() {
    return ts_sa<gaussian_model, constant_schedule>(
        2, {.warmup = 3, .window = 5, .step_size = 0.532, .sa_schedule = constant_schedule(0.5),
            .metric = step_metric::identity});  // Alg. 1's metric: gamma is not a Newton gain
  }
};
struct make_sgld {
  static ts_sgld<> make() { return ts_sgld<>(2, {.batch_size = 4}); }
};
struct make_bernoulli_ts {
  static thompson<bernoulli_model> make() { return thompson<bernoulli_model>(2); }
};
struct make_poisson_ts {
  static thompson<poisson_model> make() { return thompson<poisson_model>(2); }
};
struct make_bernoulli_kl {
  static kl_ucb<> make() { return kl_ucb<>(2); }
};

// Every observable piece of state a policy exposes, compared bit for bit.
template <class P>
const arm_statistics& stats_of(const P& policy) {
  if constexpr (requires { policy.posterior().statistics(); }) {
    return policy.posterior().statistics();
  } else {
    return policy.statistics();
  }
}

template <class P>
void check_identical(const P& a, const P& b) {
  CHECK((stats_of(a).counts() == stats_of(b).counts()).all());
  CHECK((stats_of(a).sums() == stats_of(b).sums()).all());
  CHECK(stats_of(a).total() == stats_of(b).total());
  if constexpr (requires { a.parameter_estimates(); }) {
    CHECK(a.parameter_estimates() == b.parameter_estimates());
    CHECK((a.linear_predictors() == b.linear_predictors()).all());
  }
  if constexpr (requires { a.windows(); }) {
    CHECK(a.windows().storage() == b.windows().storage());
    for (Eigen::Index arm = 0; arm < a.num_arms(); ++arm) {
      CHECK(a.windows().size(arm) == b.windows().size(arm));
      CHECK(a.windows().mean(arm) == b.windows().mean(arm));
    }
  }
  if constexpr (requires { a.history(0); }) {
    for (Eigen::Index arm = 0; arm < a.num_arms(); ++arm)
      CHECK(a.history(arm) == b.history(arm));
  }
  if constexpr (requires { a.posterior_means(); }) {
    CHECK((a.posterior_means() == b.posterior_means()).all());
  }
  // The next decisions, from the same engine state, with the same rewards (1: in the support
  // of every model, Poisson counts included).
  P left = a, right = b;
  xoshiro256pp gen_left(99), gen_right(99);
  for (int t = 0; t < 30; ++t) {
    const auto arm = left.select(gen_left);
    REQUIRE(arm == right.select(gen_right));
    left.update(arm, 1.0, gen_left);
    right.update(arm, 1.0, gen_right);
  }
}

template <class P>
void play(P& policy, xoshiro256pp& gen, int rounds, double scale = 1.0) {
  for (int t = 0; t < rounds; ++t) {
    const auto arm = policy.select(gen);
    policy.update(arm, scale * (arm == 1 ? 1.0 : 0.0), gen);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("rewards beyond 1e150 are rejected by name and value, state bit-identical",
                   "[guarantees][errors]", make_ucb, make_ts, make_eps, make_kl, make_sa,
                   make_sgld, make_bernoulli_ts, make_poisson_ts, make_bernoulli_kl) {
  auto policy = TestType::make();
  xoshiro256pp gen(3);
  play(policy, gen, 20);
  const auto untouched = policy;
  // Issue 10: two update(0, 1e308) made sums +inf and every later update of TS-SA throw.
  for (const double bad : {1e308, -1e308, 1.0000001e150, -1.0000001e150, 1e151,
                           std::numeric_limits<double>::max(),
                           std::numeric_limits<double>::infinity()}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(policy.update(0, bad, gen), std::invalid_argument);
    CHECK_THROWS_WITH(policy.update(1, bad, gen), Catch::Contains("reward = "));
  }
  CHECK_THROWS_WITH(ucb(2).update(0, 1e308, gen), Catch::Contains("reward = 1e+308") &&
                                                   Catch::Contains("1e150"));
  check_identical(policy, untouched);
}

TEMPLATE_TEST_CASE("the reward bound itself, 1e150, is accepted and its sums stay finite",
                   "[guarantees]", make_ucb, make_ts, make_eps, make_kl, make_sa, make_sgld) {
  auto policy = TestType::make();
  xoshiro256pp gen(4);
  play(policy, gen, 10);
  for (int i = 0; i < 1000; ++i) policy.update(i % 2, (i % 4 < 2 ? 1.0 : -1.0) * 1e150, gen);
  for (int i = 0; i < 200; ++i) policy.update(0, 1e150, gen);
  CHECK(stats_of(policy).sums().allFinite());
  CHECK(std::isfinite(stats_of(policy).mean(0)));
  for (int t = 0; t < 20; ++t) {
    const auto arm = policy.select(gen);
    CHECK((arm == 0 || arm == 1));
  }
}

// A single reward of 1e150 among rewards of size 1 moves an arm's mean by 1e150 / n: no horizon
// a test (or a user) can run outweighs it with rewards of size 1, whichever way the mean is
// stored (raw sums or running means agree). What must hold is that evidence on the same scale
// still moves the policy: after +1e150, rewards of -1e150 on arm 0 and +1 on arm 1 make arm 1
// preferred. Under the old code 1e308 was accepted and made the sum +inf for good.
TEMPLATE_TEST_CASE("after an extreme reward, a policy goes on learning", "[guarantees]",
                   make_ucb, make_ts, make_eps, make_kl, make_sa, make_sgld) {
  auto policy = TestType::make();
  xoshiro256pp gen(5);
  play(policy, gen, 12);
  policy.update(0, 1e150, gen);
  // A Langevin update reads the window before the new reward (Alg. 1 lines 8 and 11): one more
  // pull lets TS-SA's chain see it. Arm 0 then looks best by far.
  policy.update(0, 1.0, gen);
  int arm0 = 0;
  for (int t = 0; t < 20; ++t) arm0 += policy.select(gen) == 0 ? 1 : 0;
  CHECK(arm0 >= 15);
  int arm1_late = 0;
  for (int t = 0; t < 300; ++t) {
    const auto arm = policy.select(gen);  // TS-SGLD's chains move in select()
    if (t >= 200) arm1_late += arm == 1 ? 1 : 0;
    policy.update(0, -1e150, gen);
    policy.update(1, 1.0, gen);
  }
  CHECK(arm1_late >= 90);
  CHECK(stats_of(policy).sums().allFinite());
}

TEMPLATE_TEST_CASE("tiny and alternating huge/tiny rewards keep every statistic finite",
                   "[guarantees]", make_ucb, make_ts, make_eps, make_kl, make_sa_forgetting,
                   make_sgld) {
  auto policy = TestType::make();
  xoshiro256pp gen(6);
  for (int t = 0; t < 200; ++t) {
    const auto arm = policy.select(gen);
    const double huge = (t % 3 == 0 ? -1.0 : 1.0) * 1e150;
    policy.update(arm, t % 2 == 0 ? huge : 1e-300, gen);
    REQUIRE((arm >= 0 && arm < 2));
  }
  CHECK(stats_of(policy).sums().allFinite());
  // Then ordinary rewards: arm 1 pays 1 and arm 0 pays -1e150 until it is clearly worse.
  int arm1_late = 0;
  for (int t = 0; t < 300; ++t) {
    const auto arm = policy.select(gen);
    if (t >= 200) arm1_late += arm == 1 ? 1 : 0;
    policy.update(0, -1e150, gen);
    policy.update(1, 1.0, gen);
  }
  CHECK(arm1_late >= 90);
}

TEST_CASE("conjugate TS over Bernoulli and Poisson takes extreme rewards in their support",
          "[guarantees][conjugate]") {
  xoshiro256pp gen(7);
  thompson<bernoulli_model> bernoulli(2);
  for (int t = 0; t < 100; ++t) bernoulli.update(t % 2, 1e-300, gen);
  for (int t = 0; t < 100; ++t) bernoulli.update(1, 1.0, gen);
  int arm1 = 0;
  for (int t = 0; t < 100; ++t) arm1 += bernoulli.select(gen) == 1 ? 1 : 0;
  CHECK(arm1 >= 95);

  thompson<poisson_model> poisson(2);
  poisson.update(0, 1e150, gen);  // arm 0 looks best...
  poisson.update(1, 0.0, gen);
  CHECK(poisson.select(gen) == 0);
  for (int t = 0; t < 100; ++t) {  // ...until arm 1 pays 1e150 every time and arm 0 nothing
    poisson.update(0, 0.0, gen);
    poisson.update(1, 1e150, gen);
  }
  CHECK(std::isfinite(poisson.posterior(1).mean()));
  int late = 0;
  for (int t = 0; t < 100; ++t) late += poisson.select(gen) == 1 ? 1 : 0;
  CHECK(late >= 95);
}

TEST_CASE("scale parameters are bounded where their products overflow (issue 10)",
          "[guarantees][errors]") {
  // Each was accepted and gave garbage: NaN posterior means, +inf, arm 0 forever, late failure.
  CHECK_THROWS_WITH(gaussian_ts(2, {.prior = {0.0, 1e-310}}),
                    Catch::Contains("prior.variance = 1e-310") &&
                        Catch::Contains("[1e-100, 1e100]"));
  CHECK_THROWS_WITH(gaussian_ts(2, {.prior = {1e308, 1.0}}),
                    Catch::Contains("prior.mean = 1e+308") && Catch::Contains("1e150"));
  CHECK_THROWS_WITH(ucb(2, {.bonus_scale = 1e308}),
                    Catch::Contains("bonus_scale = 1e+308") && Catch::Contains("1e100"));
  CHECK_THROWS_WITH(ts_sa<>(2, {.step_size = 1e10}),
                    Catch::Contains("step_size (h) = 10000000000") && Catch::Contains("1e6"));
  CHECK_THROWS_WITH(ts_sgld<>(2, {.step_size = 1e10}), Catch::Contains("step_size (h)"));
  CHECK_THROWS_WITH(ts_sa<>(2, {.temperature = 1e-200}), Catch::Contains("temperature (tau)"));
  CHECK_THROWS_WITH(gaussian_ts(2, {.temperature = 1e101}), Catch::Contains("temperature"));
  CHECK_THROWS_WITH(gaussian_model(1e-101), Catch::Contains("noise_variance = 1e-101"));
  CHECK_THROWS_WITH(gaussian_model(1e101), Catch::Contains("noise_variance"));
  ts_sgld<>::params bad_prior;
  bad_prior.prior = {0.0, 1e-300};
  CHECK_THROWS_WITH(ts_sgld<>(2, bad_prior), Catch::Contains("prior.variance = 1e-300"));
  bad_prior.prior = {-1e200, 1.0};
  CHECK_THROWS_WITH(ts_sgld<>(2, bad_prior), Catch::Contains("prior.mean = -1e+200"));

  // The bounds themselves are accepted, and a flat prior (+inf) still where it is allowed.
  CHECK_NOTHROW(gaussian_ts(2, {.temperature = 1e100, .prior = {1e150, 1e-100}}));
  CHECK_NOTHROW(gaussian_ts(2, {.temperature = 1e-100, .prior = {-1e150, 1e100}}));
  CHECK_NOTHROW(ucb(2, {.bonus_scale = 1e100}));
  ts_sa<>::params largest_step;  // with its Newton schedule (ts_sa_test: the gain check)
  largest_step.step_size = 1e6;
  largest_step.sa_schedule = ts_sa<>::params::newton_schedule(1e6);
  CHECK_NOTHROW(ts_sa<>(2, largest_step));
  CHECK_NOTHROW(ts_sa<>(2, {.prior = normal_prior::flat()}));
  CHECK_NOTHROW(gaussian_model(1e-100));
  CHECK_NOTHROW(gaussian_model(1e100));
}

TEST_CASE("conjugate priors and SA schedules take the same scale bounds (issue 10)",
          "[guarantees][errors]") {
  // Accepted before and then broken: Gamma(1, 1e-310) has mean 1e310 = +inf; a schedule with
  // c2 = 1e-310 divides by a denormal; c1 = 1e300 with c2 = 1e300 multiplies into +inf.
  CHECK_THROWS_WITH(thompson<poisson_model>(2, {.prior = {1.0, 1e-310}}),
                    Catch::Contains("prior.rate") && Catch::Contains("[1e-100, 1e100]"));
  CHECK_THROWS_WITH(thompson<poisson_model>(2, {.prior = {1e300, 1.0}}),
                    Catch::Contains("prior.shape = 1e+300"));
  CHECK_THROWS_WITH(thompson<bernoulli_model>(2, {.prior = {1e-200, 1.0}}),
                    Catch::Contains("prior.alpha = 1e-200"));
  CHECK_THROWS_WITH(thompson<bernoulli_model>(2, {.prior = {1.0, 1e101}}),
                    Catch::Contains("prior.beta"));
  CHECK_THROWS_WITH(polynomial_decay(1e300, 1e300, 0.0, 1.0),
                    Catch::Contains("polynomial_decay.c1 = 1e+300"));
  CHECK_THROWS_WITH(polynomial_decay(1.0, 1e-310, 1.0, 1.0),
                    Catch::Contains("polynomial_decay.c2") && Catch::Contains("must be 0 or in [1e-100, 1e100]"));
  CHECK_THROWS_WITH(polynomial_decay(1.0, 1.0, 1e101, 1.0), Catch::Contains("polynomial_decay.c3"));

  // At the bounds the posterior means and the schedule stay finite and positive.
  const gamma_posterior wide_gamma({1e100, 1e-100});
  CHECK(std::isfinite(wide_gamma.mean()));
  const beta_posterior wide_beta({1e100, 1e-100});
  CHECK((wide_beta.mean() > 0.0 && wide_beta.mean() <= 1.0));
  const polynomial_decay extreme(1e-100, 1e100, 0.0, 1.0);
  CHECK(extreme(Eigen::Index{1} << 40) > 0.0);
  CHECK(polynomial_decay(1.0, 0.0, 1.0, 1.0)(5) == 1.0);  // c2 = 0 is still a valid constant
}

TEST_CASE("at the parameter bounds, TS and UCB still give finite, informative scores",
          "[guarantees]") {
  xoshiro256pp gen(8);
  gaussian_ts ts(2, {.prior = {0.0, 1e-100}});
  ts.update(0, 1e150, gen);
  ts.update(1, -1e150, gen);
  CHECK(ts.posterior_means().allFinite());
  CHECK(ts.posterior_stddevs().allFinite());

  gaussian_ts loose(2, {.temperature = 1e100, .prior = {1e150, 1e100}});
  loose.update(0, 1e150, gen);
  CHECK(loose.posterior_means().allFinite());

  // UCB at tau = 1e100: the bonus dominates but stays finite, so the less pulled arm wins
  // (at 1e308 every index was +inf and arm 0 always won).
  ucb wide(2, {.bonus_scale = 1e100});
  wide.update(0, 1.0, gen);
  wide.update(1, 0.0, gen);
  wide.update(0, 1.0, gen);
  CHECK(wide.select(gen) == 1);
}

TEST_CASE("a throwing select() moves nothing: TS-SGLD commits all chains together",
          "[guarantees][errors]") {
  // h = 1e6 is within the bound but unstable for sigma^2 = 1: every chain grows by about 1e6 a
  // step and overflows within 60 inner steps. select() reports it and leaves every arm as it was.
  ts_sgld<> policy(3, {.inner_steps = 60, .step_size = 1e6});
  xoshiro256pp gen(9);
  for (Eigen::Index arm = 0; arm < 3; ++arm) policy.update(arm, 0.5 * static_cast<double>(arm), gen);
  const auto untouched = policy;
  CHECK_THROWS_AS(policy.select(gen), std::domain_error);
  // The message names h and says that the policy cannot continue (a newcomer's probe: at
  // h = 5 the chains looked sane for 514 rounds, then every select() threw, naming no h).
  CHECK_THROWS_WITH(policy.select(gen), Catch::Contains("non-finite") &&
                                            Catch::Contains("(h = 1000000;") &&
                                            Catch::Contains("every later select() will throw"));
  // The bound it states is the model's, not only the Gaussian's (a probe's Poisson chain was
  // told about sigma^2), with the metric that lifts it.
  CHECK_THROWS_WITH(policy.select(gen), Catch::Contains("below about 2 / L") &&
                                            Catch::Contains("metric = step_metric::fisher"));
  CHECK(policy.parameter_estimates() == untouched.parameter_estimates());
  CHECK((policy.linear_predictors() == untouched.linear_predictors()).all());
  CHECK((policy.statistics().counts() == untouched.statistics().counts()).all());
  for (Eigen::Index arm = 0; arm < 3; ++arm) CHECK(policy.history(arm) == untouched.history(arm));
}

TEMPLATE_TEST_CASE("select() of the other policies changes no observable state",
                   "[guarantees]", make_ucb, make_ts, make_eps, make_kl, make_sa,
                   make_bernoulli_ts, make_poisson_ts) {
  // After the warm-up (whose select() records its arm as awaiting a reward:
  // delayed_feedback_test.cpp) their select() only reads the state and writes scratch: calling
  // it any number of times leaves the policy's future the same for the same engine.
  auto policy = TestType::make();
  xoshiro256pp gen(10);
  play(policy, gen, 30);
  const auto untouched = policy;
  for (int t = 0; t < 10; ++t) (void)policy.select(gen);
  check_identical(policy, untouched);
}

TEST_CASE("horizon_schedule computes N(n) = ceil(T / n) without overflow (issue 10)",
          "[guarantees][ts_sa]") {
  constexpr Eigen::Index max = std::numeric_limits<Eigen::Index>::max();
  const horizon_schedule schedule(max);
  // The old (T + n - 1) / n overflowed: in Release TS-SA then silently skipped its steps.
  CHECK(schedule.inner_steps(2) == (Eigen::Index{1} << 62));
  CHECK(schedule.inner_steps(1) == max);
  CHECK(schedule.inner_steps(max) == 1);
  CHECK(schedule.inner_steps(max - 1) == 2);
  CHECK(horizon_schedule(10).inner_steps(3) == 4);
  CHECK(horizon_schedule(9).inner_steps(3) == 3);
}

TEST_CASE("simulate's recorded rounds and result sizes are checked integers (issue 10)",
          "[guarantees][sim]") {
  constexpr Eigen::Index big = Eigen::Index{1} << 62;
  // The old k * T overflowed for T = 2^62.
  const auto rounds = detail::recorded_rounds(big, 100);
  REQUIRE(rounds.size() == 100);
  CHECK(rounds.front() == big / 100 + 1);
  CHECK(rounds[49] == big / 2);
  CHECK(rounds.back() == big);
  for (std::size_t i = 1; i < rounds.size(); ++i) CHECK(rounds[i] > rounds[i - 1]);
  // The same rounds as the plain formula where it does not overflow (Figure 1's CSV).
  for (const Eigen::Index horizon : {1, 7, 100, 10'000, 123'457}) {
    for (const Eigen::Index points : {1, 3, 100, 1000}) {
      std::vector<Eigen::Index> expected;
      for (Eigen::Index k = 1; k <= points; ++k) {
        const Eigen::Index r = (k * horizon + points - 1) / points;
        if (expected.empty() || r > expected.back()) expected.push_back(r);
      }
      CHECK(detail::recorded_rounds(horizon, points) == expected);
    }
  }
  // Results of 2^62 x 2^40 entries are refused before anything is allocated or computed.
  const auto env = make_sgr({.num_arms = 2});
  const auto factory = [](Eigen::Index) { return ucb(2); };
  CHECK_THROWS_AS(simulate(env, factory, {.horizon = big, .trials = Eigen::Index{1} << 40}),
                  std::length_error);
  // The message names the trials asked for and what the rows count (not "arms").
  CHECK_THROWS_WITH(simulate(env, factory, {.horizon = big, .trials = Eigen::Index{1} << 40}),
                    Catch::Contains("trials = 1099511627776)") &&
                        Catch::Contains("needs 100 recorded points x 2199023255556 doubles"));
  CHECK_THROWS_AS(
      simulate(env, factory, {.horizon = big, .trials = big, .record_points = big}),
      std::length_error);
}

TEST_CASE("huge K or B throws std::length_error before allocating (issue 10)",
          "[guarantees][errors]") {
  // ts_sa with K = 1e8 asked for 21.6 GB and was killed by the out-of-memory killer.
  // The paper's B = 27: about 36 doubles per arm.
  CHECK_THROWS_AS(ts_sa<>(100'000'000, ts_sa<>::params::paper()), std::length_error);
  CHECK_THROWS_WITH(ts_sa<>(100'000'000, ts_sa<>::params::paper()),
                    Catch::Contains("2^31 doubles"));
  CHECK_THROWS_AS(ts_sa<>(3, {.window = Eigen::Index{1} << 40}), std::length_error);
  CHECK_THROWS_AS(ts_sa<>(std::numeric_limits<Eigen::Index>::max()), std::length_error);
  CHECK_THROWS_AS(ts_sgld<>(Eigen::Index{1} << 40), std::length_error);
  CHECK_THROWS_AS(ts_sgld<>(3, {.batch_size = Eigen::Index{1} << 40}), std::length_error);
  CHECK_THROWS_AS(ts_sa<>(Eigen::MatrixXd::Ones(1, 3), {.window = Eigen::Index{1} << 40}),
                  std::length_error);
  CHECK_THROWS_AS(ucb(Eigen::Index{1} << 40), std::length_error);
  CHECK_THROWS_AS(gaussian_ts(Eigen::Index{1} << 40), std::length_error);
  CHECK_THROWS_AS(epsilon_ts<>(Eigen::Index{1} << 40), std::length_error);
  CHECK_THROWS_AS(kl_ucb<>(Eigen::Index{1} << 40), std::length_error);
  // A count that saturated (the sizes are added and multiplied saturating) is told as such, not
  // as the largest Index, which no policy asked for.
  constexpr auto most = std::numeric_limits<Eigen::Index>::max();
  CHECK_THROWS_WITH(ts_sa<>(3, {.window = most}),
                    Catch::Contains("3 arms x at least 2^63 - 1 doubles") &&
                        !Catch::Contains(std::to_string(most) + " doubles"));
  // Non-positive sizes are still named by their own checks.
  CHECK_THROWS_WITH(ts_sa<>(0), Catch::Contains("num_arms = 0"));
  CHECK_THROWS_WITH(ts_sa<>(3, {.window = -1}), Catch::Contains("window (B) = -1"));
}

TEST_CASE("checked integer helpers", "[guarantees]") {
  constexpr auto max = std::numeric_limits<std::int64_t>::max();
  CHECK(detail::checked_mul<std::int64_t>(3, 4, "x") == 12);
  CHECK_THROWS_AS(detail::checked_mul<std::int64_t>(max, 2, "x"), std::overflow_error);
  CHECK_THROWS_WITH(detail::checked_add<std::int64_t>(max, 1, "budget"), Catch::Contains("budget"));
  CHECK(detail::ceil_div<std::int64_t>(max, 2) == (std::int64_t{1} << 62));
}

TEST_CASE("policy copies are independent", "[guarantees]") {
  ts_sa<> a(2, {.warmup = 2, .window = 4});
  xoshiro256pp gen(11);
  play(a, gen, 10);
  ts_sa<> b = a;
  const auto before = b.parameter_estimates();
  play(a, gen, 50);
  CHECK(b.parameter_estimates() == before);
  CHECK(b.statistics().total() == 10);
}

namespace {
template <class T>
concept shown_in_messages = requires(T value) { detail::value_text(value); };
}  // namespace

TEST_CASE("an error message shows a double as the shortest text that reads back as it",
          "[guarantees]") {
  // errors.hpp: shortest round-trip digits, fixed notation for exponents -4 to 15 and
  // scientific beyond (Python's repr), the same in every locale (to_chars, not a stream).
  constexpr double inf = std::numeric_limits<double>::infinity();
  const std::vector<std::pair<double, std::string>> shown = {
      {0.1, "0.1"}, {-0.0, "-0"}, {1.0, "1"}, {-3.0, "-3"}, {123456789.123, "123456789.123"},
      {1e-4, "0.0001"}, {1e-5, "1e-05"}, {1e15, "1000000000000000"}, {1e16, "1e+16"},
      {1e150, "1e+150"}, {-1e200, "-1e+200"}, {1e150 * (1 + 1e-13), "1.0000000000001e+150"},
      {5e-324, "5e-324"}, {2.2250738585072014e-308, "2.2250738585072014e-308"},
      {std::numeric_limits<double>::max(), "1.7976931348623157e+308"}, {inf, "inf"},
      {-inf, "-inf"}, {std::numeric_limits<double>::quiet_NaN(), "nan"}};
  for (const auto& [value, text] : shown) CHECK(detail::value_text(value) == text);
  // Any finite double reads back exactly: 10^5 random bit patterns, every exponent.
  xoshiro256pp gen(428);
  for (int i = 0; i < 100000; ++i) {
    const double v = std::bit_cast<double>(gen());
    if (!std::isfinite(v)) continue;
    const std::string text = detail::value_text(v);
    double back = 0.0;
    const auto read = std::from_chars(text.data(), text.data() + text.size(), back);
    INFO(text);
    REQUIRE(read.ptr == text.data() + text.size());
    REQUIRE(std::bit_cast<std::uint64_t>(back) == std::bit_cast<std::uint64_t>(v));
  }
  CHECK(detail::value_text(Eigen::Index{-7}) == "-7");
  CHECK(detail::value_text(std::numeric_limits<std::int64_t>::min()) == "-9223372036854775808");
  CHECK(detail::value_text(std::string_view("zero vector")) == "zero vector");
  // A character would print as its code: such a value_text does not exist.
  STATIC_REQUIRE_FALSE(shown_in_messages<char>);
  STATIC_REQUIRE_FALSE(shown_in_messages<std::int8_t>);
  STATIC_REQUIRE(shown_in_messages<std::uint64_t>);
}
