#pragma once
// contextual_benchmark's policies, each with the parameter the issue tunes and the same number
// of candidate settings (the same tuning budget): one entry per policy, type-erased at the
// level of a whole run so that the job is one loop over entries.
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include <sabandit/contextual/classification_env.hpp>
#include <sabandit/contextual/policies.hpp>
#include <sabandit/contextual/simulate.hpp>
#include <sabandit/models/bernoulli.hpp>

#include "common/cancel.hpp"
#include "contextual_benchmark/uniform.hpp"

namespace repro {

/// One run of a policy setting: R trials on a data set.
using contextual_run = std::function<sabandit::contextual::run_result(
    const sabandit::contextual::classification_env& env, std::size_t setting,
    const sabandit::run_config& config, const std::vector<Eigen::Index>& also_record,
    const std::function<void()>& on_trial)>;

/// A policy of the job: its name, its candidate settings (tuned over on seeds disjoint from the
/// reported ones) and the one used untuned.
struct contextual_policy {
  std::string name;                   ///< "LinUCB": the tables' and plots' label
  std::vector<std::string> settings;  ///< "alpha = 0.1": one per candidate
  std::size_t untuned = 0;            ///< the index of the default setting (--no-tune)
  contextual_run run;
};

/// An entry whose setting i builds its policy as `make(K, d, i)`.
template <class Make>
contextual_policy policy_entry(std::string name, std::vector<std::string> settings,
                               std::size_t untuned, Make make) {
  contextual_policy entry{std::move(name), std::move(settings), untuned, {}};
  entry.run = [make](const sabandit::contextual::classification_env& env, std::size_t setting,
                     const sabandit::run_config& config, const std::vector<Eigen::Index>& also_record,
                     const std::function<void()>& on_trial) {
    const Eigen::Index k = env.num_arms();
    const Eigen::Index d = env.context_size();
    return run_cancellable(config, [&](const sabandit::run_config& c) {  // a signal stops it (cancel.hpp)
      return sabandit::contextual::simulate(
          env, [&](Eigen::Index) { return make(k, d, setting); }, c, also_record, on_trial);
    });
  };
  return entry;
}

/// An entry with one tuned parameter: setting i is `make(K, d, values[i])`, shown as
/// "<parameter> = <value>"; `untuned` must be one of the values.
template <class Make>
contextual_policy one_parameter_policy(std::string name, const std::string& parameter,
                                       std::vector<double> values, double untuned, Make make) {
  std::vector<std::string> settings;
  std::size_t untuned_index = values.size();
  for (std::size_t i = 0; i < values.size(); ++i) {
    char text[64];
    std::snprintf(text, sizeof text, "%s = %g", parameter.c_str(), values[i]);
    settings.emplace_back(text);
    if (values[i] == untuned) untuned_index = i;
  }
  if (untuned_index == values.size()) {
    throw std::logic_error(name + ": the untuned " + parameter + " is not among the candidates");
  }
  return policy_entry(std::move(name), std::move(settings), untuned_index,
                      [values = std::move(values), make](Eigen::Index k, Eigen::Index d, std::size_t i) {
                        return make(k, d, values.at(i));
                      });
}

/// Every policy of the job, in the tables' order: contextual TS-SA with the logistic model,
/// then the disjoint-arm baselines with issue 21's parametrisations, then the uniform
/// reference. Each tuned policy has five candidates, about
/// a factor 3 apart around its usual default (the same budget for all).
inline std::vector<contextual_policy> contextual_policies() {
  using namespace sabandit::contextual;
  std::vector<contextual_policy> policies;
  // The logistic policies tune the spread of their samples: Laplace TS's v (theta ~ N(m,
  // v^2 H^-1)) and the Langevin policies' temperature tau (TS-SA: theta ~ N(theta_SA, tau J^-1),
  // its one scale-free knob, h = 100 and the rest derived, include/sabandit/contextual/ts_sa.hpp;
  // TS-SGLD: the tempered posterior, its step in units of one reward's curvature), on the same
  // grid, tau = v^2.
  policies.push_back(one_parameter_policy("TS-SA", "tau", {0.0001, 0.001, 0.01, 0.1, 1}, 1,
                                          [](Eigen::Index k, Eigen::Index d, double tau) {
                                            return ts_sa<sabandit::bernoulli_model>(
                                                k, disjoint_features(d), {.temperature = tau});
                                          }));
  policies.push_back(one_parameter_policy("TS-SGLD", "tau", {0.0001, 0.001, 0.01, 0.1, 1}, 1,
                                          [](Eigen::Index k, Eigen::Index d, double tau) {
                                            return ts_sgld<sabandit::bernoulli_model>(
                                                k, disjoint_features(d), {.temperature = tau});
                                          }));
  policies.push_back(one_parameter_policy("logistic TS (Laplace)", "v", {0.01, 0.03162, 0.1, 0.3162, 1}, 1,
                                          [](Eigen::Index k, Eigen::Index d, double v) {
                                            return laplace_ts<sabandit::bernoulli_model>(
                                                k, disjoint_features(d), {.v = v});
                                          }));
  policies.push_back(one_parameter_policy("LinUCB", "alpha", {0.01, 0.03, 0.1, 0.3, 1}, 1,
                                          [](Eigen::Index k, Eigen::Index d, double alpha) {
                                            return linucb<>(k, d, {.alpha = alpha});
                                          }));
  policies.push_back(one_parameter_policy("linear TS", "v", {0.01, 0.03, 0.1, 0.3, 1}, 1,
                                          [](Eigen::Index k, Eigen::Index d, double v) {
                                            return linear_ts<>(k, d, {.v = v});
                                          }));
  policies.push_back(one_parameter_policy("eps-greedy", "eps", {0.001, 0.003, 0.01, 0.03, 0.1}, 0.1,
                                          [](Eigen::Index k, Eigen::Index d, double eps) {
                                            return epsilon_greedy_ridge<>(k, d, {.epsilon = eps});
                                          }));
  policies.push_back(policy_entry("uniform", {"(none)"}, 0, [](Eigen::Index k, Eigen::Index d, std::size_t) {
    return uniform_random_policy(k, d);
  }));
  return policies;
}

}  // namespace repro
