#include <cmath>
#include <limits>

#include "sabandit/detail/vector_ops.hpp"
#include "sabandit/kernels/langevin.hpp"
#include "sabandit/kernels/sa_average.hpp"
#include "sabandit/kernels/schedules.hpp"
#include "sabandit/models/bernoulli.hpp"
#include "sabandit/models/prior.hpp"
#include "sabandit/random.hpp"
#include "support/catch.hpp"
#include "support/stat_checks.hpp"

using namespace sabandit;

TEST_CASE("LMC on a Gaussian target has the discretised chain's stationary law",
          "[kernels][statistical]") {
  // Target N(mu, s2): grad log p = -(theta - mu) / s2. The chain is AR(1),
  //   theta' - mu = rho (theta - mu) + sqrt(2h) xi,  rho = 1 - h/s2,
  // with stationary mean mu and variance V = 2h / (1 - rho^2) = s2 / (1 - h / (2 s2)).
  const double mu = 2.0, s2 = 1.5, h = 0.3;
  const double rho = 1.0 - h / s2;
  const double v = s2 / (1.0 - h / (2.0 * s2));
  // 8 independent chains side by side (one 1 x 8 block per step), 125,000 kept steps each.
  constexpr Eigen::Index chains = 8, steps = 125'000, burn_in = 200;
  xoshiro256pp gen(11);
  Eigen::RowVectorXd theta = Eigen::RowVectorXd::Constant(chains, mu);
  Eigen::RowVectorXd proposal(chains), grad(chains);
  double sum = 0, sum_sq = 0;
  for (Eigen::Index t = 0; t < burn_in + steps; ++t) {
    grad = -(theta.array() - mu) / s2;
    langevin_step(theta, grad, h, 1.0, proposal, gen);
    theta = proposal;
    if (t >= burn_in) {
      sum += theta.sum();
      sum_sq += (theta.array() - mu).square().sum();
    }
  }
  const double n = static_cast<double>(chains * steps);
  const double mean = sum / n;
  const double var = sum_sq / n - (mean - mu) * (mean - mu);
  // Autocorrelated samples: Var(mean) = V (1 + rho) / (1 - rho) / n, and for a Gaussian AR(1)
  // Var(sample variance) = 2 V^2 (1 + rho^2) / (1 - rho^2) / n. 5 sigma each.
  CHECK(std::abs(mean - mu) < test::z_five_sigma * std::sqrt(v * (1 + rho) / (1 - rho) / n));
  const double var_sd = std::sqrt(2 * v * v * (1 + rho * rho) / (1 - rho * rho) / n);
  CHECK(std::abs(var - v) < test::z_five_sigma * var_sd);
  // The discretisation bias V - s2 = 0.167 is 33x var_sd: the test can tell V from s2.
  CHECK(std::abs(var - s2) > test::z_five_sigma * var_sd);
}

TEST_CASE("SGLD noise scale targets the tempered posterior", "[kernels][statistical]") {
  // With noise_scale c the stationary variance becomes c^2 V: here c^2 = tau/n = 0.1.
  const double s2 = 1.0, h = 0.2, c2 = 0.1;
  const double v = c2 * s2 / (1.0 - h / (2.0 * s2));
  const double rho = 1.0 - h / s2;
  xoshiro256pp gen(12);
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(4), proposal(4), grad(4);
  double sum_sq = 0;
  constexpr int steps = 200'000;
  for (int t = 0; t < steps; ++t) {
    grad = -theta / s2;
    langevin_step(theta, grad, h, std::sqrt(c2), proposal, gen);
    theta = proposal;
    sum_sq += theta.squaredNorm();
  }
  const double n = 4.0 * steps;
  const double var_sd = std::sqrt(2 * v * v * (1 + rho * rho) / (1 - rho * rho) / n);
  CHECK(std::abs(sum_sq / n - v) < test::z_five_sigma * var_sd);
}

TEST_CASE("SA averaging with gamma_n = 1/n is the running mean", "[kernels]") {
  xoshiro256pp gen(13);
  const auto harmonic = polynomial_decay::harmonic();
  Eigen::Vector3d theta = Eigen::Vector3d::Constant(123.0);  // gamma_1 = 1 forgets this
  Eigen::Vector3d sum = Eigen::Vector3d::Zero(), omega;
  for (Eigen::Index n = 1; n <= 1000; ++n) {
    fill_standard_normal(omega, gen);
    omega *= 10.0;
    sum += omega;
    sa_average(theta, omega, harmonic(n));
    // Each step rounds at most a few ulps of the running magnitude (~10): 1e-12 absolute.
    REQUIRE((theta - sum / static_cast<double>(n)).cwiseAbs().maxCoeff() < 1e-12);
  }
}

