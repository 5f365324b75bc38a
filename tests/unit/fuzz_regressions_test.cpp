// Regressions found by the fuzz targets (tests/fuzz/, scripts/fuzz): each case is the smallest
// input that broke a guarantee of docs/guarantees.md, rewritten as a plain test.
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "sabandit/sabandit.hpp"
#include "support/catch.hpp"
#include "support/saved_state.hpp"

using namespace sabandit;

namespace {

// Builds the policy, or returns false if the parameters are rejected (std::invalid_argument,
// the documented answer); then plays every arm once and draws `rounds` decisions, which must
// neither throw nor leave [0, K).
template <class Policy, class Params>
bool draws_whenever_accepted(const Params& params, double reward, int rounds = 50) {
  xoshiro256pp gen(10);
  std::optional<Policy> policy;
  try {
    policy.emplace(2, params);
  } catch (const std::invalid_argument&) {
    return false;
  }
  policy->update(0, reward, gen);
  policy->update(1, reward, gen);
  for (int t = 0; t < rounds; ++t) {
    Eigen::Index arm = -1;
    REQUIRE_NOTHROW(arm = policy->select(gen));
    REQUIRE((arm == 0 || arm == 1));
  }
  return true;
}

using test_state::saved;

}  // namespace

// Found writing conjugate_policies' oracle (select() of these policies may throw nothing):
// select() divides the beta or gamma parameters by tau, and with
// tau = 1e-100 a prior alpha of 1e300 became +inf (or with tau = 1e100 a shape of 1e-300
// became 0), which the sampler rejected with std::invalid_argument from select(): parameters
// accepted at construction that made every later decision throw.
TEST_CASE("conjugate TS: a prior and temperature accepted at construction never make select() "
          "throw (fuzzing)",
          "[guarantees][conjugate][fuzz]") {
  for (const double tau : {1e-100, 1.0, 1e100}) {
    for (const double big : {1e300, 1e-300, 1e100, 1e-100}) {
      CAPTURE(tau, big);
      draws_whenever_accepted<thompson<bernoulli_model>>(
          thompson<bernoulli_model>::params{.temperature = tau, .prior = {big, 1.0}}, 1.0);
      draws_whenever_accepted<thompson<bernoulli_model>>(
          thompson<bernoulli_model>::params{.temperature = tau, .prior = {1.0, big}}, 0.0);
      draws_whenever_accepted<thompson<poisson_model>>(
          thompson<poisson_model>::params{.temperature = tau, .prior = {big, 1.0}}, 0.0);
      draws_whenever_accepted<thompson<poisson_model>>(
          thompson<poisson_model>::params{.temperature = tau, .prior = {1.0, big}}, 0.0);
    }
  }
  // The bounds themselves are accepted (the numeric contract's [1e-100, 1e100]).
  CHECK(draws_whenever_accepted<thompson<bernoulli_model>>(
      thompson<bernoulli_model>::params{.temperature = 1e-100, .prior = {1e100, 1e-100}}, 1.0));
  CHECK(draws_whenever_accepted<thompson<poisson_model>>(
      thompson<poisson_model>::params{.temperature = 1e100, .prior = {1e-100, 1e100}}, 0.0));
}

// langevin_policies found it (an allocation of 2^43 bytes, reported by ASan): the size check
// let any negative count through for the parameter's own check to name, so with an invalid
// window or batch size a huge K was not checked, and unit_features(K) allocated K doubles before
// the window was. With K = 2^31 that is 16 GiB, which the kernel kills instead of a throw.
TEST_CASE("a huge K with an invalid window or batch size throws before allocating (fuzz finding)",
          "[guarantees][errors][fuzz]") {
  // 2^40 arms: without the check the allocation (8 TiB) fails at once with std::bad_alloc,
  // which is not a std::logic_error, instead of exhausting the machine's memory.
  const Eigen::Index huge = Eigen::Index{1} << 40;
  for (const Eigen::Index bad : {Eigen::Index{-1}, Eigen::Index{0},
                                 std::numeric_limits<Eigen::Index>::min()}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(ts_sa<>(huge, {.window = bad}), std::logic_error);
    CHECK_THROWS_AS(ts_sgld<>(huge, {.batch_size = bad}), std::logic_error);
    CHECK_THROWS_AS(ts_sgld<poisson_model>(huge, {.batch_size = bad}), std::logic_error);
  }
  // The documented exception for the size itself, whatever the other parameters.
  CHECK_THROWS_AS(ts_sa<>(huge, {.window = -1}), std::length_error);
  CHECK_THROWS_AS(ts_sgld<>(huge, {.batch_size = -1}), std::length_error);
}

