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
// is not finite": |phi_0|^2 overflowed, so line 4's spread sqrt(tau / n) |phi_0| was +inf
// although every input was finite. A probe then found the other end: with an entry of 1e-160,
// |phi|^2 = 1e-320 is subnormal and the Gaussian warm start's theta = phi r / |phi|^2 overflowed,
// so every update threw and the arm never left its warm-up. The constructor now refuses
// both, naming the column: |phi_a|^2 must be a normal double.
TEST_CASE("Langevin policies refuse features whose squared norm is not a normal double "
          "(fuzz and probe findings)",
          "[guarantees][ts_sa][ts_sgld][errors][fuzz]") {
  for (const double entry : {4.4207816532211711e+262, 1e-160, 1e-200, 0.0}) {
    CAPTURE(entry);
    Eigen::MatrixXd features(2, 2);
    features << 0.75, entry,  //
        0.75, 0.0;
    CHECK_THROWS_AS(ts_sa<gaussian_model>(features, {}), std::invalid_argument);
    CHECK_THROWS_WITH(ts_sa<gaussian_model>(features, {}),
                      Catch::Contains("features.col(1).squaredNorm()") &&
                          Catch::Contains("must be a normal double"));
    CHECK_THROWS_WITH(ts_sgld<gaussian_model>(features, {}),
                      Catch::Contains("features.col(1).squaredNorm()"));
  }
  // Just inside both ends: |phi|^2 of 1e306 and 1e-306 are accepted, and play.
  for (const double entry : {1e153, 1e-153}) {
    CAPTURE(entry);
    Eigen::MatrixXd features(1, 2);
    features << 1.0, entry;
    ts_sa<gaussian_model> policy(features, {.warmup = 1, .init = initialisation::warm_start});
    xoshiro256pp gen(4);
    policy.update(0, 0.5, gen);
    policy.update(1, 0.5, gen);
    CHECK(policy.decision_spreads().allFinite());
    CHECK(policy.decision_centers().allFinite());
  }
}

namespace {
// A user's model whose normalizing coordinate (models/information.hpp) is infinite above a
// mean of 10: the decision's centre at such an iterate is not finite.
struct bounded_coordinate_model : gaussian_model {
  bounded_coordinate_model() : gaussian_model(1.0) {}
  [[nodiscard]] static double normalizing_coordinate(double mu) noexcept {
    return mu > 10.0 ? std::numeric_limits<double>::infinity() : mu;
  }
  [[nodiscard]] static double normalizing_slope(const vector_cref&, const vector_cref&) noexcept {
    return 1.0;
  }
};
}  // namespace

// A decision score that is not finite is never stored, whatever the model: restore rejects such
// a state, so it would save a state that does not restore. The update that would store it (the
// arm's last warm-up pull, whose warm start lands at a mean of 100) throws std::domain_error
// naming it, and leaves the policy as it was.
TEST_CASE("TS-SA: an update that would make a decision score infinite throws and changes nothing",
          "[guarantees][ts_sa][errors][fuzz]") {
  ts_sa<bounded_coordinate_model> policy(2, {.warmup = 2});
  xoshiro256pp gen(4);
  policy.update(0, 1.0, gen);
  policy.update(0, 1.0, gen);  // arm 0's warm start: a mean of 1, stored
  policy.update(1, 100.0, gen);
  const Eigen::MatrixXd theta = policy.parameter_estimates();
  const Eigen::ArrayXd centers = policy.decision_centers(), spreads = policy.decision_spreads();
  const Eigen::ArrayXd counts = policy.statistics().counts();
  CHECK_THROWS_AS(policy.update(1, 100.0, gen), std::domain_error);
  CHECK_THROWS_WITH(policy.update(1, 100.0, gen),
                    Catch::Contains("decision score (Alg. 1 line 4) of arm 1"));
  CHECK(policy.parameter_estimates() == theta);
  CHECK((policy.decision_centers() == centers).all());
  CHECK((policy.decision_spreads() == spreads).all());
  CHECK((policy.statistics().counts() == counts).all());
  CHECK(policy.select(gen) == 1);  // arm 1 is still in its warm-up: it is played first
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
