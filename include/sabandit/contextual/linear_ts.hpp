#pragma once
// Linear Thompson sampling (Agrawal and Goyal 2013, "Thompson sampling for contextual bandits
// with linear payoffs"), disjoint, exactly as issue 21 fixes it:
//   theta_a ~ N(A_a^-1 b_a, v^2 A_a^-1),  play argmax_a x^T theta_a,
//   A_a = I + sum x x^T and b_a = sum r x over arm a's pulls.
// Only <x, theta_a> decides, and under that law it is the scalar normal
//   N(x^T A_a^-1 b_a, v^2 x^T A_a^-1 x),
// so a round draws one standard normal per arm (in arm order), not d: the same law for the
// decision at a d-th of the draws (DESIGN.md, "one scalar normal per arm").
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
#include "sabandit/random/normal.hpp"

namespace sabandit::contextual {

/// Linear TS's parameter.
struct linear_ts_params {
  /// v in [1e-100, 1e100]: the posterior's scale. Agrawal and Goyal's
  /// R sqrt(24 d ln(1 / delta) / epsilon) is for the proof; v = 1 samples the Bayesian
  /// posterior of unit-variance rewards under the prior N(0, I).
  double v = 1.0;
  /// Saves or restores v (state/persist.hpp); the policy checks it when rebuilt.
  template <class Archive>
  void persist(Archive& ar) {
    ar("v", v);
  }
  /// Throws std::invalid_argument naming v unless it is in [1e-100, 1e100].
  void validate() const { detail::require_scale("v", v); }
};

/// Linear TS (header comment); models ContextualPolicy. A copy is a checkpoint.
template <FeatureMap Map = disjoint_features>
class linear_ts : public ridge_core<Map, linear_ts_params> {
 public:
  /// The parameters.
  using params = linear_ts_params;
  using ridge_core<Map, linear_ts_params>::ridge_core;

  /// argmax_a of x^T A^-1 b + v sqrt(x^T A^-1 x) z_a, z ~ N(0, I_K) drawn in arm order
  /// (random ties, which have probability 0); throws std::invalid_argument naming "context".
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(const vector_cref& x, URBG& gen) {
    return this->argmax_of(
        x,
        [&](Eigen::Index, const vector_cref& phi, Eigen::Index block) {
          return thompson_score(this->prediction(block, phi), this->inverse_quadratic(block, phi),
                                this->parameters().v, gen);
        },
        gen);
  }

  // --- persistence (state::save and state::restore, state/persist.hpp) --------------------------------------------------------
  /// "contextual_linear_ts", the type in a saved state's header (disjoint features only).
  [[nodiscard]] static std::string state_name() { return "contextual_linear_ts"; }
  /// The saved fields: K, d, v and the ridge statistics (ridge_core.hpp).
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    // generic (auto d): the rebuild is compiled only for reading, where the map is disjoint
    linear_ts::persist_ridge(self, ar, [](Eigen::Index k, auto d, const params& p) {
      return linear_ts(k, d, p);
    });
  }
};

static_assert(ContextualPolicy<linear_ts<>>);

}  // namespace sabandit::contextual
