#pragma once
// Exact CDFs for the samplers' statistical tests: the regularized incomplete gamma and beta
// functions, by a power series where it converges fast and a continued fraction elsewhere
// (the method of Numerical Recipes, ch. 6.2 and 6.4), evaluated to about 1e-14 relative.
#include <cmath>
#include <limits>

namespace sabandit::test {

/// Modified Lentz evaluation of b0 + a1/(b1 + a2/(b2 + ...)) with b0 = 0 (Thompson & Barnett
/// 1986): f_n = f_{n-1} C_n D_n with C_n = b_n + a_n / C_{n-1}, D_n = 1 / (b_n + a_n D_{n-1}),
/// tiny values standing in for zeros. `term(n, a_n, b_n)` supplies the n-th partial terms.
template <class Terms>
double lentz_continued_fraction(Terms term) {
  constexpr double tiny = 1e-300;
  constexpr double eps = 1e-16;
  double f = tiny, c = tiny, d = 0.0;
  for (int n = 1; n < 100000; ++n) {
    double a = 0.0, b = 0.0;
    term(n, a, b);
    d = b + a * d;
    if (std::abs(d) < tiny) d = tiny;
    c = b + a / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double delta = c * d;
    f *= delta;
    if (std::abs(delta - 1.0) < eps) break;
  }
  return f;
}

/// Q(a, x) = Gamma(a, x) / Gamma(a) for x >= a + 1, by Legendre's continued fraction
///   Gamma(a, x) = e^-x x^a / (x + 1 - a - 1 (1 - a) / (x + 3 - a - 2 (2 - a) / (x + 5 - a - ...))),
/// which follows from the recurrence of Gamma(a, x) under integration by parts.
inline double upper_gamma_continued_fraction(double a, double x) {
  const double cf = lentz_continued_fraction([&](int n, double& an, double& bn) {
    bn = x + 2.0 * n - 1.0 - a;
    an = n == 1 ? 1.0 : -(n - 1.0) * (n - 1.0 - a);
  });
  return std::exp(-x + a * std::log(x) - std::lgamma(a)) * cf;
}

/// P(a, x) = gamma(a, x) / Gamma(a), the Gamma(a, 1) CDF at x. For x < a + 1 it is the series
///   gamma(a, x) = e^-x x^a sum_{n >= 0} x^n / (a (a + 1) ... (a + n)),
/// got by integrating t^(a-1) e^-t by parts repeatedly; its terms shrink at least geometrically
/// with ratio x / (a + n) < 1. Elsewhere 1 - Q(a, x).
inline double regularized_gamma_p(double a, double x) {
  if (x <= 0.0) return 0.0;
  if (x < a + 1.0) {
    double term = 1.0 / a, sum = term;
    for (int n = 1; n < 100000 && term > sum * 1e-17; ++n) {
      term *= x / (a + n);
      sum += term;
    }
    return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
  }
  return 1.0 - upper_gamma_continued_fraction(a, x);
}

/// Q(a, x) = 1 - P(a, x), accurate in the upper tail.
inline double regularized_gamma_q(double a, double x) {
  if (x < a + 1.0) return 1.0 - regularized_gamma_p(a, x);
  return upper_gamma_continued_fraction(a, x);
}

/// I_x(a, b), the Beta(a, b) CDF at x, from the continued fraction
///   I_x(a, b) = x^a (1 - x)^b / (a B(a, b)) * 1 / (1 + d1 / (1 + d2 / (1 + ...))),
///   d_{2m+1} = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)),
///   d_{2m}   = m (b - m) x / ((a + 2m - 1)(a + 2m)),
/// which converges fast for x < (a + 1) / (a + b + 2); beyond it, I_x(a, b) = 1 - I_{1-x}(b, a).
inline double regularized_beta(double a, double b, double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  const auto lower = [](double p, double q, double y) {
    const double log_front = p * std::log(y) + q * std::log1p(-y) + std::lgamma(p + q) -
                             std::lgamma(p) - std::lgamma(q);
    const double cf = lentz_continued_fraction([&](int n, double& an, double& bn) {
      bn = 1.0;
      if (n == 1) {
        an = 1.0;
        return;
      }
      const int j = n - 1;  // d_j
      const double m = j / 2;
      an = j % 2 == 1 ? -(p + m) * (p + q + m) * y / ((p + 2 * m) * (p + 2 * m + 1))
                      : m * (q - m) * y / ((p + 2 * m - 1) * (p + 2 * m));
    });
    return std::exp(log_front) * cf / p;
  };
  if (x < (a + 1.0) / (a + b + 2.0)) return lower(a, b, x);
  return 1.0 - lower(b, a, 1.0 - x);
}

}  // namespace sabandit::test
