// check_model: the built-in models and the example's exponential model pass; a model with one
// planted mistake fails the check that targets it, and says how to fix it.
//
// Every call uses a fixed seed, so each verdict is deterministic. The bounds behind them (stated
// in models/check_model.hpp): the deterministic checks compare errors of about 1e-10 (finite
// differences, rounding) with a tolerance of 1e-5, and a planted mistake gives errors of order
// 1; the statistical checks fail a correct model with probability <= 2.3e-5 at the default
// 20 points, z = 5 (so a fixed seed that passes is not a lucky one).
#include <cmath>
#include <sstream>
#include <string>

#include "sabandit/envs/arms.hpp"
#include "sabandit/models/bernoulli.hpp"
#include "sabandit/models/check_model.hpp"
#include "sabandit/models/exponential.hpp"
#include "sabandit/models/gaussian.hpp"
#include "sabandit/models/poisson.hpp"
#include "sabandit/random/bits.hpp"
#include "sabandit/random/normal.hpp"
#include "support/catch.hpp"

using namespace sabandit;

namespace {

/// The model of examples/custom_reward_model.cpp, x ~ Exponential(mean e^eta), with switches
/// that plant one mistake each:
///  - link_sign = -1: mean e^-eta, a decreasing link, with a likelihood and a gradient
///    consistent with it (a model that is right about itself and wrong for every policy);
///  - gradient_factor = -1 or 2: the gradient alone has the wrong sign or scale.
/// With eta' = link_sign eta: log p = -eta' - x e^-eta', d/d eta log p = link_sign (x e^-eta' - 1),
/// and x e^-eta' ~ Exponential(1), so the information of one reward about eta is 1.
struct planted_exponential {
  double link_sign = 1.0;
  double gradient_factor = 1.0;

  [[nodiscard]] double mean(const vector_cref& phi, const vector_cref& theta) const {
    return std::exp(link_sign * phi.dot(theta));
  }
  [[nodiscard]] double log_likelihood(double x, const vector_cref& phi,
                                      const vector_cref& theta) const {
    const double eta = link_sign * phi.dot(theta);
    return -eta - x * std::exp(-eta);
  }
  void grad_log_likelihood(const vector_cref& xs, const vector_cref& phi, const vector_cref& theta,
                           vector_ref grad) const {
    const double eta = link_sign * phi.dot(theta);
    grad = phi * (gradient_factor * link_sign * (xs.mean() * std::exp(-eta) - 1.0));
  }
};

/// The same with its Fisher information, 1, times `information_factor` (2: a wrong one).
struct planted_exponential_with_information : planted_exponential {
  double information_factor = 1.0;
  [[nodiscard]] double information(const vector_cref& /*phi*/,
                                   const vector_cref& /*theta*/) const {
    return information_factor;
  }
};
static_assert(!FisherInformationModel<planted_exponential>);
static_assert(FisherInformationModel<planted_exponential_with_information>);

/// Exponential rewards of a given mean, by inversion (the example's exponential_arm).
double draw_exponential(double mean, default_engine& gen) {
  return -mean * std::log1p(-uniform01(gen));
}

/// The checks other than `failing` passed.
void require_only_failure(const model_check_report& report, const model_check& failing) {
  INFO(report);
  CHECK_FALSE(report.ok());
  CHECK_FALSE(failing.passed());
  for (const model_check* check : report.checks()) {
    if (check != &failing) CHECK(check->passed());
  }
}

}  // namespace

TEST_CASE("check_model passes the built-in models", "[check_model]") {
  const auto gaussian = check_model(gaussian_model(2.0), [](double mean, default_engine& gen) {
    return normal_arm(mean, 2.0)(gen);
  });
  INFO(gaussian);
  CHECK(gaussian.ok());
  const auto bernoulli = check_model(bernoulli_model{}, [](double mean, default_engine& gen) {
    return bernoulli_arm(mean)(gen);
  });
  INFO(bernoulli);
  CHECK(bernoulli.ok());
  // A generic lambda is a RewardSampler too (auto deduces default_engine).
  const auto poisson = check_model(poisson_model{}, [](double mean, auto& gen) {
    return poisson_arm(mean)(gen);
  });
  INFO(poisson);
  CHECK(poisson.ok());
  const auto durations = check_model(sabandit::exponential_model{}, [](double mean, auto& gen) {
    return sabandit::exponential_arm(mean)(gen);
  });
  INFO(durations);
  CHECK(durations.ok());
}

TEST_CASE("check_model passes the example's exponential model, with or without information",
          "[check_model]") {
  const auto without = check_model(planted_exponential{}, draw_exponential);
  INFO(without);
  CHECK(without.ok());
  const auto with = check_model(planted_exponential_with_information{}, draw_exponential,
                                {.dimension = 1, .seed = 7});
  INFO(with);
  CHECK(with.ok());
}

