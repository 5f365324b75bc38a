#pragma once
// The tests on each trial's record (sabandit::trial_record) that the study and problems jobs
// report: linear regret, a starved best arm, the worst and the median trial.
#include <algorithm>
#include <vector>

#include <sabandit/sim.hpp>

#include "reproduce_paper/cancel.hpp"

namespace repro {

/// A simulation with every trial's record, and what its tests measure against.
struct tracked_run {
  sabandit::regret_curve curve;  ///< per_trial: the records; trial_rounds: their curves' rounds
  Eigen::Index arms = 0;
  double gap = 0.0;  ///< the smallest positive gap

  [[nodiscard]] Eigen::Index horizon() const { return curve.rounds.back(); }
  /// "Regret grows linearly": over rounds T/2..T the trial's regret grows by at least half the
  /// gap per round, i.e. an optimal arm gets at most half of the late pulls (equal gaps). A
  /// learning policy's late slope falls towards 0 (its regret is O(log T)).
  [[nodiscard]] bool linear(const sabandit::trial_record& t) const {
    return t.regret - t.regret_half >= 0.5 * gap * static_cast<double>(horizon() - horizon() / 2);
  }
  /// "Starved": an optimal arm gets at most its uniform share 1/K of the late pulls, so the
  /// trial has learned nothing of it: the frozen iterate of a bad warm-up estimate.
  [[nodiscard]] bool starved(const sabandit::trial_record& t) const {
    return t.optimal_late * arms <= horizon() - horizon() / 2;
  }
  [[nodiscard]] int count(bool (tracked_run::*test)(const sabandit::trial_record&) const) const {
    return static_cast<int>(std::count_if(curve.per_trial.begin(), curve.per_trial.end(),
                                          [&](const auto& t) { return (this->*test)(t); }));
  }
  [[nodiscard]] double worst() const {
    return *std::max_element(curve.final_regrets.begin(), curve.final_regrets.end());
  }
  [[nodiscard]] double median() const {
    auto r = curve.final_regrets;
    std::sort(r.begin(), r.end());
    const std::size_t n = r.size();
    return n % 2 ? r[n / 2] : 0.5 * (r[n / 2 - 1] + r[n / 2]);
  }
};

/// Simulates `make()` on `env` (stopped by a signal, as every job is) with each trial's curve at
/// `points` rounds; `gap` is the one tracked_run::linear measures the late slope against.
template <class Env, class Make, class Hook>
tracked_run run_tracked(const Env& env, double gap, Make make, sabandit::run_config config, Hook hook,
                        Eigen::Index points) {
  config.trial_points = points;
  return {simulate_cancellable(env, [&](Eigen::Index) { return make(); }, config, hook), env.num_arms(), gap};
}

}  // namespace repro
