#pragma once
// Gaussian rewards with known noise variance: x ~ N(<phi, theta>, sigma^2).
#include <cmath>
#include <numbers>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/errors.hpp"

namespace sabandit {

class gaussian_model {
 public:
  /// sigma^2 > 0; the paper's experiments use 1.
  explicit gaussian_model(double noise_variance = 1.0) : noise_variance_(noise_variance) {
    detail::require_positive("noise_variance", noise_variance);
  }

  [[nodiscard]] double noise_variance() const noexcept { return noise_variance_; }

  [[nodiscard]] double mean(const vector_cref& phi, const vector_cref& theta) const {
    return phi.dot(theta);
  }

  [[nodiscard]] double log_likelihood(double x, const vector_cref& phi,
                                      const vector_cref& theta) const {
    const double residual = x - mean(phi, theta);
    return -0.5 * std::log(2.0 * std::numbers::pi * noise_variance_) -
           0.5 * residual * residual / noise_variance_;
  }

  /// grad (1/m) sum_i log p(x_i | theta) = phi (xbar - <phi, theta>) / sigma^2.
  void grad_log_likelihood(const vector_cref& rewards, const vector_cref& phi,
                           const vector_cref& theta, vector_ref grad) const {
    grad_log_likelihood_at_mean(rewards.mean(), phi, theta, grad);
  }

  void grad_log_likelihood_at_mean(double xbar, const vector_cref& phi, const vector_cref& theta,
                                   vector_ref grad) const {
    grad = phi * ((xbar - mean(phi, theta)) / noise_variance_);
  }

  /// The minimum-norm maximiser: theta = phi xbar / |phi|^2 (so <phi, theta> = xbar).
  void fit_mean(double xbar, const vector_cref& phi, vector_ref theta) const {
    theta = phi * (xbar / phi.squaredNorm());
  }

 private:
  double noise_variance_;
};

static_assert(WindowMeanRewardModel<gaussian_model>);

}  // namespace sabandit
