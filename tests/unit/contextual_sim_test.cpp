// contextual::simulate(): the same seed gives the same results on any number of threads, the
// regret on a classification data set counts the mistakes, the best policy of a synthetic
// problem has no regret, and bad policies are reported.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <vector>

#include "contextual_benchmark/data.hpp"
#include "contextual_benchmark/uniform.hpp"
#include "sabandit/contextual/classification_env.hpp"
#include "sabandit/contextual/linear_env.hpp"
#include "sabandit/contextual/linucb.hpp"
#include "sabandit/contextual/simulate.hpp"
#include "sabandit/random.hpp"
#include "support/catch.hpp"
#include "support/files.hpp"

using namespace sabandit;
using namespace sabandit::contextual;

namespace {

/// A ContextualPolicy that learns nothing: a uniformly random arm, one uniform_index draw per
/// round (what the replay below reproduces). The job's reference row.
using uniform_policy = repro::uniform_random_policy;

/// Always `arm`, whatever the context: returns an arm outside [0, K) when asked to.
struct constant_policy {
  Eigen::Index arms;
  Eigen::Index d;
  Eigen::Index arm;
  [[nodiscard]] Eigen::Index num_arms() const { return arms; }
  [[nodiscard]] Eigen::Index context_size() const { return d; }
  template <class URBG>
  Eigen::Index select(const vector_cref& /*x*/, URBG& /*gen*/) { return arm; }
  template <class URBG>
  void update(const vector_cref& /*x*/, Eigen::Index /*arm*/, double /*reward*/, URBG& /*gen*/) {}
};

/// The best policy of a linear problem: the arm of the largest <x, theta*_a>, computed with the
/// environment's own expression, so that it picks exactly the environment's best arm.
struct oracle_policy {
  Eigen::MatrixXd theta;
  [[nodiscard]] Eigen::Index num_arms() const { return theta.cols(); }
  [[nodiscard]] Eigen::Index context_size() const { return theta.rows(); }
  template <class URBG>
  Eigen::Index select(const vector_cref& x, URBG& /*gen*/) {
    const Eigen::VectorXd eta = theta.transpose() * x;
    Eigen::Index best = 0;
    eta.maxCoeff(&best);
    return best;
  }
  template <class URBG>
  void update(const vector_cref& /*x*/, Eigen::Index /*arm*/, double /*reward*/, URBG& /*gen*/) {}
};

static_assert(ContextualPolicy<uniform_policy>);
static_assert(ContextualPolicy<oracle_policy>);

classification_env excerpt_env() {
  const std::string path = SABANDIT_TEST_DATA_DIR "/digits_excerpt.csv";
  const auto table = repro::parse_labelled_csv(test_files::slurp(path), 64, 10, path);
  return classification_env(std::make_shared<const classification_data>(
      prepare_classification_data(table.features, table.labels, 10)));
}

}  // namespace

TEST_CASE("contextual::simulate gives the same results on any number of threads",
          "[contextual][sim]") {
  const auto env = excerpt_env();
  const auto factory = [](Eigen::Index) { return uniform_policy(10, 65); };
  const run_config one{.horizon = 300, .trials = 7, .seed = 42, .threads = 1, .record_points = 10};
  run_config four = one;
  four.threads = 4;
  const auto a = contextual::simulate(env, factory, one, {30});
  const auto b = contextual::simulate(env, factory, four, {30});
  CHECK(a.curve.rounds == b.curve.rounds);
  CHECK(a.trial_regret == b.trial_regret);
  CHECK(a.curve.mean_regret == b.curve.mean_regret);
  CHECK(a.curve.standard_error == b.curve.standard_error);
  CHECK(a.curve.optimal_fraction == b.curve.optimal_fraction);
  CHECK(a.curve.final_regrets == b.curve.final_regrets);
  CHECK(a.trial_pulls == b.trial_pulls);
  // Round 30 (T/10) is recorded beside the ten evenly spaced ones.
  CHECK(a.curve.rounds == std::vector<Eigen::Index>{30, 60, 90, 120, 150, 180, 210, 240, 270, 300});
  CHECK(a.point_of(30) == 0);
  CHECK_THROWS_AS(a.point_of(31), std::invalid_argument);
  REQUIRE(a.trial_seconds.size() == 7);
  CHECK(a.ns_per_round() > 0.0);
  // Another seed, other permutations and draws.
  run_config other = one;
  other.seed = 43;
  CHECK(contextual::simulate(env, factory, other).trial_regret.row(9) != a.trial_regret.row(9));
}

