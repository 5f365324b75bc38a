// The samplers of random/: gamma, beta, Poisson and Bernoulli. For each, at parameters that
// include every branch boundary: the mean and variance at 5 sigma, a goodness-of-fit test against
// the exact distribution (Kolmogorov–Smirnov for the continuous ones, chi-square for the discrete
// ones), the counts beyond far quantiles, determinism, and a known answer for one seed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>
#include <vector>

#include "sabandit/random.hpp"
#include "support/catch.hpp"
#include "support/special_functions.hpp"
#include "support/stat_checks.hpp"

using namespace sabandit;

namespace {

constexpr std::size_t draws = 100'000;

template <class Engine, class Draw>
std::vector<double> sample(Engine gen, Draw draw, std::size_t count = draws) {
  std::vector<double> xs(count);
  for (auto& x : xs) x = draw(gen);
  return xs;
}

struct exact_moments {
  double mean, variance, excess_kurtosis;
};

// Sample mean: standard error sigma / sqrt(n). Sample variance (the 1/n form that
// test::sample_moments returns): Var(s^2) = (mu_4 - sigma^4) / n + O(n^-2) = sigma^4 (kappa + 2) / n
// with kappa the excess kurtosis; its bias -sigma^2 / n is at most 1/220 of that standard error
// at n = 10^5. Each at 5 sigma: false alarm 5.7e-7.
void check_moments(const std::vector<double>& xs, exact_moments exact) {
  const auto m = test::sample_moments(xs);
  const auto n = static_cast<double>(xs.size());
  INFO("sample mean " << m.mean << ", variance " << m.variance);
  CHECK(std::abs(m.mean - exact.mean) < test::z_five_sigma * std::sqrt(exact.variance / n));
  CHECK(std::abs(m.variance - exact.variance) <
        test::z_five_sigma * exact.variance * std::sqrt((exact.excess_kurtosis + 2.0) / n));
}

// The number of draws in a region of probability p is Binomial(n, p). The regions below have
// n p >= 27, where the normal approximation is adequate; checked at 5 sigma.
void check_count(double count, double n, double p) {
  INFO("count " << count << ", expected " << n * p);
  CHECK(std::abs(count - n * p) < test::z_five_sigma * std::sqrt(n * p * (1.0 - p)));
}

/// The p-quantile of a continuous CDF by bisection on [lo, hi], down to adjacent doubles (so
/// that the gamma(0.05) quantile near 1e-60 is found as precisely as the median).
template <class Cdf>
double quantile(Cdf cdf, double p, double lo, double hi) {
  for (int i = 0; i < 4000; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid == lo || mid == hi) break;
    (cdf(mid) < p ? lo : hi) = mid;
  }
  return hi;
}

// Kolmogorov–Smirnov at sqrt(n) D_n < 2.5: P(sqrt(n) D_n > 2.5) = 2 e^-12.5 (1 - ...) = 7.5e-6.
// Tails: the counts below the 10^-3 quantile and above the 1 - 10^-3 quantile, n p = 100 each.
template <class Cdf>
void check_continuous(const std::vector<double>& xs, exact_moments exact, Cdf cdf,
                      double support_high) {
  check_moments(xs, exact);
  const double ks = test::ks_statistic(xs, cdf);
  INFO("sqrt(n) D_n = " << ks);
  CHECK(ks < 2.5);
  const double low = quantile(cdf, 1e-3, 0.0, support_high);
  const double high = quantile(cdf, 1.0 - 1e-3, 0.0, support_high);
  const auto n = static_cast<double>(xs.size());
  INFO("quantiles " << low << ", " << high);
  check_count(static_cast<double>(std::count_if(xs.begin(), xs.end(), [&](double x) { return x < low; })),
              n, cdf(low));
  check_count(static_cast<double>(std::count_if(xs.begin(), xs.end(), [&](double x) { return x > high; })),
              n, 1.0 - cdf(high));
}

struct chi_square {
  double statistic;
  int degrees_of_freedom;
  double critical;  // the 1 - 10^-6 quantile of chi-square with that many degrees of freedom
};

