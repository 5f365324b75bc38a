// The online loop of the README: TS-SA choosing among 5 arms of a service, then what a user
// can check on screen: pulls per arm, the best arm found, and each estimate beside the true
// mean, with the reason whenever the two are further apart than the rewards explain.
#include <sabandit/sabandit.hpp>

#include "command_line.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  if (const auto status = examples::answer_help_and_version(
          argc, argv, "quickstart",
          "Runs TS-SA (its scale-free defaults) for 5,000 rounds on 5 simulated arms,\n"
          "arm a paying N(0.1 a, 1), then prints pulls per arm, the best arm found, and each\n"
          "arm's estimate beside its true mean, saying why where they differ.")) {
    return *status;
  }
  sabandit::ts_sa policy(5);         // Gaussian rewards, the scale-free defaults
  sabandit::xoshiro256pp rng(2026);  // the caller owns the engine; any std URBG works

  // Stand-in for the real world: arm a pays N(0.1 a, 1).
  const auto true_mean = [](Eigen::Index arm) { return 0.1 * double(arm); };
  const auto world = [&](Eigen::Index arm) { return true_mean(arm) + sabandit::standard_normal(rng); };
  // Only to show the user what the rewards said: all of an arm's rewards, and its first
  // `warmup` ones, whose fit is where TS-SA starts the arm's estimate (its warm start).
  std::vector<double> reward_sum(5, 0.0);
  std::vector<double> warmup_sum(5, 0.0);
  const double warmup = static_cast<double>(policy.parameters().warmup);

  constexpr int rounds = 5000;
  for (int t = 0; t < rounds; ++t) {
    const Eigen::Index arm = policy.select(rng);  // decide
    const double reward = world(arm);             // act, observe
    policy.update(arm, reward, rng);              // learn (throws on a bad arm or NaN)
    const auto index = static_cast<std::size_t>(arm);
    reward_sum[index] += reward;
    if (policy.statistics().count(arm) <= warmup) warmup_sum[index] += reward;
  }

  const Eigen::Index true_best = policy.num_arms() - 1;
  Eigen::Index found = 0;  // the arm the policy settled on: the most pulled
  for (Eigen::Index a = 1; a < policy.num_arms(); ++a)
    if (policy.statistics().count(a) > policy.statistics().count(found)) found = a;

  std::printf("TS-SA, %d rounds, 5 arms paying N(0.1 a, 1)\n\n", rounds);
  std::printf("arm  true mean  pulls  mean reward  warm-up mean  estimate\n");
  std::vector<Eigen::Index> far_off;
  for (Eigen::Index a = 0; a < policy.num_arms(); ++a) {
    const double pulls = policy.statistics().count(a);
    const double estimate = policy.parameter_estimates()(0, a);
    const double mean_reward = reward_sum[static_cast<std::size_t>(a)] / pulls;
    std::printf("%3lld  %9.2f  %5.0f  %11.2f  %12.2f  %8.2f\n", static_cast<long long>(a),
                true_mean(a), pulls, mean_reward,
                warmup_sum[static_cast<std::size_t>(a)] / std::min(pulls, warmup), estimate);
    // Two standard errors of a mean of `pulls` unit-variance rewards: closer than this, the
    // estimate agrees with the truth as well as the data can tell.
    if (std::abs(estimate - true_mean(a)) > 2.0 / std::sqrt(pulls)) far_off.push_back(a);
  }
  std::printf("\nbest arm found: arm %lld (most pulled: %.0f of %d rounds); true best: arm %lld%s\n",
              static_cast<long long>(found), policy.statistics().count(found), rounds,
              static_cast<long long>(true_best), found == true_best ? "" : " (missed)");

  for (const Eigen::Index a : far_off) {
    const double pulls = policy.statistics().count(a);
    const double mean_reward = reward_sum[static_cast<std::size_t>(a)] / pulls;
    std::printf("arm %lld: estimate %.2f, true mean %.2f: ", static_cast<long long>(a),
                policy.parameter_estimates()(0, a), true_mean(a));
    if (std::abs(mean_reward - true_mean(a)) > 2.0 / std::sqrt(pulls)) {
      std::printf("its %.0f rewards themselves average %.2f: the noise of so few draws (an arm "
                  "pulled rarely keeps a wide posterior)\n", pulls, mean_reward);
    } else {
      // The default's estimate is the running mean of the rewards plus the SA average's
      // Langevin jitter (2 / h = 2 % of the posterior variance; docs/scale-free-ts-sa.md), so
      // this line means the configuration was changed, e.g. to params::paper(), whose SA
      // schedule moves the estimate by only ~0.11/n of its error at the n-th pull.
      std::printf("its rewards average %.2f, but the estimate started at the warm-up mean "
                  "%.2f and this configuration's SA schedule has not caught up\n",
                  mean_reward, warmup_sum[static_cast<std::size_t>(a)] / std::min(pulls, warmup));
    }
  }
  if (far_off.empty()) std::printf("every estimate is within two standard errors of its true mean\n");
}
