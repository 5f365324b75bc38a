// A user's program that runs the simulator: built against sabandit::sim (or -pthread and the
// include path), which the policies' target deliberately does not provide.
#include <sabandit/sim.hpp>

#include <cstdio>

int main() {
  const sabandit::paper_setting setting{.num_arms = 3, .gap = 0.5};
  const auto curve = sabandit::simulate(
      sabandit::make_sgr(setting), [&](Eigen::Index /*trial*/) { return sabandit::ucb(setting.num_arms); },
      {.horizon = 500, .trials = 4, .seed = 1, .threads = 2, .record_points = 1});
  // Uniform play would lose 0.5 per round on 2 of 3 arms: about 167 over 500 rounds.
  std::printf("sabandit %s: UCB regret %.1f after 500 rounds\n", SABANDIT_VERSION_STRING,
              curve.final_regret());
  return curve.final_regret() < 100.0 ? 0 : 1;
}
