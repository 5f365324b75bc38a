#pragma once
// The few vector operations a Langevin chain and its warm start run, on contiguous Eigen
// vectors (columns, Maps, Refs, the d = 1 fixed-size views of langevin/dimension.hpp), without
// an Eigen expression per call site.
//
// Why: each distinct Eigen expression instantiates some seventy evaluator, assignment and
// reduction templates, and a TS-SA round wrote about thirty of them, each once per vector type
// (run-time d and the 1 x 1 views): most of what a program with one policy paid to compile
// (issue 19; docs/performance.md, "Compile cost"). Here an element-wise operation is a loop, and
// a reduction goes through one Eigen instantiation over Map<const VectorXd>.
//
// The bits are Eigen's: an element-wise loop computes each coefficient with the same operations
// in the same order as the expression it replaces (IEEE arithmetic is per element; no FMA is
// formed at the library's flags, as in Eigen's own packet code there). A reduction over a Map
// of the same memory runs Eigen's own reduction, whose order depends only on the size and, for
// sum() of the vector itself, on the data's address, which the Map keeps; a dot product or
// squared norm reduces a product expression, which starts at 0 whatever the address.
#include <cmath>

#include <Eigen/Core>

namespace sabandit::detail {

/// Whether V is a vector whose coefficients lie side by side (the operations below need it).
template <class V>
inline constexpr bool contiguous_vector =
    V::IsVectorAtCompileTime && V::InnerStrideAtCompileTime == 1 &&
    static_cast<bool>(V::Flags & Eigen::DirectAccessBit);

/// The length of a contiguous vector: its compile-time size where it has one, so that the
/// d = 1 views' loops run once with no bound to read.
template <class V>
[[nodiscard]] Eigen::Index length(const Eigen::DenseBase<V>& v) noexcept {
  static_assert(V::IsVectorAtCompileTime, "a vector");
  if constexpr (V::SizeAtCompileTime != Eigen::Dynamic) {
    return V::SizeAtCompileTime;
  } else {
    return v.size();
  }
}

/// The coefficients of a contiguous vector (inner stride 1: a column, a Map, a Ref, a segment).
template <class V>
[[nodiscard]] const double* coefficients(const Eigen::DenseBase<V>& v) noexcept {
  static_assert(contiguous_vector<V>, "contiguous coefficients");
  return v.derived().data();
}
/// The same, to write (Eigen's idiom for an output argument that may be an expression).
template <class V>
[[nodiscard]] double* coefficients_out(const Eigen::DenseBase<V>& v) noexcept {
  static_assert(contiguous_vector<V>, "contiguous coefficients");
  return const_cast<Eigen::DenseBase<V>&>(v).derived().data();  // NOLINT: Eigen's idiom
}

// (Templates, so that a unit that includes this header and reduces nothing compiles neither.)
/// <x, y> over n coefficients, as Eigen's x.dot(y) reduces it.
template <class Scalar>
[[nodiscard]] Scalar dot_n(const Scalar* x, const Scalar* y, Eigen::Index n) {
  using map = Eigen::Map<const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>>;
  return map(x, n).dot(map(y, n));
}
/// The sum of n coefficients, as Eigen's v.sum() reduces it for v at address x.
template <class Scalar>
[[nodiscard]] Scalar sum_n(const Scalar* x, Eigen::Index n) {
  return Eigen::Map<const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>>(x, n).sum();
}

/// x.dot(y) (through Eigen's expression where a vector is not contiguous).
template <class X, class Y>
[[nodiscard]] double dot(const Eigen::MatrixBase<X>& x, const Eigen::MatrixBase<Y>& y) {
  if constexpr (!contiguous_vector<X> || !contiguous_vector<Y>) {
    return x.dot(y);
  } else if constexpr (X::SizeAtCompileTime == 1 || Y::SizeAtCompileTime == 1) {
    return coefficients(x)[0] * coefficients(y)[0];
  } else {
    return dot_n(coefficients(x), coefficients(y), x.size());
  }
}
/// v.squaredNorm(): a reduction of v's squares, in the order of x.dot(x).
template <class V>
[[nodiscard]] double squared_norm(const Eigen::MatrixBase<V>& v) {
  return dot(v, v);
}
/// v.norm().
template <class V>
[[nodiscard]] double norm(const Eigen::MatrixBase<V>& v) {
  return std::sqrt(squared_norm(v));
}
/// v.sum().
template <class V>
[[nodiscard]] double sum(const Eigen::DenseBase<V>& v) {
  if constexpr (V::SizeAtCompileTime == 1) {
    return coefficients(v)[0];
  } else {
    return sum_n(coefficients(v), v.size());
  }
}
/// v.mean().
template <class V>
[[nodiscard]] double mean(const Eigen::DenseBase<V>& v) {
  return sum(v) / static_cast<double>(length(v));
}
/// v.allFinite().
template <class V>
[[nodiscard]] bool all_finite(const Eigen::DenseBase<V>& v) noexcept {
  const double* x = coefficients(v);
  for (Eigen::Index i = 0; i < length(v); ++i)
    if (!std::isfinite(x[i])) return false;
  return true;
}
/// v.isZero(0.0): every coefficient is 0 (a NaN is not).
template <class V>
[[nodiscard]] bool all_zero(const Eigen::DenseBase<V>& v) noexcept {
  const double* x = coefficients(v);
  for (Eigen::Index i = 0; i < length(v); ++i)
    if (!(std::abs(x[i]) <= 0.0)) return false;
  return true;
}
/// v.lpNorm<Eigen::Infinity>(), through Eigen's own reduction (its NaN handling included).
template <class V>
[[nodiscard]] double max_abs(const Eigen::DenseBase<V>& v) {
  return Eigen::Map<const Eigen::VectorXd>(coefficients(v), v.size()).lpNorm<Eigen::Infinity>();
}

/// out = x.
template <class Out, class X>
void copy(const Eigen::DenseBase<Out>& out, const Eigen::DenseBase<X>& x) noexcept {
  double* o = coefficients_out(out);
  const double* a = coefficients(x);
  for (Eigen::Index i = 0; i < length(out); ++i) o[i] = a[i];
}
/// out = x + s y (out may be x or y).
template <class Out, class X, class Y>
void add_scaled(const Eigen::DenseBase<Out>& out, const Eigen::DenseBase<X>& x, double s,
                const Eigen::DenseBase<Y>& y) noexcept {
  double* o = coefficients_out(out);
  const double* a = coefficients(x);
  const double* b = coefficients(y);
  for (Eigen::Index i = 0; i < length(out); ++i) o[i] = a[i] + s * b[i];
}
/// out = y s + c: an affine map of y, coefficient-wise.
template <class Out, class Y>
void scaled_plus(const Eigen::DenseBase<Out>& out, double s, const Eigen::DenseBase<Y>& y,
                 double c) noexcept {
  double* o = coefficients_out(out);
  const double* b = coefficients(y);
  for (Eigen::Index i = 0; i < length(out); ++i) o[i] = b[i] * s + c;
}
/// out = y s (through Eigen's expression where a vector is not contiguous).
template <class Out, class Y>
void scaled(const Eigen::MatrixBase<Out>& out, double s, const Eigen::MatrixBase<Y>& y) {
  if constexpr (!contiguous_vector<Out> || !contiguous_vector<Y>) {
    const_cast<Eigen::MatrixBase<Out>&>(out) = y * s;  // NOLINT: Eigen's idiom
  } else {
    double* o = coefficients_out(out);
    const double* b = coefficients(y);
    for (Eigen::Index i = 0; i < length(out); ++i) o[i] = b[i] * s;
  }
}

}  // namespace sabandit::detail