TEST_CASE("step-size schedules", "[kernels]") {
  const auto paper = polynomial_decay::paper_default();
  CHECK(paper(1) == Approx(144.07 / (677.88 + 40.02)));
  CHECK(paper(100) == Approx(144.07 / (677.88 * std::pow(100.0, 0.999) + 40.02)));
  CHECK(paper(10) < paper(9));
  CHECK(constant_schedule(0.3)(1000) == 0.3);
  const horizon_schedule theory(1000);
  CHECK(theory(7) == Approx(1e-3));
  CHECK(theory.inner_steps(1) == 1000);
  CHECK(theory.inner_steps(3) == 334);  // ceil(1000 / 3)
  CHECK(inner_steps(theory, 3, 1) == 334);
  CHECK(inner_steps(paper, 3, 5) == 5);
  CHECK_THROWS_WITH(polynomial_decay(1, 1, 0, 1.5), Catch::Contains("alpha = 1.5"));
  CHECK_THROWS_WITH(polynomial_decay(0, 1, 0, 1), Catch::Contains("c1 = 0"));
  CHECK_THROWS_WITH(polynomial_decay(1, 0, 0, 1), Catch::Contains("c2 + c3"));
  CHECK_THROWS_WITH(constant_schedule(-1), Catch::Contains("value = -1"));
  CHECK_THROWS_WITH(horizon_schedule(0), Catch::Contains("horizon = 0"));
}

// A standard normal times a factor from 0.03 to 30: coefficients whose sums round differently
// in another order (the vector_ops cases below).
static double spread_value(xoshiro256pp& gen) {
  return std::exp(6.9 * (uniform01(gen) - 0.5)) * standard_normal(gen);
}

// detail/vector_ops.hpp replaces the chains' Eigen expressions by loops and one reduction per
// kind, for compile time; the decisions must not move by a bit. Its operations are compared here
// with the expressions they replace, exactly (==), on columns of a d x 5 matrix: with d odd the
// columns start at every offset modulo 4 doubles (every alignment of SSE2's and AVX's packets),
// which decides where Eigen's sum() starts its packets. Coefficients from spread_value make
// another reduction order round differently
// (a sequential dot fails this test at every d from 4 on, and a planted change of Alg. 1 line 9's
// form, theta = (1 - gamma) theta + gamma omega, fails the next one).
TEST_CASE("vector_ops compute the bits of the Eigen expressions they replace", "[kernels]") {
  xoshiro256pp gen(17);
  const auto value = [&] { return spread_value(gen); };
  for (const Eigen::Index d : {1, 2, 3, 4, 5, 7, 8, 17}) {
    CAPTURE(d);
    const Eigen::MatrixXd x = Eigen::MatrixXd::NullaryExpr(d, 5, value);
    const Eigen::MatrixXd y = Eigen::MatrixXd::NullaryExpr(d, 5, value);
    for (Eigen::Index a = 0; a < x.cols(); ++a) {
      CAPTURE(a);
      const auto u = x.col(a), v = y.col(a);
      CHECK(detail::dot(u, v) == u.dot(v));
      CHECK(detail::squared_norm(u) == u.squaredNorm());
      CHECK(detail::norm(u) == u.norm());
      CHECK(detail::sum(u) == u.sum());
      CHECK(detail::max_abs(u) == u.lpNorm<Eigen::Infinity>());
      for (Eigen::Index k = 0; k < d; ++k)
        CHECK(detail::mean(u.tail(d - k)) == u.tail(d - k).mean());
      CHECK(detail::all_finite(u));
      CHECK_FALSE(detail::all_zero(u));
      const double s = value();
      Eigen::VectorXd out(d);
      detail::add_scaled(out, u, s, v);
      CHECK(out == Eigen::VectorXd(u + s * v));
      detail::scaled(out, s, v);
      CHECK(out == Eigen::VectorXd(v * s));
      const double c = value();
      detail::scaled_plus(out, s, v, c);
      CHECK(out == Eigen::VectorXd((v * s).array() + c));
      detail::copy(out, u);
      CHECK(out == u);
    }
  }
  // The d = 1 views (policies/langevin/dimension.hpp): 1 x 1 maps reduce to one product.
  double p = 0.3, q = -7.0;
  const Eigen::Map<const Eigen::Matrix<double, 1, 1>> one_p(&p), one_q(&q);
  CHECK(detail::dot(one_p, one_q) == one_p.dot(one_q));
  CHECK(detail::sum(one_q) == -7.0);
  // A non-finite or a zero coefficient anywhere is seen.
  Eigen::VectorXd w = Eigen::VectorXd::Zero(5);
  CHECK(detail::all_zero(w));
  w(4) = std::numeric_limits<double>::quiet_NaN();
  CHECK_FALSE(detail::all_zero(w));
  CHECK_FALSE(detail::all_finite(w));
  w(4) = -std::numeric_limits<double>::infinity();
  CHECK_FALSE(detail::all_finite(w));
  CHECK(detail::max_abs(w) == std::numeric_limits<double>::infinity());
  // max_abs is NaN wherever a NaN sits (Eigen's lpNorm<Infinity> may skip it), so that the warm
  // start's convergence test, |Newton step| <= tol (1 + max_abs(theta)), fails on a NaN theta.
  for (Eigen::Index k = 0; k < w.size(); ++k) {
    Eigen::VectorXd z = Eigen::VectorXd::LinSpaced(5, -2.0, 2.0);
    z(k) = std::numeric_limits<double>::quiet_NaN();
    CHECK(std::isnan(detail::max_abs(z)));
  }
  CHECK(detail::max_abs(Eigen::VectorXd()) == 0.0);
  CHECK(detail::filled<Eigen::MatrixXd>(2, 3, 0.5) == Eigen::MatrixXd::Constant(2, 3, 0.5));
  CHECK((detail::filled<Eigen::ArrayXd>(4, -1.0) == Eigen::ArrayXd::Constant(4, -1.0)).all());
}

