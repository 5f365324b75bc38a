#pragma once
// Beta(a, b) variates from any URBG, as X / (X + Y) with X ~ Gamma(a), Y ~ Gamma(b) independent
// (gamma.hpp; Devroye 1986, IX.4).
//
// When both shapes are below 1, both gammas can underflow to 0 together (each does with
// probability about e^(-744.4 shape), 47% at shape 0.001) and X / (X + Y) would be 0/0. There the
// ratio is formed from the logarithms, B = 1 / (1 + exp(log Y - log X)), which is finite for
// every draw and loses nothing but the final rounding. If only one shape is below 1, the other
// gamma is never 0 (for shape >= 1 it is d (1 + c Z)^3 with d >= 2/3 and 1 + c Z >= 2^-53), so
// the plain ratio is defined, and its underflow to 0 is the correctly rounded result.
// Jöhnk's method was the alternative for small shapes; its acceptance rate falls as the shapes
// grow, whereas this route costs two gammas at every shape.
#include <cmath>

#include "sabandit/errors.hpp"
#include "sabandit/random/engine.hpp"
#include "sabandit/random/gamma.hpp"

namespace sabandit {

/// Beta(a, b) with its two gamma samplers set up once, for repeated draws.
class beta_sampler {
 public:
  /// a and b must be in [1e-300, 1e300] (gamma.hpp, detail::require_shape).
  beta_sampler(double a, double b)
      : x_((detail::require_shape("a", a), a)), y_((detail::require_shape("b", b), b)) {}

  /// The first shape.
  [[nodiscard]] double a() const noexcept { return x_.shape(); }
  /// The second shape.
  [[nodiscard]] double b() const noexcept { return y_.shape(); }

  /// A variate in [0, 1].
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double operator()(URBG& gen) const {
    if (a() < 1.0 && b() < 1.0) {
      const double log_x = x_.log_variate(gen);
      const double log_y = y_.log_variate(gen);
      return 1.0 / (1.0 + std::exp(log_y - log_x));  // exp overflow: 1 / inf = 0, as it should
    }
    const double x = x_(gen);
    const double y = y_(gen);
    return x / (x + y);
  }

 private:
  gamma_sampler x_;
  gamma_sampler y_;
};

/// One Beta(a, b) variate in [0, 1]; a and b must be in [1e-300, 1e300].
template <uniform_random_bit_generator URBG>
[[nodiscard]] double beta_variate(double a, double b, URBG& gen) {
  return beta_sampler(a, b)(gen);
}

}  // namespace sabandit