TEST_CASE("On a classification data set the regret counts the mistakes", "[contextual][sim]") {
  const auto env = excerpt_env();
  const run_config config{.horizon = 300, .trials = 5, .seed = 9, .threads = 2, .record_points = 3};
  const auto run = contextual::simulate(env, [](Eigen::Index) { return uniform_policy(10, 65); }, config);
  // Replay each trial with the documented streams and count the rounds whose arm is not the
  // label.
  for (Eigen::Index r = 0; r < config.trials; ++r) {
    classification_env replay = env;
    auto context_gen = make_stream(config.seed, static_cast<std::uint64_t>(r), stream_role::environment);
    auto policy_gen = make_stream(config.seed, static_cast<std::uint64_t>(r), stream_role::policy);
    std::vector<double> mistakes;
    double count = 0.0;
    Eigen::Matrix<Eigen::Index, Eigen::Dynamic, 1> pulls = Eigen::Matrix<Eigen::Index, Eigen::Dynamic, 1>::Zero(10);
    for (Eigen::Index t = 1; t <= config.horizon; ++t) {
      (void)replay.next_context(context_gen);
      const auto arm = static_cast<Eigen::Index>(uniform_index(policy_gen, 10));
      count += arm != replay.label() ? 1.0 : 0.0;
      ++pulls(arm);
      if (t % 100 == 0) mistakes.push_back(count);
    }
    CHECK(run.trial_regret.col(r) == Eigen::Map<const Eigen::VectorXd>(mistakes.data(), 3));
    CHECK(run.trial_pulls.col(r) == pulls);  // each trial's own arms, counted
  }
  CHECK(run.trial_pulls.rows() == 10);
  CHECK((run.trial_pulls.colwise().sum().array() == config.horizon).all());
  // Always class 0 over one whole pass: a mistake on every row of another class, whatever the
  // order (31 of the 300 rows are zeros).
  const auto zeros = contextual::simulate(env, [](Eigen::Index) { return constant_policy{10, 65, 0}; }, config);
  CHECK((zeros.trial_regret.row(2).array() == 269.0).all());
  CHECK((zeros.trial_pulls.row(0).array() == config.horizon).all());
  CHECK(zeros.trial_pulls.bottomRows(9).isZero());
  CHECK(zeros.curve.final_standard_error() == 0.0);
  CHECK(zeros.curve.optimal_fraction.back() == Approx(31.0 / 300.0));
}

TEST_CASE("The best policy of a synthetic problem has no regret", "[contextual][sim]") {
  Eigen::MatrixXd theta(4, 3);
  theta << 1.0, -0.5, 0.2,  //
      0.0, 1.0, -0.3,       //
      -0.7, 0.4, 0.9,       //
      0.1, 0.0, -0.1;
  const run_config config{.horizon = 2000, .trials = 4, .seed = 1, .threads = 2, .record_points = 4};
  const auto oracle = [&](Eigen::Index) { return oracle_policy{theta}; };
  const auto gaussian = contextual::simulate(make_linear_gaussian_env(theta, 1.0), oracle, config);
  const auto logistic = contextual::simulate(make_logistic_env(theta), oracle, config);
  CHECK((gaussian.trial_regret.array() == 0.0).all());
  CHECK((logistic.trial_regret.array() == 0.0).all());
  CHECK(gaussian.curve.optimal_fraction.back() == 1.0);
  // A policy that ignores the context pays a linear regret: arm 0 is not the best everywhere.
  const auto fixed = contextual::simulate(make_linear_gaussian_env(theta, 1.0),
                                          [](Eigen::Index) { return constant_policy{3, 4, 0}; }, config);
  CHECK(fixed.curve.final_regret() > 100.0);
}

