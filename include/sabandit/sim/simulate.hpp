#pragma once
// Monte-Carlo evaluation of a policy on an environment: R independent trials of T rounds,
// reduced to the mean pseudo-regret curve with its standard error and the fraction of
// optimal pulls, at recorded rounds, with each trial's own record (its pulls, its regret at
// T/2 and T, optionally its regret curve). A std::stop_token stops a run within a round.
//
// Reproducibility: trial r draws the policy's randomness from stream (seed, r, policy) and arm
// a's rewards from stream (seed, r, arm_rewards + a), so the k-th pull of arm a in trial r is
// the same reward whichever policy pulls it (common random numbers: policy comparisons are
// paired), and the output is identical for any number of threads.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/detail/checked.hpp"
#include "sabandit/detail/compiler.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/random/streams.hpp"
#include "sabandit/sim/held_rewards.hpp"
#include "sabandit/sim/parallel.hpp"

namespace sabandit {

/// How long, how often and from which seed simulate() runs; an aggregate for designated
/// initialisers. The thread count never changes the result, only the wall time.
struct run_config {
  Eigen::Index horizon = 10'000;  ///< T >= 1 rounds per trial
  Eigen::Index trials = 50;       ///< R >= 1
  std::uint64_t seed = 1;         ///< experiment seed
  unsigned threads = 0;           ///< 0: one per hardware thread
  Eigen::Index record_points = 100;  ///< evenly spaced recorded rounds (the last is T)
  /// Evenly spaced rounds of each trial's own regret curve (trial_record::curve); 0: none.
  Eigen::Index trial_points = 0;
  /// B >= 1: the policy learns the rewards of rounds (k-1)B+1..kB only after it has selected
  /// the arm of round kB, in round order (the last batch ends at T): a service that updates
  /// its policy every B requests, or whose rewards arrive that late. 1: every reward before the
  /// next selection, the paper's protocol. Regret and pulls count each round as it is played.
  Eigen::Index feedback_batch = 1;
  /// Checked at every round of every trial: once stop is requested, simulate() throws
  /// simulation_stopped within a round of each worker (a default token never stops).
  std::stop_token stop{};
};

/// What simulate() throws when run_config::stop is requested; no result is returned.
struct simulation_stopped : std::runtime_error {
  simulation_stopped() : std::runtime_error("sabandit: simulate(): stop requested") {}
};

/// One trial's own record: what the mean curve averages away. Whether a trial keeps learning
/// shows in its second half: a consistent policy has E[R(T) - R(T/2)] -> C log 2 (Lai and
/// Robbins' constant C), a stuck one grows by up to the gap per round.
struct trial_record {
  std::vector<Eigen::Index> pulls;  ///< pulls of each arm over the T rounds (K counts)
  double regret = 0.0;              ///< cumulative pseudo-regret at T
  double regret_half = 0.0;         ///< cumulative pseudo-regret at floor(T/2)
  Eigen::Index optimal_late = 0;    ///< pulls of an optimal arm in rounds floor(T/2)+1..T
  std::vector<double> curve;        ///< cumulative regret at regret_curve::trial_rounds
};

/// What simulate() returns: the regret curve averaged over trials, at the recorded rounds, and
/// each trial's final regret (so that two policies run on the same seed can be compared pair
/// by pair).
struct regret_curve {
  std::vector<Eigen::Index> rounds;      ///< recorded rounds, increasing, last = T
  std::vector<double> mean_regret;       ///< mean cumulative pseudo-regret over trials
  std::vector<double> standard_error;    ///< its standard error, sd / sqrt(R)
  std::vector<double> optimal_fraction;  ///< mean fraction of optimal pulls up to the round
  Eigen::Index trials = 0;               ///< R, the number of trials averaged
  /// Every trial's final cumulative regret, in trial order (for paired comparisons).
  std::vector<double> final_regrets;
  /// Every trial's record, in trial order.
  std::vector<trial_record> per_trial;
  /// The rounds of each trial_record::curve (run_config::trial_points of them; empty if 0).
  std::vector<Eigen::Index> trial_rounds;

