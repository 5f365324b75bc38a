// Issue 18, item 4: the model checks rewards for every policy (models/support.hpp). Every
// policy with a model (thompson, epsilon_ts, kl_ucb, ts_sa, ts_sgld) rejects a reward outside
// its model's support with std::invalid_argument, leaving its saved state byte for byte as it
// was; and a policy walked to the edges of the accepted range keeps working.
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sabandit/sabandit.hpp"
#include "support/catch.hpp"
#include "support/saved_state.hpp"

using namespace sabandit;

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

// Per model: rewards outside its support (the last ones just beyond an edge), the accepted
// edges, and an ordinary reward of an arm with a moderate mean.
template <class Model>
struct support_of;

template <>
struct support_of<gaussian_model> {
  static std::vector<double> rejected() {
    return {infinity, -infinity, not_a_number, std::nextafter(bounds::reward, infinity),
            -std::nextafter(bounds::reward, infinity), 1e300};
  }
  static std::vector<double> edges() { return {bounds::reward, -bounds::reward, 0.0}; }
  template <class URBG>
  static double ordinary(Eigen::Index arm, URBG& gen) {
    return 0.5 * static_cast<double>(arm) + standard_normal(gen);
  }
};

template <>
struct support_of<bernoulli_model> {
  static std::vector<double> rejected() {
    return {-1.0, 2.0, 1e150, -1e-300, std::nextafter(1.0, 2.0), infinity, not_a_number};
  }
  // 0 and 1, and the fractional rewards beta_posterior has always taken, to the smallest.
  static std::vector<double> edges() { return {1.0, 0.0, 1e-300, 0.5}; }
  template <class URBG>
  static double ordinary(Eigen::Index arm, URBG& gen) {
    return bernoulli_variate(0.3 + 0.2 * static_cast<double>(arm), gen);
  }
};

template <>
struct support_of<poisson_model> {
  static std::vector<double> rejected() {
    return {-1.0, 0.5, 2.5, -1e-300, 1e300, std::nextafter(bounds::reward, infinity), infinity,
            not_a_number};
  }
  static std::vector<double> edges() { return {bounds::reward, 1e6, 0.0}; }
  template <class URBG>
  static double ordinary(Eigen::Index arm, URBG& gen) {
    return poisson_variate(3.0 + static_cast<double>(arm), gen);
  }
};

template <>
struct support_of<exponential_model> {
  static std::vector<double> rejected() {
    return {0.0, -0.0, -1.0, -1e-300, 1e300, std::nextafter(bounds::reward, infinity), infinity,
            not_a_number};
  }
  static std::vector<double> edges() { return {bounds::reward, 1e-300, 1e6, 1e-6}; }
  template <class URBG>
  static double ordinary(Eigen::Index arm, URBG& gen) {
    return exponential_variate(2.0 + static_cast<double>(arm), gen);
  }
};

template <class P>
struct model_of;
template <template <class...> class Policy, class Model, class... Rest>
struct model_of<Policy<Model, Rest...>> {
  using type = Model;
};

using test_state::saved;

// `rounds` ordinary rounds: select, then update with a reward of the arm played.
template <class P>
void play(P& policy, xoshiro256pp& gen, xoshiro256pp& env, int rounds) {
  using support = support_of<typename model_of<P>::type>;
  for (int t = 0; t < rounds; ++t) {
    const Eigen::Index arm = policy.select(gen);
    policy.update(arm, support::ordinary(arm, env), gen);
  }
}

