#pragma once
// What every contextual policy shares, whatever it learns: the feature map, K, the validated
// parameters, the context check of select, and the decision loop "score every arm on phi(x, a),
// take the argmax with random ties" (tie_break.hpp). The ridge policies (ridge_core.hpp),
// Laplace TS, TS-SA and TS-SGLD derive from it and add their statistics and their score.
#include <cmath>
#include <concepts>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/contextual/concepts.hpp"
#include "sabandit/contextual/feature_maps.hpp"
#include "sabandit/contextual/information_factor.hpp"
#include "sabandit/contextual/tie_break.hpp"
#include "sabandit/detail/awaited_selections.hpp"
#include "sabandit/policies/common/warm_up.hpp"
#include "sabandit/detail/state_fields.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/models/support.hpp"
#include "sabandit/random/engine.hpp"
#include "sabandit/random/normal.hpp"

namespace sabandit::contextual {

/// Alg. 1 line 1's warm-up with rewards that arrive late (docs/delayed-feedback.md): the
/// multi-armed policies' warm-up (policies/common/warm_up.hpp) over the arms' pulls, with the
/// warm-up's selections still awaiting their rewards, so that a batch of selections before any
/// reward plays every arm. With each select() followed by its update() nothing awaits, and the
/// warm-up plays the first arm of fewest pulls, round-robin.
class warm_up_selections {
 public:
  /// K arms, none awaited, `warmup` pulls each.
  warm_up_selections(Eigen::Index num_arms, Eigen::Index warmup)
      : scans_(warmup), awaited_(num_arms) {}

  /// While some arm has fewer than Omega pulls, the first arm of least pulls plus awaited
  /// selections; else none.
  [[nodiscard]] std::optional<Eigen::Index> next(const Eigen::ArrayXd& pulls) noexcept {
    return scans_.next(pulls, awaited_.counts());
  }
  /// `arm` was selected in the warm-up: its reward is awaited.
  void expect(Eigen::Index arm) noexcept { awaited_.expect(arm); }
  /// A reward of `arm` arrived: it answers one awaited selection, if any awaits.
  void answered(Eigen::Index arm) noexcept { awaited_.answered(arm); }
  /// Awaited warm-up selections per arm.
  [[nodiscard]] const Eigen::ArrayXd& awaiting() const noexcept { return awaited_.counts(); }

  /// The field `awaiting` (sabandit::detail::awaited_selections).
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    sabandit::detail::awaited_selections::persist(self.awaited_, ar);
  }

 private:
  sabandit::detail::warm_up scans_;
  sabandit::detail::awaited_selections awaited_;
};

/// The shared part of a contextual policy (header comment). `Params` is the policy's parameter
/// struct, with `p.validate()` throwing std::invalid_argument naming a bad member.
template <FeatureMap Map, class Params>
class policy_core {
 public:
  /// K.
  [[nodiscard]] Eigen::Index num_arms() const noexcept { return scores_.size(); }
  /// The length of every context.
  [[nodiscard]] Eigen::Index context_size() const noexcept { return map_.context_size(); }
  /// d, the length of phi(x, a).
  [[nodiscard]] Eigen::Index dimension() const noexcept { return map_.dimension(); }
  /// The number of parameter blocks (K disjoint, 1 shared).
  [[nodiscard]] Eigen::Index blocks() const noexcept { return map_.blocks(num_arms()); }
  /// The feature map.
  [[nodiscard]] const Map& feature_map() const noexcept { return map_; }
  /// The parameters, as validated at construction.
  [[nodiscard]] const Params& parameters() const noexcept { return params_; }
  /// The scores of the last select (the policy's index or sampled score of each arm).
  [[nodiscard]] const Eigen::ArrayXd& scores() const noexcept { return scores_; }

 protected:
  /// K arms over `map`; `per_block` and `shared` are the policy's state in doubles, checked
  /// against bounds::state_doubles before anything is allocated.
  /// (`map` by reference, so that a caller may read map.dimension() in the same argument list.)
  policy_core(Eigen::Index num_arms, Map&& map, const Params& p, Eigen::Index per_block,
              Eigen::Index shared)
      : map_(std::move(map)),
        scores_(Eigen::ArrayXd::Zero(checked_arms(num_arms, map_, per_block, shared))),
        candidates_(Eigen::ArrayXd::Zero(num_arms)),
        phi_(map_.dimension()),
        params_(validated(p)) {}

