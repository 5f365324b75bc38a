#pragma once
// Gaussian Thompson sampling (Agrawal & Goyal 2017) as the paper's appendix ("Baseline
// Implementation") defines it: after n pulls of arm a with mean xbar, its reward is sampled from
//   N( (mu0/sigma0^2 + n xbar) / (1/sigma0^2 + n),  tau / (1/sigma0^2 + n) ).
// tau is a *temperature*: it multiplies the posterior variance (the appendix's convention;
// the Preliminaries write it as a divisor). With unit-variance rewards tau = 1 is exact
// Bayesian TS; tau = sigma^2 adapts it to known noise variance sigma^2.
#include <cmath>
#include <random>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/policies/arm_statistics.hpp"
#include "sabandit/policies/detail/gaussian_scores.hpp"
#include "sabandit/policies/detail/warm_up.hpp"

namespace sabandit {

/// Thompson sampling with a conjugate Gaussian posterior per arm: the exact-posterior
/// baseline the Langevin policies approximate; models Policy. A copy is a checkpoint.
class gaussian_ts {
 public:
  /// The prior and temperature, an aggregate for designated initialisers:
  /// `gaussian_ts(K, {.temperature = 0.5})`.
  struct params {
    /// tau > 0: multiplies the posterior variance.
    double temperature = 1.0;
    /// mu0: prior mean.
    double prior_mean = 0.0;
    /// sigma0^2 > 0. The default is weak: after one pull the posterior mean is within 0.01% of
    /// the observed reward, so the prior does not bias the first decisions.
    double prior_variance = 1.0e4;
    /// Pulls of every arm before sampling starts (>= 1).
    Eigen::Index warmup = 1;
  };

  /// K arms with the default parameters.
  explicit gaussian_ts(Eigen::Index num_arms) : gaussian_ts(num_arms, params{}) {}

  /// Throws std::invalid_argument naming the parameter and its value unless K >= 1,
  /// temperature > 0, the prior mean is finite, the prior variance > 0 and warmup >= 1.
  gaussian_ts(Eigen::Index num_arms, const params& p)
      : params_(validated(num_arms, p)),
        prior_precision_(1.0 / p.prior_variance),
        prior_weight_(p.prior_mean / p.prior_variance),
        stats_(num_arms),
        warm_up_(p.warmup),
        scores_(num_arms) {
    for (Eigen::Index a = 0; a < num_arms; ++a) refresh(a);
  }

  /// K, the number of arms.
  [[nodiscard]] Eigen::Index num_arms() const noexcept { return stats_.num_arms(); }
  /// The parameters in use, e.g. to print them beside a result.
  [[nodiscard]] const params& parameters() const noexcept { return params_; }

  /// The warm-up's next arm, else the argmax of one posterior draw per arm: K normals from
  /// `gen` in one fill, no allocation.
  template <std::uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(URBG& gen) {
    if (const auto arm = warm_up_.pending(stats_)) return *arm;
    return scores_.sample_argmax(gen);
  }

  /// Strong guarantee: validates, then updates one arm in O(1). The engine is not used.
  template <std::uniform_random_bit_generator URBG>
  void update(Eigen::Index arm, double reward, URBG& /*gen*/) {
    detail::require_arm(arm, num_arms());
    detail::require_reward(reward);
    stats_.add(arm, reward);
    refresh(arm);
  }

  /// Posterior means of all arms (the greedy scores of epsilon-TS).
  [[nodiscard]] const Eigen::ArrayXd& posterior_means() const noexcept {
    return scores_.centers();
  }
  /// Posterior standard deviations of all arms.
  [[nodiscard]] const Eigen::ArrayXd& posterior_stddevs() const noexcept {
    return scores_.spreads();
  }
  /// Pulls and reward sums per arm (`count(a)`, `mean(a)`), what the posterior is built from.
  [[nodiscard]] const arm_statistics& statistics() const noexcept { return stats_; }
  /// Whether the warm-up is over (so select samples from the posterior).
  [[nodiscard]] bool warmed_up() { return !warm_up_.pending(stats_).has_value(); }

 private:
  static params validated(Eigen::Index num_arms, const params& p) {
    detail::require_at_least<Eigen::Index>("num_arms", num_arms, 1);
    detail::require_positive("temperature", p.temperature);
    detail::require_finite("prior_mean", p.prior_mean);
    detail::require_positive("prior_variance", p.prior_variance);
    detail::require_at_least<Eigen::Index>("warmup", p.warmup, 1);
    return p;
  }

  void refresh(Eigen::Index arm) noexcept {
    const double variance = 1.0 / (prior_precision_ + stats_.count(arm));
    scores_.set(arm, (prior_weight_ + stats_.sums()(arm)) * variance,
                std::sqrt(params_.temperature * variance));
  }

  params params_;
  double prior_precision_;  // 1 / sigma0^2
  double prior_weight_;     // mu0 / sigma0^2
  arm_statistics stats_;
  detail::warm_up warm_up_;
  detail::gaussian_scores scores_;
};

static_assert(Policy<gaussian_ts>);

}  // namespace sabandit
