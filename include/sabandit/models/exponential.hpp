#pragma once
// Exponential rewards (durations: session lengths, waiting times, times to complete) with the
// log link, x > 0:
//   E[x | theta] = e^eta,  eta = <phi, theta>,
//   log p(x | theta) = -eta - x e^-eta.
// Concave in theta (the second derivative in eta is -x e^-eta), the paper's assumption.
// The log link is not the canonical one (-1 / mu), and it is the useful one here: a change of
// unit (seconds to minutes) only shifts eta by a constant, and the Fisher information of one
// reward about eta is 1 at every eta, so the Langevin policies' steps and decision spreads are
// the same in any unit. With Jeffreys' prior (flat on eta; InverseGamma(0, 0) on the mean for
// exact TS) nothing else carries a unit: every policy over this model decides the same
// whatever unit the durations are recorded in (tested for units from 1e-9 to 1e13, against
// seconds: tests/unit/durations_test.cpp).
//
// The policies maximise the expected duration. To minimise one (a latency), use a model of your
// own whose mean is -e^(-eta) on the negated durations (docs/guide.md, "Your own model").
//
// Numerics: the model mean e^eta is finite for eta <= 709.78, and the gradient's x e^-eta for
// rewards within the numeric contract (x <= 1e150) near the maximum-likelihood eta = log xbar.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/detail/vector_ops.hpp"
#include "sabandit/models/inverse_gamma_posterior.hpp"
#include "sabandit/models/prior.hpp"
#include "sabandit/models/support.hpp"

namespace sabandit {

/// Exponential durations with the log link; a RewardModel with a window-mean gradient, an exact
/// warm start, unit Fisher information, a conjugate (inverse gamma) posterior and a divergence.
class exponential_model {
 public:
  /// Flat on eta = log mean, which is Jeffreys' prior (the information about eta is 1): the
  /// warm start is the warm-up rewards' log-average and no prior sets a unit. Durations are
  /// positive (validate_reward), so a warm-up always has a finite maximum-likelihood eta.
  [[nodiscard]] static normal_prior default_prior() { return normal_prior::flat(); }
  /// "exponential", the name in a saved policy's type (the model has no state of its own).
  [[nodiscard]] static std::string state_name() { return "exponential"; }

  /// The support (models/support.hpp): durations in (0, 1e150]; throws std::invalid_argument
  /// naming the reward otherwise. Every policy over the model checks it.
  static void validate_reward(double x) { detail::require_positive_reward(x); }
  /// (0, 1e150]: durations are positive, so a restore refuses a saved sum of 0 or less for an
  /// arm with rewards.
  [[nodiscard]] static reward_interval reward_range() noexcept {
    return {.lower = 0.0, .upper = bounds::reward, .lower_excluded = true};
  }

  // --- Conjugate posterior (exact inverse-gamma TS, epsilon-TS) ----------------------------
  /// TS's prior is on the mean.
  using conjugate_prior_type = inverse_gamma_prior;
  /// The inverse gamma posterior that thompson<exponential_model> samples.
  using posterior_type = inverse_gamma_posterior;
  /// Jeffreys' prior, InverseGamma(0, 0): no unit (models/inverse_gamma_posterior.hpp).
  [[nodiscard]] static inverse_gamma_prior default_conjugate_prior() { return {}; }
  /// The same prior as pseudo-rewards (models/prior.hpp): none for Jeffreys'.
  [[nodiscard]] static pseudo_rewards default_pseudo_rewards() {
    const inverse_gamma_prior prior = default_conjugate_prior();
    return {prior.scale, prior.shape};
  }
  /// The posterior before any reward: the prior itself.
  [[nodiscard]] inverse_gamma_posterior posterior(const inverse_gamma_prior& prior) const {
    return inverse_gamma_posterior(prior);
  }

  // --- Divergence (KL-UCB for exponential families, Cappe et al. 2013) ----------------------
  /// KL(Exp(mean p) || Exp(mean q)) = p / q - 1 - log(p / q), evaluated as y - log1p(y) with
  /// y = (p - q) / q, which keeps its digits when p and q are close (the index's regime);
  /// +infinity where a mean is not in (0, infinity) (no exponential law has it) and where
  /// p / q overflows.
  [[nodiscard]] double divergence(double p, double q) const noexcept {
    constexpr double infinity = std::numeric_limits<double>::infinity();
    if (!(p > 0.0 && q > 0.0) || std::isinf(q)) return infinity;
    const double y = (p - q) / q;
    return std::isfinite(y) ? y - std::log1p(y) : infinity;
  }
  /// q^2: the exponential variance at mean q.
  [[nodiscard]] double reward_variance(double q) const noexcept { return q * q; }
  /// Means are unbounded above.
  [[nodiscard]] static double mean_upper_limit() noexcept {
    return std::numeric_limits<double>::infinity();
  }