/// Pearson's chi-square of observed counts against cell probabilities (summing to 1), after
/// merging neighbouring cells from the left until each expects at least 5 draws (a short last
/// group joins its neighbour). No parameter is estimated: degrees of freedom = cells - 1.
/// The critical value inverts the chi-square CDF P(nu/2, x/2) by bisection.
chi_square pearson_chi_square(const std::vector<double>& observed,
                              const std::vector<double>& probability, double n) {
  std::vector<double> merged_observed, merged_expected;
  double o = 0.0, e = 0.0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    o += observed[i];
    e += n * probability[i];
    if (e >= 5.0) {
      merged_observed.push_back(o);
      merged_expected.push_back(e);
      o = e = 0.0;
    }
  }
  if (e > 0.0 || o > 0.0) {
    merged_observed.back() += o;
    merged_expected.back() += e;
  }
  double statistic = 0.0;
  for (std::size_t i = 0; i < merged_observed.size(); ++i) {
    const double d = merged_observed[i] - merged_expected[i];
    statistic += d * d / merged_expected[i];
  }
  const int nu = static_cast<int>(merged_observed.size()) - 1;
  const double critical = quantile(
      [nu](double x) { return test::regularized_gamma_p(0.5 * nu, 0.5 * x); }, 1.0 - 1e-6, 0.0,
      10.0 * nu + 200.0);
  return {statistic, nu, critical};
}

void check_chi_square(const std::vector<double>& observed, const std::vector<double>& probability,
                      double n) {
  const auto result = pearson_chi_square(observed, probability, n);
  INFO("chi-square " << result.statistic << " on " << result.degrees_of_freedom
                     << " degrees of freedom; critical value (false alarm 1e-6) " << result.critical);
  CHECK(result.degrees_of_freedom >= 1);
  CHECK(result.statistic < result.critical);
}

double gamma_excess_kurtosis(double shape) { return 6.0 / shape; }

exact_moments beta_moments(double a, double b) {
  const double s = a + b;
  return {a / s, a * b / (s * s * (s + 1.0)),
          6.0 * ((a - b) * (a - b) * (s + 1.0) - a * b * (s + 2.0)) / (a * b * (s + 2.0) * (s + 3.0))};
}

}  // namespace

TEST_CASE("the incomplete gamma and beta functions match closed forms", "[samplers]") {
  // The oracles first: P(1, x) = 1 - e^-x, P(1/2, x) = erf(sqrt x), I_x(1, 1) = x,
  // I_x(1/2, 1/2) = (2 / pi) asin(sqrt x), I_x(a, 1) = x^a, on both sides of each method switch.
  // asin(sqrt x) is taken as atan2(sqrt x, sqrt(1 - x)): asin itself is ill-conditioned near 1
  // (its error at x = 1 - 1e-9 is 3e-12, the reference's own, not the function's).
  for (double x : {1e-30, 1e-3, 0.3, 1.4, 1.6, 3.0, 12.0, 40.0}) {
    INFO("x = " << x);
    CHECK(test::regularized_gamma_p(1.0, x) == Approx(-std::expm1(-x)).epsilon(1e-13));
    CHECK(test::regularized_gamma_p(0.5, x) == Approx(std::erf(std::sqrt(x))).epsilon(1e-13));
    CHECK(test::regularized_gamma_q(0.5, x) == Approx(std::erfc(std::sqrt(x))).epsilon(1e-12));
  }
  for (double x : {1e-12, 0.01, 0.3, 0.5, 0.7, 0.99, 1.0 - 1e-9}) {
    INFO("x = " << x);
    CHECK(test::regularized_beta(1.0, 1.0, x) == Approx(x).epsilon(1e-13));
    CHECK(test::regularized_beta(0.5, 0.5, x) ==
          Approx(2.0 / std::numbers::pi * std::atan2(std::sqrt(x), std::sqrt(1.0 - x))).epsilon(1e-13));
    CHECK(test::regularized_beta(0.1, 1.0, x) == Approx(std::pow(x, 0.1)).epsilon(1e-13));
    CHECK(test::regularized_beta(3.0, 1.0, x) == Approx(x * x * x).epsilon(1e-13));
  }
  // Symmetry of Beta(50, 50) about 1/2.
  CHECK(test::regularized_beta(50.0, 50.0, 0.5) == Approx(0.5).epsilon(1e-13));
}