// langevin_policies found it (tests/fuzz/corpus/langevin_policies/4254fb3f...): TS-SA with a
// feature entry of 4.4e262 saved a state that restore rejected, "the decision score of arm 0
// is not finite". |phi_0| was computed as sqrt(squaredNorm), whose square overflows, so line
// 4's spread sqrt(tau / n) |phi_0| was +inf although every input was finite.
TEST_CASE("TS-SA: a finite feature whose square overflows has a finite decision spread, and its "
          "state restores (fuzz finding)",
          "[guarantees][ts_sa][state][fuzz]") {
  Eigen::MatrixXd features(2, 2);
  features << 4.4207816532211711e+262, 0.75,  //
      0.75, 0.75;
  for (const auto metric : {step_metric::identity, step_metric::fisher}) {
    CAPTURE(static_cast<int>(metric));
    const ts_sa<gaussian_model>::params p{.warmup = 5, .temperature = 0.75,
                                          .init = initialisation::prior,
                                          .prior = {0.75, 0.75}, .metric = metric};
    ts_sa<gaussian_model> policy(features, p, gaussian_model(0.75));
    xoshiro256pp gen(4);
    for (int pull = 0; pull < 5; ++pull)  // the warm-up: theta_a from the prior (line 1)
      for (Eigen::Index arm = 0; arm < 2; ++arm) policy.update(arm, 0.75, gen);
    REQUIRE(policy.decision_spreads().allFinite());
    if (metric == step_metric::identity) {
      // sqrt(tau / n) |phi_0| with |phi_0| = 4.4207816532211711e262 to 1e-16 relative (the
      // 0.75 adds 1.4e-526 to it): a relative error of a few ulps from the scaled norm.
      CHECK(policy.decision_spreads()(0) ==
            Approx(std::sqrt(0.75 / 5.0) * 4.4207816532211711e+262).epsilon(1e-14));
    }
    std::istringstream in(saved(policy));
    ts_sa<gaussian_model> restored(Eigen::MatrixXd::Identity(2, 2), {}, gaussian_model(1.0));
    REQUIRE_NOTHROW(state::restore(in, restored));
    CHECK(saved(restored) == saved(policy));
    CHECK((restored.decision_spreads() == policy.decision_spreads()).all());
  }
}

// The same guarantee where the spread itself passes the largest double: in the identity metric,
// tau = 1e100 (its bound) and |phi_0| = 1e300 give sqrt(1e100 / 2) 1e300 = 7.1e349. The update that would store it
// (the arm's last warm-up pull) throws std::domain_error naming it, and leaves the policy as it
// was; before, it stored the infinite spread and saved a state that restore rejects.
TEST_CASE("TS-SA: an update that would make a decision score infinite throws and changes nothing",
          "[guarantees][ts_sa][errors][fuzz]") {
  Eigen::MatrixXd features(2, 2);
  features << 1e300, 1.0,  //
      0.0, 0.0;
  // theta_0 ~ N(0, 1e-100): <phi_0, theta_0> is about 1e250, finite, like the model's mean.
  const ts_sa<gaussian_model>::params p{.warmup = 2, .temperature = 1e100,
                                        .init = initialisation::prior, .prior = {0.0, 1e-100},
                                        .metric = step_metric::identity};
  ts_sa<gaussian_model> policy(features, p, gaussian_model(1.0));
  xoshiro256pp gen(4);
  policy.update(0, 0.5, gen);
  const std::string before = saved(policy);
  CHECK_THROWS_AS(policy.update(0, 0.5, gen), std::domain_error);
  CHECK_THROWS_WITH(policy.update(0, 0.5, gen),
                    Catch::Contains("decision score (Alg. 1 line 4) of arm 0"));
  CHECK(saved(policy) == before);
  // Arm 1's spread, sqrt(1e100 / 2) 1 = 7.1e49, is finite: it stores as usual.
  policy.update(1, 0.5, gen);
  policy.update(1, 0.5, gen);
  CHECK(std::isfinite(policy.decision_spreads()(1)));
}

// A probe's finding, within reach of the fuzzers (1e150 is in their table of doubles): six
// rewards of 1e150 sum, rounded, to more than fl(6 x 1e150), which restore took for a sum beyond
// its count times the reward bound, so the state saved but did not restore. Every policy keeps
// these statistics (policies/common/arm_statistics.hpp); counts 6, 12, 13 and 24 failed.
TEST_CASE("rewards at the bound, summed with rounding, save a state that restores (probe finding)",
          "[guarantees][state][fuzz]") {
  for (const double bound : {1e150, -1e150}) {
    for (const int pulls : {6, 12, 13, 24, 100}) {
      CAPTURE(bound, pulls);
      ucb policy(1);
      xoshiro256pp gen(1);
      for (int i = 0; i < pulls; ++i) policy.update(0, bound, gen);
      std::istringstream in(saved(policy));
      ucb restored(1);
      REQUIRE_NOTHROW(state::restore(in, restored));
      CHECK(restored.statistics().sums()(0) == policy.statistics().sums()(0));
    }
  }
  // A sum beyond the bound by more than rounding is still refused: state_test.cpp.
}
