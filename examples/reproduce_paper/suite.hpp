#pragma once
// The five policies of the paper's Figure 1, each with the parameters the paper tunes
// ("standardized tuning", Experiments section), and the grid of settings.
#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <sabandit/sim.hpp>

namespace repro {

/// Figure 1's legend order.
inline const std::vector<std::string> policy_names = {"TS", "eps-TS", "TS-SGLD", "TS-SA", "UCB"};

/// Tunable parameters of every policy, by "POLICY.name": tau everywhere, h for the Langevin
/// policies, epsilon for eps-TS. Defaults are the library's; epsilon defaults to 1/K when absent.
class suite_params {
 public:
  suite_params() {
    for (const auto& p : policy_names) values_[p + ".tau"] = 1.0;
    values_["TS-SA.h"] = 0.532;
    values_["TS-SGLD.h"] = 0.1;
  }

  [[nodiscard]] bool has(const std::string& key) const { return values_.count(key) != 0; }
  [[nodiscard]] double get(const std::string& key) const { return values_.at(key); }
  void set(const std::string& key, double value) { values_[key] = value; }

  /// "KEY = VALUE" lines; '#' starts a comment.
  [[nodiscard]] std::string to_text() const {
    std::string text = "# sabandit reproduce_paper parameters: POLICY.PARAM = VALUE\n";
    for (const auto& [key, value] : values_) {
      char line[160];
      std::snprintf(line, sizeof line, "%s = %.10g\n", key.c_str(), value);
      text += line;
    }
    return text;
  }

  static suite_params from_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read parameter file " + path);
    suite_params params;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      line = line.substr(0, line.find('#'));
      const auto eq = line.find('=');
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      std::istringstream key_in(line.substr(0, eq)), value_in(eq == std::string::npos ? "" : line.substr(eq + 1));
      std::string key;
      double value = 0;
      if (eq == std::string::npos || !(key_in >> key) || !(value_in >> value) || !known(key)) {
        throw std::runtime_error(path + ":" + std::to_string(number) + ": expected POLICY.PARAM = VALUE with POLICY.PARAM one of TS.tau, eps-TS.tau, eps-TS.epsilon, TS-SGLD.tau, TS-SGLD.h, TS-SA.tau, TS-SA.h, UCB.tau; got '" + line + "'");
      }
      params.set(key, value);
    }
    return params;
  }

 private:
  static bool known(const std::string& key) {
    for (const auto& p : policy_names) {
      if (key == p + ".tau") return true;
    }
    return key == "TS-SA.h" || key == "TS-SGLD.h" || key == "eps-TS.epsilon";
  }
  std::map<std::string, double> values_;
};

/// One cell of the Figure 1 grid.
struct setting {
  bool mixture = false;  ///< MGR if true, SGR otherwise
  double gap = 0.5;
  Eigen::Index arms = 10;

  [[nodiscard]] std::string id() const {
    char text[64];
    std::snprintf(text, sizeof text, "%s_gap%.1f_K%lld", mixture ? "MGR" : "SGR", gap,
                  static_cast<long long>(arms));
    return text;
  }
  [[nodiscard]] std::string title() const {
    char text[64];
    std::snprintf(text, sizeof text, "%s, gap = %.1f, K = %lld", mixture ? "MGR" : "SGR", gap,
                  static_cast<long long>(arms));
    return text;
  }
};

/// The paper's Figure 1 order: rows K = 10 then 50; within a row gap 0.1 SGR, MGR, 0.5 SGR, MGR.
inline std::vector<setting> figure1_grid() {
  std::vector<setting> grid;
  for (Eigen::Index k : {10, 50})
    for (double gap : {0.1, 0.5})
      for (bool mixture : {false, true}) grid.push_back({mixture, gap, k});
  return grid;
}

/// Runs `policy` with `params` on `where`, reporting each finished trial to `on_trial`.
template <class Progress>
sabandit::regret_curve run_policy(const std::string& policy, const suite_params& params,
                                  const setting& where, const sabandit::run_config& config,
                                  Progress on_trial) {
  using namespace sabandit;
  const Eigen::Index k = where.arms;
  const auto go = [&](auto factory) {
    const paper_setting s{.num_arms = k, .gap = where.gap};
    return where.mixture ? simulate(make_mgr(s), factory, config, on_trial)
                         : simulate(make_sgr(s), factory, config, on_trial);
  };
  const double tau = params.get(policy + ".tau");
  if (policy == "UCB") return go([=](Eigen::Index) { return ucb(k, {.temperature = tau}); });
  if (policy == "TS") return go([=](Eigen::Index) { return gaussian_ts(k, {.temperature = tau}); });
  if (policy == "eps-TS") {
    epsilon_ts<>::params p{.epsilon = std::nullopt, .posterior = {.temperature = tau}};
    if (params.has("eps-TS.epsilon")) p.epsilon = params.get("eps-TS.epsilon");
    return go([=](Eigen::Index) { return epsilon_ts<>(k, p); });
  }
  if (policy == "TS-SGLD") {
    const double h = params.get("TS-SGLD.h");
    return go([=](Eigen::Index) {
      return ts_sgld<>(k, {.step_size = h, .temperature = tau});
    });
  }
  if (policy == "TS-SA") {
    const double h = params.get("TS-SA.h");
    return go([=](Eigen::Index) { return ts_sa<>(k, {.step_size = h, .temperature = tau}); });
  }
  throw std::invalid_argument("unknown policy " + policy);
}

}  // namespace repro