TEST_CASE("gamma variates: moments, KS against P(a, x) and tails", "[samplers][statistical]") {
  // 0.05 and 0.5: the boost X U^(1/a) (0.05's 10^-3 quantile is about 1e-60, below which the
  // plain pow form would still be fine but the log form is what beta relies on); 1: the
  // smallest shape of the Marsaglia–Tsang core; 2.5 and 100: its squeeze at work.
  std::uint64_t seed = 100;
  for (double shape : {0.05, 0.5, 1.0, 2.5, 100.0}) {
    INFO("shape = " << shape);
    const auto xs = sample(xoshiro256pp(++seed), [shape](auto& g) { return gamma_variate(shape, g); });
    CHECK(*std::min_element(xs.begin(), xs.end()) >= 0.0);
    check_continuous(xs, {shape, shape, gamma_excess_kurtosis(shape)},
                     [shape](double x) { return test::regularized_gamma_p(shape, x); },
                     shape + 60.0 * std::sqrt(shape) + 60.0);
  }
  SECTION("on a 32-bit engine") {
    const auto xs = sample(std::mt19937(7), [](auto& g) { return gamma_variate(2.5, g); });
    check_continuous(xs, {2.5, 2.5, gamma_excess_kurtosis(2.5)},
                     [](double x) { return test::regularized_gamma_p(2.5, x); }, 200.0);
  }
}

TEST_CASE("beta variates: moments, KS against I_x(a, b) and tails", "[samplers][statistical]") {
  // (0.5, 0.5) and (0.2, 0.7): the log-space route (both shapes < 1; the second is asymmetric,
  // so that swapping a and b there would show); (0.1, 3): the ratio with one small
  // shape, whose 10^-3 quantile is about 1e-29; (2, 5) and (50, 50): the ratio of two
  // Marsaglia–Tsang variates.
  struct shapes {
    double a, b;
  };
  std::uint64_t seed = 200;
  for (const shapes s : {shapes{0.5, 0.5}, shapes{0.2, 0.7}, shapes{2.0, 5.0}, shapes{0.1, 3.0}, shapes{50.0, 50.0}}) {
    const double a = s.a, b = s.b;  // not a structured binding: Clang 14 cannot capture one
    INFO("a = " << a << ", b = " << b);
    const auto xs = sample(xoshiro256pp(++seed), [a, b](auto& g) { return beta_variate(a, b, g); });
    CHECK(*std::min_element(xs.begin(), xs.end()) >= 0.0);
    CHECK(*std::max_element(xs.begin(), xs.end()) <= 1.0);
    check_continuous(xs, beta_moments(a, b),
                     [a, b](double x) { return test::regularized_beta(a, b, x); }, 1.0);
  }
}

TEST_CASE("beta variates stay in [0, 1] when both gammas underflow", "[samplers]") {
  // At a = b = 0.001 each gamma underflows to 0 with probability ~0.47, so X / (X + Y) would
  // be NaN nearly a quarter of the time (0.47^2). Beta(0.001, 0.001) is symmetric about 1/2 and
  // puts mass 1/2 - O(a) near each end: the count of draws above 1/2 is Binomial(n, 1/2)
  // (5 sigma).
  xoshiro256pp gen(300);
  constexpr int n = 10'000;
  int above_half = 0;
  bool finite = true;
  for (int i = 0; i < n; ++i) {
    const double x = beta_variate(1e-3, 1e-3, gen);
    finite = finite && x >= 0.0 && x <= 1.0;  // false for NaN
    above_half += x > 0.5 ? 1 : 0;
  }
  CHECK(finite);
  CHECK(std::abs(above_half - n / 2.0) < test::z_five_sigma * std::sqrt(n / 4.0));
}

