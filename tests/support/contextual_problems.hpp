#pragma once
// Synthetic contextual problems with a known best policy, for the contextual policies' tests:
// contexts x = (z, 1) with z ~ N(0, I_{d-1}) (the constant 1 as the data sets' protocol appends
// it), arm a's parameter theta*_a ~ N(0, I / d) drawn from the problem's seed, so that
// <x, theta*_a> has variance about 1, and
//  - linear_problem:   rewards <x, theta*_a> + noise_sd N(0, 1), mean <x, theta*_a>;
//  - logistic_problem: rewards Bernoulli(sigmoid(<x, theta*_a>)), mean the sigmoid.
// The best policy plays argmax_a <x, theta*_a> (the link is increasing), and gap(x, a) is the
// pseudo-regret of playing a.
#include <cmath>
#include <cstdint>

#include <Eigen/Core>

#include "sabandit/models/bernoulli.hpp"
#include "sabandit/random/bits.hpp"
#include "sabandit/random/normal.hpp"
#include "sabandit/random/xoshiro.hpp"

namespace sabandit::test {

/// theta*, contexts and the best policy shared by the problems below; `Mean` maps eta to the
/// expected reward.
class contextual_problem_base {
 public:
  contextual_problem_base(Eigen::Index arms, Eigen::Index dimension, std::uint64_t seed,
                          double scale = 1.0)
      : theta_(arms > 0 ? dimension : 0, arms) {
    xoshiro256pp gen(seed);
    fill_standard_normal(theta_, gen);
    theta_ *= scale / std::sqrt(static_cast<double>(dimension));
  }
  /// A fresh context (z, 1).
  template <class URBG>
  Eigen::VectorXd context(URBG& gen) const {
    Eigen::VectorXd x(theta_.rows());
    fill_standard_normal(x, gen);
    x(x.size() - 1) = 1.0;
    return x;
  }
  /// <x, theta*_a>.
  double eta(const Eigen::VectorXd& x, Eigen::Index arm) const { return x.dot(theta_.col(arm)); }
  /// argmax_a <x, theta*_a>.
  Eigen::Index best_arm(const Eigen::VectorXd& x) const {
    Eigen::Index best = 0;
    (theta_.transpose() * x).maxCoeff(&best);
    return best;
  }
  /// theta* (d x K).
  const Eigen::MatrixXd& parameters() const { return theta_; }

 private:
  Eigen::MatrixXd theta_;
};

/// Gaussian rewards around <x, theta*_a> (header comment).
class linear_problem : public contextual_problem_base {
 public:
  linear_problem(Eigen::Index arms, Eigen::Index dimension, std::uint64_t seed,
                 double noise_sd = 0.5)
      : contextual_problem_base(arms, dimension, seed), noise_sd_(noise_sd) {}
  double mean(const Eigen::VectorXd& x, Eigen::Index arm) const { return eta(x, arm); }
  double gap(const Eigen::VectorXd& x, Eigen::Index arm) const {
    return mean(x, best_arm(x)) - mean(x, arm);
  }
  template <class URBG>
  double reward(const Eigen::VectorXd& x, Eigen::Index arm, URBG& gen) const {
    return mean(x, arm) + noise_sd_ * standard_normal(gen);
  }

 private:
  double noise_sd_;
};

/// Bernoulli rewards of mean sigmoid(<x, theta*_a>) (header comment); `scale` multiplies
/// theta* (larger: more separable classes).
class logistic_problem : public contextual_problem_base {
 public:
  logistic_problem(Eigen::Index arms, Eigen::Index dimension, std::uint64_t seed,
                   double scale = 2.0)
      : contextual_problem_base(arms, dimension, seed, scale) {}
  double mean(const Eigen::VectorXd& x, Eigen::Index arm) const { return sigmoid(eta(x, arm)); }
  double gap(const Eigen::VectorXd& x, Eigen::Index arm) const {
    return mean(x, best_arm(x)) - mean(x, arm);
  }
  template <class URBG>
  double reward(const Eigen::VectorXd& x, Eigen::Index arm, URBG& gen) const {
    return to_unit_interval(random_bits64(gen)) < mean(x, arm) ? 1.0 : 0.0;
  }
};

}  // namespace sabandit::test