TEST_CASE("contextual::simulate reports a bad policy or round", "[contextual][sim][errors]") {
  const auto env = excerpt_env();
  const run_config config{.horizon = 50, .trials = 3, .seed = 1, .threads = 2, .record_points = 5};
  CHECK_THROWS_WITH(contextual::simulate(env, [](Eigen::Index) { return uniform_policy(10, 64); }, config),
                    Catch::Contains("policy.context_size() = 64"));
  CHECK_THROWS_WITH(contextual::simulate(env, [](Eigen::Index) { return uniform_policy(9, 65); }, config),
                    Catch::Contains("policy.num_arms() = 9"));
  CHECK_THROWS_AS(contextual::simulate(env, [](Eigen::Index) { return constant_policy{10, 65, 10}; }, config),
                  std::out_of_range);
  CHECK_THROWS_WITH(contextual::simulate(env, [](Eigen::Index) { return uniform_policy(10, 65); }, config, {51}),
                    Catch::Contains("also_record round = 51"));
  CHECK_THROWS_AS(contextual::simulate(env, [](Eigen::Index) { return uniform_policy(10, 65); }, config, {0}),
                  std::invalid_argument);
  // also_record adds rounds past record_points: 1e8 trials of 1 recorded round fit the bound
  // (3e8 doubles of 2^31), 21 rounds (4.2e9) do not, and used to be allocated (33 GB).
  std::vector<Eigen::Index> twenty(20);
  std::iota(twenty.begin(), twenty.end(), Eigen::Index{1});
  CHECK_THROWS_WITH(contextual::simulate(env, [](Eigen::Index) { return uniform_policy(10, 65); },
                                         {.horizon = 50, .trials = 100'000'000, .record_points = 1}, twenty),
                    Catch::Contains("contextual::simulate()'s results") && Catch::Contains("21 recorded points"));
  // The pull counts (K x trials) are bounded too, before the results are allocated: 3e8 trials
  // of 1 recorded round fit the results' bound (6e8 doubles) but not 10 arms' counts (3e9).
  CHECK_THROWS_WITH(contextual::simulate(env, [](Eigen::Index) { return uniform_policy(10, 65); },
                                         {.horizon = 50, .trials = 300'000'000, .record_points = 1}),
                    Catch::Contains("pull counts") && Catch::Contains("10 arms"));
  // K = 2^34 classes: a trial's 2^34 reward engines (2^36 doubles) are refused by name before
  // any is made; they gave std::bad_alloc (a probe's finding).
  Eigen::MatrixXd features(4, 2);  // 4 examples of 2 features
  features << 1, 2, 3, 4, 5, 6, 7, 8;
  const Eigen::Index many = Eigen::Index{1} << 34;
  const classification_env wide(std::make_shared<const classification_data>(
      prepare_classification_data(features, {0, 1, 0, 1}, many)));
  CHECK_THROWS_WITH(contextual::simulate(wide, [&](Eigen::Index) { return uniform_policy(many, 3); },
                                         {.horizon = 10, .trials = 1, .threads = 1}),
                    Catch::Contains("reward engines") && Catch::Contains("17179869184 arms"));
}

