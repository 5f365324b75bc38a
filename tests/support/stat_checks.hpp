#pragma once
// Helpers for statistical tests. Every test states its false-alarm rate; the z-values below
// are two-sided standard-normal quantiles.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace sabandit::test {

/// |Z| > 5 has two-sided probability 5.7e-7: the default cut-off for moment checks.
inline constexpr double z_five_sigma = 5.0;

inline double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

/// Kolmogorov–Smirnov statistic sqrt(n) D_n of a sample against a continuous CDF.
/// Asymptotically P(sqrt(n) D_n > x) = 2 sum_{k >= 1} (-1)^(k-1) exp(-2 k^2 x^2).
template <class Cdf>
double ks_statistic(std::vector<double> sample, Cdf cdf) {
  std::sort(sample.begin(), sample.end());
  const auto n = static_cast<double>(sample.size());
  double d = 0.0;
  for (std::size_t i = 0; i < sample.size(); ++i) {
    const double f = cdf(sample[i]);
    d = std::max({d, static_cast<double>(i + 1) / n - f, f - static_cast<double>(i) / n});
  }
  return std::sqrt(n) * d;
}

/// Kolmogorov–Smirnov statistic sqrt(n) D_n of a sample against N(0, 1).
inline double ks_statistic_standard_normal(std::vector<double> sample) {
  return ks_statistic(std::move(sample), normal_cdf);
}

struct moments {
  double mean, variance, skewness, excess_kurtosis;
};

template <class Range>
moments sample_moments(const Range& xs) {
  double n = 0, mean = 0;
  for (double x : xs) {
    n += 1;
    mean += (x - mean) / n;
  }
  double m2 = 0, m3 = 0, m4 = 0;
  for (double x : xs) {
    const double d = x - mean;
    m2 += d * d;
    m3 += d * d * d;
    m4 += d * d * d * d;
  }
  m2 /= n;
  m3 /= n;
  m4 /= n;
  return {mean, m2, m3 / std::pow(m2, 1.5), m4 / (m2 * m2) - 3.0};
}

}  // namespace sabandit::test
