// Final regret (mean +- standard error over 50 trials) of the five policies on the paper's SGR
// and MGR settings with K = 10, Delta = 0.5, T = 10,000: the table in the README.
#include <sabandit/sabandit.hpp>

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

int main() {
  using namespace sabandit;
  constexpr Eigen::Index K = 10;
  const run_config config{.horizon = 10'000, .trials = 50, .seed = 2026, .record_points = 1};
  struct entry {
    std::string name;
    std::function<regret_curve(const paper_setting&, bool mixture)> run;
  };
  const auto runner = [&](auto make) {
    return [&, make](const paper_setting& s, bool mixture) {
      return mixture ? simulate(make_mgr(s), make, config) : simulate(make_sgr(s), make, config);
    };
  };
  const std::vector<entry> policies = {
      {"UCB", runner([](Eigen::Index) { return ucb(K); })},
      {"TS", runner([](Eigen::Index) { return gaussian_ts(K); })},
      {"eps-TS", runner([](Eigen::Index) { return epsilon_ts(K); })},
      {"TS-SGLD", runner([](Eigen::Index) { return ts_sgld<>(K); })},
      {"TS-SA", runner([](Eigen::Index) { return ts_sa<>(K); })},
  };
  const paper_setting setting{.num_arms = K, .gap = 0.5};
  const auto start = std::chrono::steady_clock::now();
  std::printf("| policy | SGR, K = 10, Delta = 0.5 | MGR, K = 10, Delta = 0.5 |\n|---|---|---|\n");
  for (const auto& p : policies) {
    const auto sgr = p.run(setting, false);
    const auto mgr = p.run(setting, true);
    std::printf("| %s | %.1f +- %.1f | %.1f +- %.1f |\n", p.name.c_str(), sgr.final_regret(),
                sgr.final_standard_error(), mgr.final_regret(), mgr.final_standard_error());
  }
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
  std::printf("\nT = %lld, %lld trials, seed %llu, default parameters; %.2f s wall\n",
              static_cast<long long>(config.horizon), static_cast<long long>(config.trials),
              static_cast<unsigned long long>(config.seed), wall.count());
}
