#pragma once
// KL-UCB (Garivier & Cappe 2011; Cappe et al. 2013 for one-parameter exponential families):
// play argmax_a of
//   U_a(t) = max { q >= mean_a : n_a KL(mean_a, q) <= log t + c log log t },
// with KL the model's divergence between the reward distributions of means mean_a and q.
// For Gaussian rewards U_a = mean_a + sqrt(2 sigma^2 (log t + c log log t) / n_a): UCB1's
// form. c = 0 is the variant Garivier & Cappe recommend in practice (c = 3 in their theorem).
//
// The index is found to 1e-10 by a bracketed Newton iteration. f(q) = KL(p, q) - r/n is convex
// and increasing on [p, sup), with f'(q) = (q - p) / V(q) for the family's variance function
// V, so Newton from any point with f > 0 decreases monotonically onto the root (in a handful
// of steps); points with f <= 0 only move the lower bracket, and a step leaving the bracket is
// replaced by bisection.
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/detail/state_fields.hpp"
#include "sabandit/detail/vector_ops.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/models/bernoulli.hpp"
#include "sabandit/models/support.hpp"
#include "sabandit/policies/common/arm_statistics.hpp"
#include "sabandit/policies/common/gaussian_scores.hpp"
#include "sabandit/policies/common/warm_up.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit {

/// The KL-UCB index of an arm with `pulls` pulls and empirical mean `mean`, for the exploration
/// level `level` = log t + c log log t, to an accuracy of 1e-10 max(s, index), s the scale of
/// the rewards: 1 for a family with bounded means (Bernoulli), else the index's Gaussian
/// half-width sqrt(2 V(mean) level / pulls) (or |mean| where that underflows), so that for a
/// family whose divergence depends on the means' ratio alone (exponential durations) the index
/// scales with the rewards' unit and the decisions do not depend on it. (Absolute constants
/// made KL-UCB greedy on durations of 1e-12: its tolerance was the whole confidence width.)
template <DivergenceRewardModel Model>
[[nodiscard]] double kl_ucb_index(const Model& model, double mean, double pulls, double level) {
  const double sup = Model::mean_upper_limit();
  if (!(level > 0.0) || mean >= sup) return mean;
  const double budget = level / pulls;  // KL(mean, q) <= budget
  const auto excess = [&](double q) { return model.divergence(mean, q) - budget; };
  // Bracket [lo, hi] with excess(lo) <= 0 < excess(hi). Start from the Gaussian approximation
  // KL ~ (q - p)^2 / (2 V(p)), which is exact for the Gaussian, and widen while it falls short
  // (at most to the edge of the means, where a bounded family's divergence is +infinity).
  const double width = std::sqrt(2.0 * model.reward_variance(mean) * budget);
  // Where V(mean) underflows (durations of 1e-200: V = mean^2), the mean itself is the scale.
  const double unit = width > 0.0 ? width : std::abs(mean);
  const bool relative = std::isinf(sup) && unit > 0.0 && std::isfinite(unit);
  const double scale = relative ? unit : 1.0;
  double lo = mean;
  double hi = mean + (relative ? width
                               : std::sqrt(2.0 * std::fmax(model.reward_variance(mean), 1e-12) *
                                           budget));
  while (hi < sup && !(excess(hi) > 0.0)) {
    lo = hi;
    // At least one ulp of progress, or a huge mean (2^53 and beyond) would never widen.
    hi = std::fmax(std::nextafter(hi, sup), mean + 2.0 * (hi - mean) + scale);
  }
  if (hi >= sup) hi = sup;
  double q = hi < sup ? hi : 0.5 * (lo + hi);
  for (int iteration = 0; iteration < 200; ++iteration) {
    const double f = excess(q);
    double next;
    if (f > 0.0) {  // above the root: Newton stays above it and decreases onto it
      hi = q;
      const double slope = (q - mean) / model.reward_variance(q);
      next = std::isfinite(f) && slope > 0.0 ? q - f / slope : 0.5 * (lo + hi);
    } else {
      lo = q;
      next = 0.5 * (lo + hi);
    }
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    // relative beyond the scale: ulps allow no better
    if (hi - lo <= 1e-10 * std::fmax(scale, std::abs(hi))) return lo;
    // quadratic convergence: next ~ the root
    if (f > 0.0 && q - next <= 1e-12 * scale) return next;
    q = next;
  }
  return lo;  // the largest point known to satisfy the constraint
}

