// The Bernoulli (logistic), Poisson (log) and exponential (log) models: likelihoods, gradients
// against central finite differences at random points, and finite values at |<phi, theta>| = 700.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "sabandit/envs/arms.hpp"
#include "sabandit/models/bernoulli.hpp"
#include "sabandit/models/exponential.hpp"
#include "sabandit/models/gaussian.hpp"
#include "sabandit/models/information.hpp"
#include "sabandit/models/poisson.hpp"
#include "sabandit/random.hpp"
#include "support/catch.hpp"

using namespace sabandit;

// The built-in models declare their geometry. Clang 14 once judged canonical_link's constrained
// members unsatisfiable (constraints naming the class being defined), and the policies then fell
// back silently to finite differences and decided differently than under GCC: a compile error now.
static_assert(FisherInformationModel<gaussian_model> && FisherInformationModel<bernoulli_model> &&
              FisherInformationModel<poisson_model> && FisherInformationModel<exponential_model>);
static_assert(InvertibleLinkModel<gaussian_model> && InvertibleLinkModel<bernoulli_model> &&
              InvertibleLinkModel<poisson_model> && InvertibleLinkModel<exponential_model>);
static_assert(NormalizingCoordinateModel<exponential_model>);

namespace {

/// Checks m.grad_log_likelihood (and the at-mean path) against central differences of the mean
/// log-likelihood, at random phi, theta (N(0, I/d), so |eta| is of order 1) and the window
/// `rewards`. Central differences err by eps^2 |f'''| / 6 + rounding ~1e-16 |f| / eps; with
/// eps = 1e-5 and |f'''| <= |phi|^3 max(e^eta, 1/4) of order 10 here, both are below 1e-9, so a
/// relative tolerance of 1e-6 (plus 1e-9 absolute) is a wide margin yet catches any wrong term.
template <class Model>
void check_gradient(const Model& model, const Eigen::VectorXd& rewards, xoshiro256pp& gen) {
  for (int d : {1, 3, 5}) {
    for (int point = 0; point < 10; ++point) {
      Eigen::VectorXd phi(d), theta(d), grad(d), at_mean(d);
      fill_standard_normal(phi, gen);
      fill_standard_normal(theta, gen);
      phi /= std::sqrt(static_cast<double>(d));
      theta /= std::sqrt(static_cast<double>(d));
      model.grad_log_likelihood(rewards, phi, theta, grad);
      const auto mean_ll = [&](const Eigen::VectorXd& t) {
        double sum = 0;
        for (double x : rewards) sum += model.log_likelihood(x, phi, t);
        return sum / static_cast<double>(rewards.size());
      };
      constexpr double eps = 1e-5;
      for (int i = 0; i < d; ++i) {
        Eigen::VectorXd up = theta, down = theta;
        up(i) += eps;
        down(i) -= eps;
        CHECK(grad(i) == Approx((mean_ll(up) - mean_ll(down)) / (2 * eps))
                             .epsilon(1e-6)
                             .margin(1e-9));
      }
      model.grad_log_likelihood_at_mean(rewards.mean(), phi, theta, at_mean);
      CHECK(at_mean.isApprox(grad, 1e-12));
    }
  }
}

}  // namespace

TEST_CASE("softplus and sigmoid are exact and finite at the extremes", "[models]") {
  CHECK(softplus(0.0) == Approx(std::log(2.0)));
  CHECK(softplus(3.0) == Approx(std::log1p(std::exp(3.0))));
  CHECK(softplus(-3.0) == Approx(std::log1p(std::exp(-3.0))));
  CHECK(softplus(700.0) == 700.0);  // log1p(e^-700) is below half an ulp of 700
  CHECK(softplus(-700.0) == Approx(std::exp(-700.0)).epsilon(1e-12));
  CHECK(softplus(1e308) == 1e308);
  CHECK(sigmoid(0.0) == 0.5);
  CHECK(sigmoid(700.0) == 1.0);
  CHECK(sigmoid(-700.0) == Approx(std::exp(-700.0)).epsilon(1e-12));
  CHECK(sigmoid(-700.0) > 0.0);
  CHECK(sigmoid(2.0) + sigmoid(-2.0) == Approx(1.0));
}

