// A reward model of your own: exponential rewards (waiting times, say) with a log link, written
// in exponential_model.hpp (about 20 lines: mean, log-likelihood and its gradient; the
// divergence is optional, for KL-UCB). The policies decide on <phi_a, theta_a>, which is right
// only if the mean increases with it: check_model tests that, with the gradient, concavity,
// information and support, before the model is run with TS-SA and TS-SGLD.
#include <sabandit/sabandit.hpp>
#include <sabandit/sim.hpp>

#include "command_line.hpp"
#include "exponential_model.hpp"

#include <cmath>
#include <cstdio>

using examples::exponential_arm;
using examples::exponential_model;

int main(int argc, char** argv) {
  if (const auto status = examples::answer_help_and_version(
          argc, argv, "custom_reward_model",
          "A user-defined reward model (exponential rewards, log link): check_model's report,\n"
          "then regret with TS-SA and TS-SGLD."))
    return *status;
  // First, what the compiler cannot check: rewards drawn by the arm type below, at the model's
  // own means, must agree with its likelihood, gradient and link (models/check_model.hpp).
  const auto report = sabandit::check_model(
      exponential_model{},
      [](double mean, sabandit::default_engine& gen) { return exponential_arm{mean}(gen); });
  std::printf("%s", report.to_string().c_str());
  if (!report.ok()) return 1;

  // Five arms with mean waiting-time rewards 1.0, 1.2, ..., 1.8 (the last is best).
  std::vector<exponential_arm> arms;
  for (int a = 0; a < 5; ++a) arms.push_back({1.0 + 0.2 * a});
  const sabandit::bandit_env env(arms);
  const auto features = sabandit::unit_features(5);
  const sabandit::run_config config{.horizon = 5'000, .trials = 20, .seed = 1};

  const auto sa = sabandit::simulate(env, [&](Eigen::Index) {
    return sabandit::ts_sa<exponential_model>(features, {}, exponential_model{});
  }, config);
  const auto sgld = sabandit::simulate(env, [&](Eigen::Index) {
    return sabandit::ts_sgld<exponential_model>(features, {}, exponential_model{});
  }, config);
  std::printf("regret after %ld rounds (%ld trials): TS-SA %.1f +- %.1f, TS-SGLD %.1f +- %.1f\n"
              "(uniform play would pay %.0f)\n",
              static_cast<long>(config.horizon), static_cast<long>(config.trials),
              sa.final_regret(), sa.final_standard_error(), sgld.final_regret(),
              sgld.final_standard_error(), 0.4 * static_cast<double>(config.horizon));
}