  /// Mean cumulative regret at T, the figure the paper's tables report.
  [[nodiscard]] double final_regret() const { return mean_regret.back(); }
  /// Its standard error over the R trials.
  [[nodiscard]] double final_standard_error() const { return standard_error.back(); }
};

namespace detail {

/// The result holds two points x trials matrices and a few vectors of points: checked before
/// allocating (std::length_error beyond bounds::state_doubles). `what` names the caller.
/// Saturating: a count past Eigen::Index is as "too big" as one past the bound, and the message
/// shows the sizes asked for.
inline void require_result_size(std::string_view what, Eigen::Index points, Eigen::Index trials) {
  const Eigen::Index per_point =
      saturating_add<Eigen::Index>(saturating_mul<Eigen::Index>(2, trials), 4);
  require_state_size(std::string(what) + "'s results (recorded rounds x trials, trials = " +
                         std::to_string(trials) + ")",
                     points, per_point, trials, "recorded points");
}

/// The rewards a trial holds back (held_rewards): min(B, T) rounds of three words and a
/// context of `context_size` each, per worker thread, checked before any is allocated.
inline void require_held_size(const run_config& c, Eigen::Index context_size) {
  require_state_size("a trial's held rewards (min(feedback_batch, horizon) rounds of " +
                         std::to_string(context_size) + " context values and 3 words)",
                     std::min(c.feedback_batch, c.horizon),
                     saturating_add<Eigen::Index>(context_size, 3), 0, "held rounds");
}

inline void validate(const run_config& c) {
  require_at_least<Eigen::Index>("horizon (T)", c.horizon, 1);
  require_at_least<Eigen::Index>("trials (R)", c.trials, 1);
  require_at_least<Eigen::Index>("record_points", c.record_points, 1);
  require_at_least<Eigen::Index>("trial_points", c.trial_points, 0);
  require_at_least<Eigen::Index>("feedback_batch", c.feedback_batch, 1);
  if (c.threads > bounds::threads)
    throw_invalid("threads", static_cast<Eigen::Index>(c.threads),
                  "must be at most " + std::to_string(bounds::threads) +
                      " (sabandit::bounds::threads; 0: one per hardware thread)");
  require_result_size("simulate()", std::min(c.record_points, c.horizon), c.trials);
  require_state_size("simulate()'s trial curves (trial_points x trials, trials = " +
                         std::to_string(c.trials) + ")",
                     std::min(c.trial_points, c.horizon), c.trials, 0, "recorded points");
  require_held_size(c, 0);
}

/// simulate()'s per-trial records (trial_record): K pull counts, the trial's curve and about
/// nine words of its own for each trial, checked once K is known, before allocating. Without
/// it, 7e8 trials passed validate() and ended in std::bad_alloc (a probe's finding).
inline void require_trial_records_size(const run_config& c, Eigen::Index num_arms) {
  const Eigen::Index per_trial = saturating_add<Eigen::Index>(
      saturating_add<Eigen::Index>(num_arms, std::min(c.trial_points, c.horizon)), 9);
  require_state_size("simulate()'s per-trial records (K = " + std::to_string(num_arms) +
                         " pulls, trial_points and 9 words each)",
                     c.trials, per_trial, 0, "trials");
}

}  // namespace detail


/// The rounds simulate() records for P = `points`: ceil(k T / P) for k = 1..P, without
/// duplicates, and without overflow: k T is split as k (T / P) P + k (T % P), and at most T
/// points are kept (more would only repeat rounds). Throws std::invalid_argument naming
/// `horizon` or `points` if either is < 1 (0 divided by zero).
[[nodiscard]] inline std::vector<Eigen::Index> recorded_rounds(Eigen::Index horizon, Eigen::Index points) {
  detail::require_at_least<Eigen::Index>("horizon", horizon, 1);
  detail::require_at_least<Eigen::Index>("points", points, 1);
  points = std::min(points, horizon);
  detail::require_state_size("the recorded rounds", points, 1, 0, "recorded points");
  const Eigen::Index quotient = horizon / points;
  const Eigen::Index remainder = horizon % points;
  std::vector<Eigen::Index> rounds;
  rounds.reserve(static_cast<std::size_t>(points));
  for (Eigen::Index k = 1; k <= points; ++k) {
    // k <= P <= 2^31 and T % P < P, so k (T % P) < 2^62 and k (T / P) <= T: no overflow.
    const Eigen::Index round =
        k * quotient + detail::ceil_div(detail::checked_mul(k, remainder, "recorded round"), points);
    if (round >= 1 && (rounds.empty() || round > rounds.back())) rounds.push_back(round);
  }
  return rounds;
}

namespace detail {

using sabandit::recorded_rounds;

/// simulate()'s answer to a policy that selects an arm outside [0, K).
[[noreturn]] inline void throw_bad_arm(Eigen::Index trial, Eigen::Index round, Eigen::Index arm,
                                       Eigen::Index num_arms) {
  throw std::out_of_range("sabandit: simulate(): in trial " + std::to_string(trial) +
                          ", round " + std::to_string(round) + ", policy.select() returned arm " +
                          std::to_string(arm) + ", outside [0, " + std::to_string(num_arms) +
                          ") (env.num_arms())");
}

/// Runs `update()`, the policy learning `reward` of `arm` in round `round` of `trial`; a
/// std::invalid_argument or std::domain_error it throws (a reward outside the model's support:
/// a Poisson environment under a Bernoulli policy; a diverging chain) is thrown again, of the
/// same standard type, with the trial, round, arm and reward in front of its message, which
/// alone named only the reward. Other exceptions, subclasses of those two included (a user's
/// own error type), pass unchanged, so that a catch of their type still matches.
template <class Update>
void update_in_round(Eigen::Index trial, Eigen::Index round, Eigen::Index arm, double reward,
                     Update&& update) {
  const auto where = [&](const std::exception& e) {
    return "sabandit: simulate(): in trial " + std::to_string(trial) + ", round " +
           std::to_string(round) + ", policy.update(arm " + std::to_string(arm) + ", reward " +
           value_text(reward) + "): " + reason_of(e);
  };
  try {
    update();
  } catch (const std::invalid_argument& e) {
    if (typeid(e) != typeid(std::invalid_argument)) throw;
    throw std::invalid_argument(where(e));
  } catch (const std::domain_error& e) {
    if (typeid(e) != typeid(std::domain_error)) throw;
    throw std::domain_error(where(e));
  }
}

/// Throws std::invalid_argument unless the policy has the environment's number of arms.
inline void require_same_arms(Eigen::Index policy_arms, Eigen::Index env_arms) {
  if (policy_arms != env_arms) {
    throw_invalid("policy.num_arms()", policy_arms,
                  "must equal env.num_arms() = " + std::to_string(env_arms));
  }
}

/// Trial r's reward streams, arm a's on (seed, r, arm_rewards + a): common random numbers.
inline std::vector<default_engine> arm_streams(std::uint64_t seed, std::uint64_t trial,
                                               Eigen::Index num_arms) {
  std::vector<default_engine> gens;
  gens.reserve(static_cast<std::size_t>(num_arms));
  for (Eigen::Index a = 0; a < num_arms; ++a) {
    gens.push_back(make_stream(seed, trial, stream_role::arm_rewards + static_cast<std::uint64_t>(a)));
  }
  return gens;
}

/// Fills `curve`'s means over trials from per-trial results (points x trials, a column per
/// trial): the mean regret, its standard error sd / sqrt(R), the mean optimal fraction and the
/// final regrets. Shared by simulate() and contextual::simulate().
inline void summarise(const Eigen::MatrixXd& regret, const Eigen::MatrixXd& optimal,
                      regret_curve& curve) {
  const Eigen::Index points = regret.rows();
  const Eigen::Index count = regret.cols();
  const auto trials = static_cast<double>(count);
  curve.mean_regret.resize(static_cast<std::size_t>(points));
  curve.standard_error.resize(static_cast<std::size_t>(points));
  curve.optimal_fraction.resize(static_cast<std::size_t>(points));
  for (Eigen::Index p = 0; p < points; ++p) {
    const auto i = static_cast<std::size_t>(p);
    const double mean = regret.row(p).mean();
    const double sum_sq = (regret.row(p).array() - mean).square().sum();
    curve.mean_regret[i] = mean;
    curve.standard_error[i] = count > 1 ? std::sqrt(sum_sq / (trials - 1.0) / trials) : 0.0;
    curve.optimal_fraction[i] = optimal.row(p).mean();
  }
  const Eigen::VectorXd finals = regret.row(points - 1).transpose();
  curve.final_regrets.assign(finals.data(), finals.data() + finals.size());
}

}  // namespace detail

/// Does nothing: the default progress hook.
struct no_progress {
  /// Called after each trial; empty, so a run without a progress display pays nothing.
  void operator()() const noexcept {}
};

/// Runs `make_policy(trial)` (a callable returning a fresh Policy) on copies of `env`.
/// The result has the mean curve and every trial's record (trial_record).
///
/// Cancellation: once `config.stop` is requested, every trial stops at its next round and
/// simulate() throws simulation_stopped (a progress hook may request it, or a signal handler
/// through a std::stop_source with no stop_callback registered).
///
/// Errors: every arm a policy selects is checked before it is used; an arm outside
/// [0, env.num_arms()) throws std::out_of_range naming the trial, the round and the arm, and a
/// policy's std::invalid_argument or std::domain_error from update (a reward outside its
/// model's support; not a subclass) gets the trial, round, arm and reward in front
/// (detail::update_in_round). The
/// first trial to throw (any exception: a bad arm, the policy's or the environment's own) stops
/// every other trial within a round, and simulate() rethrows that exception once all worker
/// threads have finished (when several trials throw before they stop, the one of the lowest
/// trial index).
///
/// Threads (config.threads workers, the calling thread among them):
///  - `make_policy(trial)` is called on the worker threads, concurrently for distinct trials:
///    it must be safe to call from several threads at once (a function of the trial index and
///    of state it only reads; a factory that counts or caches in shared state must
///    synchronise it);
///  - `env` is copied once per trial on the worker threads, concurrently: its copy constructor
///    must only read the original (no shared mutable state behind pointers). Each copy's
///    `pull()` is called by one thread only; `num_arms()` and `mean()` are called on `env`
///    itself, on the calling thread, before any worker starts;
///  - each trial's policy is used by one thread only, as policies require;
///  - `on_trial_done()` is called once per finished trial, concurrently: it must be
///    thread-safe (a progress bar counting with an atomic, say).
/// `tests/unit/sim_test.cpp` runs under ThreadSanitizer in CI (scripts/test, step "tsan").
template <class Env, class PolicyFactory, class Progress = no_progress>
  requires Environment<Env> && Policy<std::invoke_result_t<PolicyFactory&, Eigen::Index>> &&
           std::invocable<Progress&>
[[nodiscard]] regret_curve simulate(const Env& env, PolicyFactory make_policy,
                                    const run_config& config, Progress on_trial_done = {}) {
  detail::validate(config);
  const Eigen::Index num_arms = env.num_arms();
  detail::require_trial_records_size(config, num_arms);
  Eigen::ArrayXd gaps(num_arms);
  for (Eigen::Index a = 0; a < num_arms; ++a) gaps(a) = env.mean(a);
  gaps = gaps.maxCoeff() - gaps;

  regret_curve curve;
  curve.rounds = detail::recorded_rounds(config.horizon, config.record_points);
  curve.trials = config.trials;
  if (config.trial_points > 0) curve.trial_rounds = recorded_rounds(config.horizon, config.trial_points);
  curve.per_trial.resize(static_cast<std::size_t>(config.trials));
  const auto points = static_cast<Eigen::Index>(curve.rounds.size());
  Eigen::MatrixXd regret(points, config.trials);   // column = trial: written by one thread
  Eigen::MatrixXd optimal(points, config.trials);

  parallel_for(static_cast<std::size_t>(config.trials), config.threads,
               [&](std::size_t r, const std::atomic<bool>& stop) {
    const auto trial = static_cast<Eigen::Index>(r);
    Env trial_env = env;
    auto policy = make_policy(trial);
    detail::require_same_arms(policy.num_arms(), num_arms);
    auto policy_gen = make_stream(config.seed, r, stream_role::policy);
    auto arm_gens = detail::arm_streams(config.seed, r, num_arms);
    auto& record = curve.per_trial[r];
    record.pulls.assign(static_cast<std::size_t>(num_arms), 0);
    record.curve.reserve(curve.trial_rounds.size());
    Eigen::Index optimal_pulls = 0;
    Eigen::Index next = 0;
    std::size_t next_trial_point = 0;
    const Eigen::Index half = config.horizon / 2;
    detail::held_rewards held(config.feedback_batch, config.horizon);
    for (Eigen::Index t = 1; t <= config.horizon; ++t) {
      if (stop.load(std::memory_order_relaxed)) return;  // another trial failed
      if (config.stop.stop_requested()) throw simulation_stopped();
      const Eigen::Index arm = policy.select(policy_gen);
      if (arm < 0 || arm >= num_arms) detail::throw_bad_arm(trial, t, arm, num_arms);
      const double reward = trial_env.pull(arm, arm_gens[static_cast<std::size_t>(arm)]);
      if (config.feedback_batch == 1) {  // the paper's protocol: no buffer on its hot path
        detail::update_in_round(trial, t, arm, reward, [&] {
          policy.update(arm, reward, policy_gen);  // a rejected reward is not counted below
        });
      } else {
        held.hold(t, arm, reward);
        held.release_if_due(t, config.horizon, [&](Eigen::Index round, Eigen::Index a,
                                                    double learnt, Eigen::Index) {
          detail::update_in_round(trial, round, a, learnt,
                                  [&] { policy.update(a, learnt, policy_gen); });
        });
      }
      ++record.pulls[static_cast<std::size_t>(arm)];
      record.regret += gaps(arm);
      if (gaps(arm) == 0.0) {
        ++optimal_pulls;
        record.optimal_late += t > half ? 1 : 0;
      }
      if (t == half) record.regret_half = record.regret;
      if (t == curve.rounds[static_cast<std::size_t>(next)]) {
        regret(next, trial) = record.regret;
        optimal(next, trial) = static_cast<double>(optimal_pulls) / static_cast<double>(t);
        ++next;
      }
      if (next_trial_point < curve.trial_rounds.size() && t == curve.trial_rounds[next_trial_point]) {
        record.curve.push_back(record.regret);
        ++next_trial_point;
      }
    }
    on_trial_done();
  });

  detail::summarise(regret, optimal, curve);
  return curve;
}

}  // namespace sabandit
