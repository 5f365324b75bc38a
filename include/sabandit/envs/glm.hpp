#pragma once
// Environments beyond the paper's Gaussian ones, for the non-identity links of
// models/bernoulli.hpp, models/poisson.hpp and models/exponential.hpp:
//  - gap settings in the style of SGR: K - 1 arms with mean best - gap, the best arm last
//    (so that ties broken towards low indices cannot flatter a policy);
//  - feature settings: arm a with features phi_a and a true parameter theta*_a, whose rewards
//    have mean g(<phi_a, theta*_a>) for the model's inverse link g.
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "sabandit/envs/arms.hpp"
#include "sabandit/envs/bandit_env.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/models/bernoulli.hpp"
#include "sabandit/random/engine.hpp"
#include "sabandit/random/normal.hpp"

namespace sabandit {

namespace detail {
template <class Arm>
bandit_env<Arm> gap_setting(Eigen::Index num_arms, double best, double gap) {
  require_at_least<Eigen::Index>("num_arms", num_arms, 2);
  require_state_size("a gap setting", num_arms, 2);  // before allocating the arms
  require_positive("gap", gap);
  if (std::isfinite(best)) require_gap_applies(best, gap, /*both_sides=*/false);  // else best is named below
  // The arms check their own mean; said in the caller's terms ("p = -0.05" named neither best
  // nor gap).
  const auto arm_of = [&](double mean, const std::string& name) {
    try {
      return Arm(mean);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("sabandit: " + name + " = " + value_text(mean) +
                                  " is no arm's mean: " + reason_of(e));
    }
  };
  const Arm best_arm = arm_of(best, "best");  // first: a bad best would be blamed on the gap
  const Arm other = arm_of(best - gap, "best - gap = " + value_text(best) + " - " + value_text(gap));
  std::vector<Arm> arms(static_cast<std::size_t>(num_arms - 1), other);
  arms.push_back(best_arm);
  return bandit_env<Arm>(std::move(arms));
}

template <class Arm, class MeanOf>
bandit_env<Arm> feature_setting(const Eigen::MatrixXd& features, const Eigen::MatrixXd& theta,
                                MeanOf mean_of) {
  if (features.rows() != theta.rows() || features.cols() != theta.cols() || features.size() == 0)
    throw_invalid("theta.rows() x theta.cols()",
                  std::to_string(theta.rows()) + " x " + std::to_string(theta.cols()),
                  "must equal the features' d x K and be non-empty");
  // Named in the caller's terms: the arms check their own mean, which named neither the
  // features nor theta ("mean = nan" for a NaN in theta: a probe's finding).
  for (Eigen::Index a = 0; a < features.cols(); ++a) {
    for (Eigen::Index i = 0; i < features.rows(); ++i) {
      if (std::isfinite(features(i, a)) && std::isfinite(theta(i, a))) continue;
      const std::string at = "(" + std::to_string(i) + ", " + std::to_string(a) + ")";
      require_finite("features" + at, features(i, a));
      require_finite("theta" + at, theta(i, a));
    }
  }
  std::vector<Arm> arms;
  for (Eigen::Index a = 0; a < features.cols(); ++a) {
    const double eta = features.col(a).dot(theta.col(a));
    try {
      arms.push_back(mean_of(eta));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("sabandit: <features.col(" + std::to_string(a) + "), theta.col(" +
                                  std::to_string(a) + ")> = " + value_text(eta) +
                                  " gives no arm: " + reason_of(e));
    }
  }
  return bandit_env<Arm>(std::move(arms));
}
}  // namespace detail

/// Bernoulli arms: the last has success probability `best`, the others best - gap.
[[nodiscard]] inline bandit_env<bernoulli_arm> make_bernoulli_gap(Eigen::Index num_arms,
                                                                  double best = 0.9,
                                                                  double gap = 0.5) {
  return detail::gap_setting<bernoulli_arm>(num_arms, best, gap);
}

/// Poisson arms: the last has mean `best`, the others best - gap.
[[nodiscard]] inline bandit_env<poisson_arm> make_poisson_gap(Eigen::Index num_arms,
                                                              double best = 3.0,
                                                              double gap = 0.5) {
  return detail::gap_setting<poisson_arm>(num_arms, best, gap);
}

/// Exponential arms (durations): the last has mean `best`, the others best - gap.
[[nodiscard]] inline bandit_env<exponential_arm> make_exponential_gap(Eigen::Index num_arms,
                                                                      double best = 2.0,
                                                                      double gap = 0.5) {
  return detail::gap_setting<exponential_arm>(num_arms, best, gap);
}

/// d x K features with iid N(0, 1/d) entries, so that |phi_a| is about 1 whatever d is.
template <uniform_random_bit_generator URBG>
[[nodiscard]] Eigen::MatrixXd random_features(Eigen::Index dimension, Eigen::Index num_arms,
                                              URBG& gen) {
  detail::require_at_least<Eigen::Index>("dimension", dimension, 1);
  detail::require_at_least<Eigen::Index>("num_arms", num_arms, 1);
  detail::require_state_size("random_features (dimension = " + std::to_string(dimension) + ")",
                             num_arms, dimension);  // before allocating d x K
  Eigen::MatrixXd phi(dimension, num_arms);
  fill_standard_normal(phi, gen);
  return phi / std::sqrt(static_cast<double>(dimension));
}

/// theta*_a = phi_a eta_a / |phi_a|^2: the minimum-norm parameter whose linear predictor
/// <phi_a, theta*_a> is eta_a (one entry per arm). std::invalid_argument, naming the arm, for a
/// non-finite eta_a, a column whose |phi_a|^2 is 0, infinite or NaN (theta would be too), or
/// a theta_a that overflows.
[[nodiscard]] inline Eigen::MatrixXd parameters_with_predictors(const Eigen::MatrixXd& features,
                                                                const Eigen::VectorXd& eta) {
  if (eta.size() != features.cols())
    detail::throw_invalid("eta.size()", eta.size(), "must equal the number of arms");
  Eigen::MatrixXd theta(features.rows(), features.cols());
  for (Eigen::Index a = 0; a < features.cols(); ++a) {
    const auto of_arm = [a] { return "(" + std::to_string(a) + ")"; };
    if (!std::isfinite(eta(a))) detail::throw_invalid("eta" + of_arm(), eta(a), "must be finite");
    const double norm2 = features.col(a).squaredNorm();
    if (!(norm2 > 0.0 && norm2 <= std::numeric_limits<double>::max()))
      detail::throw_invalid("features.col" + of_arm() + ".squaredNorm()", norm2,
                            "must be finite and > 0: theta would not be");
    theta.col(a) = features.col(a) * (eta(a) / norm2);
    // eta / |phi|^2 itself can overflow for tiny features (1e-160 and eta = 1 gave inf).
    if (!theta.col(a).allFinite())
      detail::throw_invalid("eta" + of_arm(), eta(a),
                            "over features.col" + of_arm() + ".squaredNorm() = " +
                                detail::value_text(norm2) + " makes theta non-finite: rescale");
  }
  return theta;
}

/// Linear-Gaussian arms: N(<phi_a, theta*_a>, noise_variance). features and theta are d x K.
[[nodiscard]] inline bandit_env<normal_arm> make_linear_gaussian(const Eigen::MatrixXd& features,
                                                                 const Eigen::MatrixXd& theta,
                                                                 double noise_variance = 1.0) {
  detail::require_positive("noise_variance", noise_variance);  // the arms' "variance", named here
  return detail::feature_setting<normal_arm>(
      features, theta, [&](double eta) { return normal_arm(eta, noise_variance); });
}

/// Logistic arms: Bernoulli(sigmoid(<phi_a, theta*_a>)). features and theta are d x K.
[[nodiscard]] inline bandit_env<bernoulli_arm> make_logistic(const Eigen::MatrixXd& features,
                                                             const Eigen::MatrixXd& theta) {
  return detail::feature_setting<bernoulli_arm>(
      features, theta, [](double eta) { return bernoulli_arm(sigmoid(eta)); });
}

}  // namespace sabandit