  // --- Likelihood --------------------------------------------------------------------------
  /// E[x | theta] = e^eta, eta = <phi, theta>.
  [[nodiscard]] double mean(const vector_cref& phi, const vector_cref& theta) const {
    return mean_at(detail::dot(phi, theta));
  }
  /// The same at eta.
  [[nodiscard]] static double mean_at(double eta) noexcept { return std::exp(eta); }
  /// -eta - x e^-eta.
  [[nodiscard]] double log_likelihood(double x, const vector_cref& phi,
                                      const vector_cref& theta) const {
    const double eta = detail::dot(phi, theta);
    return -eta - x * std::exp(-eta);
  }
  /// grad (1/m) sum_i log p(x_i | theta) = phi (xbar e^-eta - 1).
  void grad_log_likelihood(const vector_cref& rewards, const vector_cref& phi,
                           const vector_cref& theta, vector_ref grad) const {
    grad_log_likelihood_at_mean(detail::mean(rewards), phi, theta, grad);
  }
  /// The same from the rewards' mean alone; a template for the Langevin policies' fixed-size
  /// views, as canonical_link's (models/canonical_link.hpp).
  template <class Phi, class Theta, class Grad>
  void grad_log_likelihood_at_mean(double xbar, const Eigen::MatrixBase<Phi>& phi,
                                   const Eigen::MatrixBase<Theta>& theta,
                                   const Eigen::MatrixBase<Grad>& grad_out) const {
    auto& grad = const_cast<Eigen::MatrixBase<Grad>&>(grad_out);  // NOLINT: Eigen's idiom
    detail::scaled(grad, xbar * std::exp(-detail::dot(phi, theta)) - 1.0, phi);
  }

  // --- Warm start (ClosedFormMapModel) -------------------------------------------------------
  /// The MAP estimate of theta from `count` durations of mean `xbar` > 0 under `prior`: the
  /// prior's mean moved along phi, theta = mean 1 + c phi, since the likelihood sees theta only
  /// through eta = <phi, theta>. Flat prior: eta = log xbar, exactly. Normal prior N(m, v I):
  /// eta solves count (xbar e^-eta - 1) = (eta - eta0) lambda, with eta0 = m sum(phi) and
  /// lambda = 1 / (v |phi|^2) the prior's precision on eta; the left side minus the right
  /// falls as eta rises, so the root lies between eta0 and log xbar, where Newton's method,
  /// with bisection wherever a step leaves that bracket, finds it to rounding. The generic
  /// warm start (a line search from eta = 0) stopped short of it for durations of 1e13 and
  /// beyond (its secant curvature is huge there), which made the warm start depend on the unit.
  void map_estimate(double xbar, double count, const vector_cref& phi, const normal_prior& prior,
                    vector_ref theta) const {
    const double phi_norm2 = detail::squared_norm(phi);
    const double eta0 = prior.mean * detail::sum(phi);
    double eta = std::log(xbar);
    if (!prior.is_flat()) {
      const double lambda = prior.precision() / phi_norm2;
      const auto excess = [&](double e) {  // d/d eta of the log-posterior, falling in eta
        return count * (xbar * std::exp(-e) - 1.0) - lambda * (e - eta0);
      };
      double lo = std::min(eta0, eta), hi = std::max(eta0, eta);
      for (int iteration = 0; iteration < 2000 && lo < hi; ++iteration) {
        const double f = excess(eta);
        if (f == 0.0) break;
        (f > 0.0 ? lo : hi) = eta;
        const double slope = -count * xbar * std::exp(-eta) - lambda;
        double next = eta - f / slope;
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
        if (next == eta) break;  // rounding allows no closer point
        eta = next;
      }
    }
    detail::scaled_plus(theta, (eta - eta0) / phi_norm2, phi, prior.mean);
  }

  // --- Geometry (models/information.hpp) -----------------------------------------------------
  /// The Fisher information of one reward about eta: g'(eta)^2 / V(mu) = mu^2 / mu^2 = 1.
  [[nodiscard]] double information(const vector_cref& /*phi*/,
                                   const vector_cref& /*theta*/) const noexcept {
    return 1.0;
  }
  /// The same at eta.
  [[nodiscard]] static double information_at(double /*eta*/) noexcept { return 1.0; }
  /// The log link log(mu); NaN below 0, -infinity at 0.
  [[nodiscard]] double link(double mu) const noexcept { return std::log(mu); }
  /// g'(eta) = e^eta.
  [[nodiscard]] double mean_slope(const vector_cref& phi, const vector_cref& theta) const {
    return mean_slope_at(detail::dot(phi, theta));
  }
  /// The same at eta.
  [[nodiscard]] static double mean_slope_at(double eta) noexcept { return std::exp(eta); }
  /// -3 mu^(-1/3), the integral of V^(-2/3) = mu^(-4/3): increasing in mu, and the cube root
  /// of the inverse-gamma posterior's rate, normal to first order (Wilson & Hilferty 1931).
  [[nodiscard]] static double normalizing_coordinate(double mu) noexcept {
    return -3.0 / std::cbrt(mu);
  }
  /// d/d eta (-3 e^(-eta / 3)) = e^(-eta / 3).
  [[nodiscard]] static double normalizing_slope(const vector_cref& phi,
                                                const vector_cref& theta) noexcept {
    return normalizing_slope_at(detail::dot(phi, theta));
  }
  /// The same at eta.
  [[nodiscard]] static double normalizing_slope_at(double eta) noexcept {
    return std::exp(-eta / 3.0);
  }
};

static_assert(WindowMeanRewardModel<exponential_model>);
static_assert(ClosedFormMapModel<exponential_model>);
static_assert(ConjugateRewardModel<exponential_model>);
static_assert(DivergenceRewardModel<exponential_model>);
static_assert(SupportDeclaringModel<exponential_model>);

}  // namespace sabandit
