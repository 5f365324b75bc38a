// The declared instances (sabandit/instances.hpp), played from a translation unit that only
// declares them: every one of the 24 (TS-SA and TS-SGLD, three models, two engines) must link,
// which a declaration without its definition, or a definition of another signature, fails;
// and each must play its policy (the header-only tests check what the policies compute; this
// file checks that the instances are those policies, on an easy problem).
// no_definitions.cmake checks that this unit compiled none of them: the compile-time saving.
#include <catch2/catch.hpp>

#include <random>

#include <sabandit/instances.hpp>

namespace {

// Two arms whose means are 1 apart in the model's natural scale: Gaussian N(0 or 1, 1),
// Bernoulli 0.2 or 0.8, Poisson 1 or 4.
template <class Model, class Engine>
double reward(Eigen::Index arm, Engine& gen) {
  if constexpr (std::is_same_v<Model, sabandit::bernoulli_model>) {
    return std::bernoulli_distribution(arm == 1 ? 0.8 : 0.2)(gen) ? 1.0 : 0.0;
  } else if constexpr (std::is_same_v<Model, sabandit::poisson_model>) {
    return static_cast<double>(std::poisson_distribution<int>(arm == 1 ? 4.0 : 1.0)(gen));
  } else {
    return std::normal_distribution<double>(arm == 1 ? 1.0 : 0.0, 1.0)(gen);
  }
}

// Plays 400 rounds and returns the better arm's share of the pulls. With gaps of this size
// Thompson sampling pulls the worse arm O(log T / KL) times, a few dozen at most (KL >= 0.5
// for all three problems: Gaussian 1/2, Bernoulli 0.83, Poisson 4 log 4 - 3 = 2.5), so a share
// below 3/4 means the instance does not run the policy.
template <class Policy, class Engine>
double better_arm_share() {
  using model = std::decay_t<decltype(std::declval<Policy&>().model())>;
  Engine gen(7);
  Policy policy(2);
  for (int t = 0; t < 400; ++t) {
    const Eigen::Index arm = policy.select(gen);
    policy.update(arm, reward<model>(arm, gen), gen);
  }
  REQUIRE(policy.statistics().total() == 400);
  return policy.statistics().count(1) / 400.0;
}

}  // namespace

TEMPLATE_TEST_CASE("a declared instance plays its policy, with either engine", "[instances]",
                   sabandit::ts_sa<sabandit::gaussian_model>,
                   sabandit::ts_sa<sabandit::bernoulli_model>,
                   sabandit::ts_sa<sabandit::poisson_model>,
                   sabandit::ts_sgld<sabandit::gaussian_model>,
                   sabandit::ts_sgld<sabandit::bernoulli_model>,
                   sabandit::ts_sgld<sabandit::poisson_model>) {
  CHECK(better_arm_share<TestType, sabandit::xoshiro256pp>() > 0.75);
  CHECK(better_arm_share<TestType, std::mt19937_64>() > 0.75);
  // The other constructors are declared instances too.
  const TestType with_params(2, typename TestType::params{});
  CHECK(with_params.num_arms() == 2);
  const TestType with_features(Eigen::MatrixXd::Ones(1, 3), typename TestType::params{});
  CHECK(with_features.num_arms() == 3);
}
