#pragma once
// Exact Poisson(mu) variates from any URBG, for every finite mean mu >= 0:
//  - mu < 10: inversion by sequential search (Devroye 1986, X.3.3): about mu + 1 uniforms'
//    worth of multiplications and a single uniform;
//  - mu >= 10: Hörmann's transformed rejection with squeeze, PTRS (Hörmann 1993, "The
//    transformed rejection method for generating Poisson random variables"), O(1) expected
//    time, about 1.2 pairs of uniforms per variate at these means.
#include <cmath>
#include <cstdint>
#include <random>

#include "sabandit/random/bits.hpp"

namespace sabandit {

template <std::uniform_random_bit_generator URBG>
[[nodiscard]] double poisson_variate(double mu, URBG& gen) {
  if (mu < 10.0) {
    // P(X = k) = e^-mu mu^k / k!: walk the CDF until it passes one uniform. e^-mu >= 4.5e-5
    // here, so the terms never underflow.
    double term = std::exp(-mu);
    double cdf = term;
    const double u = uniform01(gen);
    double k = 0.0;
    while (u > cdf && term > 0.0) {
      k += 1.0;
      term *= mu / k;
      cdf += term;
    }
    return k;
  }
  // PTRS: constants of Hörmann's Table/Algorithm PTRS.
  const double smu = std::sqrt(mu);
  const double b = 0.931 + 2.53 * smu;
  const double a = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
  const double v_r = 0.9277 - 3.6224 / (b - 2.0);
  const double log_mu = std::log(mu);
  for (;;) {
    const double u = uniform01(gen) - 0.5;
    const double v = uniform01(gen);
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2.0 * a / us + b) * u + mu + 0.43);
    if (us >= 0.07 && v <= v_r) return k;  // the squeeze: accepted without a logarithm
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    if (std::log(v) + std::log(inv_alpha) - std::log(a / (us * us) + b) <=
        -mu + k * log_mu - std::lgamma(k + 1.0))
      return k;
  }
}

}  // namespace sabandit
