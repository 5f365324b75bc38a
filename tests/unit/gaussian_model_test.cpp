#include <cmath>
#include <numbers>

#include "sabandit/models/gaussian.hpp"
#include "sabandit/random.hpp"
#include "support/catch.hpp"

using namespace sabandit;

TEST_CASE("Gaussian log-likelihood is the normal log-density", "[models]") {
  const gaussian_model model(2.0);
  Eigen::Vector2d phi(1.0, 0.5), theta(0.2, 2.0);
  const double mu = 1.2, x = 0.7;
  CHECK(model.mean(phi, theta) == Approx(mu));
  CHECK(model.log_likelihood(x, phi, theta) ==
        Approx(-0.5 * std::log(2 * std::numbers::pi * 2.0) - (x - mu) * (x - mu) / 4.0));
}

TEST_CASE("Gaussian window gradient matches central finite differences", "[models]") {
  const gaussian_model model(1.7);
  xoshiro256pp gen(3);
  for (int d : {1, 2, 5}) {
    Eigen::VectorXd phi(d), theta(d), rewards(9), grad(d);
    fill_standard_normal(phi, gen);
    fill_standard_normal(theta, gen);
    fill_standard_normal(rewards, gen);
    model.grad_log_likelihood(rewards, phi, theta, grad);
    const auto mean_ll = [&](const Eigen::VectorXd& t) {
      double sum = 0;
      for (double x : rewards) sum += model.log_likelihood(x, phi, t);
      return sum / static_cast<double>(rewards.size());
    };
    // Central differences have error O(eps^2 f''') = 0 for a quadratic, so only rounding
    // remains: ~1e-16 / eps = 1e-11 relative; 1e-6 leaves a wide margin.
    constexpr double eps = 1e-5;
    for (int i = 0; i < d; ++i) {
      Eigen::VectorXd up = theta, down = theta;
      up(i) += eps;
      down(i) -= eps;
      CHECK(grad(i) == Approx((mean_ll(up) - mean_ll(down)) / (2 * eps)).epsilon(1e-6));
    }
    Eigen::VectorXd at_mean(d);
    model.grad_log_likelihood_at_mean(rewards.mean(), phi, theta, at_mean);
    CHECK(at_mean.isApprox(grad, 1e-12));
  }
}

TEST_CASE("Gaussian map_estimate with a flat prior maximises the likelihood", "[models]") {
  const gaussian_model model;
  Eigen::Vector3d phi(1.0, -2.0, 0.5), theta;
  model.map_estimate(2.5, 7.0, phi, normal_prior::flat(), theta);
  CHECK(model.mean(phi, theta) == Approx(2.5));
  Eigen::Vector3d grad;
  model.grad_log_likelihood_at_mean(2.5, phi, theta, grad);
  CHECK(grad.norm() < 1e-12);
}

TEST_CASE("Gaussian map_estimate zeroes the log-posterior gradient", "[models]") {
  // grad [count F(theta) + log pi(theta)] = count phi (xbar - <phi, theta>) / sigma^2
  //                                         - (theta - mu0) / sigma0^2 = 0 at the MAP.
  const gaussian_model model(0.5);
  const normal_prior prior{0.3, 2.0};
  Eigen::Vector3d phi(1.0, -2.0, 0.5), theta, grad;
  model.map_estimate(2.5, 7.0, phi, prior, theta);
  model.grad_log_likelihood_at_mean(2.5, phi, theta, grad);
  grad *= 7.0;
  prior.add_log_density_gradient(theta, 1.0, grad);
  CHECK(grad.norm() < 1e-12);
}

TEST_CASE("Gaussian model rejects a non-positive variance", "[models][errors]") {
  CHECK_THROWS_WITH(gaussian_model(0.0), Catch::Contains("noise_variance = 0"));
  CHECK_THROWS_AS(gaussian_model(-1.0), std::invalid_argument);
  CHECK_THROWS_AS(gaussian_model(std::nan("")), std::invalid_argument);
}
