#pragma once
// LinUCB (Li, Chu, Langford and Schapire 2010, "A contextual-bandit approach to personalized
// news article recommendation", Algorithm 1, disjoint model), exactly as issue 21 fixes it:
//   index_a(x) = x^T A_a^-1 b_a + alpha sqrt(x^T A_a^-1 x),
//   A_a = I + sum x x^T and b_a = sum r x over arm a's pulls,
// the argmax played, ties broken uniformly at random (all arms tie at the start). With a shared
// feature map, x becomes phi(x, a) and A, b are one block's (feature_maps.hpp).
#include <cmath>
#include <string>
#include <utility>

#include <Eigen/Core>

#include "sabandit/contextual/concepts.hpp"
#include "sabandit/contextual/feature_maps.hpp"
#include "sabandit/contextual/ridge_core.hpp"
#include "sabandit/detail/state_fields.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit::contextual {

/// LinUCB's parameter.
struct linucb_params {
  /// alpha in [0, 1e100]: the width's multiplier. Li et al.'s 1 + sqrt(ln(2 / delta) / 2)
  /// is 1.0 to 2.4 for delta in [0.05, 1]; 1 is the usual default, 0 is greedy.
  double alpha = 1.0;
  /// Saves or restores alpha (state/persist.hpp); the policy checks it when rebuilt.
  template <class Archive>
  void persist(Archive& ar) {
    ar("alpha", alpha);
  }
  /// Throws std::invalid_argument naming alpha unless it is in [0, 1e100].
  void validate() const {
    if (!(alpha >= 0.0 && alpha <= bounds::max_scale))
      detail::throw_invalid("alpha", alpha, "must be in [0, 1e100]");
  }
};

/// LinUCB (header comment); models ContextualPolicy. A copy is a checkpoint.
template <FeatureMap Map = disjoint_features>
class linucb : public ridge_core<Map, linucb_params> {
 public:
  /// The parameters.
  using params = linucb_params;
  using ridge_core<Map, linucb_params>::ridge_core;

  /// argmax_a x^T A^-1 b + alpha sqrt(x^T A^-1 x), random ties; throws std::invalid_argument
  /// naming "context" for a bad context.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(const vector_cref& x, URBG& gen) {
    return this->argmax_of(
        x,
        [&](Eigen::Index, const vector_cref& phi, Eigen::Index block) {
          const double width = std::sqrt(this->inverse_quadratic(block, phi));
          return this->prediction(block, phi) + this->parameters().alpha * width;
        },
        gen);
  }

  // --- persistence (state::save and state::restore, state/persist.hpp) --------------------------------------------------------
  /// "contextual_linucb", the type in a saved state's header (disjoint features only).
  [[nodiscard]] static std::string state_name() { return "contextual_linucb"; }
  /// The saved fields: K, d, alpha and the ridge statistics (ridge_core.hpp).
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    // generic (auto d): the rebuild is compiled only for reading, where the map is disjoint
    linucb::persist_ridge(self, ar, [](Eigen::Index k, auto d, const params& p) {
      return linucb(k, d, p);
    });
  }
};

static_assert(ContextualPolicy<linucb<>>);

}  // namespace sabandit::contextual