TEST_CASE("a wrong gradient fails the gradient check", "[check_model]") {
  for (const double factor : {-1.0, 2.0}) {
    INFO("gradient factor " << factor);
    const auto report =
        check_model(planted_exponential{.gradient_factor = factor}, draw_exponential);
    INFO(report);
    CHECK_FALSE(report.gradient.passed());
    // The relative error is |factor - 1| |g| / max(1, |g|): of order 1 wherever the gradient
    // is not small, so at the worst of 20 points far above 0.1.
    CHECK(report.gradient.worst > 0.1);
    CHECK_THAT(report.gradient.finding, Catch::Contains("MEAN log-likelihood"));
  }
  // A sign alone leaves E[s] = 0 and E[s^2] = 1 as they were, so with the model's own
  // information only the gradient check fails. (The fallback information is computed from the
  // gradient, so without one the information check fails too: -1 is clipped to 0.)
  planted_exponential_with_information sign;
  sign.gradient_factor = -1.0;
  const auto report = check_model(sign, draw_exponential);
  require_only_failure(report, report.gradient);
}

TEST_CASE("a decreasing link fails the increasing-mean check and says to flip eta",
          "[check_model]") {
  const auto report = check_model(planted_exponential{.link_sign = -1.0}, draw_exponential);
  INFO(report);
  require_only_failure(report, report.increasing_mean);
  CHECK_THAT(report.increasing_mean.finding, Catch::Contains("flip the sign of eta"));
  // Between grid points 0.75 apart in eta, e^-eta falls by 1 - e^-0.75 = 0.53 of the larger.
  CHECK(report.increasing_mean.worst == Approx(1.0 - std::exp(-0.75)).epsilon(1e-6));
}

TEST_CASE("an information wrong by a factor of 2 fails the information check", "[check_model]") {
  planted_exponential_with_information model;
  model.information_factor = 2.0;
  const auto report = check_model(model, draw_exponential);
  INFO(report);
  require_only_failure(report, report.information);
  // E[s^2] = 1 against 2, with s^2 = (E - 1)^2, E ~ Exponential(1): Var(s^2) = E[(E - 1)^4] - 1
  // = 9 - 1 = 8, so the standard error at n = 20,000 is sqrt(8 / 20,000) = 0.02 and every
  // point is about 1 / 0.02 = 50 standard errors off; 25 leaves room for the estimated s.e.
  CHECK(report.information.worst > 25.0);
  CHECK_THAT(report.information.finding, Catch::Contains("information(phi, theta) = 2"));
}

TEST_CASE("a sampler of another family with the model's support shows in the information check",
          "[check_model]") {
  // Gamma(2) durations of the model's mean (two exponentials of half of it): the score
  // x e^-eta - 1 still has mean 0 and the rewards are > 0, but E[s^2] = Var(x / mean) = 1/2
  // against the model's (right) information 1. With G = x / mean ~ Gamma(2, scale 1/2), the
  // fourth central moment is 3 k (k + 2) scale^4 = 1.5, so Var(s^2) = 1.5 - 1/4 = 1.25 and the
  // s.e. at n = 20,000 is 0.0079: the gap of 1/2 is some 63 of them (25: room for the
  // estimated s.e.). The finding must name the sampler as a cause, not only the information.
  const auto gamma2 = [](double mean, default_engine& gen) {
    return draw_exponential(mean / 2.0, gen) + draw_exponential(mean / 2.0, gen);
  };
  const auto report = check_model(planted_exponential_with_information{}, gamma2);
  require_only_failure(report, report.information);
  CHECK(report.information.worst > 25.0);
  CHECK_THAT(report.information.finding,
             Catch::Contains("`draw` may sample another family with the same mean"));
}

TEST_CASE("a sampler of another family fails the support check alone", "[check_model]") {
  // A normal approximation of Poisson counts, x ~ N(mu, mu): the score x - mu has mean 0 and
  // E[score^2] = Var(x) = mu, the Poisson information, and x eta - e^eta is concave for every
  // x, so checks 1-5 pass; but its rewards are not whole numbers (and some are negative), which
  // poisson_model refuses, as every policy over it would, in production.
  const auto report = check_model(poisson_model{}, [](double mean, default_engine& gen) {
    return mean + std::sqrt(mean) * standard_normal(gen);
  });
  require_only_failure(report, report.support);
  CHECK(report.support.worst == 1.0);  // a normal draw is a whole number with probability 0
  CHECK_THAT(report.support.finding, Catch::Contains("must be a whole number") &&
                                         Catch::Contains("make `draw` sample the model's own"));
  CHECK_THAT(report.to_string(), Catch::Contains("check_model: 1 of 6 checks failed\n"));
}

