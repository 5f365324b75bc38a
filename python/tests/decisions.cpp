// Prints the decisions of C++ policies for fixed seeds, for test_identical.py: the Python API must
// make exactly the same decisions and the same simulate() results for the same seeds.
// Output: "<case> decisions a_1 ... a_T" then "<case> simulate r_1 ... r_R" (final regrets, %.17g)
// and "<case> delayed r_1 ... r_R" (the same with rewards learnt in batches of 7 rounds);
// and "check_model-<model> worst w_1 ... w_6": check_model's worst discrepancies, check by check.
// The contextual cases ("contextual-<case>") are test_contextual.py's, in the same format, and
// "contextual-<case> pulls p_1 ... p_RK": simulate's pulls, trial by trial, arm by arm.
#include <sabandit/contextual/classification_env.hpp>
#include <sabandit/contextual/linear_env.hpp>
#include <sabandit/contextual/policies.hpp>
#include <sabandit/contextual/simulate.hpp>
#include <sabandit/sabandit.hpp>
#include <sabandit/sim.hpp>

#include <memory>

#include <cstdio>
#include <string>

namespace {

constexpr std::uint64_t seed = 2026;
constexpr Eigen::Index rounds = 300;
constexpr Eigen::Index arms = 5;

template <class Env, class Policy>
void run(const std::string& name, const Env& env, const Policy& prototype) {
  // The loop of test_identical.py: policy engine Engine(seed), rewards from Engine(seed + 1).
  Policy policy = prototype;
  sabandit::default_engine gen(seed);
  sabandit::default_engine world(seed + 1);
  std::printf("%s decisions", name.c_str());
  for (Eigen::Index t = 0; t < rounds; ++t) {
    const Eigen::Index arm = policy.select(gen);
    policy.update(arm, env.pull(arm, world), gen);
    std::printf(" %ld", static_cast<long>(arm));
  }
  std::printf("\n%s simulate", name.c_str());
  const auto curve = sabandit::simulate(env, [&](Eigen::Index) { return prototype; },
                                        {.horizon = 500, .trials = 4, .seed = seed, .threads = 2,
                                         .record_points = 10});
  for (double r : curve.final_regrets) std::printf(" %.17g", r);
  std::printf("\n%s delayed", name.c_str());  // rewards learnt in batches of 7 rounds
  const auto delayed = sabandit::simulate(env, [&](Eigen::Index) { return prototype; },
                                          {.horizon = 500, .trials = 4, .seed = seed, .threads = 2,
                                           .record_points = 10, .feedback_batch = 7});
  for (double r : delayed.final_regrets) std::printf(" %.17g", r);
  std::printf("\n");
}

template <class Env, class Policy>
void run_contextual(const std::string& name, const Env& prototype_env, const Policy& prototype) {
  // test_contextual.py's loop: contexts and rewards from Engine(seed + 1), the policy's Engine(seed).
  Env env = prototype_env;
  Policy policy = prototype;
  sabandit::default_engine gen(seed);
  sabandit::default_engine world(seed + 1);
  std::printf("contextual-%s decisions", name.c_str());
  for (Eigen::Index t = 0; t < rounds; ++t) {
    const Eigen::VectorXd x = env.next_context(world);
    const Eigen::Index arm = policy.select(x, gen);
    policy.update(x, arm, env.pull(arm, world), gen);
    std::printf(" %ld", static_cast<long>(arm));
  }
  std::printf("\ncontextual-%s simulate", name.c_str());
  const auto result = sabandit::contextual::simulate(
      prototype_env, [&](Eigen::Index) { return prototype; },
      {.horizon = 500, .trials = 4, .seed = seed, .threads = 2, .record_points = 10});
  for (double r : result.curve.final_regrets) std::printf(" %.17g", r);
  std::printf("\ncontextual-%s pulls", name.c_str());  // trial by trial, arm by arm
  for (Eigen::Index t = 0; t < result.trial_pulls.cols(); ++t) {
    for (Eigen::Index a = 0; a < result.trial_pulls.rows(); ++a) {
      std::printf(" %ld", static_cast<long>(result.trial_pulls(a, t)));
    }
  }
  std::printf("\ncontextual-%s delayed", name.c_str());  // rewards learnt in batches of 7
  const auto delayed = sabandit::contextual::simulate(
      prototype_env, [&](Eigen::Index) { return prototype; },
      {.horizon = 500, .trials = 4, .seed = seed, .threads = 2, .record_points = 10,
       .feedback_batch = 7});
  for (double r : delayed.curve.final_regrets) std::printf(" %.17g", r);
  std::printf("\n");
}

/// test_contextual.py's environments: theta* (d = 3, K = 4) and a dataset of 60 examples whose
/// features are ratios of small integers (the same doubles in numpy).
Eigen::MatrixXd contextual_theta() {
  Eigen::MatrixXd theta(3, 4);
  theta << 1.0, -0.5, 0.25, 0.0, 0.5, 1.0, -1.0, 0.5, -1.0, -0.5, -0.75, -1.25;
  return theta;
}
sabandit::contextual::classification_env contextual_dataset() {
  Eigen::MatrixXd features(60, 2);
  std::vector<Eigen::Index> labels(60);
  for (Eigen::Index i = 0; i < 60; ++i) {
    features(i, 0) = static_cast<double>((i * 7) % 11) / 11.0;
    features(i, 1) = static_cast<double>((i * 5) % 13) / 13.0 - 0.5;
    labels[static_cast<std::size_t>(i)] = (i * 7) % 11 < 4 ? 0 : ((i * 5) % 13 < 6 ? 1 : 2);
  }
  return sabandit::contextual::classification_env(
      std::make_shared<const sabandit::contextual::classification_data>(
          sabandit::contextual::prepare_classification_data(features, labels, 3)));
}

template <class Model, class Draw>
void check(const std::string& name, const Model& model, Draw draw) {
  // test_identical.py's options and samplers, drawing as Engine.uniform() and .normal() do.
  const auto report = sabandit::check_model(model, draw, {.points = 5, .samples = 2000});
  std::printf("check_model-%s worst", name.c_str());
  for (const sabandit::model_check* c : report.checks()) std::printf(" %.17g", c->worst);
  std::printf("\n");
}

}  // namespace