  /// Checks x, sets scores(a) = score(a, phi(x, a), block of a) for every arm in arm order,
  /// and returns the argmax with random ties. A score that is not finite (an overflow at an
  /// extreme context: 0 x inf, inf - inf, or an infinite width), which no argmax can rank,
  /// throws std::domain_error naming the arm, and scores() keeps the last select's: the scores
  /// are made aside. (Infinite scores were taken: LinUCB at a context of 1e200 scored inf on
  /// every arm and played one at random, a probe's finding; no finite context gives one
  /// otherwise.)
  template <class Score, uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index argmax_of(const vector_cref& x, Score&& score, URBG& gen) {
    require_context(x, context_size());
    for (Eigen::Index a = 0; a < num_arms(); ++a) {
      candidates_(a) = score(a, map_.features(x, a, phi_), map_.block(a));
      if (!std::isfinite(candidates_(a)))
        throw std::domain_error("sabandit: the score of arm " + std::to_string(a) +
                                " at this context is " +
                                (std::isnan(candidates_(a)) ? std::string("NaN")
                                                            : detail::value_text(candidates_(a))) +
                                " (an overflow); scale the contexts down");
    }
    scores_.swap(candidates_);
    return argmax_random_ties(scores_, gen);
  }
  /// During a Langevin policy's warm-up (Alg. 1 line 1, `warm_up_selections` above), its arm,
  /// recorded as awaited once the checks every decision makes have passed: x, and phi(x, a)
  /// for every arm, so that a feature map writing a non-finite value is named in the warm-up
  /// too (a probe's finding: a fresh TS-SA over a shared map took one, which argmax_of refuses
  /// after the warm-up). Else none.
  [[nodiscard]] std::optional<Eigen::Index> warm_up_decision(const vector_cref& x,
                                                             const Eigen::ArrayXd& pulls,
                                                             warm_up_selections& selections) {
    require_context(x, context_size());
    const auto arm = selections.next(pulls);
    if (arm) {
      for (Eigen::Index a = 0; a < num_arms(); ++a) (void)map_.features(x, a, phi_);
      selections.expect(*arm);
    }
    return arm;
  }
  /// What an update learns from: phi(x, arm) and the arm's block.
  struct pull {
    vector_cref phi;     ///< phi(x, arm)
    Eigen::Index block;  ///< the parameter block of the arm
  };
  /// Every update's start: checks x (require_context), the arm, and the reward against the
  /// model's support and the numeric contract (models/support.hpp), then returns phi(x, arm)
  /// and its block.
  template <class Model>
  [[nodiscard]] pull checked_pull(const vector_cref& x, Eigen::Index arm, double reward,
                                  const Model& model) {
    require_context(x, context_size());
    detail::require_arm(arm, num_arms());
    detail::require_supported_reward(model, reward);
    return {map_.features(x, arm, phi_), map_.block(arm)};
  }

  // --- persistence (state/persist.hpp; docs/contextual.md, "Saving") --------------------
  /// Saves or restores K, the context size and the parameters (`p.persist(ar)`, under
  /// "params"); when reading, checks that the block holds `per_block(K, d, p)` values for each
  /// parameter block before anything is allocated, then rebuilds `self` as `make(K, d, p)`
  /// through the policy's constructor, which checks them. Only the disjoint map is saved: a
  /// shared map is a user's function.
  template <class Self, class Archive, class PerBlock, class Make>
  static void persist_shape(Self& self, Archive& ar, PerBlock&& per_block, Make&& make) {
    static_assert(std::same_as<Map, disjoint_features>,
                  "saving a contextual policy needs the disjoint feature map: a shared map is "
                  "a user's function, which a state cannot hold");
    Eigen::Index arms = self.num_arms(), context = self.context_size();
    Params p = self.parameters();
    ar("num_arms", arms);
    ar("context_size", context);
    ar.nest("params", [&] { p.persist(ar); });
    if constexpr (Archive::reading) {
      if (arms >= 1 && context >= 1 && context <= bounds::state_doubles) {
        ar.require_backed("num_arms", arms, per_block(arms, context, p));
      }
      self = make(arms, context, p);
    }
  }

  /// persist_shape for a policy over a reward model: the model's fields (under "model") come
  /// first, and `make(K, d, p, model)` rebuilds the policy with the saved model.
  template <class Self, class Archive, class Model, class PerBlock, class Make>
  static void persist_shape_and_model(Self& self, Archive& ar, const Model& current,
                                      PerBlock&& per_block, Make&& make) {
    Model model = current;
    detail::persist_component("model", model, ar);
    persist_shape(self, ar, per_block, [&](Eigen::Index k, Eigen::Index d, const Params& p) {
      return make(k, d, p, model);
    });
  }

 private:
  static Params validated(const Params& p) {
    p.validate();
    return p;
  }
  static Eigen::Index checked_arms(Eigen::Index num_arms, const Map& map, Eigen::Index per_block,
                                   Eigen::Index shared) {
    detail::require_at_least<Eigen::Index>("num_arms", num_arms, 1);
    // Saturating: K past 2^62 overflowed 2 K, and the negative sum then counted as nothing.
    const auto add = detail::saturating_add<Eigen::Index>;
    const auto mul = detail::saturating_mul<Eigen::Index>;
    detail::require_state_size("a contextual policy", map.blocks(num_arms), per_block,
                               add(add(shared, mul(2, map.dimension())), mul(4, num_arms)),
                               "parameter blocks");
    return num_arms;
  }

  Map map_;
  Eigen::ArrayXd scores_;
  Eigen::ArrayXd candidates_;  // the next scores, made aside (argmax_of)
  Eigen::VectorXd phi_;  // phi(x, a) for a shared map
  Params params_;
};

/// A Thompson score: prediction + scale sqrt(q) z with z ~ N(0, 1), the draw of <phi, theta>
/// for theta ~ N(estimate, scale^2 F^-1) where prediction = <phi, estimate> and
/// q = phi^T F^-1 phi (one scalar normal per arm, whatever d: DESIGN.md).
template <uniform_random_bit_generator URBG>
[[nodiscard]] double thompson_score(double prediction, double q, double scale, URBG& gen) {
  return prediction + std::sqrt(q) * scale * standard_normal(gen);
}

}  // namespace sabandit::contextual