TEST_CASE("the support check sees the other checks' draws and draws none of its own",
          "[check_model]") {
  // Checks 1-5 draw `window` rewards per point for the gradient, as many for the concavity and
  // `samples` for the score: the support check only tallies those, so the sampler runs exactly
  // that often, and checks 1-5 see the rewards they saw before it existed.
  long long calls = 0;
  const auto counted = [&calls](double mean, default_engine& gen) {
    ++calls;
    return draw_exponential(mean, gen);
  };
  const check_model_options options{.points = 3, .window = 5, .samples = 400};
  const auto report = check_model(planted_exponential{}, counted, options);
  CHECK(report.ok());
  CHECK(calls == 3 * (5 + 5 + 400));
}

TEST_CASE("a reward range narrower than the rewards fails the support check alone",
          "[check_model]") {
  // The example's exponential model declaring the range of rates: a duration above 1 is
  // accepted by every policy, and a checkpoint that holds one would not restore.
  struct narrow_range : planted_exponential {
    static reward_interval reward_range() { return {0.0, 1.0}; }
  };
  static_assert(RangeDeclaringModel<narrow_range>);
  const auto report = check_model(narrow_range{}, draw_exponential);
  require_only_failure(report, report.support);
  // At eta in [-3, 3] the mean e^eta is at least e^-3, so P(x > 1) = e^(-1 / mean) > 0 at
  // every point; at the worst point, of mean up to e^3, the share refused is above a half.
  CHECK(report.support.worst > 0.5);
  CHECK_THAT(report.support.finding, Catch::Contains("outside reward_range() = [0, 1]") &&
                                         Catch::Contains("widen reward_range()"));
  // A range that declares whole numbers for continuous durations fails the same check: a
  // restore would refuse their sums.
  struct whole_range : planted_exponential {
    static reward_interval reward_range() {
      return {.lower = 0.0, .upper = bounds::reward, .whole = true};
    }
  };
  const auto whole = check_model(whole_range{}, draw_exponential);
  require_only_failure(whole, whole.support);
  CHECK(whole.support.worst == 1.0);  // a continuous draw is whole with probability 0
  CHECK_THAT(whole.support.finding, Catch::Contains("not a whole number") &&
                                        Catch::Contains("drop .whole"));
  // The same model with a range that holds its support passes.
  struct wide_range : planted_exponential {
    static reward_interval reward_range() { return {0.0, bounds::reward}; }
  };
  CHECK(check_model(wide_range{}, draw_exponential).ok());
}

TEST_CASE("check_model's report is the same for a fixed seed, and prints a line per check",
          "[check_model]") {
  const auto first = check_model(planted_exponential{}, draw_exponential, {.seed = 3});
  const auto again = check_model(planted_exponential{}, draw_exponential, {.seed = 3});
  const auto other = check_model(planted_exponential{}, draw_exponential, {.seed = 4});
  CHECK(first.to_string() == again.to_string());
  CHECK(first.score_mean.worst != other.score_mean.worst);  // continuous: equal with probability 0
  const std::string text = first.to_string();
  CHECK(text.starts_with("check_model: all 6 checks passed\n"));
  for (const model_check* check : first.checks()) CHECK(check->finding.empty());
  for (const char* name :
       {"gradient", "concavity", "increasing mean", "score mean", "information", "support"})
    CHECK_THAT(text, Catch::Contains(std::string("[ ok ] ") + name + ": worst "));
  std::ostringstream out;
  out << first;
  CHECK(out.str() == text);
}

TEST_CASE("check_model rejects bad options, naming them", "[check_model]") {
  const planted_exponential model;
  CHECK_THROWS_WITH(check_model(model, draw_exponential, {.points = 0}),
                    Catch::Contains("options.points = 0"));
  CHECK_THROWS_WITH(check_model(model, draw_exponential, {.dimension = 0}),
                    Catch::Contains("options.dimension = 0"));
  // Before allocating d-vectors: a dimension of 2^40 ended in std::bad_alloc.
  CHECK_THROWS_AS(check_model(model, draw_exponential, {.dimension = Eigen::Index{1} << 40}),
                  std::length_error);
  CHECK_THROWS_WITH(check_model(model, draw_exponential, {.dimension = Eigen::Index{1} << 40}),
                    Catch::Contains("options.dimension = 1099511627776"));
  CHECK_THROWS_WITH(check_model(model, draw_exponential, {.eta_min = 1.0, .eta_max = 1.0}),
                    Catch::Contains("options.eta_max = 1"));
  CHECK_THROWS_WITH(check_model(model, draw_exponential, {.samples = 10}),
                    Catch::Contains("options.samples = 10"));
  CHECK_THROWS_WITH(check_model(model, draw_exponential, {.tolerance = 0.0}),
                    Catch::Contains("options.tolerance = 0"));
}