int main() {
  using namespace sabandit;
  const auto gaussian = make_sgr({.num_arms = arms, .gap = 0.5});
  const auto bernoulli = make_bernoulli_gap(arms, 0.3, 0.1);
  const auto poisson = make_poisson_gap(arms, 3.0, 0.5);
  run("ts_sa-gaussian", gaussian, ts_sa<>(arms));
  run("ts_sa-gaussian-paper", gaussian, ts_sa<>(arms, ts_sa<>::params::paper()));
  run("ts_sa-bernoulli", bernoulli, ts_sa<bernoulli_model>(arms));
  run("ts_sa-poisson", poisson, ts_sa<poisson_model>(arms));
  run("ts_sgld-gaussian", gaussian, ts_sgld<>(arms));
  run("ts_sgld-bernoulli", bernoulli, ts_sgld<bernoulli_model>(arms));
  run("thompson-gaussian", gaussian, thompson<>(arms));
  run("thompson-bernoulli", bernoulli, thompson<bernoulli_model>(arms));
  run("thompson-poisson", poisson, thompson<poisson_model>(arms));
  run("epsilon_ts-gaussian", gaussian, epsilon_ts<>(arms));
  run("ucb-gaussian", gaussian, ucb(arms));
  run("kl_ucb-bernoulli", bernoulli, kl_ucb<bernoulli_model>(arms));
  run("kl_ucb-poisson", poisson, kl_ucb<poisson_model>(arms));
  run("ts_sa-bernoulli-tau", bernoulli, ts_sa<bernoulli_model>(arms, {.window = 3, .temperature = 0.5}));
  namespace cx = sabandit::contextual;
  const auto clicks = cx::make_logistic_env(contextual_theta());
  const auto linear = cx::make_linear_gaussian_env(contextual_theta(), 0.5);
  const auto dataset = contextual_dataset();
  run_contextual("linucb-logistic", clicks, cx::linucb<>(4, 3));
  run_contextual("linucb-classification", dataset, cx::linucb<>(3, 3, {.alpha = 0.5}));
  run_contextual("linear_ts-gaussian", linear, cx::linear_ts<>(4, 3));
  run_contextual("epsilon_greedy_ridge-logistic", clicks, cx::epsilon_greedy_ridge<>(4, 3));
  run_contextual("uniform_random-classification", dataset, cx::uniform_random(3, 3));
  run_contextual("laplace_ts-logistic", clicks, cx::laplace_ts<>(4, 3));
  run_contextual("laplace_ts-gaussian", linear, cx::laplace_ts<gaussian_model>(4, 3));
  run_contextual("ts_sa-bernoulli-logistic", clicks, cx::ts_sa<bernoulli_model>(4, 3));
  run_contextual("ts_sa-gaussian-gaussian", linear,
                 cx::ts_sa<>(4, 3, {.window = 3, .temperature = 0.25}, gaussian_model(0.25)));
  run_contextual("ts_sa-poisson-classification", dataset, cx::ts_sa<poisson_model>(3, 3));
  run_contextual("ts_sgld-bernoulli-logistic", clicks, cx::ts_sgld<bernoulli_model>(4, 3));
  run_contextual("ts_sgld-gaussian-gaussian", linear, cx::ts_sgld<>(4, 3));
  check("bernoulli", bernoulli_model{},
        [](double mean, default_engine& g) { return uniform01(g) < mean ? 1.0 : 0.0; });
  check("gaussian", gaussian_model(4.0),
        [](double mean, default_engine& g) { return mean + 2.0 * standard_normal(g); });
}