TEST_CASE("Poisson variates: moments, chi-square against the pmf and tails", "[samplers][statistical]") {
  // 0.3 and 9.99: inversion; 10: PTRS's first mean; 37 and 10^4: PTRS further out.
  std::uint64_t seed = 400;
  for (double mu : {0.3, 9.99, 10.0, 37.0, 1e4}) {
    INFO("mu = " << mu);
    const auto xs = sample(xoshiro256pp(++seed), [mu](auto& g) { return poisson_variate(mu, g); });
    const auto n = static_cast<double>(xs.size());
    check_moments(xs, {mu, mu, 1.0 / mu});
    // Cells 0, 1, ..., k_max and "beyond": P(X > mu + 15 sqrt(mu) + 20) < 1e-20 here.
    const auto k_max = static_cast<std::size_t>(mu + 15.0 * std::sqrt(mu) + 20.0);
    std::vector<double> probability(k_max + 2), observed(k_max + 2, 0.0);
    double total = 0.0;
    for (std::size_t k = 0; k <= k_max; ++k) {
      const auto kd = static_cast<double>(k);
      probability[k] = std::exp(-mu + kd * std::log(mu) - std::lgamma(kd + 1.0));
      total += probability[k];
    }
    probability[k_max + 1] = std::max(0.0, 1.0 - total);
    bool integral = true;
    for (double x : xs) {
      integral = integral && x >= 0.0 && x == std::floor(x);
      ++observed[std::min(static_cast<std::size_t>(x), k_max + 1)];
    }
    CHECK(integral);
    check_chi_square(observed, probability, n);
    // Tails: the smallest k with P(X >= k) <= 10^-3 (and, where P(X = 0) <= 10^-3, the largest
    // k with P(X <= k) <= 10^-3); n P >= 27 for every mean here (0.3: P(X >= 4) = 2.7e-4).
    double upper = 1.0;
    std::size_t k_upper = 0;
    while (upper > 1e-3) upper -= probability[k_upper++];
    check_count(static_cast<double>(std::count_if(xs.begin(), xs.end(),
                                                  [&](double x) { return x >= static_cast<double>(k_upper); })),
                n, upper);
    if (probability[0] <= 1e-3) {
      double lower = 0.0;
      std::size_t k_lower = 0;
      while (lower + probability[k_lower] <= 1e-3) lower += probability[k_lower++];
      // P(X < k_lower) = lower
      check_count(static_cast<double>(std::count_if(xs.begin(), xs.end(),
                                                    [&](double x) { return x < static_cast<double>(k_lower); })),
                  n, lower);
    }
  }
}

TEST_CASE("Poisson variates at the largest mean the arms accept", "[samplers][statistical]") {
  // mu = 1e15 (poisson_arm's limit), where PTRS's acceptance test computed as
  // -mu + k log mu - lgamma(k + 1) was off by up to 4 through cancellation (poisson.hpp). The
  // pmf is out of reach of lgamma in double here, but Z = (X - mu) / sqrt(mu) is N(0, 1) to
  // within the Berry–Esseen bound 0.4748 E|Y - 1|^3 / sqrt(mu) < 3e-8 (Y ~ Poisson(1)) in CDF
  // distance, far below what 10^6 draws resolve (1e-3). So: mean and variance of X (5 sigma,
  // check_moments), the excess kurtosis of Z (exactly 1/mu = 1e-15; standard error
  // sqrt(24 / n)), and KS of Z against N(0, 1) at 2.5 (false alarm 7.5e-6). The cancelling form
  // gave an excess kurtosis of 0.27 and sqrt(n) D_n = 5.8 here.
  constexpr double mu = 1e15;
  constexpr std::size_t n = 1'000'000;
  const auto xs = sample(xoshiro256pp(500), [](auto& g) { return poisson_variate(mu, g); }, n);
  check_moments(xs, {mu, mu, 1.0 / mu});
  std::vector<double> zs(n);
  std::transform(xs.begin(), xs.end(), zs.begin(), [](double x) { return (x - mu) / std::sqrt(mu); });
  const auto m = test::sample_moments(zs);
  CHECK(std::abs(m.excess_kurtosis) < test::z_five_sigma * std::sqrt(24.0 / static_cast<double>(n)));
  const double ks = test::ks_statistic_standard_normal(zs);
  INFO("sqrt(n) D_n = " << ks);
  CHECK(ks < 2.5);
}

