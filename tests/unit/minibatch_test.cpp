// TS-SGLD's gradient source (policies/langevin/uniform_minibatch.hpp): the round's mini-batches
// drawn in one block from the multi-lane engine have the law of the scalar path's, arm by arm
// uniform picks with replacement from the whole history.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "sabandit/models/gaussian.hpp"
#include "sabandit/policies/langevin/uniform_minibatch.hpp"
#include "sabandit/policies/ts_sgld.hpp"
#include "support/catch.hpp"
#include "support/stat_checks.hpp"

using namespace sabandit;

namespace {

constexpr std::uint64_t minibatch_seed = 13;
constexpr Eigen::Index batch = 32;
constexpr int draws = 20000;

// A model without the window-mean shortcut, so that the source gathers the batch itself; its
// "gradient" is the batch's mean, which is what the test looks at.
struct batch_mean_model {
  [[nodiscard]] double mean(const vector_cref& phi, const vector_cref& theta) const {
    return phi.dot(theta);
  }
  [[nodiscard]] double log_likelihood(double, const vector_cref&, const vector_cref&) const {
    return 0.0;
  }
  void grad_log_likelihood(const vector_cref& rewards, const vector_cref&, const vector_cref&,
                           vector_ref grad) const {
    grad(0) = rewards.mean();
  }
};
static_assert(RewardModel<batch_mean_model> && !WindowMeanRewardModel<batch_mean_model>);

// Two-sample Kolmogorov-Smirnov statistic sqrt(n m / (n + m)) D.
double two_sample_ks(std::vector<double> a, std::vector<double> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::size_t i = 0, j = 0;
  double d = 0.0;
  while (i < a.size() && j < b.size()) {
    const double x = std::min(a[i], b[j]);
    while (i < a.size() && a[i] == x) ++i;
    while (j < b.size() && b[j] == x) ++j;
    d = std::max(d, std::abs(static_cast<double>(i) / static_cast<double>(a.size()) -
                             static_cast<double>(j) / static_cast<double>(b.size())));
  }
  const auto n = static_cast<double>(a.size()), m = static_cast<double>(b.size());
  return std::sqrt(n * m / (n + m)) * d;
}

// Mini-batch means of arm 1 (history of 37 skewed values; arms 0 and 2 have other histories,
// so that the block's arm-by-arm layout is exercised), by the block path and the scalar path.
template <class Model>
void block_and_scalar_means(std::vector<double>& block, std::vector<double>& scalar,
                            double& mu, double& var) {
  langevin::uniform_minibatch source(batch, 3);
  std::vector<double> history;
  for (int i = 0; i < 37; ++i) history.push_back(std::pow(i, 1.5) / 37.0);
  for (int i = 0; i < 5; ++i) source.record(0, -1.0);
  for (const double x : history) source.record(1, x);
  for (int i = 0; i < 1000; ++i) source.record(2, 1e6 + i);
  const Eigen::VectorXd phi = Eigen::VectorXd::Ones(1), theta = Eigen::VectorXd::Zero(1);
  Eigen::VectorXd grad(1);
  xoshiro256pp gen(minibatch_seed);
  const Model model;
  const auto mean_of = [&] {  // x-bar from the gradient at theta = 0 (both models: grad = x-bar)
    source.gradient(model, 1, phi, theta, grad, gen);
    return grad(0);
  };
  for (int r = 0; r < draws; ++r) {
    source.begin_round(2, gen);
    source.gradient(model, 0, phi, theta, grad, gen);
    block.push_back(mean_of());  // arm 1's first mini-batch of the round
    block.push_back(mean_of());  // and its second (N = 2 steps)
    scalar.push_back(mean_of());  // the round's batches are used up: the scalar path
  }
  mu = 0.0;
  for (const double x : history) mu += x / 37.0;
  var = 0.0;
  for (const double x : history) var += (x - mu) * (x - mu) / 37.0;
  var /= static_cast<double>(batch);  // with replacement: sigma^2 / B
}

}  // namespace

TEMPLATE_TEST_CASE("uniform_minibatch: the block's mini-batch means have the scalar path's law",
                   "[minibatch][statistical]", gaussian_model, batch_mean_model) {
  std::vector<double> block, scalar;
  double mu = 0.0, var = 0.0;
  block_and_scalar_means<TestType>(block, scalar, mu, var);
  // Both paths against theory, by the CLT: |mean - mu| <= 5 sqrt(var / n) fails with
  // probability 5.7e-7; the sample variance of n draws has standard error about
  // var sqrt((kurtosis - 1) / n), below 0.02 var here, so 10% is over 5 of them.
  for (const auto* sample : {&block, &scalar}) {
    const auto m = test::sample_moments(*sample);
    const double n = static_cast<double>(sample->size());
    CHECK(std::abs(m.mean - mu) < test::z_five_sigma * std::sqrt(var / n));
    CHECK(m.variance == Approx(var).epsilon(0.1));
  }
  // The two laws against each other: two-sample KS, sqrt(nm/(n+m)) D > 1.95 has probability
  // below 0.001 under the null (conservative for these discrete laws). A block that dropped or
  // repeated indices, or mapped them with a bias, shifts the distribution far beyond that.
  CHECK(two_sample_ks(block, scalar) < 1.95);
}

