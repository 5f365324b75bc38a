#pragma once
// TS-SGLD (Mazumdar et al. 2020) as the paper's appendix and Table 1 describe the baseline:
// the composition  model x uniform_minibatch x last_iterate  (policies/langevin/core.hpp).
// Each arm keeps its full reward history; every round, every arm's chain takes N SGLD steps
//   theta <- theta + h (g(theta) + (1/n) grad log pi(theta)) + sqrt(tau / n) N(0, 2h I)
// from the previous round's last iterate (Preliminaries, eq. 2), with g the mean
// log-likelihood gradient on a mini-batch drawn uniformly (with replacement) from the arm's
// whole history; the decision is argmax_a <phi_a, theta_a> at the last iterate (Table 1, last
// row). The chain targets the tempered posterior exp((n F_n + log pi) / tau): prior x likelihood
// of all n rewards (the 1/n on the prior's gradient because g is a *mean* over rewards), with
// tau multiplying its variance.
//
// Step size. A step c/n on the gradient of the *sum* of the n log-likelihoods (Mazumdar et
// al.'s schedule) is the constant c on the *mean* gradient used here, so `step_size` is a
// constant h; a further 1/n decay would make it c/n^2 in their terms and freeze the chain
// (regret 4,045 +- 425 against 219 +- 8 on SGR, K = 10, gap 0.5). Keep h well below 1/L (L:
// the curvature of one reward's log-likelihood, 1/sigma^2 for the Gaussian): at h = 1/L the
// chain jumps to the mini-batch mean, whose variance sigma^2 / batch_size does not shrink with
// n, and the regret gets a linear floor (h = 1 on that setting: 1,100 after 10^4 rounds).
// tau is a temperature (multiplies the posterior variance; the Preliminaries' divisor 1/tau).
//
// Optional preconditioning (`metric = step_metric::fisher`; preconditioned SGLD, Li et al.
// 2016): the drift and the noise variance are multiplied by P = n / J, the inverse of one
// reward's share of the posterior information (policies/langevin/core.hpp, the same as
// TS-SA's default), so h is in units of that curvature whatever the reward scale: the identity
// metric's h = 0.1 diverges at sigma = 0.05 (curvature 400) and barely moves a Poisson chain
// at mean 100. P is taken at the chain's current iterate and the divergence correction of a
// position-dependent metric (Ma et al. 2015) is left out, as pSGLD does; for the Gaussian
// P is constant and the target is exact. Off by default: the paper's baseline is unchanged.
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/detail/state_fields.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/models/gaussian.hpp"
#include "sabandit/policies/langevin/averaging.hpp"
#include "sabandit/policies/langevin/core.hpp"
#include "sabandit/policies/langevin/uniform_minibatch.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit {

/// TS-SGLD (Mazumdar et al. 2020) over any RewardModel; models Policy. A copy is a checkpoint.
template <RewardModel Model = gaussian_model>
class ts_sgld
    : public langevin::core<Model, langevin::uniform_minibatch, langevin::last_iterate> {
  using core = langevin::core<Model, langevin::uniform_minibatch, langevin::last_iterate>;

 public:
  /// The baseline's parameters: an aggregate for designated initialisers.
  struct params {
    Eigen::Index warmup = 1;        ///< Omega >= 1: pulls of each arm before sampling
    Eigen::Index batch_size = 32;   ///< mini-batch size drawn from the history (>= 1)
    Eigen::Index inner_steps = 1;   ///< N >= 1 SGLD steps per arm per round (appendix: 1)
    double step_size = 0.1;         ///< h in (0, 1e6], constant (header comment)
    double temperature = 1.0;       ///< tau in [1e-100, 1e100]: posterior variance factor
    /// Where a chain starts when its warm-up ends: the warm start (MAP) or a prior draw.
    initialisation init = initialisation::warm_start;
    normal_prior prior = default_prior<Model>();  ///< pi_a; its gradient is in the drift
    map_options warm_start{};       ///< stopping rule of the generic warm start
    /// The drift and noise in the identity metric (the baseline) or preconditioned by the
    /// model's Fisher information (header comment).
    step_metric metric = step_metric::identity;
  };

  // The constructors, select and update are defined below the class, not inside it, so that
  // they are not inline: an explicit instantiation declaration (sabandit/instances/ts_sgld.hpp)
  // then keeps every translation unit but one from compiling them.

  /// K arms of the paper's setting (d = 1, phi = 1) with the default parameters.
  explicit ts_sgld(Eigen::Index num_arms);
  /// K arms with phi_a = 1, over `model` (a Gaussian's noise variance: gaussian_model(sigma2)).
  /// Throws std::length_error, before allocating, if the initial state
  /// is beyond bounds::state_doubles.
  ts_sgld(Eigen::Index num_arms, const params& p, Model model = Model{});
  /// features: d x K, column a is phi_a (non-zero, finite).
  ts_sgld(Eigen::MatrixXd features, const params& p, Model model = Model{});

  /// The parameters as validated at construction.
  [[nodiscard]] const params& parameters() const noexcept { return params_; }

  /// Moves every arm's chain N steps, then plays the best last iterate. Strong guarantee: the
  /// chains move aside and are committed together, only if all stayed finite.
  ///
  /// Each arm's chain steps through the Langevin core's one loop (langevin::core::advance_all,
  /// the loop TS-SA's identity metric uses) with eq. 2's noise scale sqrt(tau / n_a) and prior
  /// weight 1 / n_a; the round's mini-batches come from one block of random indices
  /// (uniform_minibatch::begin_round; up to 2^24 indices a round, beyond which they are drawn
  /// arm by arm), then each arm draws its d normals per step, in arm order.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(URBG& gen);

  /// Strong guarantee; the chains move in select(), so this only records the reward (and
  /// starts the arm's chain at its last warm-up pull).
  template <uniform_random_bit_generator URBG>
  void update(Eigen::Index arm, double reward, URBG& gen);

  /// Arm a's full reward history, as an Eigen view. Throws std::out_of_range for a bad arm.
  [[nodiscard]] Eigen::Map<const Eigen::VectorXd> history(Eigen::Index arm) const {
    detail::require_arm(arm, this->num_arms());
    return this->source().rewards(arm);
  }

  /// "ts_sgld<model>", the type in a saved state's header.
  [[nodiscard]] static std::string state_name() {
    return "ts_sgld<" + detail::component_name<Model>() + ">";
  }
  /// The saved fields (state/persist.hpp): the Langevin core's, with the batch size.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    // Not require_backed: the batch size sizes scratch, not saved state (a fresh policy with
    // B = 1024 saves no reward), so a restore allocates the B doubles it asks for.
    core::persist_policy(self, ar, self.params_,
                         [&](params& p, Eigen::Index) {
                           ar("batch_size", p.batch_size);
                           int metric = p.metric == step_metric::fisher ? 1 : 0;
                           ar.optional("metric", metric, 0, 0, 1);  // 0: identity (also older states), 1: Fisher
                           p.metric = metric == 1 ? step_metric::fisher : step_metric::identity;
                         });
  }

 private:
  static params validated(const params& p) {
    langevin::validate_common(p);
    detail::require_at_least<Eigen::Index>("batch_size", p.batch_size, 1);
    return p;
  }

  params params_;
  Eigen::MatrixXd next_;  // the chains' moves of a round, committed together
};