TEST_CASE("the kernels' loops compute the bits of their block expressions", "[kernels]") {
  // langevin_step, sa_average and the prior's gradient run a loop on one contiguous vector and
  // the Eigen expression on a block (here a row of a matrix, whose coefficients are strided):
  // both must agree to the bit, with the same normal draws.
  xoshiro256pp values(23);
  const auto value = [&] { return spread_value(values); };
  for (const Eigen::Index d : {1, 3, 5, 8})
  for (int draw = 0; draw < 20; ++draw) {
    CAPTURE(d, draw);
    const double h = std::abs(value()), c = std::abs(value()), gamma = uniform01(values);
    const Eigen::VectorXd theta = Eigen::VectorXd::NullaryExpr(d, value);
    const Eigen::VectorXd grad = Eigen::VectorXd::NullaryExpr(d, value);
    Eigen::MatrixXd rows(2, d);  // row 0: theta's copy, strided
    rows.row(0) = theta.transpose();
    Eigen::MatrixXd grad_rows(2, d);
    grad_rows.row(0) = grad.transpose();
    Eigen::MatrixXd out_rows(2, d);
    Eigen::VectorXd out(d);
    xoshiro256pp gen_loop(5), gen_block(5);
    langevin_step(theta, grad, h, c, out, gen_loop);
    langevin_step(rows.row(0), grad_rows.row(0), h, c, out_rows.row(0), gen_block);
    CHECK(out == out_rows.row(0).transpose());
    CHECK(gen_loop == gen_block);

    Eigen::VectorXd averaged = theta;
    sa_average(averaged, out, gamma);
    sa_average(rows.row(0), out_rows.row(0), gamma);
    CHECK(averaged == rows.row(0).transpose());

    const normal_prior prior{value(), std::abs(value())};
    Eigen::VectorXd g = grad;
    prior.add_log_density_gradient(averaged, 0.43, g);  // rows.row(0) is averaged now
    auto g_row = grad_rows.row(0);
    prior.add_log_density_gradient(rows.row(0), 0.43, g_row);
    CHECK(g == grad_rows.row(0).transpose());
  }
}

TEST_CASE("vector_ops leave to Eigen what it computes otherwise, and resize as it does",
          "[kernels]") {
  // Fixed sizes of 2 or more: Eigen unrolls their reductions into an order of its own (at 6 and
  // more it differs from the run-time-sized one), so they are Eigen's, through the helpers and
  // through the models' templates that use them (a review's finding).
  xoshiro256pp gen(29);
  const auto value = [&] { return spread_value(gen); };
  for (int draw = 0; draw < 200; ++draw) {
    const Eigen::Matrix<double, 8, 1> x = Eigen::Matrix<double, 8, 1>::NullaryExpr(value);
    const Eigen::Matrix<double, 8, 1> y = Eigen::Matrix<double, 8, 1>::NullaryExpr(value);
    CHECK(detail::dot(x, y) == x.dot(y));
    CHECK(detail::squared_norm(x) == x.squaredNorm());
    CHECK(detail::sum(x) == x.sum());
    const double xbar = uniform01(gen);
    Eigen::Matrix<double, 8, 1> grad;
    const bernoulli_model model;
    model.grad_log_likelihood_at_mean(xbar, x, y, grad);
    CHECK(grad == x * (xbar - model.mean_at(x.dot(y))));
  }
  // Another scalar type takes the expression (it compiled before the loops and must still).
  Eigen::VectorXf theta = Eigen::VectorXf::Constant(3, 1.0F);
  const Eigen::VectorXf omega = Eigen::VectorXf::Constant(3, 2.0F);
  sa_average(theta, omega, 0.25);
  CHECK(theta == Eigen::VectorXf::Constant(3, 1.25F));
  // A plain output is resized as an assignment resizes it.
  const Eigen::VectorXd phi = Eigen::VectorXd::Constant(3, 0.5), at = Eigen::VectorXd::Zero(3);
  Eigen::VectorXd unsized;
  bernoulli_model().grad_log_likelihood_at_mean(1.0, phi, at, unsized);
  CHECK(unsized == Eigen::VectorXd::Constant(3, 0.25));  // phi (1 - sigmoid(0))
}
