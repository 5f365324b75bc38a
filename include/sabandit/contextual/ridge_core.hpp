#pragma once
// What LinUCB, linear TS and epsilon-greedy ridge share: the feature map, the ridge statistics
// (ridge_statistics.hpp), the input checks of select and update, and the decision loop
// "score every arm, take the argmax with random ties". Each policy adds only its score.
#include <concepts>
#include <random>
#include <utility>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/contextual/concepts.hpp"
#include "sabandit/contextual/feature_maps.hpp"
#include "sabandit/contextual/ridge_statistics.hpp"
#include "sabandit/contextual/tie_break.hpp"
#include "sabandit/errors.hpp"

namespace sabandit::contextual {

/// The shared state and mechanics of the ridge policies (header comment); they derive from it
/// and inherit its constructors. `Params` is the policy's parameter struct, with
/// `p.validate()` throwing std::invalid_argument naming a bad member.
template <FeatureMap Map, class Params>
class ridge_core {
 public:
  /// K arms, disjoint, contexts of `context_size` entries.
  ridge_core(Eigen::Index num_arms, Eigen::Index context_size, const Params& p = {})
    requires std::same_as<Map, disjoint_features>
      : ridge_core(num_arms, disjoint_features(context_size), p) {}
  /// K arms over any feature map.
  ridge_core(Eigen::Index num_arms, Map map, const Params& p = {})
      : map_(std::move(map)),
        stats_(map_.blocks(checked_arms(num_arms, map_)), map_.dimension()),
        scores_(Eigen::ArrayXd::Zero(num_arms)),
        phi_(map_.dimension()),
        scratch_(map_.dimension()),
        params_(validated(p)) {}

  /// The parameters.
  [[nodiscard]] const Params& parameters() const noexcept { return params_; }
  /// K.
  [[nodiscard]] Eigen::Index num_arms() const noexcept { return scores_.size(); }
  /// The length of every context.
  [[nodiscard]] Eigen::Index context_size() const noexcept { return map_.context_size(); }
  /// d, the length of phi(x, a).
  [[nodiscard]] Eigen::Index dimension() const noexcept { return map_.dimension(); }
  /// The feature map.
  [[nodiscard]] const Map& feature_map() const noexcept { return map_; }
  /// A, b and theta_hat per block.
  [[nodiscard]] const ridge_statistics& statistics() const noexcept { return stats_; }
  /// The scores of the last select (the policy's index of each arm).
  [[nodiscard]] const Eigen::ArrayXd& scores() const noexcept { return scores_; }

  /// Learns reward r of `arm` at context x: A += phi phi^T, b += r phi for its block.
  /// Throws std::invalid_argument naming "context" or "reward", std::out_of_range for the arm;
  /// the policy is then unchanged.
  template <std::uniform_random_bit_generator URBG>
  void update(const vector_cref& x, Eigen::Index arm, double reward, URBG& /*gen*/) {
    require_context(x, context_size());
    detail::require_arm(arm, num_arms());
    detail::require_reward(reward);
    stats_.add(map_.block(arm), map_.features(x, arm, phi_), reward);
  }

 protected:
  /// Checks x, sets scores(a) = score(prediction, phi, block) for every arm, and returns the
  /// argmax with random ties. `score(a, prediction, phi, block)` gives arm a's index from
  /// <phi, theta_hat> and phi.
  template <class Score, std::uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index argmax_of(const vector_cref& x, Score&& score, URBG& gen) {
    require_context(x, context_size());
    for (Eigen::Index a = 0; a < num_arms(); ++a) {
      const Eigen::Index block = map_.block(a);
      const vector_cref phi = map_.features(x, a, phi_);
      scores_(a) = score(a, stats_.prediction(block, phi), phi, block);
    }
    return argmax_random_ties(scores_, gen);
  }
  /// phi^T A^-1 phi for arm a's block.
  [[nodiscard]] double inverse_quadratic(Eigen::Index block, const vector_cref& phi) {
    return stats_.inverse_quadratic(block, phi, scratch_);
  }

 private:
  static Params validated(const Params& p) {
    p.validate();
    return p;
  }
  static Eigen::Index checked_arms(Eigen::Index num_arms, const Map& map) {
    detail::require_at_least<Eigen::Index>("num_arms", num_arms, 1);
    // Per block: the d x d factor, b and theta_hat; shared: two scratch vectors and the
    // update's aside copy. Checked before anything is allocated.
    const Eigen::Index d = map.dimension();
    const Eigen::Index factor = factor_doubles(d);
    detail::require_state_size("a ridge policy", map.blocks(num_arms), factor + 2 * d + 1,
                               factor + 4 * d + num_arms);
    return num_arms;
  }

  Map map_;
  ridge_statistics stats_;
  Eigen::ArrayXd scores_;
  Eigen::VectorXd phi_, scratch_;  // phi(x, a) for a shared map; the widths' solve
  Params params_;
};

}  // namespace sabandit::contextual
