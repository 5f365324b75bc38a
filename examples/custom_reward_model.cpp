// A reward model of your own: exponential rewards (waiting times, say) with a log link,
//   x ~ Exponential(rate e^-eta),  E[x] = e^eta,  eta = <phi, theta>,
//   log p(x | theta) = -eta - x e^-eta   (concave in theta: the second derivative is -x e^-eta).
// The mean e^eta increases with eta, as the RewardModel concept requires, so the policies'
// argmax of <phi_a, theta_a> is the argmax of expected reward. check_model tests that, with the
// gradient, concavity and information, before the model is run with TS-SA and TS-SGLD.
#include <sabandit/sabandit.hpp>
#include <sabandit/sim.hpp>

#include "command_line.hpp"

#include <cmath>
#include <cstdio>

struct exponential_model {
  double mean(const sabandit::vector_cref& phi, const sabandit::vector_cref& theta) const {
    return std::exp(phi.dot(theta));
  }
  double log_likelihood(double x, const sabandit::vector_cref& phi,
                        const sabandit::vector_cref& theta) const {
    const double eta = phi.dot(theta);
    return -eta - x * std::exp(-eta);
  }
  /// grad (1/m) sum_i log p(x_i | theta) = phi (mean_i(x_i) e^-eta - 1).
  void grad_log_likelihood(const sabandit::vector_cref& xs, const sabandit::vector_cref& phi,
                           const sabandit::vector_cref& theta, sabandit::vector_ref grad) const {
    grad = phi * (xs.mean() * std::exp(-phi.dot(theta)) - 1.0);
  }
};
static_assert(sabandit::RewardModel<exponential_model>);

/// The environment's arms: Exponential(mean), drawn by inversion.
struct exponential_arm {
  double mean_;
  double mean() const { return mean_; }
  template <class URBG>
  double operator()(URBG& gen) const { return -mean_ * std::log1p(-sabandit::uniform01(gen)); }
};

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
