// Regressions found by the fuzz targets (tests/fuzz/, scripts/fuzz): each case is the smallest
// input that broke a guarantee of docs/guarantees.md, rewritten as a plain test.
#include <limits>
#include <optional>
#include <stdexcept>

#include "sabandit/sabandit.hpp"
#include "support/catch.hpp"

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
