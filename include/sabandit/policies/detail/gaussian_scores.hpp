#pragma once
// The decision rule every Thompson-style policy here shares: arm a's score is drawn from
// N(center_a, spread_a^2) and the argmax wins (Alg. 1 lines 4-5; Alg. "TS in MAB" lines 2-3).
//
// For a d-dimensional parameter this is still one scalar normal per arm: if
// theta_a ~ N(c_a, s^2 I) then <phi_a, theta_a> ~ N(<phi_a, c_a>, s^2 |phi_a|^2), and only the
// scores enter the argmax. So a round costs K normals whatever d is.
#include <random>

#include <Eigen/Core>

#include "sabandit/random/normal.hpp"

namespace sabandit::detail {

/// Index of the largest coefficient; ties go to the lowest index.
template <class Derived>
[[nodiscard]] Eigen::Index argmax(const Eigen::DenseBase<Derived>& scores) {
  Eigen::Index best = 0;
  scores.maxCoeff(&best);
  return best;
}

class gaussian_scores {
 public:
  explicit gaussian_scores(Eigen::Index num_arms)
      : center_(Eigen::ArrayXd::Zero(num_arms)),
        spread_(Eigen::ArrayXd::Zero(num_arms)),
        draw_(num_arms) {}

  void set(Eigen::Index arm, double center, double spread) noexcept {
    center_(arm) = center;
    spread_(arm) = spread;
  }

  [[nodiscard]] const Eigen::ArrayXd& centers() const noexcept { return center_; }
  [[nodiscard]] const Eigen::ArrayXd& spreads() const noexcept { return spread_; }

  /// argmax_a center_a + spread_a z_a with z ~ N(0, I_K): one normal fill, one fused pass.
  template <std::uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index sample_argmax(URBG& gen) {
    fill_standard_normal(draw_, gen);
    return argmax(center_ + spread_ * draw_);
  }

  /// argmax_a center_a: the greedy decision.
  [[nodiscard]] Eigen::Index center_argmax() const { return argmax(center_); }

 private:
  Eigen::ArrayXd center_;
  Eigen::ArrayXd spread_;
  Eigen::ArrayXd draw_;  // scratch, kept to make rounds allocation-free
};

}  // namespace sabandit::detail
