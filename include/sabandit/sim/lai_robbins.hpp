#pragma once
// The Lai–Robbins lower bound on regret (Lai & Robbins 1985): what no uniformly good policy
// beats asymptotically, against which a simulated regret curve is read.
#include <algorithm>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"

namespace sabandit {

/// C = sum over suboptimal arms a of gap_a / KL(mu_a, mu*), the KL divergence between the arms'
/// reward distributions under `model`: any uniformly good policy has regret at least
/// (1 - o(1)) C log t. `env` needs mean(a) and num_arms() (Environment).
template <DivergenceRewardModel Model, Environment Env>
[[nodiscard]] double lai_robbins_constant(const Model& model, const Env& env) {
  double best = env.mean(0);
  for (Eigen::Index a = 1; a < env.num_arms(); ++a) best = std::max(best, env.mean(a));
  double constant = 0.0;
  for (Eigen::Index a = 0; a < env.num_arms(); ++a) {
    if (const double gap = best - env.mean(a); gap > 0.0) constant += gap / model.divergence(env.mean(a), best);
  }
  return constant;
}

}  // namespace sabandit
