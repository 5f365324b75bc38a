#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "sabandit/envs/glm.hpp"
#include "sabandit/envs/paper.hpp"
#include "sabandit/random.hpp"
#include "support/catch.hpp"
#include "support/stat_checks.hpp"

using namespace sabandit;

TEST_CASE("SGR and MGR follow the paper's Experiments section", "[envs]") {
  const auto sgr = make_sgr({.num_arms = 10, .gap = 0.5});
  REQUIRE(sgr.num_arms() == 10);
  CHECK(sgr.mean(9) == 3.0);
  for (Eigen::Index a = 0; a < 9; ++a) CHECK(sgr.mean(a) == 2.5);
  CHECK(sgr.gap(0) == 0.5);
  CHECK(sgr.arm(0).variance() == 1.0);

  const auto mgr = make_mgr({.num_arms = 50, .gap = 0.1});
  CHECK(mgr.mean(49) == Approx(3.05));
  CHECK(mgr.mean(0) == Approx(2.95));
  CHECK(mgr.gap(3) == Approx(0.1));
  const auto& best = mgr.arm(49).components();
  REQUIRE(best.size() == 2);
  CHECK(best[0].mean == 3.0);
  CHECK(best[1].mean == Approx(3.1));
}

TEST_CASE("MGR rewards have the mixture's mean and variance", "[envs][statistical]") {
  // 1/2 N(3, 1) + 1/2 N(3.5, 1): mean 3.25, variance 1 + 0.25^2 = 1.0625,
  // fourth central moment 3 + 6(0.0625) + 0.0039 -> Var(s^2) ~ (mu4 - v^2)/n.
  const auto mgr = make_mgr({.num_arms = 2, .gap = 0.5});
  xoshiro256pp gen(99);
  constexpr int n = 400'000;
  std::vector<double> xs(n);
  for (auto& x : xs) x = mgr.pull(1, gen);
  const auto m = test::sample_moments(xs);
  const double v = 1.0625;
  CHECK(std::abs(m.mean - 3.25) < test::z_five_sigma * std::sqrt(v / n));
  const double mu4 = 3.0 + 6.0 * 0.0625 + 0.0625 * 0.0625;
  CHECK(std::abs(m.variance - v) < test::z_five_sigma * std::sqrt((mu4 - v * v) / n));
}

