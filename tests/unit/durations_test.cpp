// Exponential durations (models/exponential.hpp): every policy over them decides the same
// whatever unit the durations are recorded in, and scale-free TS-SA's iterate is the running
// average of an arm's durations, exact TS's centre under Jeffreys' prior.
#include <cmath>
#include <vector>

#include "sabandit/sabandit.hpp"
#include "support/catch.hpp"

using namespace sabandit;

namespace {

// The arms played over `rounds` rounds of `policy` on exponential arms of means 1, 1.3, 1.6,
// 2 (times `unit`), with the policy's engine and the rewards' apart.
template <class Policy>
std::vector<Eigen::Index> decisions(Policy policy, double unit, int rounds) {
  const double means[] = {1.0, 1.3, 1.6, 2.0};
  xoshiro256pp gen(31), env(32);
  std::vector<Eigen::Index> arms;
  for (int t = 0; t < rounds; ++t) {
    const Eigen::Index arm = policy.select(gen);
    policy.update(arm, unit * exponential_variate(means[arm], env), gen);
    arms.push_back(arm);
  }
  return arms;
}

}  // namespace

TEMPLATE_TEST_CASE("every policy over exponential durations decides the same in any unit",
                   "[durations]", thompson<exponential_model>, epsilon_ts<exponential_model>,
                   kl_ucb<exponential_model>, ts_sa<exponential_model>,
                   ts_sgld<exponential_model>) {
  // A change of unit multiplies the inverse-gamma posterior's scale and every draw by the
  // unit, shifts the log link's eta by log(unit) (the warm start is log xbar exactly) and
  // leaves the information about eta (1) and the divergence (a function of p / q) alone: the
  // same decisions, in exact arithmetic. In floating point a score moves by rounding
  // (~1e-15 relative), KL-UCB's index by its tolerance (1e-10 relative to its width), which
  // flips a decision only where two arms' scores are that close: probability ~1e-10 a round.
  // Minutes against seconds (1/60, not a power of two: rounding differs), 2^20, nanoseconds
  // in seconds (1e-9), seconds in hundreds of femtoseconds (1e13), where a search from eta = 0
  // (the generic warm start) or an absolute tolerance (KL-UCB's, once) stopped early, and the
  // edges of the double range (1e-200, where V = mean^2 underflows, and 1e140).
  constexpr int rounds = 3000;
  const auto seconds = decisions(TestType(4), 1.0, rounds);
  for (const double unit : {1.0 / 60.0, 1048576.0, 1e-9, 1e13, 1e-200, 1e140}) {
    INFO("unit " << unit);
    CHECK(decisions(TestType(4), unit, rounds) == seconds);
  }
}

TEST_CASE("Alg. 1 as printed over durations is unit-free too: one reward's information about "
          "the log-mean is 1",
          "[durations]") {
  using policy = ts_sa<exponential_model>;
  const auto seconds = decisions(policy(4, policy::params::paper()), 1.0, 3000);
  CHECK(decisions(policy(4, policy::params::paper()), 1.0 / 60.0, 3000) == seconds);
}

TEST_CASE("the warm start over durations is exact at any scale: log xbar under the flat prior, "
          "the posterior's stationary point under a normal one",
          "[durations][ts_sa]") {
  // The flat prior: eta = log xbar to rounding (a relative 1e-14, far from the 1e-9 of the
  // generic warm start's stopping rule). A normal prior N(m, v) on theta (d = 1, phi = 1):
  // the stationary point of the log-posterior, count (xbar e^-eta - 1) = (eta - m) / v, whose
  // residual at a root found to rounding is a few ulps of its terms (checked at 1e-12 of the
  // larger). Three durations of mean xbar at scales from 1e-9 to 1e100.
  for (const double xbar : {1e-9, 3.0, 1e13, 1e30, 1e100}) {
    INFO("xbar " << xbar);
    ts_sa<exponential_model> flat(1, {.warmup = 3});
    ts_sa<exponential_model> normal(1, {.warmup = 3, .prior = {.mean = 2.0, .variance = 0.5}});
    xoshiro256pp gen(3);
    for (double w : {0.5, 1.0, 1.5}) {
      flat.update(0, w * xbar, gen);
      normal.update(0, w * xbar, gen);
    }
    CHECK(flat.parameter_estimates()(0, 0) == Approx(std::log(xbar)).epsilon(1e-14));
    const double eta = normal.parameter_estimates()(0, 0);
    const double likelihood = 3.0 * (xbar * std::exp(-eta) - 1.0), prior = (eta - 2.0) / 0.5;
    CHECK(std::abs(likelihood - prior) <= 1e-12 * std::max(std::abs(likelihood), 1.0));
  }
}

TEST_CASE("scale-free TS-SA over durations: the warm start is the log-average, and the iterate "
          "the running average",
          "[durations][ts_sa]") {
  // A flat prior on eta (Jeffreys') and no pseudo-rewards: the warm start maximises
  // -m eta - e^-eta sum x, at eta = log(xbar) (to the solver's 1e-9 (1 + |eta|)). Then the
  // Fisher step in mean coordinates, with i = 1 and J = m, moves mu by (x - mu) / m: the
  // running average, exact TS's centre scale / shape. h = 1e6 makes the Langevin jitter
  // sqrt(2 / (h m)) posterior sds, far below the 1e-4 relative error checked (as in ts_sa_test).
  using policy_type = ts_sa<exponential_model>;
  policy_type::params p;
  p.warmup = 3;
  p.step_size = 1e6;
  p.sa_schedule = policy_type::params::newton_schedule(1e6);
  REQUIRE(p.prior.is_flat());
  REQUIRE(p.prior_rewards.empty());
  policy_type policy(1, p);
  xoshiro256pp gen(21), env(22);
  for (double x : {40.0, 100.0, 130.0}) policy.update(0, x, gen);
  CHECK(policy.parameter_estimates()(0, 0) == Approx(std::log(90.0)).margin(1e-8));
  double sum = 270.0;
  const int m = 3000;
  for (int i = 3; i < m; ++i) {
    const double x = exponential_variate(90.0, env);
    sum += x;
    policy.update(0, x, gen);
  }
  CHECK(std::exp(policy.parameter_estimates()(0, 0)) == Approx(sum / m).epsilon(1e-4));
}
