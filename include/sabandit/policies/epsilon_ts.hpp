#pragma once
// epsilon-TS as the paper's appendix describes it: each round, with probability epsilon play the
// arm with the highest posterior mean; otherwise play Thompson sampling on the same posterior.
// (Jin et al. 2023 parameterise the other way round: they sample with probability epsilon and
// are greedy otherwise, with epsilon = 1/K; here that regime is epsilon = 1 - 1/K.) It is TS plus one coin, so it is built from thompson<Model>
// and works over any model with a conjugate posterior (Gaussian: the paper's baseline).
#include <optional>
#include <string>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/detail/state_fields.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/models/gaussian.hpp"
#include "sabandit/policies/common/gaussian_scores.hpp"
#include "sabandit/policies/thompson.hpp"
#include "sabandit/random/bits.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit {

/// epsilon-TS over `Model`'s conjugate posterior; models Policy. A copy is a checkpoint.
template <class Model = gaussian_model>
class epsilon_ts {
 public:
  /// The greedy probability and the posterior's parameters, an aggregate for designated
  /// initialisers: `epsilon_ts<>(K, {.epsilon = 0.1})`.
  struct params {
    /// Probability of the greedy branch, in [0, 1). Unset: 1/K, the appendix's baseline (0 for
    /// a single arm, where both branches play the same arm and 1/K = 1 is out of range).
    std::optional<double> epsilon;
    /// The posterior, as in thompson<Model> (tau multiplies its variance).
    typename thompson<Model>::params posterior{};
  };

  /// K arms with the default parameters (epsilon = 1/K).
  explicit epsilon_ts(Eigen::Index num_arms) : epsilon_ts(num_arms, params{}) {}

  /// Throws std::invalid_argument naming the parameter and its value unless epsilon is in
  /// [0, 1) (1 would never explore) and the posterior's parameters are valid (thompson).
  epsilon_ts(Eigen::Index num_arms, const params& p, Model model = Model{})
      : ts_(num_arms, p.posterior, std::move(model)),
        epsilon_(validated_epsilon(num_arms, p.epsilon)) {}

  /// K, the number of arms.
  [[nodiscard]] Eigen::Index num_arms() const noexcept { return ts_.num_arms(); }
  /// The greedy probability in use (1/K when params::epsilon was left unset).
  [[nodiscard]] double epsilon() const noexcept { return epsilon_; }

  /// During the warm-up, the warm-up's arm; then one uniform draw picks the greedy branch
  /// (highest posterior mean) or a Thompson sample. The coin is not drawn during the warm-up,
  /// so the warm-up consumes the engine exactly as thompson's does.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(URBG& gen) {
    if (!ts_.warmed_up()) return ts_.select(gen);
    if (uniform01(gen) < epsilon_) return detail::argmax(ts_.posterior_means());
    return ts_.select(gen);
  }

  /// Updates the shared posterior; the same checks and strong guarantee as thompson::update.
  template <uniform_random_bit_generator URBG>
  void update(Eigen::Index arm, double reward, URBG& gen) {
    ts_.update(arm, reward, gen);
  }

  /// The Thompson sampler that holds the posterior (its means and statistics).
  [[nodiscard]] const thompson<Model>& posterior() const noexcept { return ts_; }
  /// Pulls and reward sums per arm, greedy rounds included (the posterior's): the same member
  /// as every other policy's, so that generic code (a resumed loop's `statistics().total()`)
  /// needs no special case.
  [[nodiscard]] const arm_statistics& statistics() const noexcept { return ts_.statistics(); }

  /// "epsilon_ts<model>", the type in a saved state's header.
  [[nodiscard]] static std::string state_name() {
    return "epsilon_ts<" + detail::component_name<Model>() + ">";
  }
  /// The saved fields (state/persist.hpp): the Thompson sampler's, then epsilon.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    ar.nest("ts", [&] { thompson<Model>::persist(self.ts_, ar); });
    double epsilon = self.epsilon_;
    ar("epsilon", epsilon);
    if constexpr (Archive::reading) self.epsilon_ = validated_epsilon(self.num_arms(), epsilon);
  }

 private:
  static double validated_epsilon(Eigen::Index num_arms, std::optional<double> epsilon) {
    const double value =
        epsilon.value_or(num_arms > 1 ? 1.0 / static_cast<double>(num_arms) : 0.0);
    if (!(value >= 0.0 && value < 1.0)) detail::throw_invalid("epsilon", value, "must be in [0, 1)");
    return value;
  }

  thompson<Model> ts_;
  double epsilon_;
};

static_assert(Policy<epsilon_ts<>>);

}  // namespace sabandit