TEST_CASE("Bernoulli model: log-likelihood, mean and link", "[models]") {
  const bernoulli_model model;
  Eigen::Vector2d phi(1.0, 0.5), theta(0.2, 0.6);  // eta = 0.5
  const double p = 1.0 / (1.0 + std::exp(-0.5));
  CHECK(model.mean(phi, theta) == Approx(p));
  CHECK(model.log_likelihood(1.0, phi, theta) == Approx(std::log(p)));
  CHECK(model.log_likelihood(0.0, phi, theta) == Approx(std::log(1 - p)));
}

TEST_CASE("Poisson model: log-likelihood, mean and link", "[models]") {
  const poisson_model model;
  Eigen::Vector2d phi(1.0, 0.5), theta(0.2, 0.6);  // eta = 0.5
  const double mu = std::exp(0.5);
  CHECK(model.mean(phi, theta) == Approx(mu));
  // log(mu^3 e^-mu / 3!)
  CHECK(model.log_likelihood(3.0, phi, theta) == Approx(3 * 0.5 - mu - std::log(6.0)));
}

TEST_CASE("Exponential model: log-likelihood, mean, link, information and normalizing slope",
          "[models]") {
  const exponential_model model;
  Eigen::Vector2d phi(1.0, 0.5), theta(0.2, 0.6);  // eta = 0.5
  const double mu = std::exp(0.5);
  CHECK(model.mean(phi, theta) == Approx(mu));
  // log(e^-eta e^(-x e^-eta)) at x = 2: the density (1 / mu) e^(-x / mu)
  CHECK(model.log_likelihood(2.0, phi, theta) == Approx(std::log(std::exp(-2.0 / mu) / mu)));
  CHECK(model.link(mu) == Approx(0.5));
  CHECK(model.mean_slope(phi, theta) == Approx(mu));
  // i(eta) = E[x e^-eta] = 1, the curvature -d^2/d eta^2 (-eta - x e^-eta) at x = mu
  CHECK(model.information(phi, theta) == 1.0);
  CHECK(exponential_model::information_at(-40.0) == 1.0);
  // d/d eta of the normalizing coordinate at the mean, against a central difference (error
  // eps^2 |psi'''| ~ 1e-10, well inside the 1e-8 checked); increasing in the mean
  constexpr double eps = 1e-5;
  const double slope = (exponential_model::normalizing_coordinate(std::exp(0.5 + eps)) -
                        exponential_model::normalizing_coordinate(std::exp(0.5 - eps))) /
                       (2 * eps);
  CHECK(model.normalizing_slope(phi, theta) == Approx(slope).epsilon(1e-8));
  // models/information.hpp's definition: d psi / d mu proportional to V(mu)^(-2/3) = mu^(-4/3),
  // so d psi / d mu mu^(4/3) is the same at every mean (central differences of relative
  // step 1e-5: relative error ~1e-10, checked at 1e-8), and psi increases.
  const auto scaled_slope = [](double m) {
    const double h = 1e-5 * m;
    return (exponential_model::normalizing_coordinate(m + h) -
            exponential_model::normalizing_coordinate(m - h)) /
           (2 * h) * std::pow(m, 4.0 / 3.0);
  };
  CHECK(scaled_slope(0.01) == Approx(scaled_slope(100.0)).epsilon(1e-8));
  CHECK(scaled_slope(1e-6) > 0.0);
  // The divergence: +infinity where a mean is no exponential law's or p / q overflows, 0 at p = q.
  constexpr double infinity = std::numeric_limits<double>::infinity();
  for (const auto& [p, q] : {std::pair{1.0, 0.0}, std::pair{1.0, infinity}, std::pair{0.0, 1.0},
                            std::pair{1e300, 1e-300}, std::pair{1.0, -1.0}})
    CHECK(model.divergence(p, q) == infinity);
  CHECK(model.divergence(2.5, 2.5) == 0.0);
  CHECK(model.divergence(1.0, 2.0) == Approx(0.5 - 1.0 + std::log(2.0)));
}