TEST_CASE("Bernoulli variates: exact at 0 and 1, chi-square at 0.3", "[samplers][statistical]") {
  xoshiro256pp gen(600);
  const auto zeros = sample(gen, [](auto& g) { return bernoulli_variate(0.0, g); });
  const auto ones = sample(gen, [](auto& g) { return bernoulli_variate(1.0, g); });
  CHECK(std::all_of(zeros.begin(), zeros.end(), [](double x) { return x == 0.0; }));
  CHECK(std::all_of(ones.begin(), ones.end(), [](double x) { return x == 1.0; }));
  // p = 0.3: moments (variance p(1-p), excess kurtosis (1 - 6p(1-p)) / (p(1-p))) and the
  // two-cell chi-square, one degree of freedom, which is the binomial test of the count of ones.
  // There is no tail beyond {0, 1} to check.
  const auto xs = sample(xoshiro256pp(601), [](auto& g) { return bernoulli_variate(0.3, g); });
  const double pq = 0.3 * 0.7;
  check_moments(xs, {0.3, pq, (1.0 - 6.0 * pq) / pq});
  const auto ones_count = static_cast<double>(std::count(xs.begin(), xs.end(), 1.0));
  const auto n = static_cast<double>(xs.size());
  CHECK(std::count(xs.begin(), xs.end(), 0.0) + static_cast<std::ptrdiff_t>(ones_count) ==
        static_cast<std::ptrdiff_t>(xs.size()));
  check_chi_square({n - ones_count, ones_count}, {0.7, 0.3}, n);
}

TEST_CASE("samplers reject invalid parameters, naming them", "[samplers]") {
  xoshiro256pp gen(1);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double bad : {0.0, -1.0, nan, inf}) {
    INFO("bad = " << bad);
    CHECK_THROWS_AS((void)gamma_variate(bad, gen), std::invalid_argument);
    CHECK_THROWS_WITH((void)gamma_variate(bad, gen), Catch::Contains("shape = "));
    CHECK_THROWS_WITH((void)beta_variate(bad, 1.0, gen), Catch::Contains("a = "));
    CHECK_THROWS_WITH((void)beta_variate(1.0, bad, gen), Catch::Contains("b = "));
  }
  for (double bad : {-1.0, -1e-300, nan, inf}) {
    INFO("bad = " << bad);
    CHECK_THROWS_AS((void)poisson_variate(bad, gen), std::invalid_argument);
    CHECK_THROWS_WITH((void)poisson_variate(bad, gen), Catch::Contains("mu = "));
  }
  for (double bad : {-0.1, 1.1, nan, inf}) {
    INFO("bad = " << bad);
    CHECK_THROWS_AS((void)bernoulli_variate(bad, gen), std::invalid_argument);
    CHECK_THROWS_WITH((void)bernoulli_variate(bad, gen), Catch::Contains("p = "));
  }
  CHECK_THROWS_WITH((void)gamma_variate(-2.5, gen), Catch::Contains("shape = -2.5"));
  // Shapes whose variates' logarithms are not finite (a probe's findings: Beta(1e-310,
  // 1e-310) drew NaN every time, Beta(9e307, 9e307) drew 0); the ends of the range work.
  CHECK_THROWS_WITH((void)beta_variate(1e-310, 1e-310, gen), Catch::Contains("a = 1e-310"));
  CHECK_THROWS_WITH((void)beta_variate(1.0, 9e307, gen), Catch::Contains("b = 9e+307"));
  CHECK_THROWS_WITH(gamma_sampler(1e-301), Catch::Contains("shape = 1e-301"));
  for (int i = 0; i < 1000; ++i) {
    const double tiny = beta_variate(1e-300, 1e-300, gen);
    const double huge = beta_variate(1e300, 1e300, gen);
    REQUIRE((tiny >= 0.0 && tiny <= 1.0));
    REQUIRE(huge == Approx(0.5).margin(1e-6));  // sd 1 / sqrt(8e300): exactly 1/2 in doubles
    REQUIRE(std::isfinite(gamma_sampler(1e-300).log_variate(gen)));
  }
}

