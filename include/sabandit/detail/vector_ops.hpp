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
// The bits are Eigen's, for vectors of doubles:
//  - an element-wise loop computes each coefficient with the same operations in the same order
//    as the expression it replaces, one operation per statement, as Eigen's functors do: clang's
//    default contraction (-ffp-contract=on) fuses a product and a sum into one FMA only within
//    one expression, and did so for a loop written a + s * b at -march=native (a review's
//    finding); GCC fuses the loops and Eigen's code alike (the same bits with g++
//    -march=native, in the same review). -ffast-math promises nothing, Eigen included.
//  - a reduction over a Map of the same memory runs Eigen's own reduction, whose order depends
//    only on the size and, for sum() of the vector itself, on the data's address, which the Map
//    keeps; a dot product or squared norm reduces a product expression, which starts at 0
//    whatever the address. Only run-time sizes and the 1 x 1 views take that route: Eigen
//    unrolls a fixed size of 2 or more into an order of its own, so those reduce as before.
// Anything else (another scalar type, strided coefficients, a fixed size in a reduction) takes
// the Eigen expression itself, so that every call that compiled before compiles and computes
// as before.
// The same reason keeps the expression types down: each distinct one (a Constant of a matrix
// or array, an abs of a Map) costs a unit some 2 MB of the compiler's memory, so the policies'
// storage is filled by `filled`, not by Zero() or Constant().
#include <algorithm>
#include <cmath>
#include <type_traits>

#include <Eigen/Core>

