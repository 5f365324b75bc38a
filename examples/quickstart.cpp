// The online loop of the README: TS-SA choosing among 5 arms of a service.
#include <sabandit/sabandit.hpp>

#include <iostream>

int main() {
  sabandit::ts_sa policy(5);         // Gaussian rewards, the paper's default parameters
  sabandit::xoshiro256pp rng(2026);  // the caller owns the engine; any std URBG works

  // Stand-in for the real world: arm a pays N(0.1 a, 1).
  const auto world = [&](Eigen::Index arm) { return 0.1 * double(arm) + sabandit::standard_normal(rng); };

  for (int t = 0; t < 5000; ++t) {
    const Eigen::Index arm = policy.select(rng);  // decide
    const double reward = world(arm);             // act, observe
    policy.update(arm, reward, rng);              // learn (throws on a bad arm or NaN)
  }
  // With the paper's SA schedule (gamma_n h ~ 0.11 / n) an estimate moves slowly once the
  // warm-up is over: see the README's "How sabandit's TS-SA compares".
  for (Eigen::Index a = 0; a < policy.num_arms(); ++a)
    std::cout << "arm " << a << ": " << policy.statistics().count(a) << " pulls, estimate "
              << policy.parameter_estimates()(0, a) << '\n';
}