TEST_CASE("Bernoulli window gradient matches central finite differences", "[models]") {
  xoshiro256pp gen(11);
  Eigen::VectorXd rewards(9);
  for (auto& x : rewards) x = uniform01(gen) < 0.3 ? 1.0 : 0.0;
  check_gradient(bernoulli_model{}, rewards, gen);
}

TEST_CASE("Poisson window gradient matches central finite differences", "[models]") {
  xoshiro256pp gen(12);
  Eigen::VectorXd rewards(9);
  for (auto& x : rewards) x = poisson_variate(2.5, gen);
  check_gradient(poisson_model{}, rewards, gen);
}

TEST_CASE("Exponential window gradient matches central finite differences", "[models]") {
  xoshiro256pp gen(13);
  Eigen::VectorXd rewards(9);
  for (auto& x : rewards) x = exponential_variate(1.5, gen);
  check_gradient(exponential_model{}, rewards, gen);
}

TEST_CASE("GLM models stay finite at |<phi, theta>| = 700", "[models]") {
  const bernoulli_model bernoulli;
  const poisson_model poisson;
  Eigen::VectorXd rewards(3);
  rewards << 0.0, 1.0, 1.0;
  Eigen::VectorXd phi = Eigen::VectorXd::Constant(1, 1.0), grad(1);
  for (double eta : {-700.0, 700.0}) {
    const Eigen::VectorXd theta = Eigen::VectorXd::Constant(1, eta);
    INFO("eta = " << eta);
    CHECK(std::isfinite(bernoulli.log_likelihood(0.0, phi, theta)));
    CHECK(std::isfinite(bernoulli.log_likelihood(1.0, phi, theta)));
    CHECK(bernoulli.mean(phi, theta) >= 0.0);
    CHECK(bernoulli.mean(phi, theta) <= 1.0);
    bernoulli.grad_log_likelihood(rewards, phi, theta, grad);
    CHECK(grad.allFinite());
    CHECK(std::isfinite(poisson.log_likelihood(4.0, phi, theta)));
    CHECK(std::isfinite(poisson.mean(phi, theta)));
    poisson.grad_log_likelihood(rewards, phi, theta, grad);
    CHECK(grad.allFinite());
  }
  // The correct limits, not merely finite ones: log P(x = 1) at eta = -700 is -700.
  const Eigen::VectorXd low = Eigen::VectorXd::Constant(1, -700.0);
  CHECK(bernoulli.log_likelihood(1.0, phi, low) == Approx(-700.0));
  CHECK(bernoulli.log_likelihood(0.0, phi, low) == Approx(-std::exp(-700.0)).epsilon(1e-12));
}

TEST_CASE("Poisson variates have the right mean and variance", "[random][statistical]") {
  // Mean and variance both equal mu. Over n = 10^5 draws the sample mean has standard error
  // sqrt(mu / n) and the sample variance about mu sqrt(2 / n) (the excess kurtosis 1/mu adds
  // little); both are checked at 5 sigma. Both branches (inversion < 10 <= PTRS) are covered.
  xoshiro256pp gen(5);
  constexpr int n = 100'000;
  for (double mu : {0.0, 0.3, 3.0, 9.5, 10.0, 37.0, 1000.0}) {
    double sum = 0, sum2 = 0;
    bool integral = true;
    for (int i = 0; i < n; ++i) {
      const double k = poisson_variate(mu, gen);
      integral = integral && k >= 0 && k == std::floor(k);
      sum += k;
      sum2 += k * k;
    }
    const double mean = sum / n, variance = sum2 / n - mean * mean;
    INFO("mu = " << mu);
    CHECK(integral);
    CHECK(std::abs(mean - mu) <= 5 * std::sqrt(mu / n) + 1e-12);
    CHECK(std::abs(variance - mu) <= 5 * mu * std::sqrt(2.0 / n + 1.0 / (mu * n + 1e-300)) + 1e-12);
  }
}