namespace sabandit::detail {

/// Whether V is a vector of doubles whose coefficients lie side by side (the loops below need
/// it).
template <class V>
inline constexpr bool contiguous_vector =
    std::is_same_v<typename V::Scalar, double> && V::IsVectorAtCompileTime &&
    V::InnerStrideAtCompileTime == 1 && static_cast<bool>(V::Flags & Eigen::DirectAccessBit);
/// Whether a reduction over V may run over a Map<const VectorXd> of its coefficients (a
/// run-time size) or is one coefficient (the 1 x 1 views), with Eigen's bits either way.
template <class V>
inline constexpr bool map_reducible =
    contiguous_vector<V> &&
    (V::SizeAtCompileTime == Eigen::Dynamic || V::SizeAtCompileTime == 1);

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
/// The same, to write: an output argument, a plain vector or a view (a column, a Map), taken by
/// forwarding reference so that a temporary view binds and the compiler does not take the
/// output for an input (GCC's -Wmaybe-uninitialized on an uninitialised plain vector).
template <class Out>
[[nodiscard]] double* coefficients_out(Out&& out) noexcept {
  static_assert(!std::is_const_v<std::remove_reference_t<Out>>, "a writable output");
  static_assert(contiguous_vector<std::remove_cvref_t<Out>>, "contiguous coefficients");
  return out.derived().data();
}

// (Templates, so that a unit that includes this header and reduces nothing compiles neither.)
/// A plain matrix or array of rows x cols coefficients, each `value`: Plain::Constant(rows,
/// cols, value) without its expression type.
template <class Plain>
[[nodiscard]] Plain filled(Eigen::Index rows, Eigen::Index cols, typename Plain::Scalar value) {
  Plain out(rows, cols);
  std::fill_n(out.data(), out.size(), value);
  return out;
}
/// The same for a vector of `size` coefficients.
template <class Plain>
[[nodiscard]] Plain filled(Eigen::Index size, typename Plain::Scalar value) {
  Plain out(size);
  std::fill_n(out.data(), out.size(), value);
  return out;
}
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

/// x.dot(y).
template <class X, class Y>
[[nodiscard]] double dot(const Eigen::MatrixBase<X>& x, const Eigen::MatrixBase<Y>& y) {
  if constexpr (!map_reducible<X> || !map_reducible<Y>) {
    return x.dot(y);
  } else if constexpr (X::SizeAtCompileTime == 1 || Y::SizeAtCompileTime == 1) {
    return coefficients(x)[0] * coefficients(y)[0];
  } else {
    return dot_n(coefficients(x), coefficients(y), x.size());
  }
}
/// v.squaredNorm(): a reduction of v's squares, in the order of v.dot(v).
template <class V>
[[nodiscard]] double squared_norm(const Eigen::MatrixBase<V>& v) {
  if constexpr (!map_reducible<V>) {
    return v.squaredNorm();
  } else {
    return dot(v, v);
  }
}
/// v.norm().
template <class V>
[[nodiscard]] double norm(const Eigen::MatrixBase<V>& v) {
  return std::sqrt(squared_norm(v));
}
/// v.sum().
template <class V>
[[nodiscard]] double sum(const Eigen::DenseBase<V>& v) {
  if constexpr (!map_reducible<V>) {
    return v.sum();
  } else if constexpr (V::SizeAtCompileTime == 1) {
    return coefficients(v)[0];
  } else {
    return sum_n(coefficients(v), v.size());
  }
}
/// v.mean().
template <class V>
[[nodiscard]] double mean(const Eigen::DenseBase<V>& v) {
  if constexpr (!map_reducible<V>) {
    return v.mean();
  } else {
    return sum(v) / static_cast<double>(length(v));
  }
}
/// v.allFinite().
template <class V>
[[nodiscard]] bool all_finite(const Eigen::DenseBase<V>& v) {
  if constexpr (!contiguous_vector<V>) {
    return v.allFinite();
  } else {
    const double* x = coefficients(v);
    for (Eigen::Index i = 0; i < length(v); ++i)
      if (!std::isfinite(x[i])) return false;
    return true;
  }
}
/// v.isZero(0.0): every coefficient is 0 (a NaN is not).
template <class V>
[[nodiscard]] bool all_zero(const Eigen::DenseBase<V>& v) {
  if constexpr (!contiguous_vector<V>) {
    return v.isZero(0.0);
  } else {
    const double* x = coefficients(v);
    for (Eigen::Index i = 0; i < length(v); ++i)
      if (!(std::abs(x[i]) <= 0.0)) return false;
    return true;
  }
}
/// v.lpNorm<Eigen::Infinity>(): the largest |coefficient| (0 for an empty vector), which no
/// order of comparison changes; NaN if a coefficient is NaN, where Eigen's answer depends on
/// where the NaN sits.
template <class V>
[[nodiscard]] double max_abs(const Eigen::MatrixBase<V>& v) {
  if constexpr (!map_reducible<V>) {
    return v.template lpNorm<Eigen::Infinity>();
  } else {
    const double* x = coefficients(v);
    double largest = 0.0;
    for (Eigen::Index i = 0; i < length(v); ++i) {
      const double magnitude = std::fabs(x[i]);
      if (std::isnan(magnitude)) return magnitude;
      if (magnitude > largest) largest = magnitude;
    }
    return largest;
  }
}

/// Gives a plain output vector n coefficients, as an Eigen assignment resizes its destination;
/// a view (a column, a Map) keeps its size. The loops below then run over the output's length,
/// which is the compile-time 1 of the d = 1 views.
template <class Out>
void fit_output(Out&& out, Eigen::Index n) {
  using plain = std::remove_cvref_t<decltype(out.derived())>;
  if constexpr (std::is_base_of_v<Eigen::PlainObjectBase<plain>, plain>) out.derived().resize(n);
}

// The writing operations take the output first, by forwarding reference (coefficients_out); a
// caller holding it as Eigen's `const MatrixBase<Out>&` output idiom casts the const away.

/// out = x.
template <class Out, class X>
void copy(Out&& out, const Eigen::DenseBase<X>& x) {
  if constexpr (!contiguous_vector<std::remove_cvref_t<Out>> || !contiguous_vector<X>) {
    out.derived() = x.derived();
  } else {
    fit_output(out, length(x));
    double* o = coefficients_out(out);
    const double* a = coefficients(x);
    for (Eigen::Index i = 0; i < length(out); ++i) o[i] = a[i];
  }
}
/// out = x + s y (out may be x or y).
template <class Out, class X, class Y>
void add_scaled(Out&& out, const Eigen::MatrixBase<X>& x, double s,
                const Eigen::MatrixBase<Y>& y) {
  if constexpr (!contiguous_vector<std::remove_cvref_t<Out>> || !contiguous_vector<X> ||
                !contiguous_vector<Y>) {
    out.derived() = x + s * y;
  } else {
    fit_output(out, length(x));
    double* o = coefficients_out(out);
    const double* a = coefficients(x);
    const double* b = coefficients(y);
    for (Eigen::Index i = 0; i < length(out); ++i) {
      const double step = s * b[i];  // a statement of its own: no FMA (header comment)
      o[i] = a[i] + step;
    }
  }
}
/// out = y s + c: an affine map of y, coefficient-wise.
template <class Out, class Y>
void scaled_plus(Out&& out, double s, const Eigen::MatrixBase<Y>& y, double c) {
  if constexpr (!contiguous_vector<std::remove_cvref_t<Out>> || !contiguous_vector<Y>) {
    out.derived() = ((y * s).array() + c).matrix();
  } else {
    fit_output(out, length(y));
    double* o = coefficients_out(out);
    const double* b = coefficients(y);
    for (Eigen::Index i = 0; i < length(out); ++i) {
      const double scaled_b = b[i] * s;  // a statement of its own: no FMA (header comment)
      o[i] = scaled_b + c;
    }
  }
}
/// out = y s.
template <class Out, class Y>
void scaled(Out&& out, double s, const Eigen::MatrixBase<Y>& y) {
  if constexpr (!contiguous_vector<std::remove_cvref_t<Out>> || !contiguous_vector<Y>) {
    out.derived() = y * s;
  } else {
    fit_output(out, length(y));
    double* o = coefficients_out(out);
    const double* b = coefficients(y);
    for (Eigen::Index i = 0; i < length(out); ++i) o[i] = b[i] * s;
  }
}

}  // namespace sabandit::detail