/// KL-UCB over `Model`'s divergence; models Policy (deterministic: the engine is not used).
template <DivergenceRewardModel Model = bernoulli_model>
class kl_ucb {
 public:
  /// The exploration level's log log t coefficient and the warm-up: an aggregate for
  /// designated initialisers.
  struct params {
    /// c >= 0 in log t + c log log t.
    double log_log_coefficient = 0.0;
    /// Pulls of every arm before the index is used (>= 1).
    Eigen::Index warmup = 1;
  };

  /// K arms with the default parameters (c = 0).
  explicit kl_ucb(Eigen::Index num_arms) : kl_ucb(num_arms, params{}) {}
  /// Throws std::invalid_argument naming the parameter and its value if K < 1, c < 0 or the
  /// warm-up is < 1.
  kl_ucb(Eigen::Index num_arms, const params& p, Model model = Model{})
      : params_(validated(num_arms, p)),
        model_(std::move(model)),
        stats_(num_arms),
        warm_up_(p.warmup),
        scores_(detail::filled<Eigen::ArrayXd>(num_arms, 0.0)) {}

  /// K, the number of arms.
  [[nodiscard]] Eigen::Index num_arms() const noexcept { return stats_.num_arms(); }
  /// The parameters as validated at construction.
  [[nodiscard]] const params& parameters() const noexcept { return params_; }
  /// The reward model (its divergence sets the index).
  [[nodiscard]] const Model& model() const noexcept { return model_; }

  /// K index computations a round (each a few Newton steps). The engine is not used.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(URBG& /*gen*/) {
    if (const auto arm = warm_up_.select(stats_)) return *arm;
    const double log_t = std::log(static_cast<double>(stats_.total() + 1));
    const double level =
        log_t + (params_.log_log_coefficient > 0.0 && log_t > 1.0
                     ? params_.log_log_coefficient * std::log(log_t)
                     : 0.0);
    for (Eigen::Index a = 0; a < num_arms(); ++a)
      scores_(a) = kl_ucb_index(model_, stats_.mean(a), stats_.count(a), level);
    return detail::argmax(scores_);
  }

  /// Strong guarantee; rewards outside the model's support (e.g. 2 for Bernoulli) or beyond
  /// |reward| <= 1e150 are rejected (models/support.hpp).
  template <uniform_random_bit_generator URBG>
  void update(Eigen::Index arm, double reward, URBG& /*gen*/) {
    detail::require_arm(arm, num_arms());
    detail::require_supported_reward(model_, reward);
    stats_.add(arm, reward);
  }

  /// Pulls and reward means per arm, what the indices are built from.
  [[nodiscard]] const arm_statistics& statistics() const noexcept { return stats_; }
  /// The indices of the last select().
  [[nodiscard]] const Eigen::ArrayXd& indices() const noexcept { return scores_; }

  /// "kl_ucb<model>", the type in a saved state's header.
  [[nodiscard]] static std::string state_name() {
    return "kl_ucb<" + detail::component_name<Model>() + ">";
  }
  /// The saved fields (state/persist.hpp): K, the parameters, the model and the statistics.
  /// Not the indices: select() recomputes them all from the statistics (until it runs, a
  /// restored policy's indices() are 0).
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    Eigen::Index num_arms = self.num_arms();
    params p = self.params_;
    Model model = self.model_;
    ar("num_arms", num_arms);
    ar.require_backed("num_arms", num_arms, 2);  // its counts and sums follow
    ar("log_log_coefficient", p.log_log_coefficient);
    ar("warmup", p.warmup);
    detail::persist_component("model", model, ar);
    if constexpr (Archive::reading) self = kl_ucb(num_arms, p, std::move(model));
    ar.nest("statistics", [&] { arm_statistics::persist_for<Model>(self.stats_, ar); });
  }

 private:
  static params validated(Eigen::Index num_arms, const params& p) {
    detail::require_at_least<Eigen::Index>("num_arms", num_arms, 1);
    detail::require_state_size("kl_ucb", num_arms, 4);
    detail::require_non_negative("log_log_coefficient", p.log_log_coefficient);
    detail::require_at_least<Eigen::Index>("warmup", p.warmup, 1);
    return p;
  }

  params params_;
  Model model_;
  arm_statistics stats_;
  detail::warm_up warm_up_;
  Eigen::ArrayXd scores_;  // the indices, kept so that a round allocates nothing
};

static_assert(Policy<kl_ucb<>>);

}  // namespace sabandit