TEST_CASE("samplers are deterministic given the engine", "[samplers]") {
  const auto mixed = [](xoshiro256pp gen) {
    std::vector<double> out;
    for (int i = 0; i < 200; ++i) {
      out.push_back(gamma_variate(0.3, gen));
      out.push_back(beta_variate(0.5, 0.5, gen));
      out.push_back(poisson_variate(37.0, gen));
      out.push_back(bernoulli_variate(0.3, gen));
    }
    return out;
  };
  CHECK(mixed(xoshiro256pp(700)) == mixed(xoshiro256pp(700)));
  CHECK(mixed(xoshiro256pp(700)) != mixed(xoshiro256pp(701)));
}

TEST_CASE("the value-type samplers give the free functions' draws", "[samplers]") {
  // gamma_variate(shape, gen) is gamma_sampler(shape)(gen), and so on: the same stream.
  const gamma_sampler small_gamma(0.3), gamma(2.5);
  const beta_sampler small_beta(0.5, 0.7), beta(2.0, 5.0);
  const poisson_sampler small_poisson(3.0), poisson(37.0);
  CHECK(small_gamma.shape() == 0.3);
  CHECK(beta.a() == 2.0);
  CHECK(beta.b() == 5.0);
  CHECK(poisson.mean() == 37.0);
  xoshiro256pp by_sampler(800), by_function(800);
  for (int i = 0; i < 200; ++i) {
    REQUIRE(small_gamma(by_sampler) == gamma_variate(0.3, by_function));
    REQUIRE(gamma(by_sampler) == gamma_variate(2.5, by_function));
    REQUIRE(small_beta(by_sampler) == beta_variate(0.5, 0.7, by_function));
    REQUIRE(beta(by_sampler) == beta_variate(2.0, 5.0, by_function));
    REQUIRE(small_poisson(by_sampler) == poisson_variate(3.0, by_function));
    REQUIRE(poisson(by_sampler) == poisson_variate(37.0, by_function));
  }
  CHECK_THROWS_WITH(gamma_sampler(-1.0), Catch::Contains("shape = -1"));
  CHECK_THROWS_WITH(beta_sampler(1.0, 0.0), Catch::Contains("b = 0"));
  CHECK_THROWS_WITH(poisson_sampler(-2.0), Catch::Contains("mu = -2"));
}

TEST_CASE("samplers' known answers for seed 20261126", "[samplers]") {
  // The first draws on xoshiro256++(20261126), one fresh engine per sampler: any change to an
  // algorithm or to its use of the stream shows here. The continuous values are compared to
  // 1e-12 relative, as another libm may round log and exp differently in the last bit.
  const auto first = [](auto draw) {
    xoshiro256pp gen(20261126);
    std::vector<double> out;
    for (int i = 0; i < 4; ++i) out.push_back(draw(gen));
    return out;
  };
  const auto close_to = [](const std::vector<double>& actual, const std::vector<double>& expected) {
    for (std::size_t i = 0; i < expected.size(); ++i)
      if (!(actual[i] == Approx(expected[i]).epsilon(1e-12))) return false;
    return true;
  };
  CHECK(close_to(first([](auto& g) { return gamma_variate(0.5, g); }),
                 {1.3710580609869676, 0.16796810406479848, 0.041889349957953362, 0.042433395416045842}));
  CHECK(close_to(first([](auto& g) { return gamma_variate(2.5, g); }),
                 {2.8432159118039424, 4.3534812799765605, 0.52731989974459281, 0.80709406798294325}));
  CHECK(close_to(first([](auto& g) { return beta_variate(0.5, 0.5, g); }),
                 {0.89086078724389417, 0.49677402902574241, 0.0013544710663223923, 0.99954482469114714}));
  CHECK(close_to(first([](auto& g) { return beta_variate(2.0, 5.0, g); }),
                 {0.22895233050188527, 0.11196801903251079, 0.179695808330778, 0.11940567198752566}));
  CHECK(first([](auto& g) { return poisson_variate(3.0, g); }) == std::vector<double>{4, 0, 5, 1});
  CHECK(first([](auto& g) { return poisson_variate(37.0, g); }) == std::vector<double>{40, 46, 38, 41});
  CHECK(first([](auto& g) { return bernoulli_variate(0.3, g); }) == std::vector<double>{0, 1, 0, 1});
}
