#pragma once
// Monte-Carlo evaluation of a contextual policy: R independent trials of T rounds on copies of
// a ContextualEnvironment, with each trial's cumulative pseudo-regret at the recorded rounds
// and its wall time.
//
// Reproducibility, as sim/simulate.hpp: trial r draws its contexts from stream
// (seed, r, environment) (for a classification_env, its permutation of the rows), the policy's
// randomness from (seed, r, policy) and arm a's rewards from (seed, r, arm_rewards + a). Every
// policy run with the same seed sees the same contexts in every trial (paired comparisons),
// and the output, wall times aside, is identical for any number of threads.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "sabandit/contextual/concepts.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/random/streams.hpp"
#include "sabandit/sim/held_rewards.hpp"
#include "sabandit/sim/parallel.hpp"
#include "sabandit/sim/simulate.hpp"

namespace sabandit::contextual {

/// What contextual::simulate() returns.
struct run_result {
  /// The mean over trials at the recorded rounds (with standard errors and each trial's final
  /// regret); its optimal_fraction is the fraction of rounds whose arm had the best mean.
  regret_curve curve;
  /// Every trial's cumulative regret at curve.rounds: points x trials, a column per trial.
  Eigen::MatrixXd trial_regret;
  /// Every trial's pulls of each arm over the T rounds: K x trials, a column per trial (each
  /// column sums to T), as sabandit::simulate's trial_record::pulls. The policies themselves
  /// need not count pulls (a shared feature map has no per-arm block to count them in).
  Eigen::Matrix<Eigen::Index, Eigen::Dynamic, Eigen::Dynamic> trial_pulls;
  /// Each trial's wall time in seconds: the policy's select and update and the environment's
  /// next_context and pull, T rounds. The only output that depends on the machine.
  std::vector<double> trial_seconds;

  /// The index of `round` in curve.rounds; throws std::invalid_argument when it was not recorded.
  [[nodiscard]] Eigen::Index point_of(Eigen::Index round) const {
    const auto it = std::find(curve.rounds.begin(), curve.rounds.end(), round);
    if (it == curve.rounds.end()) {
      detail::throw_invalid("round", round, "was not recorded (contextual::simulate's also_record)");
    }
    return static_cast<Eigen::Index>(it - curve.rounds.begin());
  }
  /// Mean wall time per round over all trials, in nanoseconds.
  [[nodiscard]] double ns_per_round() const {
    double total = 0.0;
    for (const double s : trial_seconds) total += s;
    const auto rounds = static_cast<double>(curve.rounds.back()) * static_cast<double>(trial_seconds.size());
    return 1e9 * total / rounds;
  }
};

}  // namespace sabandit::contextual

// In sabandit::detail, not a contextual::detail that a `using namespace` of both would make
// ambiguous.
namespace sabandit::detail {

/// The recorded rounds: sim's evenly spaced ones (record_points of them) and `also`, merged,
/// increasing, without duplicates. Throws std::invalid_argument for a round outside [1, T].
inline std::vector<Eigen::Index> contextual_rounds(const run_config& config,
                                                   const std::vector<Eigen::Index>& also) {
  auto rounds = recorded_rounds(config.horizon, config.record_points);
  for (const Eigen::Index round : also) {
    if (round < 1 || round > config.horizon) {
      throw_invalid("also_record round", round,
                                      "must be in [1, horizon = " + std::to_string(config.horizon) + "]");
    }
    rounds.push_back(round);
  }
  std::sort(rounds.begin(), rounds.end());
  rounds.erase(std::unique(rounds.begin(), rounds.end()), rounds.end());
  return rounds;
}

}  // namespace sabandit::detail

