#include "sabandit/sabandit.hpp"
#include "support/archetypes.hpp"
#include "support/catch.hpp"

using namespace sabandit;

TEST_CASE("archetypes satisfy the concepts", "[concepts]") {
  STATIC_REQUIRE(RewardModel<test::reward_model_archetype>);
  STATIC_REQUIRE_FALSE(WindowMeanRewardModel<test::reward_model_archetype>);
  STATIC_REQUIRE(Environment<test::environment_archetype>);
  STATIC_REQUIRE(Policy<test::policy_archetype>);
  STATIC_REQUIRE(Policy<test::policy_archetype, test::urbg_archetype>);
}

TEST_CASE("a type missing a member is rejected", "[concepts]") {
  STATIC_REQUIRE_FALSE(RewardModel<test::model_without_gradient>);
  STATIC_REQUIRE_FALSE(Environment<test::environment_without_pull>);
  STATIC_REQUIRE_FALSE(Policy<test::policy_without_update>);
  STATIC_REQUIRE_FALSE(Policy<int>);
}

TEST_CASE("library types satisfy the concepts with any engine", "[concepts]") {
  STATIC_REQUIRE(WindowMeanRewardModel<gaussian_model>);
  STATIC_REQUIRE(Environment<bandit_env<normal_arm>>);
  STATIC_REQUIRE(Environment<bandit_env<normal_mixture_arm>, std::mt19937_64>);
  STATIC_REQUIRE(Policy<ucb, test::urbg_archetype>);
  STATIC_REQUIRE(Policy<gaussian_ts, std::mt19937>);
  STATIC_REQUIRE(Policy<epsilon_ts<>, test::urbg_archetype>);
  STATIC_REQUIRE(Policy<ts_sa<test::reward_model_archetype>, test::urbg_archetype>);
  STATIC_REQUIRE(Policy<ts_sgld<test::reward_model_archetype>, test::urbg_archetype>);
  STATIC_REQUIRE(Policy<ts_sa<gaussian_model, horizon_schedule>>);
  STATIC_REQUIRE(SaSchedule<polynomial_decay>);
  STATIC_REQUIRE_FALSE(SaSchedule<int>);
}

TEST_CASE("policies run with the archetype engine and model", "[concepts]") {
  // Instantiating the member templates proves they use nothing beyond the concepts.
  test::urbg_archetype gen;
  ts_sa<test::reward_model_archetype> sa(unit_features(3), {.warmup = 2, .window = 4},
                                         test::reward_model_archetype{});
  ts_sgld<test::reward_model_archetype> sgld(unit_features(3), {.batch_size = 4},
                                             test::reward_model_archetype{});
  for (int t = 0; t < 50; ++t) {
    const auto a = sa.select(gen);
    sa.update(a, static_cast<double>(a), gen);
    const auto b = sgld.select(gen);
    sgld.update(b, static_cast<double>(b), gen);
  }
  // The member templates' work is visible through the concepts alone: every reward (the arm's
  // index) was recorded once in the statistics, and the chains of arms paying 1 and 2 moved
  // off the prior mean 0 (the archetype's linear model: its MAP is the rewards' mean).
  CHECK(sa.statistics().counts().sum() == 50.0);
  CHECK(sgld.statistics().counts().sum() == 50.0);
  CHECK(sa.statistics().sums().sum() == Approx((sa.statistics().counts() *
                                                 Eigen::ArrayXd::LinSpaced(3, 0, 2)).sum()));
  CHECK(sa.parameter_estimates().allFinite());
  CHECK(sgld.parameter_estimates().allFinite());
  CHECK((sa.parameter_estimates().array() != 0.0).any());
  CHECK((sgld.parameter_estimates().array() != 0.0).any());
}

// The parts a Langevin policy is composed from (policies/langevin/parts.hpp): the shipped
// ones model their concepts, and a part without a required member does not.
namespace {
struct source_without_gradient : sabandit::langevin::recent_window {
  using recent_window::recent_window;
  void gradient() = delete;  // hides the base's template: no gradient(model, arm, ...) left
};
struct averager_without_weight {
  void validate(Eigen::Index) const {}
  [[nodiscard]] Eigen::Index iterations(Eigen::Index, Eigen::Index fixed) const { return fixed; }
  template <class T, class O>
  void average(T& theta, const O& omega, double) const { theta = omega; }
};
}  // namespace
static_assert(sabandit::langevin::GradientSource<sabandit::langevin::recent_window>);
static_assert(sabandit::langevin::GradientSource<sabandit::langevin::uniform_minibatch>);
static_assert(!sabandit::langevin::GradientSource<source_without_gradient>);
static_assert(sabandit::langevin::Averager<sabandit::langevin::sa_averaging<sabandit::polynomial_decay>>);
static_assert(sabandit::langevin::Averager<sabandit::langevin::last_iterate>);
static_assert(!sabandit::langevin::Averager<averager_without_weight>);

TEST_CASE("the Langevin parts model their concepts", "[concepts]") {
  // The static_asserts above are the test; this case makes the file's part of the report.
  CHECK(sabandit::langevin::GradientSource<sabandit::langevin::recent_window>);
  CHECK_FALSE(sabandit::langevin::Averager<averager_without_weight>);
}
