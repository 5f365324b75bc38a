#pragma once
// epsilon-TS (Jin et al. 2023) as the paper's appendix describes it: each round, with
// probability epsilon play the arm with the highest posterior mean; otherwise play Gaussian TS
// on the same posterior. It is Gaussian TS plus one coin, so it is built from gaussian_ts.
#include <optional>
#include <random>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/policies/detail/gaussian_scores.hpp"
#include "sabandit/policies/gaussian_ts.hpp"
#include "sabandit/random/bits.hpp"

namespace sabandit {

/// epsilon-TS: Gaussian TS that plays greedily on its posterior means with probability
/// epsilon; models Policy. A copy is a checkpoint.
class epsilon_ts {
 public:
  /// The greedy probability and the posterior's parameters, an aggregate for designated
  /// initialisers: `epsilon_ts(K, {.epsilon = 0.1})`.
  struct params {
    /// Probability of the greedy branch, in [0, 1). Unset: 1/K, Jin et al.'s choice (0 for a
    /// single arm, where both branches play the same arm and 1/K = 1 is out of range).
    std::optional<double> epsilon;
    /// The posterior, as in gaussian_ts (tau multiplies its variance).
    gaussian_ts::params posterior{};
  };

  /// K arms with the default parameters (epsilon = 1/K).
  explicit epsilon_ts(Eigen::Index num_arms) : epsilon_ts(num_arms, params{}) {}

  /// Throws std::invalid_argument naming the parameter and its value unless epsilon is in
  /// [0, 1) (1 would never explore) and the posterior's parameters are valid (gaussian_ts).
  epsilon_ts(Eigen::Index num_arms, const params& p)
      : ts_(num_arms, p.posterior), epsilon_(validated_epsilon(num_arms, p.epsilon)) {}

  /// K, the number of arms.
  [[nodiscard]] Eigen::Index num_arms() const noexcept { return ts_.num_arms(); }
  /// The greedy probability in use (1/K when params::epsilon was left unset).
  [[nodiscard]] double epsilon() const noexcept { return epsilon_; }

  /// During the warm-up, the warm-up's arm; then one uniform draw picks the greedy branch
  /// (highest posterior mean) or a Thompson sample. The coin is not drawn during the warm-up,
  /// so the warm-up consumes the engine exactly as gaussian_ts's does.
  template <std::uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(URBG& gen) {
    if (!ts_.warmed_up()) return ts_.select(gen);
    if (uniform01(gen) < epsilon_) return detail::argmax(ts_.posterior_means());
    return ts_.select(gen);
  }

  /// Updates the shared posterior; the same checks and strong guarantee as gaussian_ts::update.
  template <std::uniform_random_bit_generator URBG>
  void update(Eigen::Index arm, double reward, URBG& gen) {
    ts_.update(arm, reward, gen);
  }

  /// The Gaussian TS that holds the posterior (its means, spreads and statistics).
  [[nodiscard]] const gaussian_ts& posterior() const noexcept { return ts_; }

 private:
  static double validated_epsilon(Eigen::Index num_arms, std::optional<double> epsilon) {
    const double value =
        epsilon.value_or(num_arms > 1 ? 1.0 / static_cast<double>(num_arms) : 0.0);
    if (!(value >= 0.0 && value < 1.0)) detail::throw_invalid("epsilon", value, "must be in [0, 1)");
    return value;
  }

  gaussian_ts ts_;
  double epsilon_;
};

static_assert(Policy<epsilon_ts>);

}  // namespace sabandit
