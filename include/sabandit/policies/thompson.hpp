#pragma once
// Exact Thompson sampling over a model's conjugate posterior (Agrawal & Goyal 2012, 2017):
// every round, draw each arm's mean from its posterior and play the argmax. Gaussian rewards
// give the paper's TS baseline (appendix, "Baseline Implementation", with its prior N(mu0,
// sigma0^2); the default prior is flat, sigma0^2 = +infinity, models/gaussian.hpp):
//   N( (mu0/sigma0^2 + n xbar/sigma^2) / (1/sigma0^2 + n/sigma^2),  tau / (1/sigma0^2 + n/sigma^2) ),
// Bernoulli rewards Beta-Bernoulli TS, Poisson rewards Gamma-Poisson TS, exponential durations
// inverse-gamma TS (Jeffreys' prior by default).
// tau is a temperature: it multiplies the posterior variance (exactly for the normal
// posterior; for beta, gamma and inverse gamma, by dividing both parameters by tau, which keeps
// the mean, or for the inverse gamma the mean rate).
//
// A model without a conjugate posterior is rejected at compile time: use the Langevin
// policies (ts_sa, ts_sgld), which need only a likelihood.
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/detail/state_fields.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/models/gaussian.hpp"
#include "sabandit/models/support.hpp"
#include "sabandit/policies/common/arm_statistics.hpp"
#include "sabandit/policies/common/gaussian_scores.hpp"
#include "sabandit/policies/common/warm_up.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit {

/// Thompson sampling over `Model`'s conjugate posterior; models Policy. A copy is a checkpoint.
template <class Model = gaussian_model>
class thompson {
  static_assert(ConjugateRewardModel<Model>,
                "thompson<Model> needs a conjugate posterior (Model::posterior_type, see "
                "docs/concepts.md); for a likelihood without one use ts_sa<Model> or "
                "ts_sgld<Model>");
  using posterior_type = typename Model::posterior_type;
  // A normal posterior's draw is centre + spread z: the round is then one normal fill and one
  // argmax over arrays (common/gaussian_scores.hpp), bit for bit the paper's Gaussian TS.
  static constexpr bool normal_draws = std::is_same_v<posterior_type, normal_posterior>;
  // A posterior that draws logarithms is compared on them: the same argmax (log increases),
  // without the ties of draws that overflow to +infinity or underflow to 0 at a large tau.
  static constexpr bool log_draws =
      requires(const posterior_type& post, default_engine& gen) { post.log_sample(gen, 1.0); };

 public:
  /// Temperature, conjugate prior and warm-up: an aggregate for designated initialisers,
  /// `thompson<bernoulli_model>(K, {.prior = {1, 1}})`.
  struct params {
    /// tau in [1e-100, 1e100]: multiplies the posterior variance.
    double temperature = 1.0;
    /// The conjugate prior of every arm (normal, beta, gamma or inverse gamma, after the model).
    typename Model::conjugate_prior_type prior = Model::default_conjugate_prior();
    /// Pulls of every arm before sampling starts (>= 1).
    Eigen::Index warmup = 1;
  };

  /// K arms with the default parameters.
  explicit thompson(Eigen::Index num_arms) : thompson(num_arms, params{}) {}
  /// Throws std::invalid_argument naming the parameter and its value if K < 1, tau is not in
  /// [1e-100, 1e100], the prior is invalid, or the warm-up is < 1; std::length_error if K is
  /// beyond bounds::state_doubles.
  thompson(Eigen::Index num_arms, const params& p, Model model = Model{})
      : params_(validated(num_arms, p)),
        posteriors_(static_cast<std::size_t>(num_arms), model.posterior(p.prior)),
        stats_(num_arms),
        warm_up_(p.warmup),
        scores_(num_arms),
        draws_(num_arms) {
    for (Eigen::Index a = 0; a < num_arms; ++a) refresh(a);
  }

  /// K, the number of arms.
  [[nodiscard]] Eigen::Index num_arms() const noexcept { return stats_.num_arms(); }
  /// The parameters as validated at construction.
  [[nodiscard]] const params& parameters() const noexcept { return params_; }

