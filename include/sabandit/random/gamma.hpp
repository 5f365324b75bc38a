#pragma once
// Gamma(shape, 1) variates from any URBG, by Marsaglia & Tsang, "A simple method for generating
// gamma variables" (ACM TOMS 26(3), 2000): for shape >= 1, with d = shape - 1/3 and
// c = 1 / sqrt(9 d), X = d (1 + c Z)^3 with Z ~ N(0, 1) is accepted with probability
// proportional to its density ratio; the squeeze 1 - 0.0331 Z^4 accepts about 98% of candidates
// without a logarithm, and over 95% of candidates are accepted at any shape >= 1.
// Z comes from sabandit's ziggurat (normal.hpp), so a draw costs about two engine calls.
//
// Shape < 1 uses the boost of Marsaglia & Tsang's section 6 (Stuart's theorem): if
// X ~ Gamma(shape + 1) and U ~ U(0, 1] are independent, X U^(1/shape) ~ Gamma(shape).
// U^(1/shape) is formed as exp(log(U) / shape) (1/shape precomputed): the same cost as pow,
// and it makes explicit that the only loss is the final rounding. The product underflows to 0
// only when the exact variate is below the smallest subnormal, 2^-1074, which happens with
// probability about e^(-744.4 shape) / Gamma(shape + 1): 7e-17 at shape 0.05, but 0.47 at
// shape 0.001. There zero *is* the correctly rounded value; code that needs such variates
// relative to each other (a beta ratio, beta.hpp) works with their logarithms instead
// (gamma_sampler::log_variate).
//
// Other scales: Gamma(shape, scale) = scale * gamma_variate(shape, gen); for a rate parameter
// (Gamma(shape, rate)), divide by the rate.
#include <cmath>
#include <string_view>

#include "sabandit/errors.hpp"
#include "sabandit/random/bits.hpp"
#include "sabandit/random/engine.hpp"
#include "sabandit/random/normal.hpp"

namespace sabandit {
namespace detail {

/// Marsaglia–Tsang for shape >= 1, with d and c computed once (a square root and a division
/// that would otherwise sit on every draw's critical path).
class marsaglia_tsang_gamma {
 public:
  explicit marsaglia_tsang_gamma(double shape) noexcept
      : d_(shape - 1.0 / 3.0), c_(1.0 / std::sqrt(9.0 * d_)) {}

  /// One Gamma(shape, 1) variate.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double operator()(URBG& gen) const {
    for (;;) {
      double z = 0.0;
      double v = 0.0;
      do {  // 1 + c Z > 0 fails with probability Phi(-sqrt(9 d)) <= Phi(-sqrt 6) = 0.7%
        z = standard_normal(gen);
        v = 1.0 + c_ * z;
      } while (v <= 0.0);
      v = v * v * v;
      const double u = to_open_unit_interval(random_bits64(gen));  // (0, 1]: log(u) is finite
      const double z2 = z * z;
      if (u < 1.0 - 0.0331 * z2 * z2) return d_ * v;  // the squeeze
      if (std::log(u) < 0.5 * z2 + d_ * (1.0 - v + std::log(v))) return d_ * v;
    }
  }

 private:
  double d_;
  double c_;
};

/// A gamma (or beta) shape, in [1e-300, 1e300]. Below, 1 / shape overflows and log_variate()
/// is -infinity (a beta of two such shapes drew -inf - -inf = NaN); above, a beta's X + Y can
/// overflow (Beta(9e307, 9e307) drew 0 every time). The policies' tempered posteriors stay
/// inside: a prior's shape >= 1e-100 over tau <= 1e100 is >= 1e-200, and a shape of at most
/// 1e100 plus n rewards of at most 1e150, over tau >= 1e-100, passes 1e300 only past 1e50 pulls.
inline void require_shape(std::string_view name, double shape) {
  if (!(shape >= 1e-300 && shape <= 1e300))
    throw_invalid(name, shape, "must be in [1e-300, 1e300], where the variate's logarithm is finite");
}

}  // namespace detail

/// Gamma(shape, 1) with its constants computed once, for repeated draws at one shape.
class gamma_sampler {
 public:
  /// shape must be in [1e-300, 1e300] (std::invalid_argument naming it otherwise).
  explicit gamma_sampler(double shape)
      : shape_((detail::require_shape("shape", shape), shape)),
        core_(shape < 1.0 ? shape + 1.0 : shape),
        inv_shape_(1.0 / shape) {}

  /// The shape.
  [[nodiscard]] double shape() const noexcept { return shape_; }

  /// One Gamma(shape, 1) variate.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double operator()(URBG& gen) const {
    if (shape_ >= 1.0) return core_(gen);
    const double boosted = core_(gen);
    return boosted * std::exp(std::log(to_open_unit_interval(random_bits64(gen))) * inv_shape_);
  }

  /// The logarithm of a variate, from the same stream as operator() would use; finite however
  /// small the variate (log X + log(U) / shape below shape 1, where X underflows).
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double log_variate(URBG& gen) const {
    if (shape_ >= 1.0) return std::log(core_(gen));
    const double boosted = core_(gen);
    return std::log(boosted) + std::log(to_open_unit_interval(random_bits64(gen))) * inv_shape_;
  }

 private:
  double shape_;
  detail::marsaglia_tsang_gamma core_;  // at shape, or at shape + 1 for the boost
  double inv_shape_;
};

/// One Gamma(shape, scale = 1) variate; shape must be in [1e-300, 1e300]. For many draws at one
/// shape, gamma_sampler saves the per-call set-up.
template <uniform_random_bit_generator URBG>
[[nodiscard]] double gamma_variate(double shape, URBG& gen) {
  return gamma_sampler(shape)(gen);
}

}  // namespace sabandit
