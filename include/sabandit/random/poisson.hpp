#pragma once
// Exact Poisson(mu) variates from any URBG, for every finite mean mu >= 0:
//  - mu < 10: inversion by sequential search (Devroye 1986, X.3.3): about mu + 1 uniforms'
//    worth of multiplications and a single uniform;
//  - mu >= 10: Hörmann's transformed rejection with squeeze, PTRS (Hörmann 1993, "The
//    transformed rejection method for generating Poisson random variables"), O(1) expected
//    time, about 1.2 pairs of uniforms per variate at these means.
#include <cmath>
#include <cstdint>
#include <numbers>

#include "sabandit/errors.hpp"
#include "sabandit/random/bits.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit {
namespace detail {

/// log(mu^k e^-mu / k!) for mu >= 10, written so that it keeps its absolute accuracy at large mu.
/// The direct form -mu + k log mu - lgamma(k + 1) subtracts terms of size k log k: at mu = 1e15
/// they are 3.4e16 and the rounding error of the difference is about 8, which would distort
/// PTRS's acceptance test completely (at mu = 1e4 it is still 2e-11). With Stirling's series,
/// as Hörmann (1993) does for k >= 10,
///   log k! = (k + 1/2) log k - k + log sqrt(2 pi) + 1/(12 k) - 1/(360 k^3) + 1/(1260 k^5) - ...,
/// the log-pmf becomes
///   (k - mu) - k log1p((k - mu) / mu) - log sqrt(2 pi k) - (the series' tail),
/// whose two leading terms are of size |k - mu| ~ sqrt(mu) only; k - mu itself is exact
/// (Sterbenz) wherever the acceptance test can matter. Truncating the series after the 1/k^5
/// term errs by less than 1/(1680 k^7) <= 6e-11 at k = 10. Below k = 10 the direct form is
/// kept: its terms are small unless mu is large, and then p(k) < e^-mu / 10 is rejected anyway.
[[nodiscard]] inline double poisson_log_pmf_large_mean(double k, double mu) {
  if (k < 10.0) return -mu + k * std::log(mu) - std::lgamma(k + 1.0);
  const double inv_k = 1.0 / k;
  const double inv_k2 = inv_k * inv_k;
  const double stirling_tail = inv_k * (1.0 / 12.0 - inv_k2 * (1.0 / 360.0 - inv_k2 / 1260.0));
  return (k - mu) - k * std::log1p((k - mu) / mu) -
         0.5 * std::log(2.0 * std::numbers::pi * k) - stirling_tail;
}

}  // namespace detail

/// Poisson(mu) with its constants computed once (e^-mu below 10; PTRS's a, b, log(1/alpha) and
/// v_r above), for repeated draws at one mean.
class poisson_sampler {
 public:
  /// mu must be finite and >= 0.
  explicit poisson_sampler(double mu)
      : mu_((detail::require_non_negative("mu", mu), mu)),  // NaN used to loop forever in PTRS
        exp_neg_mu_(mu < 10.0 ? std::exp(-mu) : 0.0),
        // PTRS, with the constants of Hörmann's (1993) algorithm: b and a shape the
        // transformation, 1/alpha is the rejection constant's reciprocal, v_r the squeeze's
        // bound. Each branch computes only its own constants.
        b_(mu < 10.0 ? 0.0 : 0.931 + 2.53 * std::sqrt(mu)),
        a_(-0.059 + 0.02483 * b_),
        log_inv_alpha_(mu < 10.0 ? 0.0 : std::log(1.1239 + 1.1328 / (b_ - 3.4))),
        v_r_(mu < 10.0 ? 0.0 : 0.9277 - 3.6224 / (b_ - 2.0)) {}

  /// The Poisson mean.
  [[nodiscard]] double mean() const noexcept { return mu_; }

  /// A count, as a double.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double operator()(URBG& gen) const {
    return mu_ < 10.0 ? inversion(gen) : transformed_rejection(gen);
  }

 private:
  // P(X = k) = e^-mu mu^k / k!: walk the CDF until it passes one uniform. e^-mu >= 4.5e-5
  // here, so the terms never underflow before they stop mattering. The rounded partial sums
  // can stall just below 1 while u is above them (probability ~1e-16 a draw): the walk stops
  // as soon as a term no longer changes the sum, i.e. in the far tail, where a `term > 0`
  // guard would run on to k ~ 150 or beyond.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double inversion(URBG& gen) const {
    double term = exp_neg_mu_;
    double cdf = term;
    const double u = uniform01(gen);
    double k = 0.0;
    while (u > cdf) {
      k += 1.0;
      term *= mu_ / k;
      const double next = cdf + term;
      if (next == cdf) break;
      cdf = next;
    }
    return k;
  }

  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double transformed_rejection(URBG& gen) const {
    for (;;) {
      const double u = uniform01(gen) - 0.5;
      const double v = uniform01(gen);
      const double us = 0.5 - std::fabs(u);
      const double k = std::floor((2.0 * a_ / us + b_) * u + mu_ + 0.43);
      if (us >= 0.07 && v <= v_r_) return k;  // the squeeze: accepted without a logarithm
      if (k < 0.0 || (us < 0.013 && v > us)) continue;
      // log(v) = -inf at v = 0 accepts, as it should (the test is v alpha h(u) <= p(k)).
      if (std::log(v) + log_inv_alpha_ - std::log(a_ / (us * us) + b_) <=
          detail::poisson_log_pmf_large_mean(k, mu_))
        return k;
    }
  }

  double mu_;
  double exp_neg_mu_;
  double b_;
  double a_;
  double log_inv_alpha_;
  double v_r_;
};

/// One Poisson(mu) count, as a double; mu must be finite and >= 0. For many draws at one mean,
/// poisson_sampler saves the per-call set-up (an exp below 10; a sqrt, a log and divisions above).
template <uniform_random_bit_generator URBG>
[[nodiscard]] double poisson_variate(double mu, URBG& gen) {
  return poisson_sampler(mu)(gen);
}

}  // namespace sabandit
