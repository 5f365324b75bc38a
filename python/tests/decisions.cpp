// Prints the decisions of C++ policies for fixed seeds, for test_identical.py: the Python API must
// make exactly the same decisions and the same simulate() results for the same seeds.
// Output: "<case> decisions a_1 ... a_T" then "<case> simulate r_1 ... r_R" (final regrets, %.17g);
// and "check_model-<model> worst w_1 ... w_6": check_model's worst discrepancies, check by check.
#include <sabandit/sabandit.hpp>
#include <sabandit/sim.hpp>

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
  std::printf("\n");
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
  check("bernoulli", bernoulli_model{},
        [](double mean, default_engine& g) { return uniform01(g) < mean ? 1.0 : 0.0; });
  check("gaussian", gaussian_model(4.0),
        [](double mean, default_engine& g) { return mean + 2.0 * standard_normal(g); });
}