template <RewardModel Model>
ts_sgld<Model>::ts_sgld(Eigen::Index num_arms) : ts_sgld(num_arms, params{}) {}

template <RewardModel Model>
ts_sgld<Model>::ts_sgld(Eigen::Index num_arms, const params& p, Model model)
    : ts_sgld(unit_features(core::require_state(num_arms, 1, p.batch_size)), p, std::move(model)) {}

template <RewardModel Model>
ts_sgld<Model>::ts_sgld(Eigen::MatrixXd features, const params& p, Model model)
    : core(std::move(features), std::move(model), validated(p).batch_size,
           langevin::last_iterate{}, {p.warmup, p.inner_steps, 0.0, p.init, p.prior, p.warm_start}),
      params_(p),
      next_(this->dimension(), this->num_arms()) {}

template <RewardModel Model>
template <uniform_random_bit_generator URBG>
Eigen::Index ts_sgld<Model>::select(URBG& gen) {
  if (const auto arm = this->warm_up_arm()) return *arm;
  this->source().begin_round(params_.inner_steps, gen);
  const Eigen::ArrayXd& pulls = this->statistics().counts();
  const bool preconditioned = params_.metric == step_metric::fisher;
  this->advance_all(next_, [&](Eigen::Index a) {  // eq. 2
    const double n = pulls(a);  // >= Omega >= 1: every arm is past its warm-up
    return langevin::step_settings{params_.step_size, std::sqrt(params_.temperature / n),
                                   1.0 / n, preconditioned ? n : 0.0};
  }, gen);
  try {
    this->commit_all(next_);
  } catch (const std::domain_error& diverged) {
    // With h past 2 / L (L: one reward's curvature) a chain grows geometrically and looks
    // sane for hundreds of rounds before it overflows; from its last finite iterate the next
    // move overflows again, so the remedy is a new policy, not another select().
    // In the Fisher metric P times the curvature of the mean log-posterior is 1 (J / n each),
    // so the bound is a number; in the identity metric it is the model's.
    const char* bound =
        preconditioned
            ? "; the Fisher metric measures h in one reward's curvature: keep h below about 2"
            : "; in the identity metric keep h below about 2 / L, L the curvature of one "
              "reward's log-likelihood: 1 / sigma^2 for gaussian_model(sigma^2), the largest "
              "rate for a Poisson; or use metric = step_metric::fisher";
    throw std::domain_error(std::string(diverged.what()) + " (h = " +
                            detail::value_text(params_.step_size) + bound +
                            ". The chains are unchanged, and every later select() will throw: "
                            "rebuild the policy, or restore a checkpoint)");
  }
  return this->greedy_argmax();
}

template <RewardModel Model>
template <uniform_random_bit_generator URBG>
void ts_sgld<Model>::update(Eigen::Index arm, double reward, URBG& gen) {
  core::update(arm, reward, gen, [](Eigen::Index /*n*/) {});
}

static_assert(Policy<ts_sgld<>>);

}  // namespace sabandit