TEST_CASE("contextual::simulate stops at a requested stop", "[contextual][sim]") {
  const auto env = excerpt_env();
  std::stop_source source;
  run_config config{.horizon = 200, .trials = 6, .seed = 1, .threads = 1, .record_points = 2};
  config.stop = source.get_token();
  const auto make = [](Eigen::Index) { return uniform_policy(10, 65); };
  // Requested by the progress hook after the first trial: the second stops at its first round,
  // so the hook runs once and simulate() throws instead of returning a partial result.
  int finished = 0;
  CHECK_THROWS_AS(contextual::simulate(env, make, config, {}, [&] {
                    ++finished;
                    source.request_stop();
                  }),
                  simulation_stopped);
  CHECK(finished == 1);
  // A token never requested changes nothing: the same result as without one.
  config.stop = std::stop_token{};
  CHECK(contextual::simulate(env, make, config).curve.final_regrets ==
        contextual::simulate(env, make, run_config{.horizon = 200, .trials = 6, .seed = 1, .threads = 1,
                                                   .record_points = 2})
            .curve.final_regrets);
}

namespace {
/// Plays 0, 1, ..., K-1, 0, ... and checks that each update gets the context and arm of the
/// selection it answers, in order: the contexts it selected at are kept until learnt.
struct context_checking_policy {
  Eigen::Index arms;
  Eigen::Index d;
  std::shared_ptr<std::vector<Eigen::VectorXd>> selected = std::make_shared<std::vector<Eigen::VectorXd>>();
  std::shared_ptr<std::size_t> learnt = std::make_shared<std::size_t>(0);
  std::shared_ptr<std::size_t> mismatches = std::make_shared<std::size_t>(0);
  std::shared_ptr<std::size_t> most_held = std::make_shared<std::size_t>(0);
  [[nodiscard]] Eigen::Index num_arms() const { return arms; }
  [[nodiscard]] Eigen::Index context_size() const { return d; }
  template <class URBG>
  Eigen::Index select(const vector_cref& x, URBG& /*gen*/) {
    selected->push_back(x);
    *most_held = std::max(*most_held, selected->size() - *learnt);
    return static_cast<Eigen::Index>(selected->size() - 1) % arms;
  }
  template <class URBG>
  void update(const vector_cref& x, Eigen::Index arm, double /*reward*/, URBG& /*gen*/) {
    const std::size_t k = (*learnt)++;
    if (k >= selected->size() || x != (*selected)[k] ||
        arm != static_cast<Eigen::Index>(k) % arms)
      ++*mismatches;
  }
};
static_assert(ContextualPolicy<context_checking_policy>);
}  // namespace

TEST_CASE("contextual::simulate with feedback_batch learns each round at its own context",
          "[contextual][sim][delayed]") {
  Eigen::MatrixXd theta(3, 4);
  theta.setConstant(0.25);
  theta(0, 1) = 1.0;
  const auto env = make_linear_gaussian_env(theta, 1.0);
  for (const Eigen::Index batch : {Eigen::Index{1}, Eigen::Index{6}, Eigen::Index{1000}}) {
    INFO("feedback_batch = " << batch);
    context_checking_policy policy{4, 3};
    const run_config config{.horizon = 50, .trials = 1, .threads = 1, .feedback_batch = batch};
    const auto result = contextual::simulate(env, [&](Eigen::Index) { return policy; }, config);
    CHECK(*policy.learnt == 50);
    CHECK(*policy.mismatches == 0);
    CHECK(*policy.most_held == static_cast<std::size_t>(std::min<Eigen::Index>(batch, 50)));
    CHECK(result.trial_pulls.col(0).sum() == 50);
  }
  // Threads do not change a delayed run; a delay changes what a learning policy plays.
  const auto make = [](Eigen::Index) { return linucb<>(4, 3); };
  run_config config{.horizon = 300, .trials = 5, .seed = 3, .threads = 1, .feedback_batch = 20};
  const auto a = contextual::simulate(env, make, config);
  config.threads = 3;
  CHECK(contextual::simulate(env, make, config).trial_regret == a.trial_regret);
  config.feedback_batch = 1;
  CHECK(contextual::simulate(env, make, config).trial_regret != a.trial_regret);
  config.feedback_batch = 0;
  CHECK_THROWS_WITH(contextual::simulate(env, make, config), Catch::Contains("feedback_batch = 0"));
}