  /// During the warm-up, the warm-up's arm; then argmax_a of one draw from each arm's
  /// (tempered) posterior. Ties go to the lowest index.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(URBG& gen) {
    if (const auto arm = warm_up_.select(stats_)) return *arm;
    if constexpr (normal_draws) {
      return scores_.sample_argmax(gen);
    } else {
      for (Eigen::Index a = 0; a < num_arms(); ++a) {
        if constexpr (log_draws) {
          draws_(a) = posterior(a).log_sample(gen, params_.temperature);
        } else {
          draws_(a) = posterior(a).sample(gen, params_.temperature);
        }
      }
      return detail::argmax(draws_);
    }
  }

  /// Strong guarantee: validates the arm and the reward (in the model's support, finite with
  /// |reward| <= 1e150: models/support.hpp), then updates one arm in O(1). The engine is not
  /// used.
  template <uniform_random_bit_generator URBG>
  void update(Eigen::Index arm, double reward, URBG& /*gen*/) {
    detail::require_arm(arm, num_arms());
    // The posterior stands for the model, which thompson does not keep; a built-in posterior
    // checks its model's support with the model's own function.
    detail::require_supported_reward(posterior(arm), reward);
    stats_.add(arm, reward);
    posteriors_[static_cast<std::size_t>(arm)].update(reward);
    refresh(arm);
  }

  /// Arm a's posterior (its parameters, mean, and draws).
  [[nodiscard]] const posterior_type& posterior(Eigen::Index arm) const {
    return posteriors_[static_cast<std::size_t>(arm)];
  }
  /// Posterior means of all arms (the greedy scores of epsilon-TS).
  [[nodiscard]] const Eigen::ArrayXd& posterior_means() const noexcept {
    return scores_.centers();
  }
  /// For normal posteriors: the standard deviations of the draws, sqrt(tau variance).
  [[nodiscard]] const Eigen::ArrayXd& posterior_stddevs() const noexcept
    requires normal_draws
  {
    return scores_.spreads();
  }
  /// Pulls and reward sums per arm.
  [[nodiscard]] const arm_statistics& statistics() const noexcept { return stats_; }
  /// Whether the warm-up is over (so select samples from the posterior).
  [[nodiscard]] bool warmed_up() { return warm_up_.over(stats_.counts()); }

  /// "thompson<model>", the type in a saved state's header.
  [[nodiscard]] static std::string state_name() {
    return "thompson<" + detail::component_name<Model>() + ">";
  }
  /// The saved fields (state/persist.hpp): K, the parameters, the statistics and every arm's
  /// posterior, which must be the prior updated by the arm's count and sum; the scores are
  /// rebuilt from the posteriors as update() computes them.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    Eigen::Index num_arms = self.num_arms();
    params p = self.params_;
    ar("num_arms", num_arms);
    ar.require_backed("num_arms", num_arms, 2);  // its counts and sums follow, then the posteriors
    ar("temperature", p.temperature);
    ar.nest("prior", [&] { decltype(p.prior)::persist(p.prior, ar); });
    ar("warmup", p.warmup);
    if constexpr (Archive::reading) self = thompson(num_arms, p);
    ar.nest("statistics", [&] { arm_statistics::persist_for<Model>(self.stats_, ar); });
    for (Eigen::Index a = 0; a < num_arms; ++a) {
      ar.nest("posterior." + std::to_string(a), [&] {
        posterior_type::persist(self.posteriors_[static_cast<std::size_t>(a)], ar);
      });
      if constexpr (Archive::reading) {
        // The posterior is the prior updated by the rewards the statistics count and sum.
        const auto& posterior = self.posterior(a);
        ar.require(posterior.agrees_with(p.prior, self.stats_.count(a), self.stats_.sums()(a)),
                   "the posterior of arm " + std::to_string(a) +
                       " is not the prior updated by the arm's count and sum");
        if constexpr (normal_draws) {
          ar.require(posterior.noise_precision() == self.posterior(0).noise_precision(),
                     "the posterior of arm " + std::to_string(a) +
                         " has another noise variance than arm 0's");
        }
        self.refresh(a);
      }
    }
  }

 private:
  static params validated(Eigen::Index num_arms, const params& p) {
    detail::require_at_least<Eigen::Index>("num_arms", num_arms, 1);
    detail::require_state_size(
        "thompson", num_arms,
        static_cast<Eigen::Index>(sizeof(posterior_type) / sizeof(double)) + 7);
    detail::require_scale("temperature", p.temperature);
    detail::require_at_least<Eigen::Index>("warmup", p.warmup, 1);
    return p;
  }

  // The scores' centres are the posterior means (epsilon-TS's greedy scores); for normal
  // posteriors their spreads are the tempered standard deviations that select() samples with.
  void refresh(Eigen::Index arm) {
    const auto& post = posterior(arm);
    double spread = 0.0;  // a posterior that is not normal need not have a variance
    if constexpr (normal_draws) spread = std::sqrt(params_.temperature * post.variance());
    scores_.set(arm, post.mean(), spread);
  }

  params params_;
  std::vector<posterior_type> posteriors_;
  arm_statistics stats_;
  detail::warm_up warm_up_;
  detail::gaussian_scores scores_;
  Eigen::ArrayXd draws_;  // scratch of non-normal draws, kept so a round allocates nothing
};

}  // namespace sabandit