TEST_CASE("environments reject bad settings", "[envs][errors]") {
  CHECK_THROWS_WITH(make_sgr({.num_arms = 1}), Catch::Contains("num_arms = 1"));
  CHECK_THROWS_WITH(make_sgr({.gap = 0.0}), Catch::Contains("gap = 0"));
  CHECK_THROWS_WITH(make_mgr({.noise_variance = -1.0}), Catch::Contains("noise_variance = -1"));
  CHECK_THROWS_WITH(normal_arm(0.0, 0.0), Catch::Contains("variance = 0"));
  CHECK_THROWS_WITH(bernoulli_arm(1.5), Catch::Contains("p = 1.5"));
  CHECK_THROWS_WITH(normal_mixture_arm({{0.5, 0, 1}, {0.6, 0, 1}}), Catch::Contains("sum of weights"));
  // Sizes past the state bound (2^31 doubles) throw std::length_error naming the size before
  // allocating; a probe's std::bad_alloc came after asking for terabytes.
  const Eigen::Index huge = Eigen::Index{1} << 38;
  CHECK_THROWS_WITH(make_sgr({.num_arms = huge}), Catch::Contains(std::to_string(huge) + " arms"));
  CHECK_THROWS_AS(make_mgr({.num_arms = huge}), std::length_error);
  CHECK_THROWS_WITH(make_bernoulli_gap(huge, 0.9, 0.5), Catch::Contains(std::to_string(huge) + " arms"));
  xoshiro256pp features_gen(1);
  CHECK_THROWS_WITH(random_features(Eigen::Index{1} << 32, Eigen::Index{1} << 32, features_gen),
                    Catch::Contains("dimension = 4294967296"));
  // The gap settings say which of the caller's values left the arm's support.
  CHECK_THROWS_WITH(make_bernoulli_gap(3, 0.9, 0.95), Catch::Contains("best - gap = 0.9 - 0.95"));
  CHECK_THROWS_WITH(make_bernoulli_gap(3, 1.5, 0.95), Catch::Contains("best = 1.5"));
  CHECK_THROWS_AS(make_poisson_gap(3, 0.2, 0.5), std::invalid_argument);
  // A gap lost in best's rounding made every arm the same; one past the largest double named an
  // arm's "mean = -inf" (a probe's findings): both name gap now.
  CHECK_THROWS_WITH(make_bernoulli_gap(3, 0.9, 1e-300), Catch::Contains("gap = 1e-300") &&
                                                          Catch::Contains("rounding of best = 0.9"));
  CHECK_THROWS_WITH(make_sgr({.gap = 1e308, .best_mean = -1.7e308}),
                    Catch::Contains("gap = 1e+308") && Catch::Contains("largest double"));
  CHECK_THROWS_WITH(make_mgr({.gap = 1e308, .best_mean = 1e308}), Catch::Contains("gap = 1e+308"));
  // Feature settings name the caller's features, theta and noise_variance, not an arm's mean.
  Eigen::MatrixXd phi(2, 3), theta(2, 3);
  phi << 1, 0, 1, 0, 1, 1;
  theta << 1, 2, 3, 4, 5, 6;
  Eigen::MatrixXd bad_theta = theta;
  bad_theta(0, 0) = std::nan("");
  CHECK_THROWS_WITH(make_linear_gaussian(phi, bad_theta), Catch::Contains("theta(0, 0) = nan"));
  CHECK_THROWS_WITH(make_logistic(phi, bad_theta), Catch::Contains("theta(0, 0) = nan"));
  CHECK_THROWS_WITH(make_linear_gaussian(phi, theta, -1.0), Catch::Contains("noise_variance = -1"));
  Eigen::MatrixXd infinite_phi = phi;
  infinite_phi(1, 1) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH(make_logistic(infinite_phi, theta), Catch::Contains("features(1, 1) = inf"));
  CHECK_THROWS_WITH(make_linear_gaussian(phi * 1e300, theta * 1e10),
                    Catch::Contains("<features.col(0), theta.col(0)> = inf") &&
                        Catch::Contains("mean = inf"));
  const auto sgr = make_sgr({});
  xoshiro256pp gen(1);
  CHECK_THROWS_AS((void)sgr.pull(10, gen), std::out_of_range);
}

TEST_CASE("a generic environment from per-arm distributions", "[envs]") {
  const bandit_env<bernoulli_arm> env({bernoulli_arm(0.2), bernoulli_arm(0.9)});
  CHECK(env.best_mean() == 0.9);
  CHECK(env.gap(0) == Approx(0.7));
  xoshiro256pp gen(1);
  double sum = 0;
  for (int i = 0; i < 10'000; ++i) sum += env.pull(1, gen);
  // Binomial(10^4, 0.9): sd = 30; 5 sigma.
  CHECK(std::abs(sum - 9000.0) < 150.0);
}

TEST_CASE("parameters_with_predictors refuses what would make theta non-finite", "[envs][errors]") {
  // A Python user's probe: NaN eta, NaN features and a zero column gave NaN or inf theta.
  Eigen::MatrixXd phi(2, 3);
  phi << 1.0, 0.0, 3.0,
         2.0, 1.0, 4.0;
  const Eigen::VectorXd eta = Eigen::Vector3d(0.5, -1.0, 2.0);
  const Eigen::MatrixXd theta = parameters_with_predictors(phi, eta);
  for (Eigen::Index a = 0; a < 3; ++a) CHECK(phi.col(a).dot(theta.col(a)) == Approx(eta(a)));
  Eigen::VectorXd bad_eta = eta;
  bad_eta(1) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(parameters_with_predictors(phi, bad_eta), Catch::Contains("eta(1) = nan"));
  Eigen::MatrixXd zero = phi, nan = phi;
  zero.col(2).setZero();
  nan(0, 0) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(parameters_with_predictors(zero, eta),
                    Catch::Contains("features.col(2).squaredNorm() = 0"));
  CHECK_THROWS_WITH(parameters_with_predictors(nan, eta),
                    Catch::Contains("features.col(0).squaredNorm() = nan"));
  // |phi|^2 = 2e-320 is finite and > 0, but eta / |phi|^2 overflows (a probe's finding).
  const Eigen::MatrixXd tiny = Eigen::MatrixXd::Constant(2, 3, 1e-160);
  CHECK_THROWS_WITH(parameters_with_predictors(tiny, eta),
                    Catch::Contains("eta(0) = 0.5") && Catch::Contains("makes theta non-finite"));
}