TEST_CASE("Exponential variates have the right mean and variance, and are always > 0",
          "[random][statistical]") {
  // Mean mu, variance mu^2, fourth central moment 9 mu^4. Over n = 10^5 draws the sample mean
  // has standard error mu / sqrt(n) and the sample variance sqrt((9 - 1) / n) mu^2; both are
  // checked at 5 sigma. Every draw is in [1.1e-16, 36.8] means: finite and > 0, as
  // exponential_model's support requires.
  xoshiro256pp gen(6);
  constexpr int n = 100'000;
  for (double mu : {1e-90, 0.25, 3.0, 1e90}) {
    double sum = 0, sum2 = 0, low = mu, high = mu;
    for (int i = 0; i < n; ++i) {
      const double x = exponential_variate(mu, gen);
      low = std::min(low, x);
      high = std::max(high, x);
      sum += x / mu;  // in units of mu, so that 1e90^2 does not overflow
      sum2 += (x / mu) * (x / mu);
    }
    const double mean = sum / n, variance = sum2 / n - mean * mean;
    INFO("mu = " << mu);
    CHECK(low >= 1e-16 * mu);
    CHECK(high <= 36.8 * mu);
    CHECK(std::abs(mean - 1.0) <= 5 / std::sqrt(double{n}));
    CHECK(std::abs(variance - 1.0) <= 5 * std::sqrt(8.0 / n));
  }
  // The extreme cells, from engines that return all ones or all zeros: U = 1 - 2^-53 and 2^-53.
  struct constant_bits {
    using result_type = std::uint64_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type{0}; }
    result_type bits;
    result_type operator()() const { return bits; }
  };
  constant_bits ones{~std::uint64_t{0}}, zeros{0};
  CHECK(exponential_variate(1.0, ones) == Approx(0x1.0p-53).epsilon(1e-6));
  CHECK(exponential_variate(1.0, zeros) == Approx(53.0 * std::log(2.0)));
  CHECK_THROWS_WITH(exponential_variate(0.0, gen), Catch::Contains("mean = 0"));
  CHECK_THROWS_WITH(exponential_arm(-1.0), Catch::Contains("mean = -1"));
}

TEST_CASE("the at-mean gradient is the same bits through fixed-size views and Eigen::Ref (the "
          "policies' d = 1 path)",
          "[models]") {
  // TS-SGLD's select() at d = 1 passes 1 x 1 fixed-size maps where the d-generic code passes
  // Eigen::Ref or blocks; the models' at-mean gradient must compute the same operations either way, so
  // that d = 1 results (the paper's experiments, the committed outputs) do not depend on the
  // path.
  xoshiro256pp gen(7);
  const auto check = [&](const auto& model) {
    for (int i = 0; i < 1000; ++i) {
      // phi and theta on the heap: 1 x 1 fixed-size objects behind an Eigen::Ref to a dynamic
      // vector made GCC 12 warn a false -Warray-bounds on the (dead) packet path at -O3.
      Eigen::VectorXd phi(1), theta(1);
      Eigen::Matrix<double, 1, 1> fixed;
      fill_standard_normal(phi, gen);
      fill_standard_normal(theta, gen);
      const double xbar = 3.0 * standard_normal(gen);
      Eigen::VectorXd dynamic(1);
      model.grad_log_likelihood_at_mean(xbar, vector_cref(phi), vector_cref(theta),
                                        vector_ref(dynamic));
      using const_view = Eigen::Map<const Eigen::Matrix<double, 1, 1>>;
      Eigen::Map<Eigen::Matrix<double, 1, 1>> out(fixed.data());
      model.grad_log_likelihood_at_mean(xbar, const_view(phi.data()), const_view(theta.data()),
                                        out);
      CHECK(std::bit_cast<std::uint64_t>(fixed(0)) == std::bit_cast<std::uint64_t>(dynamic(0)));
    }
  };
  check(gaussian_model{});
  check(gaussian_model{2.5});
  check(bernoulli_model{});
  check(poisson_model{});
  check(exponential_model{});
}