TEST_CASE("uniform_minibatch: a round's block serves each arm's N mini-batches, then the scalar path",
          "[minibatch]") {
  langevin::uniform_minibatch source(4, 2);
  for (int i = 0; i < 10; ++i) source.record(0, static_cast<double>(i));
  source.record(1, 7.0);
  const Eigen::VectorXd phi = Eigen::VectorXd::Ones(1), theta = Eigen::VectorXd::Zero(1);
  Eigen::VectorXd grad(1);
  xoshiro256pp gen(minibatch_seed);
  source.begin_round(3, gen);
  const xoshiro256pp after_block = gen;
  for (int step = 0; step < 3; ++step) {  // served from the block: the engine is not touched
    source.gradient(gaussian_model{}, 0, phi, theta, grad, gen);
    CHECK(grad(0) >= 0.0);
    CHECK(grad(0) <= 9.0);
    source.gradient(gaussian_model{}, 1, phi, theta, grad, gen);
    CHECK(grad(0) == 7.0);
  }
  CHECK(gen == after_block);
  source.gradient(gaussian_model{}, 0, phi, theta, grad, gen);  // the fourth: scalar path
  CHECK_FALSE(gen == after_block);
  SECTION("a history that changed since begin_round is not served from the stale block") {
    source.begin_round(1, gen);
    source.record(1, 8.0);
    const xoshiro256pp before = gen;
    source.gradient(gaussian_model{}, 1, phi, theta, grad, gen);
    CHECK_FALSE(gen == before);
  }
}

TEST_CASE("uniform_minibatch: a round beyond max_block indices keeps the scalar path",
          "[minibatch]") {
  // K x N x B past the block's cap (or past size_t: N x B near 2^63 overflowed before, UB)
  // draws nothing in begin_round; every gradient then takes the scalar path, so a source
  // that had its round begun gives the same bits as one that never had.
  const Eigen::Index small_batch = 4;
  const Eigen::Index too_many_steps[] = {
      static_cast<Eigen::Index>(langevin::uniform_minibatch::max_block / (2 * small_batch)) + 1,
      std::numeric_limits<Eigen::Index>::max() / 2};
  for (const Eigen::Index steps : too_many_steps) {
    langevin::uniform_minibatch begun(small_batch, 2), plain(small_batch, 2);
    for (int i = 0; i < 10; ++i) {
      begun.record(i % 2, static_cast<double>(i));
      plain.record(i % 2, static_cast<double>(i));
    }
    const Eigen::VectorXd phi = Eigen::VectorXd::Ones(1), theta = Eigen::VectorXd::Zero(1);
    Eigen::VectorXd grad_begun(1), grad_plain(1);
    xoshiro256pp gen_begun(minibatch_seed), gen_plain(minibatch_seed);
    begun.begin_round(steps, gen_begun);
    CHECK(gen_begun == gen_plain);
    for (int call = 0; call < 6; ++call) {
      begun.gradient(gaussian_model{}, call % 2, phi, theta, grad_begun, gen_begun);
      plain.gradient(gaussian_model{}, call % 2, phi, theta, grad_plain, gen_plain);
      CHECK(grad_begun(0) == grad_plain(0));
    }
    CHECK(gen_begun == gen_plain);
  }
  SECTION("a round of exactly max_block indices is still one block: one word of the engine") {
    const auto steps = static_cast<Eigen::Index>(langevin::uniform_minibatch::max_block / (2 * small_batch));
    langevin::uniform_minibatch source(small_batch, 2);
    source.record(0, 1.0);
    source.record(1, 2.0);
    xoshiro256pp gen(minibatch_seed), expected(minibatch_seed);
    source.begin_round(steps, gen);
    (void)expected();
    CHECK(gen == expected);
  }
}

TEST_CASE("ts_sgld: same seed, same decisions, and a copy replays", "[minibatch]") {
  ts_sgld<> a(10, {.batch_size = 8});
  xoshiro256pp gen_a(minibatch_seed), env(minibatch_seed + 1);
  for (int t = 0; t < 500; ++t) {
    const auto arm = a.select(gen_a);
    a.update(arm, standard_normal(env) + 0.1 * static_cast<double>(arm), gen_a);
  }
  auto b = a;
  auto gen_b = gen_a;
  auto env_b = env;
  for (int t = 0; t < 200; ++t) {
    const auto arm_a = a.select(gen_a);
    const auto arm_b = b.select(gen_b);
    REQUIRE(arm_a == arm_b);
    const double reward = standard_normal(env);
    (void)standard_normal(env_b);
    a.update(arm_a, reward, gen_a);
    b.update(arm_b, reward, gen_b);
  }
  CHECK(a.parameter_estimates() == b.parameter_estimates());
}
