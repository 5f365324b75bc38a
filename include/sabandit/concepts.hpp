#pragma once
// The three customisation points of sabandit. Requirement tables: docs/concepts.md.
// It sits below every other layer (DESIGN.md, "Arrows point one way"): it includes only the
// engine it names as the default, and declares the one model type a refinement mentions.
#include <concepts>

#include <Eigen/Core>

#include "sabandit/random/engine.hpp"
#include "sabandit/random/xoshiro.hpp"

namespace sabandit {

struct normal_prior;  // models/prior.hpp: the prior of ClosedFormMapModel's MAP estimate

/// Read-only vector argument: binds to Eigen vectors and contiguous column blocks alike
/// (`Theta.col(a)`) without a copy.
using vector_cref = Eigen::Ref<const Eigen::VectorXd>;
/// Writable vector argument, used for gradients so that a round allocates nothing.
using vector_ref = Eigen::Ref<Eigen::VectorXd>;

/// A likelihood p(x | theta) of one arm's rewards: a generalised linear model whose expected
/// reward is g(<phi, theta>) for a *monotone increasing* inverse link g (identity for the
/// Gaussian of the paper's Preliminaries, logistic for Bernoulli, exp for Poisson). That
/// monotonicity is a semantic requirement the compiler cannot check: it is what lets every
/// policy decide on the linear predictor <phi_a, theta_a,t> (Alg. 1 line 5), whose argmax is
/// then the argmax of expected reward. Langevin policies differentiate the likelihood (line 8):
///  - `m.mean(phi, theta)`                       expected reward g(<phi, theta>), a double, used
///                                               for reporting and regret, never to decide;
///  - `m.log_likelihood(x, phi, theta)`          log p(x | theta), a double (the warm start's
///                                               objective);
///  - `m.grad_log_likelihood(xs, phi, theta, g)` writes into g (size d) the gradient in theta of
///    the *mean* log-likelihood (1/m) sum_i log p(xs_i | theta) over the window xs (size m >= 1).
/// Optionally, `m.validate_reward(x)` declares the model's support (SupportDeclaringModel
/// below; the built-in supports: models/support.hpp): it throws std::invalid_argument naming "reward" and x for a reward the
/// model cannot produce, and every policy over the model calls it (with the numeric contract,
/// |x| <= 1e150) before anything changes. Without it, any reward within the contract is taken.
/// A model may also declare the interval its support spans, `M::reward_range()`
/// (RangeDeclaringModel), against which a restore checks the reward sums a state keeps.
/// The paper's analysis assumes log p(x | theta) concave in theta; each model's header says
/// whether it is.
template <class M>
concept RewardModel =
    std::copy_constructible<M> &&
    requires(const M& model, double x, const vector_cref& phi, const vector_cref& theta,
             const vector_cref& rewards, vector_ref grad) {
      { model.mean(phi, theta) } -> std::convertible_to<double>;
      { model.log_likelihood(x, phi, theta) } -> std::convertible_to<double>;
      model.grad_log_likelihood(rewards, phi, theta, grad);
    };

/// A model that declares its support: `m.validate_reward(x)` throws std::invalid_argument,
/// naming "reward" and x, for a reward the model cannot produce (models/support.hpp).
template <class M>
concept SupportDeclaringModel = requires(const M& model, double x) { model.validate_reward(x); };

/// The smallest closed interval [lower, upper] that holds every reward a model can produce:
/// [0, 1] for Bernoulli, [0, 1e150] for Poisson counts and exponential durations; and what else
/// a sum of such rewards keeps of them: whole numbers for Poisson counts, a positive sum for
/// exponential durations (which are never 0).
struct reward_interval {
  double lower;  ///< the infimum of the support
  double upper;  ///< its supremum
  /// Every reward is above `lower`, not equal to it (exponential durations: (0, 1e150]).
  bool lower_excluded = false;
  /// Every reward is a whole number (Poisson counts), so every sum of them is one.
  bool whole = false;
};

/// A model that declares the interval its support spans: `M::reward_range()`, a
/// reward_interval, so that a restore can check the reward sums a state keeps (every mean of
/// the rewards lies in it; models/support.hpp).
template <class M>
concept RangeDeclaringModel = requires {
  { M::reward_range() } -> std::convertible_to<reward_interval>;
};

/// A refinement for exponential-family models with a canonical link, whose mean
/// log-likelihood gradient depends on a window only through its mean (Gaussian, Bernoulli,
/// Poisson: phi (xbar - g(<phi, theta>)) up to a scale): O(d) per gradient instead of O(m d).
///  - `m.grad_log_likelihood_at_mean(xbar, phi, theta, g)`  same gradient as above, from xbar.
template <class M>
concept WindowMeanRewardModel =
    RewardModel<M> && requires(const M& model, double xbar, const vector_cref& phi,
                               const vector_cref& theta, vector_ref out) {
      model.grad_log_likelihood_at_mean(xbar, phi, theta, out);
    };

/// A refinement for models whose warm start has a closed form (the Gaussian):
///  - `m.map_estimate(xbar, count, phi, prior, theta)` writes the MAP estimate of theta from
///    `count` rewards of mean `xbar` under `prior`.
/// Other models get the generic warm start: a line-searched gradient ascent on the same
/// log-posterior (policies/langevin/warm_start.hpp).
template <class M>
concept ClosedFormMapModel =
    WindowMeanRewardModel<M> && requires(const M& model, double xbar, const vector_cref& phi,
                                         const normal_prior& prior, vector_ref out) {
      model.map_estimate(xbar, xbar, phi, prior, out);
    };

/// A model with a conjugate posterior, for exact Thompson sampling (thompson<Model>,
/// epsilon_ts<Model>). The posterior is a small value:
///  - `M::default_conjugate_prior()`      a `M::conjugate_prior_type` (normal, beta, gamma,
///                                         inverse gamma);
///  - `m.posterior(prior)`                 a `M::posterior_type` holding no data yet;
///  - `post.update(x)`, `post.mean()`, `post.sample(gen, tau)` (tau multiplies the variance,
///    about, for non-normal posteriors), `Post::validate_reward(x)` (throws for x outside the
///    model's support, before anything changes; thompson checks rewards with it, so it should
///    be the model's own `validate_reward` when the model declares one).
template <class M>
concept ConjugateRewardModel =
    RewardModel<M> &&
    requires(const M& model, const typename M::conjugate_prior_type& prior,
             typename M::posterior_type& post, const typename M::posterior_type& cpost,
             double x, default_engine& gen) {
      { M::default_conjugate_prior() } -> std::convertible_to<typename M::conjugate_prior_type>;
      { model.posterior(prior) } -> std::convertible_to<typename M::posterior_type>;
      M::posterior_type::validate_reward(x);
      post.update(x);
      { cpost.mean() } -> std::convertible_to<double>;
      { cpost.sample(gen, x) } -> std::convertible_to<double>;
    };

/// A model of a one-parameter exponential family in its mean, for KL-UCB:
///  - `m.divergence(p, q)`     KL(P_p || P_q) between the distributions of means p and q;
///  - `m.reward_variance(q)`   the variance V(q) at mean q, so that d KL(p, q)/dq = (q - p)/V(q);
///  - `M::mean_upper_limit()`  the supremum of the means (1 for Bernoulli, +infinity otherwise).
template <class M>
concept DivergenceRewardModel = std::copy_constructible<M> && requires(const M& model, double p) {
  { model.divergence(p, p) } -> std::convertible_to<double>;
  { model.reward_variance(p) } -> std::convertible_to<double>;
  { M::mean_upper_limit() } -> std::convertible_to<double>;
};

/// A source of rewards for simulation: K arms with known true means (for pseudo-regret).
/// `pull(a, gen)` draws one reward of arm a from the engine it is given; the simulator hands
/// each arm its own stream, so the k-th pull of an arm is the same whichever policy pulls it.
template <class E, class URBG = default_engine>
concept Environment = requires(const E& env, E& mutable_env, Eigen::Index arm, URBG& gen) {
  { env.num_arms() } -> std::convertible_to<Eigen::Index>;
  { env.mean(arm) } -> std::convertible_to<double>;
  { mutable_env.pull(arm, gen) } -> std::convertible_to<double>;
};

/// An online bandit policy. The caller owns the engine, as with `<random>` distributions.
///  - `p.num_arms()`             K;
///  - `p.select(gen)`            the arm to play, in [0, K);
///  - `p.update(arm, x, gen)`    learns reward x of `arm`; throws std::out_of_range for a bad
///                               arm and std::invalid_argument for a non-finite x (sabandit's
///                               policies: also for |x| > 1e150 or x outside their model's
///                               support), leaving the policy unchanged.
/// Policies are regular values: a copy is a checkpoint that replays the same decisions.
template <class P, class URBG = default_engine>
concept Policy = std::copy_constructible<P> && uniform_random_bit_generator<URBG> &&
                 requires(const P& cpolicy, P& policy, URBG& gen, Eigen::Index arm, double x) {
                   { cpolicy.num_arms() } -> std::convertible_to<Eigen::Index>;
                   { policy.select(gen) } -> std::convertible_to<Eigen::Index>;
                   policy.update(arm, x, gen);
                 };

}  // namespace sabandit
