#pragma once
// Epsilon-greedy over ridge estimates, disjoint: with probability epsilon a uniformly random
// arm, else argmax_a x^T A_a^-1 b_a (random ties: every estimate is 0 at the start), with
// A_a = I + sum x x^T and b_a = sum r x over arm a's pulls. One uniform draw decides
// exploration every round, so the stream does not depend on the data.
#include <string>
#include <utility>

#include <Eigen/Core>

#include "sabandit/contextual/concepts.hpp"
#include "sabandit/contextual/feature_maps.hpp"
#include "sabandit/contextual/ridge_core.hpp"
#include "sabandit/contextual/tie_break.hpp"
#include "sabandit/detail/state_fields.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/random/bits.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit::contextual {

/// Epsilon-greedy ridge's parameter.
struct epsilon_greedy_ridge_params {
  double epsilon = 0.1;  ///< in [0, 1]: the probability of a uniformly random arm
  /// Saves or restores epsilon (state/persist.hpp); the policy checks it when rebuilt.
  template <class Archive>
  void persist(Archive& ar) {
    ar("epsilon", epsilon);
  }
  /// Throws std::invalid_argument naming epsilon unless it is in [0, 1].
  void validate() const {
    if (!(epsilon >= 0.0 && epsilon <= 1.0))
      detail::throw_invalid("epsilon", epsilon, "must be in [0, 1]");
  }
};

/// Epsilon-greedy ridge (header comment); models ContextualPolicy. A copy is a checkpoint.
template <FeatureMap Map = disjoint_features>
class epsilon_greedy_ridge : public ridge_core<Map, epsilon_greedy_ridge_params> {
 public:
  /// The parameters.
  using params = epsilon_greedy_ridge_params;
  using ridge_core<Map, epsilon_greedy_ridge_params>::ridge_core;

  /// u ~ U[0, 1); if u < epsilon a uniform arm, else argmax_a x^T A^-1 b (random ties).
  /// Throws std::invalid_argument naming "context" for a bad context (before any draw).
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(const vector_cref& x, URBG& gen) {
    require_context(x, this->context_size());
    if (to_unit_interval(random_bits64(gen)) < this->parameters().epsilon)
      return detail::index_below(this->num_arms(), gen);
    return this->argmax_of(
        x,
        [&](Eigen::Index, const vector_cref& phi, Eigen::Index block) {
          return this->prediction(block, phi);
        },
        gen);
  }

  // --- persistence (state::save and state::restore, state/persist.hpp) --------------------------------------------------------
  /// "contextual_epsilon_greedy_ridge", the type in a saved state's header (disjoint features only).
  [[nodiscard]] static std::string state_name() { return "contextual_epsilon_greedy_ridge"; }
  /// The saved fields: K, d, epsilon and the ridge statistics (ridge_core.hpp).
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    // generic (auto d): the rebuild is compiled only for reading, where the map is disjoint
    epsilon_greedy_ridge::persist_ridge(self, ar, [](Eigen::Index k, auto d, const params& p) {
      return epsilon_greedy_ridge(k, d, p);
    });
  }
};

static_assert(ContextualPolicy<epsilon_greedy_ridge<>>);

}  // namespace sabandit::contextual
