#pragma once
// What LinUCB, linear TS and epsilon-greedy ridge share beyond policy_core: the ridge
// statistics (ridge_statistics.hpp), their update, and the constructors. Each policy adds only
// its score.
#include <concepts>
#include <utility>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/contextual/feature_maps.hpp"
#include "sabandit/contextual/information_factor.hpp"
#include "sabandit/contextual/policy_core.hpp"
#include "sabandit/contextual/ridge_statistics.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit::contextual {

/// The ridge policies' rewards: any within the numeric contract (no declared support).
struct unrestricted_rewards {};

/// The shared state and mechanics of the ridge policies (header comment); they derive from it
/// and inherit its constructors.
template <FeatureMap Map, class Params>
class ridge_core : public policy_core<Map, Params> {
  using base = policy_core<Map, Params>;

 public:
  /// K arms over any feature map; `policy(K, d, ...)` is disjoint with contexts of size d.
  ridge_core(Eigen::Index num_arms, Map map, const Params& p = {})
      : base(num_arms, std::move(map), p, doubles_per_block(map.dimension()),
             factor_doubles(map.dimension()) + 3 * map.dimension()),
        stats_(this->blocks(), this->dimension()),
        scratch_(this->dimension()) {}

  /// A, b and theta_hat per block.
  [[nodiscard]] const ridge_statistics& statistics() const noexcept { return stats_; }
  /// The doubles each block holds: the d x d factor of A, b, theta_hat and the count
  /// (O(d^2), whatever the horizon).
  [[nodiscard]] static Eigen::Index doubles_per_block(Eigen::Index dimension) noexcept {
    return factor_doubles(dimension) + 2 * dimension + 1;
  }

  /// Learns reward r of `arm` at context x: A += phi phi^T, b += r phi for its block.
  /// Throws std::invalid_argument naming "context" or "reward", std::out_of_range for the arm,
  /// std::domain_error if the statistics would overflow; the policy is then unchanged.
  template <uniform_random_bit_generator URBG>
  void update(const vector_cref& x, Eigen::Index arm, double reward, URBG& /*gen*/) {
    // No model: every reward within the numeric contract (errors.hpp).
    const auto [phi, block] = this->checked_pull(x, arm, reward, unrestricted_rewards{});
    stats_.add(block, phi, reward);
  }

 protected:
  // --- persistence (state::save and state::restore, state/persist.hpp) ------------------------------------------------------
  /// A ridge policy's saved fields: K, d, its parameters (`Params::persist`) and the ridge
  /// statistics; `make(K, d, p)` rebuilds the policy when reading.
  template <class Self, class Archive, class Make>
  static void persist_ridge(Self& self, Archive& ar, Make&& make) {
    base::persist_shape(
        self, ar, [](Eigen::Index, Eigen::Index d, const Params&) { return doubles_per_block(d); },
        make);
    ar.nest("statistics", [&] { ridge_statistics::persist(self.stats_, ar); });
  }

  /// phi^T A^-1 phi for a block.
  [[nodiscard]] double inverse_quadratic(Eigen::Index block, const vector_cref& phi) {
    return stats_.inverse_quadratic(block, phi, scratch_);
  }
  /// <phi, theta_hat> for a block.
  [[nodiscard]] double prediction(Eigen::Index block, const vector_cref& phi) const {
    return stats_.prediction(block, phi);
  }

 private:
  ridge_statistics stats_;
  Eigen::VectorXd scratch_;  // the widths' solve
};

}  // namespace sabandit::contextual
