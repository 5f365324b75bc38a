#pragma once
// The decision rule every Thompson-style policy here shares: arm a's score is drawn from
// N(center_a, spread_a^2) and the argmax wins (Alg. 1 lines 4-5; Alg. "TS in MAB" lines 2-3).
//
// For a d-dimensional parameter this is still one scalar normal per arm: if
// theta_a ~ N(c_a, s^2 I) then <phi_a, theta_a> ~ N(<phi_a, c_a>, s^2 |phi_a|^2), and only the
// scores enter the argmax. So a round costs K normals whatever d is.
//
// An arm may carry a tilt kappa_a (scale-free TS-SA over a model that does not know its
// normalizing coordinate: models/information.hpp, normalizing_curvature): its score is then
// center_a + log(1 + kappa_a u) / kappa_a with u = spread_a z_a, the normal u drawn in the
// coordinate whose log-slope has curvature kappa_a and mapped back (+-infinity beyond that
// coordinate's range, on the side the tilt opens). Without tilts the loop is the plain one.
#include <cmath>
#include <limits>

#include <Eigen/Core>

#include "sabandit/detail/vector_ops.hpp"
#include "sabandit/random/engine.hpp"
#include "sabandit/random/normal.hpp"

namespace sabandit::detail {

/// Index of the largest coefficient; ties go to the lowest index. Two passes on purpose: a
/// vectorised max, then a scan for its first position. The one-pass "running max with index"
/// carries a compare-and-select dependency from element to element and measured 1.5-2x slower
/// at K = 1000 (bench/policies_bench.cpp) on scores already stored. gaussian_scores::
/// sample_argmax does use one pass, because there the dependency hides behind each score's
/// normal draw.
template <class Derived>
[[nodiscard]] Eigen::Index argmax(const Eigen::DenseBase<Derived>& scores) {
  const double best = scores.maxCoeff();
  Eigen::Index index = 0;
  while (index + 1 < scores.size() && !(scores(index) == best)) ++index;
  return index;
}

class gaussian_scores {
 public:
  explicit gaussian_scores(Eigen::Index num_arms)
      : center_(detail::filled<Eigen::ArrayXd>(num_arms, 0.0)),
        spread_(detail::filled<Eigen::ArrayXd>(num_arms, 0.0)),
        tilt_(detail::filled<Eigen::ArrayXd>(num_arms, 0.0)) {}

  void set(Eigen::Index arm, double center, double spread, double tilt = 0.0) noexcept {
    center_(arm) = center;
    spread_(arm) = spread;
    tilted_ += (tilt != 0.0 ? 1 : 0) - (tilt_(arm) != 0.0 ? 1 : 0);
    tilt_(arm) = tilt;
  }

  [[nodiscard]] const Eigen::ArrayXd& centers() const noexcept { return center_; }
  [[nodiscard]] const Eigen::ArrayXd& spreads() const noexcept { return spread_; }
  [[nodiscard]] const Eigen::ArrayXd& tilts() const noexcept { return tilt_; }

  /// argmax_a center_a + spread_a z_a with z ~ N(0, I_K), z drawn in arm order; ties go to
  /// the lowest index. One pass: each score is compared with the best so far as it is drawn.
  /// The comparison's dependency from arm to arm (a compare and a select) hides behind the
  /// ziggurat's own work, whereas the separate normal fill, multiply-add and two-pass argmax
  /// this replaces cost a third of a K = 10 round. The engine is the caller's, used exactly as
  /// fill_standard_normal uses it, so the decisions are unchanged.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index sample_argmax(URBG& gen) {
    const auto& tables = ziggurat();
    Eigen::Index best_arm = 0;
    if (tilted_ != 0) {
      with_local_engine(gen, [&](auto& engine) {
        double best = -std::numeric_limits<double>::infinity();
        for (Eigen::Index a = 0; a < center_.size(); ++a) {
          const double score = tilted(a, spread_(a) * ziggurat_normal(tables, engine));
          if (score > best || a == 0) {
            best_arm = a;
            best = score;
          }
        }
      });
      return best_arm;
    }
    with_local_engine(gen, [&](auto& engine) {
      double best = center_(0) + spread_(0) * ziggurat_normal(tables, engine);
      for (Eigen::Index a = 1; a < center_.size(); ++a) {
        const double score = center_(a) + spread_(a) * ziggurat_normal(tables, engine);
        best_arm = score > best ? a : best_arm;
        best = score > best ? score : best;
      }
    });
    return best_arm;
  }

  /// argmax_a center_a: the greedy decision.
  [[nodiscard]] Eigen::Index center_argmax() const { return argmax(center_); }

 private:
  // Arm a's score for the normal draw u in its tilted coordinate (header comment).
  [[nodiscard]] double tilted(Eigen::Index a, double u) const noexcept {
    const double kappa = tilt_(a);
    if (kappa == 0.0) return center_(a) + u;
    const double w = 1.0 + kappa * u;
    if (!(w > 0.0))
      return kappa > 0.0 ? -std::numeric_limits<double>::infinity()
                         : std::numeric_limits<double>::infinity();
    return center_(a) + std::log1p(kappa * u) / kappa;
  }

  Eigen::ArrayXd center_;
  Eigen::ArrayXd spread_;
  Eigen::ArrayXd tilt_;
  Eigen::Index tilted_ = 0;  // arms with a non-zero tilt
};

}  // namespace sabandit::detail
