#pragma once
// A d x d information (precision) matrix kept as its lower Cholesky factor,
//   A = L L^T = lambda0 I + sum_j v_j v_j^T,
// updated by rank one in O(d^2) per observation instead of refactorised in O(d^3): the ridge
// statistics of LinUCB, linear TS and epsilon-greedy (A = I + sum x x^T, lambda0 = 1) and
// contextual TS-SA's Fisher information estimate (J = lambda0 I + sum i(eta_j) x_j x_j^T, with
// v_j = sqrt(i(eta_j)) x_j). Everything a policy asks of A goes through L:
//   A^-1 r                      two triangular solves;
//   x^T A^-1 x = |L^-1 x|^2     one (the variance of <x, theta> under N(., A^-1));
//   L^-T z ~ N(0, A^-1)         one (a draw of theta's deviation).
// The update is Eigen's own rank-one kernel (the one LLT::rankUpdate runs), applied to the
// factor we store, so that a saved factor restores bit for bit (LLT cannot be given a factor).
#include <cmath>
#include <utility>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/detail/compiler.hpp"

namespace sabandit::contextual {

/// d x d, the doubles of one factor, saturating at 2^40 (beyond any state bound, and far enough
/// from overflow that a state-size check can add to it).
[[nodiscard]] inline Eigen::Index factor_doubles(Eigen::Index dimension) noexcept {
  constexpr Eigen::Index most = Eigen::Index{1} << 40;
  Eigen::Index doubles = 0;
  return detail::mul_overflow(dimension, dimension, &doubles) || doubles > most ? most
                                                                                  : doubles;
}

/// L with L L^T = lambda0 I + sum_j v_j v_j^T (header comment).
class information_factor {
 public:
  /// The factor of lambda0 I in dimension d: sqrt(lambda0) I.
  information_factor(Eigen::Index dimension, double lambda0)
      : factor_(Eigen::MatrixXd::Identity(dimension, dimension) * std::sqrt(lambda0)) {}
  /// From a saved factor (lower triangle used; the caller checks it).
  explicit information_factor(Eigen::MatrixXd factor) : factor_(std::move(factor)) {}

  /// A += v v^T in O(d^2). Eigen's kernel allocates one temporary vector of d per call: the only
  /// allocation of a contextual round after the warm-up (measured with Eigen's malloc guard).
  void rank_one_update(const vector_cref& v) {
    Eigen::internal::llt_inplace<double, Eigen::Lower>::rankUpdate(factor_, v, 1.0);
  }
  /// Replaces A by the factorisation of `matrix` (symmetric positive definite, lower triangle
  /// read); false, leaving the factor unspecified, if it is not numerically so.
  bool assign(const Eigen::MatrixXd& matrix) {
    factor_ = matrix;
    factor_.triangularView<Eigen::StrictlyUpper>().setZero();
    return Eigen::internal::llt_inplace<double, Eigen::Lower>::blocked(factor_) == -1;
  }
  /// v <- A^-1 v.
  template <class V>
  void solve_in_place(V& v) const {
    lower().solveInPlace(v);
    upper().solveInPlace(v);
  }
  /// v <- L^-1 v.
  template <class V>
  void whiten_in_place(V& v) const {
    lower().solveInPlace(v);
  }
  /// v <- L^-T v: for v ~ N(0, I) the result is N(0, A^-1).
  template <class V>
  void unwhiten_in_place(V& v) const {
    upper().solveInPlace(v);
  }
  /// x^T A^-1 x = |L^-1 x|^2, with `scratch` (size d) so that a round allocates nothing.
  [[nodiscard]] double inverse_quadratic(const vector_cref& x, Eigen::VectorXd& scratch) const {
    scratch = x;
    whiten_in_place(scratch);
    return scratch.squaredNorm();
  }
  /// L (d x d; only the lower triangle is meaningful).
  [[nodiscard]] const Eigen::MatrixXd& factor() const noexcept { return factor_; }
  /// The dimension d.
  [[nodiscard]] Eigen::Index dimension() const noexcept { return factor_.rows(); }
  /// Whether every entry of the lower triangle is finite and the diagonal positive: what a
  /// policy checks before it keeps an updated factor, and restore before it accepts one.
  [[nodiscard]] bool valid() const {
    for (Eigen::Index j = 0; j < factor_.cols(); ++j) {
      if (!(factor_(j, j) > 0.0) || !factor_.col(j).tail(factor_.rows() - j).allFinite())
        return false;
    }
    return true;
  }
  /// Saves or restores L (state/persist.hpp): the d x d matrix of the factor it is read into,
  /// which must be a valid factor (finite lower triangle, positive diagonal, zero above).
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    ar("L", self.factor_);
    if constexpr (Archive::reading) {
      ar.require(self.valid(), "a Cholesky factor has a non-positive diagonal entry");
      ar.require(self.factor_.template triangularView<Eigen::StrictlyUpper>().toDenseMatrix().isZero(0.0),
                 "a Cholesky factor has an entry above its diagonal");
    }
  }

  /// Swaps the two factors' storage (no copy): how a policy commits an update made aside.
  friend void swap(information_factor& a, information_factor& b) noexcept {
    a.factor_.swap(b.factor_);
  }

 private:
  // Explicit return types: Clang 14 rejects a deduced one used above its definition.
  [[nodiscard]] Eigen::TriangularView<const Eigen::MatrixXd, Eigen::Lower> lower() const {
    return factor_.triangularView<Eigen::Lower>();
  }
  [[nodiscard]] Eigen::TriangularView<const Eigen::Transpose<const Eigen::MatrixXd>, Eigen::Upper>
  upper() const {
    return factor_.transpose().triangularView<Eigen::Upper>();
  }
  Eigen::MatrixXd factor_;
};

}  // namespace sabandit::contextual
