#pragma once
// Synthetic contextual problems with a known parameter theta* (d x K, a column per arm): the
// best arm at every context is known, so a policy's pseudo-regret is exact and the oracle's is 0.
//  - contexts x = (z, 1) with z ~ N(0, I_{d-1}): the shape the classification protocol gives
//    (standardised features, then the constant 1);
//  - arm a's reward has mean g(<x, theta*_a>): linear-Gaussian (g the identity, Gaussian noise
//    of a given sd) or logistic (g the sigmoid, Bernoulli rewards).
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/models/bernoulli.hpp"
#include "sabandit/random/bernoulli.hpp"
#include "sabandit/random/engine.hpp"
#include "sabandit/random/normal.hpp"

namespace sabandit::contextual {

/// Rewards <x, theta> + noise_sd * N(0, 1).
struct gaussian_rewards {
  double noise_sd = 1.0;  ///< > 0
  /// The identity link.
  [[nodiscard]] static double mean_at(double eta) noexcept { return eta; }
  /// mean + noise_sd * N(0, 1), with sabandit's own normal sampler.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double draw(double mean, URBG& gen) const {
    return mean + noise_sd * standard_normal(gen);
  }
};

/// Bernoulli rewards of probability sigmoid(<x, theta>).
struct logistic_rewards {
  /// The logistic link, without overflow (models/bernoulli.hpp).
  [[nodiscard]] static double mean_at(double eta) noexcept { return sigmoid(eta); }
  /// 1 with probability `mean`, else 0.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] static double draw(double mean, URBG& gen) {
    return bernoulli_variate(mean, gen);
  }
};

/// A ContextualEnvironment with a known theta*: arm a's reward at context x has mean
/// g(<x, theta*_a>) (Rewards::mean_at) and is drawn by Rewards::draw.
template <class Rewards>
class linear_env {
 public:
  /// `theta` is d x K, d >= 2 (at least one random coordinate and the constant 1), K >= 2, all
  /// finite, and Gaussian rewards' noise_sd finite and > 0 (make_linear_gaussian_env checked it,
  /// this constructor did not: NaN drew NaN rewards); throws std::invalid_argument naming what
  /// is not.
  linear_env(Eigen::MatrixXd theta, Rewards rewards)
      : theta_(std::move(theta)), rewards_(std::move(rewards)), x_(theta_.rows()),
        spare_(theta_.rows()), means_(theta_.cols()) {
    if constexpr (std::same_as<Rewards, gaussian_rewards>)
      detail::require_positive("noise_sd", rewards_.noise_sd);
    detail::require_at_least<Eigen::Index>("theta.rows() (d)", theta_.rows(), 2);
    detail::require_at_least<Eigen::Index>("theta.cols() (K)", theta_.cols(), 2);
    for (Eigen::Index a = 0; a < theta_.cols(); ++a) {
      for (Eigen::Index i = 0; i < theta_.rows(); ++i) {
        detail::require_finite("theta(" + std::to_string(i) + ", " + std::to_string(a) + ")",
                               theta_(i, a));
      }
    }
    x_.setZero();
    means_.setZero();
  }

  /// K.
  [[nodiscard]] Eigen::Index num_arms() const noexcept { return theta_.cols(); }
  /// d.
  [[nodiscard]] Eigen::Index context_size() const noexcept { return theta_.rows(); }
  /// theta*, d x K.
  [[nodiscard]] const Eigen::MatrixXd& theta() const noexcept { return theta_; }
  /// How rewards are drawn around the means (gaussian_rewards' noise_sd).
  [[nodiscard]] const Rewards& rewards() const noexcept { return rewards_; }

  /// Draws x = (z, 1), z ~ N(0, I_{d-1}), with `gen`, and the arms' means at it. Throws
  /// std::domain_error naming the arm when <x, theta*_a> is not finite (a theta* near the
  /// doubles' limit, whose products overflow: the means were NaN, and the first reward said
  /// only "p = -nan"); the environment then keeps its previous context.
  template <uniform_random_bit_generator URBG>
  vector_cref next_context(URBG& gen) {
    const Eigen::Index d = context_size();
    Eigen::VectorXd& x = spare_;  // the new context, kept only if every mean is finite
    fill_standard_normal(x.head(d - 1), gen);
    x(d - 1) = 1.0;
    const Eigen::VectorXd eta = theta_.transpose() * x;
    for (Eigen::Index a = 0; a < num_arms(); ++a) {
      if (!std::isfinite(eta(a))) {
        throw std::domain_error("sabandit: linear_env: <x, theta(:, " + std::to_string(a) +
                                ")> = " + detail::value_text(eta(a)) +
                                " at this context overflows doubles; scale theta down");
      }
    }
    x_.swap(x);
    for (Eigen::Index a = 0; a < num_arms(); ++a) means_(a) = Rewards::mean_at(eta(a));
    drawn_ = true;
    return x_;
  }
  /// The current context (zero before the first next_context).
  [[nodiscard]] vector_cref context() const noexcept { return x_; }
  /// g(<x, theta*_a>) at the current context; std::out_of_range for a bad arm and
  /// std::logic_error before the first next_context (there is no context: the mean was 0).
  [[nodiscard]] double mean(Eigen::Index arm) const {
    detail::require_arm(arm, num_arms());
    require_context();
    return means_(arm);
  }
  /// The arm of the largest mean at the current context (the lowest index on a tie);
  /// std::logic_error before the first next_context, as mean.
  [[nodiscard]] Eigen::Index best_arm() const {
    require_context();
    Eigen::Index best = 0;
    means_.maxCoeff(&best);
    return best;
  }
  /// One reward of `arm` at the current context, drawn with `gen`.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double pull(Eigen::Index arm, URBG& gen) const {
    return rewards_.draw(mean(arm), gen);
  }

 private:
  void require_context() const {
    if (!drawn_) {
      throw std::logic_error("sabandit: linear_env: no context before the first next_context()");
    }
  }

  Eigen::MatrixXd theta_;
  Rewards rewards_;
  Eigen::VectorXd x_;
  Eigen::VectorXd spare_;  // next_context's draw
  Eigen::VectorXd means_;
  bool drawn_ = false;  // whether next_context has drawn a context
};

/// Linear-Gaussian rewards <x, theta_a> + noise_sd N(0, 1); noise_sd must be finite and > 0.
[[nodiscard]] inline linear_env<gaussian_rewards> make_linear_gaussian_env(Eigen::MatrixXd theta,
                                                                         double noise_sd) {
  detail::require_positive("noise_sd", noise_sd);
  return {std::move(theta), gaussian_rewards{noise_sd}};
}

/// Bernoulli rewards of probability sigmoid(<x, theta_a>).
[[nodiscard]] inline linear_env<logistic_rewards> make_logistic_env(Eigen::MatrixXd theta) {
  return {std::move(theta), logistic_rewards{}};
}

}  // namespace sabandit::contextual