namespace sabandit::contextual {

/// Runs `make_policy(trial)` (a callable returning a fresh ContextualPolicy) on copies of
/// `env`, T = config.horizon rounds per trial: each round the environment draws a context, the
/// policy selects an arm, the environment pulls it and the policy learns the reward. The
/// round's pseudo-regret is max_a env.mean(a) - env.mean(arm) at that context (for a
/// classification_env, 1 per mistake). `also_record` adds rounds (T/10, say) to the evenly
/// spaced ones.
///
/// Cancellation as sabandit::simulate(): once `config.stop` is requested, every trial stops at
/// its next round and simulate() throws simulation_stopped. With config.feedback_batch = B > 1
/// the policy learns each batch of B rounds' rewards, at their contexts, after the batch's last
/// selection, as sabandit::simulate().
///
/// Errors and threads as sabandit::simulate(): an arm outside [0, K) throws std::out_of_range
/// naming the trial and round; a policy whose num_arms() or context_size() differs from the
/// environment's throws std::invalid_argument; the first trial to throw stops the others and
/// its exception is rethrown. `env` is copied once per trial on the worker threads (its copy
/// constructor must only read it), `make_policy` is called concurrently for distinct trials,
/// and `on_trial_done()` once per finished trial, concurrently.
template <class Env, class PolicyFactory, class Progress = no_progress>
  requires ContextualEnvironment<Env> &&
           ContextualPolicy<std::invoke_result_t<PolicyFactory&, Eigen::Index>> &&
           std::invocable<Progress&>
[[nodiscard]] run_result simulate(const Env& env, PolicyFactory make_policy, const run_config& config,
                                  const std::vector<Eigen::Index>& also_record = {},
                                  Progress on_trial_done = {}) {
  sabandit::detail::validate(config);
  const Eigen::Index num_arms = env.num_arms();
  const Eigen::Index context_size = env.context_size();
  // A trial makes one reward engine per arm (detail::arm_streams): bounded before any is made,
  // as simulate() bounds its per-trial records. K = 2^34 gave std::bad_alloc and K = 2^62
  // vector::reserve's length_error, naming nothing (a probe's finding).
  sabandit::detail::require_state_size("contextual::simulate()'s reward engines of a trial",
                                       num_arms, sizeof(default_engine) / sizeof(double));
  sabandit::detail::require_held_size(config, context_size);

  run_result result;
  result.curve.rounds = sabandit::detail::contextual_rounds(config, also_record);
  result.curve.trials = config.trials;
  const auto points = static_cast<Eigen::Index>(result.curve.rounds.size());
  // also_record adds rounds past record_points, which validate() bounded alone.
  sabandit::detail::require_result_size("contextual::simulate()", points, config.trials);
  sabandit::detail::require_state_size(  // before anything is allocated
      "contextual::simulate()'s pull counts (K x trials, trials = " + std::to_string(config.trials) + ")",
      num_arms, config.trials);
  result.trial_regret.resize(points, config.trials);  // column = trial: written by one thread
  result.trial_pulls.setZero(num_arms, config.trials);  // a column per trial, stored when it ends
  Eigen::MatrixXd optimal(points, config.trials);
  result.trial_seconds.assign(static_cast<std::size_t>(config.trials), 0.0);
  const auto& rounds = result.curve.rounds;

  parallel_for(static_cast<std::size_t>(config.trials), config.threads,
               [&](std::size_t r, const std::atomic<bool>& stop) {
    const auto trial = static_cast<Eigen::Index>(r);
    Env trial_env = env;
    auto policy = make_policy(trial);
    sabandit::detail::require_same_arms(policy.num_arms(), num_arms);
    if (policy.context_size() != context_size) {
      sabandit::detail::throw_invalid("policy.context_size()", policy.context_size(),
                                      "must equal env.context_size() = " + std::to_string(context_size));
    }
    auto context_gen = make_stream(config.seed, r, stream_role::environment);
    auto policy_gen = make_stream(config.seed, r, stream_role::policy);
    auto arm_gens = sabandit::detail::arm_streams(config.seed, r, num_arms);
    double cumulative_regret = 0.0;
    Eigen::Index optimal_rounds = 0;
    // Counted here and stored when the trial ends: neighbouring trials' columns share cache lines.
    Eigen::Matrix<Eigen::Index, Eigen::Dynamic, 1> pulls(num_arms);
    pulls.setZero();
    std::size_t next = 0;
    sabandit::detail::held_rewards held(config.feedback_batch, config.horizon, context_size);
    const auto start = std::chrono::steady_clock::now();
    for (Eigen::Index t = 1; t <= config.horizon; ++t) {
      if (stop.load(std::memory_order_relaxed)) return;  // another trial failed
      if (config.stop.stop_requested()) throw simulation_stopped();
      const auto x = trial_env.next_context(context_gen);
      const Eigen::Index arm = policy.select(x, policy_gen);
      if (arm < 0 || arm >= num_arms) sabandit::detail::throw_bad_arm(trial, t, arm, num_arms);
      ++pulls(arm);
      double best = trial_env.mean(0);
      for (Eigen::Index a = 1; a < num_arms; ++a) best = std::max(best, static_cast<double>(trial_env.mean(a)));
      const double gap = best - trial_env.mean(arm);
      const double reward = trial_env.pull(arm, arm_gens[static_cast<std::size_t>(arm)]);
      if (config.feedback_batch == 1) {  // no copy of the context
        sabandit::detail::update_in_round(trial, t, arm, reward,
                                          [&] { policy.update(x, arm, reward, policy_gen); });
      } else {
        held.hold(t, arm, reward, x);
        held.release_if_due(t, config.horizon, [&](Eigen::Index round, Eigen::Index a,
                                                    double learnt, Eigen::Index k) {
          sabandit::detail::update_in_round(trial, round, a, learnt, [&] {
            policy.update(held.context(k), a, learnt, policy_gen);
          });
        });
      }
      cumulative_regret += gap;
      optimal_rounds += gap == 0.0 ? 1 : 0;
      if (t == rounds[next]) {
        result.trial_regret(static_cast<Eigen::Index>(next), trial) = cumulative_regret;
        optimal(static_cast<Eigen::Index>(next), trial) =
            static_cast<double>(optimal_rounds) / static_cast<double>(t);
        ++next;
      }
    }
    result.trial_seconds[r] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.trial_pulls.col(trial) = pulls;
    on_trial_done();
  });

  sabandit::detail::summarise(result.trial_regret, optimal, result.curve);
  return result;
}

}  // namespace sabandit::contextual