// Every rejected reward throws std::invalid_argument naming "reward", and the policy's saved
// state (everything it learned, to the bit) is unchanged; so is the engine (update draws
// nothing before it checks).
template <class P>
void check_rejects(P& policy, xoshiro256pp& gen) {
  using support = support_of<typename model_of<P>::type>;
  const std::string before = saved(policy);
  const xoshiro256pp gen_before = gen;
  for (const double bad : support::rejected()) {
    for (Eigen::Index arm = 0; arm < policy.num_arms(); ++arm) {
      INFO("reward " << bad << ", arm " << arm);
      CHECK_THROWS_AS(policy.update(arm, bad, gen), std::invalid_argument);
      CHECK_THROWS_WITH(policy.update(arm, bad, gen), Catch::Contains("reward = "));
      CHECK(saved(policy) == before);
      CHECK(gen == gen_before);
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("each model's support: the model and its conjugate posterior agree",
                   "[support]", gaussian_model, bernoulli_model, poisson_model,
                   exponential_model) {
  using support = support_of<TestType>;
  using posterior = typename TestType::posterior_type;
  const TestType model{};
  STATIC_REQUIRE(SupportDeclaringModel<TestType>);
  for (const double bad : support::rejected()) {
    INFO("reward " << bad);
    CHECK_THROWS_AS(model.validate_reward(bad), std::invalid_argument);
    CHECK_THROWS_AS(posterior::validate_reward(bad), std::invalid_argument);
    CHECK_THROWS_AS(detail::require_supported_reward(model, bad), std::invalid_argument);
  }
  for (const double edge : support::edges()) {
    INFO("reward " << edge);
    CHECK_NOTHROW(model.validate_reward(edge));
    CHECK_NOTHROW(posterior::validate_reward(edge));
    CHECK_NOTHROW(detail::require_supported_reward(model, edge));
  }
}

// The interval a model declares holds its support (what a restore checks saved sums against:
// a declared range narrower than the support would refuse genuine states).
TEMPLATE_TEST_CASE("each declared reward range holds the model's support", "[support]",
                   bernoulli_model, poisson_model, exponential_model) {
  STATIC_REQUIRE(RangeDeclaringModel<TestType>);
  STATIC_REQUIRE_FALSE(RangeDeclaringModel<gaussian_model>);  // the numeric contract is its range
  const reward_interval range = TestType::reward_range();
  for (const double edge : support_of<TestType>::edges()) {
    INFO("reward " << edge);
    CHECK((range.lower_excluded ? edge > range.lower : edge >= range.lower));
    CHECK(edge <= range.upper);
    if (range.whole) CHECK(edge == std::floor(edge));
  }
  // And no wider in what it declares beyond the interval: each rejected reward that lies within
  // [lower, upper] is rejected for the reason the range also states (Poisson's 0.5 is not whole,
  // the exponential's 0 is its excluded lower bound).
  for (const double refused : support_of<TestType>::rejected()) {
    if (!(refused >= range.lower && refused <= range.upper) || std::signbit(refused)) continue;
    INFO("reward " << refused);
    CHECK(((range.whole && refused != std::floor(refused)) ||
           (range.lower_excluded && refused == range.lower)));
  }
}

// detail::sum_in_range allows the rounding of a sum and nothing more: fifteen additions of 0.1
// reach 1.5000000000000002, above fl(15 x 0.1) = 1.5 by 1.5e-16 relative, within the allowance of
// n eps = 3.3e-15 relative; 1.5 (1 + 1e-14) is beyond it. A sum of non-negative rewards is never
// negative, however small.
TEST_CASE("a reward sum is in range up to its rounding", "[support]") {
  const reward_interval tenth{0.0, 0.1};
  double sum = 0.0;
  for (int i = 0; i < 15; ++i) sum += 0.1;
  REQUIRE(sum > 15 * 0.1);  // the case the allowance exists for
  CHECK(detail::sum_in_range(sum, 15.0, tenth));
  CHECK_FALSE(detail::sum_in_range(1.5 * (1.0 + 1e-14), 15.0, tenth));
  CHECK_FALSE(detail::sum_in_range(-1e-300, 15.0, tenth));
  CHECK(detail::sum_in_range(0.0, 15.0, tenth));
  CHECK_FALSE(detail::sum_in_range(0.5, 0.0, tenth));  // no rewards sum to 0
  const reward_interval signed_range{-2.0, 1.0};
  CHECK(detail::sum_in_range(-20.0, 10.0, signed_range));
  CHECK_FALSE(detail::sum_in_range(-20.1, 10.0, signed_range));
  CHECK_FALSE(detail::sum_in_range(10.1, 10.0, signed_range));
}

// Where every multiple k x of a bound is a double, the running sum cannot pass count x, so no
// allowance is given (an independent probe: with n^2 eps for every bound, a forged Bernoulli sum
// of 10^9 + 200 over 10^9 rewards restored, whose mean above 1 then won every KL-UCB round).
// An infinite bound leaves its side open; -0 is no genuine sum, and no rewards sum to +0 alone.
TEST_CASE("a reward sum is in range exactly where the bound's multiples are doubles",
          "[support]") {
  const reward_interval unit{0.0, 1.0};
  CHECK(detail::multiples_exact(1.0, 0x1p52));
  CHECK_FALSE(detail::multiples_exact(0.1, 15.0));  // 15 x 0.1 rounds: the case above
  CHECK(detail::sum_in_range(1e9, 1e9, unit));
  CHECK_FALSE(detail::sum_in_range(1e9 + 200.0, 1e9, unit));
  CHECK_FALSE(detail::sum_in_range(std::nextafter(1e9, 2e9), 1e9, unit));
  CHECK_FALSE(detail::sum_in_range(-0.0, 3.0, unit));
  CHECK_FALSE(detail::sum_in_range(-0.0, 0.0, unit));
  const double inf = std::numeric_limits<double>::infinity();
  const reward_interval open_above{0.0, inf};
  CHECK(detail::sum_in_range(0.0, 0.0, open_above));  // an arm not pulled yet (was NaN: refused)
  CHECK(detail::sum_in_range(1e300, 3.0, open_above));
  CHECK_FALSE(detail::sum_in_range(-1.0, 3.0, open_above));
  CHECK(detail::sum_in_range(-1e300, 3.0, {-inf, inf}));
}

// A range may also declare whole-number rewards (Poisson) or a lower bound the rewards stay
// above (exponential durations): then a sum of them is whole, or positive, exactly (sums of
// whole numbers below 2^53 are exact and every double above it is whole; a positive addend never
// rounds a positive sum to 0). A forged 2.5 counts or 0 seconds of durations is refused.
TEST_CASE("a reward sum keeps what the range declares: whole numbers, a positive sum",
          "[support]") {
  const reward_interval counts{.lower = 0.0, .upper = bounds::reward, .whole = true};
  CHECK(detail::sum_in_range(7.0, 3.0, counts));
  CHECK(detail::sum_in_range(0.0, 3.0, counts));  // three zero counts
  CHECK(detail::sum_in_range(1e300, 1e160, counts));  // whole, as every double above 2^53 is
  CHECK_FALSE(detail::sum_in_range(2.5, 3.0, counts));
  CHECK_FALSE(detail::sum_in_range(std::nextafter(7.0, 8.0), 3.0, counts));
  double sum = 0.0;  // 2^53 + 1 rounds to 2^53 at the second addition: whole either way
  for (const double count : {0x1p53, 1.0, 1.0}) sum += count;
  CHECK(detail::sum_in_range(sum, 3.0, counts));
  const reward_interval durations{.lower = 0.0, .upper = bounds::reward, .lower_excluded = true};
  CHECK(detail::sum_in_range(0.0, 0.0, durations));  // an arm with no rewards yet
  CHECK(detail::sum_in_range(5e-324, 1.0, durations));  // the least positive double
  CHECK(detail::sum_in_range(0.5, 3.0, durations));
  CHECK_FALSE(detail::sum_in_range(0.0, 3.0, durations));
  CHECK_FALSE(detail::sum_in_range(0.0, 1.0, durations));
  double tiny = 0.0;  // the smallest durations still sum to a positive number
  for (int i = 0; i < 10; ++i) tiny += 5e-324;
  CHECK(detail::sum_in_range(tiny, 10.0, durations));
  // Above a lower bound other than 0 a sum can round onto count x lower: not refused there.
  const reward_interval above_one{.lower = 1.0, .upper = 2.0, .lower_excluded = true};
  CHECK(detail::sum_in_range(3.0, 3.0, above_one));
}

TEST_CASE("support messages name the reward, its value and the support", "[support]") {
  CHECK_THROWS_WITH(poisson_model::validate_reward(-1.0),
                    Catch::Contains("reward = -1") && Catch::Contains("whole number"));
  CHECK_THROWS_WITH(poisson_model::validate_reward(0.5), Catch::Contains("reward = 0.5"));
  CHECK_THROWS_WITH(bernoulli_model::validate_reward(2.0),
                    Catch::Contains("reward = 2") && Catch::Contains("[0, 1]"));
  CHECK_THROWS_WITH(gaussian_model::validate_reward(1e151),
                    Catch::Contains("reward = 1e+151"));
  // A NaN or an infinity is named as such, not as a value outside the support (a newcomer's
  // NaN click was reported as "must be in [0, 1]", which sent them to look for a bad rate).
  for (const double bad : {not_a_number, infinity, -infinity}) {
    INFO("reward " << bad);
    CHECK_THROWS_WITH(detail::require_supported_reward(bernoulli_model{}, bad),
                      Catch::Contains("must be finite") && !Catch::Contains("[0, 1]"));
    CHECK_THROWS_WITH(detail::require_supported_reward(poisson_model{}, bad),
                      Catch::Contains("must be finite") && !Catch::Contains("whole number"));
  }
  // A finite reward outside the support still gets the support's message.
  CHECK_THROWS_WITH(detail::require_supported_reward(bernoulli_model{}, 2.0),
                    Catch::Contains("[0, 1]"));
}

namespace {
// A model that declares no support: any reward within the numeric contract is taken, and the
// contract (finite, |x| <= 1e150) still holds.
struct undeclared_model : canonical_link<undeclared_model> {
  [[nodiscard]] static double mean_at(double eta) noexcept { return eta; }
  [[nodiscard]] static double dispersion() noexcept { return 1.0; }
  [[nodiscard]] double log_likelihood(double x, const vector_cref& phi,
                                      const vector_cref& theta) const {
    const double r = x - phi.dot(theta);
    return -0.5 * r * r;
  }
};
}  // namespace

TEST_CASE("a model without a declared support gets the numeric contract", "[support]") {
  STATIC_REQUIRE_FALSE(SupportDeclaringModel<undeclared_model>);
  CHECK_NOTHROW(detail::require_supported_reward(undeclared_model{}, -1e150));
  CHECK_THROWS_AS(detail::require_supported_reward(undeclared_model{}, 1e151),
                  std::invalid_argument);
  CHECK_THROWS_AS(detail::require_supported_reward(undeclared_model{}, not_a_number),
                  std::invalid_argument);
  ts_sa<undeclared_model> policy(2, {.warmup = 2, .window = 3});
  xoshiro256pp gen(5);
  CHECK_NOTHROW(policy.update(0, -7.5, gen));
  CHECK_THROWS_AS(policy.update(0, infinity, gen), std::invalid_argument);
}

namespace {
// Every policy with a model, over every built-in model: those that survive their model's edge
// rewards, and the Langevin policies over unbounded rewards (counts, durations) that do not
// (see the end).
using edge_proof_policies =
    std::tuple<thompson<gaussian_model>, thompson<bernoulli_model>, thompson<poisson_model>,
               epsilon_ts<gaussian_model>, epsilon_ts<bernoulli_model>,
               epsilon_ts<poisson_model>, kl_ucb<gaussian_model>, kl_ucb<bernoulli_model>,
               kl_ucb<poisson_model>, ts_sa<gaussian_model>, ts_sa<bernoulli_model>,
               ts_sgld<gaussian_model>, ts_sgld<bernoulli_model>, thompson<exponential_model>,
               epsilon_ts<exponential_model>, kl_ucb<exponential_model>,
               ts_sa<exponential_model>>;
using langevin_over_unbounded = std::tuple<ts_sa<poisson_model>, ts_sgld<poisson_model>,
                                           ts_sgld<exponential_model>>;
using policies_with_a_model = decltype(std::tuple_cat(std::declval<edge_proof_policies>(),
                                                      std::declval<langevin_over_unbounded>()));
}  // namespace

TEMPLATE_LIST_TEST_CASE("every policy rejects rewards outside its model's support, unchanged",
                        "[support]", policies_with_a_model) {
  xoshiro256pp gen(18), env(4);
  TestType policy(2);
  SECTION("fresh, during the warm-up") { check_rejects(policy, gen); }
  SECTION("in the middle of the warm-up") {
    play(policy, gen, env, 3);
    check_rejects(policy, gen);
  }
  SECTION("after the warm-up, chains moving") {
    play(policy, gen, env, 80);
    check_rejects(policy, gen);
  }
}

namespace {
// Walks a policy to the edges of its model's accepted range (each edge reward on each arm,
// after the warm-up and within it), then checks that later ordinary rounds do not throw.
template <class P>
void walk_edges_then_play(P policy) {
  using support = support_of<typename model_of<P>::type>;
  xoshiro256pp gen(18), env(4);
  for (const double edge : support::edges()) {
    INFO("edge reward " << edge);
    P fresh = policy;  // the edge inside the warm-up (TS-SA's warm start sees it)
    CHECK_NOTHROW(fresh.update(0, edge, gen));
    CHECK_NOTHROW(play(fresh, gen, env, 300));
    P warmed = policy;  // the edge after the warm-up
    play(warmed, gen, env, 80);
    for (Eigen::Index arm = 0; arm < warmed.num_arms(); ++arm)
      CHECK_NOTHROW(warmed.update(arm, edge, gen));
    CHECK_NOTHROW(play(warmed, gen, env, 300));
  }
}
}  // namespace

TEMPLATE_LIST_TEST_CASE("after rewards at the edges of the support, a policy keeps working",
                        "[support]", edge_proof_policies) {
  walk_edges_then_play(TestType(2));
}

// In the identity metric the Langevin policies over Poisson counts do not survive their
// largest accepted counts: an explicit Langevin step of fixed h over log p = x eta - e^eta,
// whose curvature e^eta is about the count, overshoots to a linear predictor beyond 709.78
// (e^eta = +inf); from there every gradient is -inf and every later move non-finite
// (std::domain_error). The window (TS-SA) or history (TS-SGLD) that holds the count never
// changes while updates throw, so the policy stays stuck. Known failures, tagged
// [!shouldfail] so that a fix turns them into failures to untag. TS-SA's default steps in
// mean coordinates, which stay between the mean and the rewards (docs/scale-free-ts-sa.md),
// and its warm start's line search halves a step as far as it must: it keeps working.
TEST_CASE("ts_sa<poisson_model>, paper configuration, keeps working after 1e6 and 1e150",
          "[support][!shouldfail]") {
  walk_edges_then_play(ts_sa<poisson_model>(2, ts_sa<poisson_model>::params::paper()));
}
TEST_CASE("ts_sa<poisson_model>, default parameters, keeps working after 1e6 and 1e150",
          "[support]") {
  walk_edges_then_play(ts_sa<poisson_model>(2));
}
TEST_CASE("ts_sgld<poisson_model> keeps working after counts of 1e6 and 1e150",
          "[support][!shouldfail]") {
  walk_edges_then_play(ts_sgld<poisson_model>(2));
}
// The same for durations: the gradient in eta, x e^-eta - 1, grows with the duration, and one of
// 1e6 on an arm of mean 3 throws TS-SGLD's fixed step far past exp's range. TS-SA's default
// steps in mean coordinates and keeps working (edge_proof_policies).
TEST_CASE("ts_sgld<exponential_model> keeps working after durations of 1e6 and 1e150",
          "[support][!shouldfail]") {
  walk_edges_then_play(ts_sgld<exponential_model>(2));
}
