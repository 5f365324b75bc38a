#pragma once
// What a regret curve averages away: each trial's regret at T/2 and T, its late pulls of an
// optimal arm and its own curve, recorded by a pass-through policy wrapper; and the tests on
// them that the study and problems jobs report (linear regret, starved best arm, worst trial).
#include <algorithm>
#include <vector>

#include <Eigen/Core>

#include <sabandit/sim.hpp>

#include "reproduce_paper/suite.hpp"

namespace repro {

/// What a regret curve averages away: one trial's regret at T/2 and T, its pulls of an optimal
/// arm in the second half, and its regret at P evenly spaced rounds (for the per-trial plot).
struct trial_facts {
  double regret_half = 0.0;
  double regret = 0.0;
  Eigen::Index optimal_late = 0;
  std::vector<double> curve;
};

/// A Policy that passes every call through and records its trial's facts. It draws nothing from
/// the engine, so the trial is the one the bare policy plays; a throwing update records nothing.
template <sabandit::Policy P>
class recorded {
 public:
  /// `rounds`: the rounds whose regret the trial's curve records (simulate()'s own,
  /// sabandit::detail::recorded_rounds).
  recorded(P policy, const Eigen::ArrayXd& gaps, Eigen::Index horizon,
           const std::vector<Eigen::Index>& rounds, trial_facts& facts)
      : policy_(std::move(policy)), gaps_(&gaps), horizon_(horizon), rounds_(&rounds), facts_(&facts) {}

  [[nodiscard]] Eigen::Index num_arms() const { return policy_.num_arms(); }
  template <std::uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(URBG& gen) {
    return policy_.select(gen);
  }
  template <std::uniform_random_bit_generator URBG>
  void update(Eigen::Index arm, double reward, URBG& gen) {
    policy_.update(arm, reward, gen);
    ++round_;
    const double gap = (*gaps_)(arm);
    facts_->regret += gap;
    if (round_ == horizon_ / 2) facts_->regret_half = facts_->regret;
    if (round_ > horizon_ / 2 && gap == 0.0) ++facts_->optimal_late;
    const auto next = facts_->curve.size();
    if (next < rounds_->size() && round_ == (*rounds_)[next]) facts_->curve.push_back(facts_->regret);
  }

 private:
  P policy_;
  const Eigen::ArrayXd* gaps_;
  Eigen::Index horizon_;
  const std::vector<Eigen::Index>* rounds_;
  trial_facts* facts_;
  Eigen::Index round_ = 0;
};

/// A simulation with every trial's facts.
struct tracked_run {
  sabandit::regret_curve curve;
  std::vector<trial_facts> trials;
  Eigen::Index arms = 0;
  double gap = 0.0;       ///< the smallest positive gap
  Eigen::Index horizon = 0;
  std::vector<Eigen::Index> rounds;  ///< the rounds of every trial's curve

  /// "Regret grows linearly": over rounds T/2..T the trial's regret grows by at least half the
  /// gap per round, i.e. an optimal arm gets at most half of the late pulls (equal gaps). A
  /// learning policy's late slope falls towards 0 (its regret is O(log T)).
  [[nodiscard]] bool linear(const trial_facts& f) const {
    return f.regret - f.regret_half >= 0.5 * gap * static_cast<double>(horizon - horizon / 2);
  }
  /// "Starved": an optimal arm gets at most its uniform share 1/K of the late pulls, so the
  /// trial has learned nothing of it: the frozen iterate of a bad warm-up estimate.
  [[nodiscard]] bool starved(const trial_facts& f) const {
    return f.optimal_late * arms <= horizon - horizon / 2;
  }
  [[nodiscard]] int count(bool (tracked_run::*test)(const trial_facts&) const) const {
    int n = 0;
    for (const auto& f : trials) n += (this->*test)(f) ? 1 : 0;
    return n;
  }
  [[nodiscard]] double worst() const {
    double w = 0.0;
    for (const auto& f : trials) w = std::max(w, f.regret);
    return w;
  }
  [[nodiscard]] double median() const {
    std::vector<double> r;
    for (const auto& f : trials) r.push_back(f.regret);
    std::sort(r.begin(), r.end());
    const std::size_t n = r.size();
    return n % 2 ? r[n / 2] : 0.5 * (r[n / 2 - 1] + r[n / 2]);
  }
};

/// Simulates `make()` on `env` (stopping on SIGINT or SIGTERM, as every job does) with every
/// trial's facts recorded; `gap` is the one that tracked_run::linear measures the late slope
/// against (the smallest positive gap, for arms of unequal gaps).
template <class Env, class Make, class Hook>
tracked_run run_tracked(const Env& env, double gap, Make make, const sabandit::run_config& config,
                        Hook hook, Eigen::Index points) {
  tracked_run run;
  run.arms = env.num_arms();
  run.gap = gap;
  run.horizon = config.horizon;
  run.rounds = sabandit::detail::recorded_rounds(config.horizon, points);
  run.trials.resize(static_cast<std::size_t>(config.trials));
  Eigen::ArrayXd gaps(env.num_arms());
  for (Eigen::Index a = 0; a < env.num_arms(); ++a) gaps(a) = env.mean(a);
  gaps = gaps.maxCoeff() - gaps;
  run.curve = simulate_cancellable(
      env,
      [&](Eigen::Index trial) {
        return recorded(make(), gaps, config.horizon, run.rounds, run.trials[static_cast<std::size_t>(trial)]);
      },
      config, hook);
  return run;
}

}  // namespace repro
