#pragma once
// The version-1 corpus (tests/unit/state_corpus/*.state): one saved checkpoint of every policy
// over every built-in model and schedule, written by the library as it was before fields were
// read by name (commit 51bbfa1, by make_corpus.cpp), with the decisions that followed it
// (*.arms). state_corpus_test.cpp restores each into a policy of the same shape built with
// today's defaults and checks that the same decisions follow: old checkpoints keep working.
//
// The cases are constructed once here for both programs. The generator needs the library of
// that commit; the test only the shapes (K, d): restore() replaces every parameter.
#include <cmath>
#include <string>

#include <Eigen/Core>

#include "sabandit/sabandit.hpp"

namespace corpus {

// exponential: state_test.cpp's only (no version-1 checkpoint has a model of durations).
enum class rewards { gaussian, bernoulli, poisson, exponential };

/// A reward of `arm` in every model's support, from its own engine (state_test.cpp uses it too).
inline double draw(rewards kind, Eigen::Index arm, sabandit::xoshiro256pp& gen) {
  const double shift = 0.1 * static_cast<double>(arm % 4);
  switch (kind) {
    case rewards::gaussian:
      return shift + sabandit::standard_normal(gen);
    case rewards::bernoulli:
      return sabandit::uniform01(gen) < 0.3 + shift ? 1.0 : 0.0;
    case rewards::poisson:
      return std::floor(3.0 * sabandit::uniform01(gen) + 4.0 * shift);
    case rewards::exponential:
      return sabandit::exponential_variate(1.0 + shift, gen);
  }
  return 0.0;
}

/// Rounds before the checkpoint, and decisions recorded after it.
inline constexpr int rounds_before = 300;
inline constexpr int rounds_after = 200;

/// Calls visit(name, policy, rewards) for every case of the corpus.
template <class Visit>
void for_each_case(Visit&& visit) {
  using namespace sabandit;
  visit("ucb", ucb(5, {.bonus_scale = 0.5}), rewards::gaussian);
  visit("thompson_gaussian", gaussian_ts(6, {.temperature = 0.7}), rewards::gaussian);
  visit("thompson_bernoulli", thompson<bernoulli_model>(4), rewards::bernoulli);
  visit("thompson_poisson", thompson<poisson_model>(4, {.temperature = 2.0}), rewards::poisson);
  visit("epsilon_ts_gaussian", epsilon_ts<>(5, {.epsilon = 0.2}), rewards::gaussian);
  visit("epsilon_ts_bernoulli", epsilon_ts<bernoulli_model>(3), rewards::bernoulli);
  visit("epsilon_ts_poisson", epsilon_ts<poisson_model>(3), rewards::poisson);
  visit("kl_ucb_bernoulli", kl_ucb<>(4, {.log_log_coefficient = 3.0}), rewards::bernoulli);
  visit("kl_ucb_poisson", kl_ucb<poisson_model>(4), rewards::poisson);
  visit("kl_ucb_gaussian", kl_ucb<gaussian_model>(3), rewards::gaussian);
  visit("ts_sa_gaussian", ts_sa<>(5, {.window = 7}), rewards::gaussian);
  visit("ts_sa_gaussian_paper", ts_sa<>(4, ts_sa<>::params::paper()), rewards::gaussian);
  {
    xoshiro256pp features(11);
    visit("ts_sa_gaussian_features",
          ts_sa<>(random_features(3, 4, features), {.warmup = 3, .temperature = 0.5}),
          rewards::gaussian);
  }
  visit("ts_sa_bernoulli", ts_sa<bernoulli_model>(4), rewards::bernoulli);
  visit("ts_sa_bernoulli_harmonic",
        ts_sa<bernoulli_model>(4, {.warmup = 5, .window = 3, .step_size = 1.0,
                                   .sa_schedule = polynomial_decay::harmonic()}),
        rewards::bernoulli);
  visit("ts_sa_poisson", ts_sa<poisson_model>(3), rewards::poisson);
  visit("ts_sa_poisson_constant",
        ts_sa<poisson_model, constant_schedule>(
            3, {.warmup = 4, .sa_schedule = constant_schedule(0.1)}),
        rewards::poisson);
  visit("ts_sa_gaussian_horizon",
        ts_sa<gaussian_model, horizon_schedule>(
            3, {.warmup = 2, .sa_schedule = horizon_schedule(50)}),
        rewards::gaussian);
  visit("ts_sa_gaussian_noise", ts_sa<>(unit_features(3), {}, gaussian_model(4.0)),
        rewards::gaussian);
  visit("ts_sgld_gaussian", ts_sgld<>(4, {.batch_size = 8}), rewards::gaussian);
  visit("ts_sgld_bernoulli", ts_sgld<bernoulli_model>(3), rewards::bernoulli);
  visit("ts_sgld_poisson", ts_sgld<poisson_model>(3, {.init = initialisation::prior}),
        rewards::poisson);
}

}  // namespace corpus
