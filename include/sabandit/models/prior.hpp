#pragma once
// The prior pi_a of Alg. 1 line 1: an isotropic normal N(mean 1, variance I) on an arm's
// parameter theta_a. Langevin policies use it three ways: a draw from it can start an arm's
// chain (line 1), the warm start is the MAP estimate of the warm-up rewards under it, and
// TS-SGLD's drift includes its gradient (posterior = prior x likelihood, Mazumdar et al. 2020).
#include <cmath>
#include <concepts>
#include <limits>
#include <string>
#include <string_view>

#include <Eigen/Core>

#include "sabandit/detail/vector_ops.hpp"
#include "sabandit/errors.hpp"

namespace sabandit {

/// theta ~ N(mean 1, variance I). variance = +infinity is the flat (improper) prior: it adds
/// nothing to a log-posterior, so the MAP is the maximum-likelihood estimate; it cannot be
/// sampled from.
struct normal_prior {
  double mean = 0.0;      ///< every coordinate of the prior mean; finite
  double variance = 1.0;  ///< > 0, or +infinity for the flat prior

  /// The flat prior: the warm start becomes the maximum-likelihood fit, as in the paper's
  /// experiments (which state no prior for their warm start).
  [[nodiscard]] static normal_prior flat() {
    return {0.0, std::numeric_limits<double>::infinity()};
  }
  /// Whether this is the flat (improper) prior.
  [[nodiscard]] bool is_flat() const noexcept { return std::isinf(variance); }
  /// 1 / variance: 0 for the flat prior.
  [[nodiscard]] double precision() const noexcept { return 1.0 / variance; }

  /// Saves or restores the mean and variance (state/persist.hpp); the policy that holds the
  /// prior checks them when it is rebuilt.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    ar("mean", self.mean);
    ar("variance", self.variance);
  }

  /// Adds weight * grad log pi(theta) = -weight (theta - mean) / variance to `grad`.
  template <class Theta, class Grad>
  void add_log_density_gradient(const Eigen::MatrixBase<Theta>& theta, double weight,
                                Eigen::MatrixBase<Grad>& grad) const {
    if (is_flat()) return;
    const double scale = weight * precision();
    if constexpr (detail::contiguous_vector<Theta> && detail::contiguous_vector<Grad>) {
      // a loop, the expression's operations in its order, one per statement so that none is
      // fused into an FMA (detail/vector_ops.hpp)
      const double* t = detail::coefficients(theta);
      double* g = detail::coefficients_out(grad);
      for (Eigen::Index i = 0; i < detail::length(grad); ++i) {
        const double pull = scale * (t[i] - mean);
        g[i] -= pull;
      }
    } else {
      grad -= scale * (theta.array() - mean).matrix();
    }
  }
  /// log pi(theta) up to its normalising constant (0 for the flat prior).
  template <class Theta>
  [[nodiscard]] double log_density(const Eigen::MatrixBase<Theta>& theta) const {
    if (is_flat()) return 0.0;
    return -0.5 * precision() * (theta.array() - mean).matrix().squaredNorm();
  }
};

/// A conjugate prior written as data: `count` pseudo-rewards whose sum is `sum` (Diaconis and
/// Ylvisaker's form, log pi(eta) = sum eta - count b(eta) for a canonical-link model). The
/// default conjugate priors of exact TS are of this form: Beta(alpha, beta) is alpha successes in
/// alpha + beta rewards, Gamma(shape, rate) is shape events in an exposure of rate.
/// Scale-free TS-SA (ts_sa's default) adds them to an arm's rewards: its warm start fits their
/// mean, its Fisher information counts them, and its mean-coordinate recursion then tracks the
/// conjugate posterior mean (sum + x_1 + ... + x_m) / (count + m), exact TS's centre
/// (docs/scale-free-ts-sa.md, "The prior"). None, {0, 0}, is the flat prior.
struct pseudo_rewards {
  double sum = 0.0;    ///< the pseudo-rewards' sum; |sum| <= 1e150
  double count = 0.0;  ///< how many they weigh; in [0, 1e100]

  /// Whether there are none (count and sum 0): the policy's normal prior alone.
  [[nodiscard]] bool empty() const noexcept { return sum == 0.0 && count == 0.0; }

  /// Saves or restores both (state/persist.hpp); the policy checks them when it is rebuilt.
  /// Added after version 1's first states: a state without them had none (0, 0).
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    ar.optional("sum", self.sum, 0.0);
    ar.optional("count", self.count, 0.0);
  }
};

namespace detail {
/// Checks pseudo-rewards: |sum| <= 1e150 and count in [0, 1e100], named `name`.
inline void validate(const pseudo_rewards& prior, std::string_view name) {
  if (!(std::abs(prior.sum) <= bounds::prior_mean))
    throw_invalid(join({name, ".sum"}), prior.sum, "must be finite with |sum| <= 1e150");
  if (!(prior.count >= 0.0 && prior.count <= 1e100))
    throw_invalid(join({name, ".count"}), prior.count, "must lie in [0, 1e100]");
}

/// Checks a prior: |mean| <= 1e150 and variance in [1e-100, 1e100], or +infinity (flat) unless
/// `sampled` says whether the policy will draw from it (line 1), which a flat
/// prior cannot serve.
inline void validate(const normal_prior& prior, bool sampled) {
  if (!(std::abs(prior.mean) <= bounds::prior_mean))
    throw_invalid("prior.mean", prior.mean, "must be finite with |prior.mean| <= 1e150");
  if (!(prior.variance > 0.0) || (sampled && prior.is_flat()))
    throw_invalid("prior.variance", prior.variance,
                  sampled ? "must be finite and > 0 to draw theta from the prior"
                          : "must be > 0 (+infinity for the flat prior)");
  if (!prior.is_flat()) require_scale("prior.variance", prior.variance);
}
}  // namespace detail

/// The prior a Langevin policy uses by default for `Model`: the model's own `default_prior()`
/// if it has one (the Gaussian's is flat, so the paper's warm start is unchanged), otherwise
/// N(0, 1) — weakly informative on the linear-predictor scale of a logistic or log link, and
/// proper, so that a warm-up of all-zero or all-one rewards still has a finite MAP.
template <class Model>
[[nodiscard]] normal_prior default_prior() {
  if constexpr (requires { { Model::default_prior() } -> std::convertible_to<normal_prior>; }) {
    return Model::default_prior();
  } else {
    return {};
  }
}

/// The pseudo-rewards scale-free TS-SA adds by default for `Model`: the model's own
/// `default_pseudo_rewards()` (Bernoulli and Poisson: their exact TS's default conjugate prior),
/// or none.
template <class Model>
[[nodiscard]] pseudo_rewards default_pseudo_rewards() {
  if constexpr (requires { { Model::default_pseudo_rewards() } -> std::convertible_to<pseudo_rewards>; }) {
    return Model::default_pseudo_rewards();
  } else {
    return {};
  }
}

}  // namespace sabandit
