// Rewards that arrive late: select() called several times before the rewards of earlier
// selections reach update() (a service's batches, clicks known minutes later). The warm-up
// counts the selections awaiting their rewards (common/warm_up.hpp), a checkpoint keeps them,
// and the sampling policies draw afresh at every select (what makes them robust to delays).
#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "sabandit/contextual/policies.hpp"
#include "sabandit/sabandit.hpp"
#include "sabandit/state/persist.hpp"
#include "support/catch.hpp"
#include "support/saved_state.hpp"
#include "support/special_functions.hpp"
#include "support/stat_checks.hpp"

using namespace sabandit;

namespace {

constexpr Eigen::Index arms = 4;

// Every policy over Bernoulli rewards, with a warm-up of `omega` pulls per arm.
template <class Check>
void for_each_policy(Eigen::Index omega, Check&& check) {
  check("ucb", ucb(arms, {.warmup = omega}));
  check("thompson", thompson<bernoulli_model>(arms, {.warmup = omega}));
  check("epsilon_ts", epsilon_ts<bernoulli_model>(arms, {.epsilon = std::nullopt, .posterior = {.warmup = omega}}));
  check("kl_ucb", kl_ucb<bernoulli_model>(arms, {.warmup = omega}));
  check("ts_sa", ts_sa<bernoulli_model>(arms, {.warmup = omega}));
  check("ts_sgld", ts_sgld<bernoulli_model>(arms, {.warmup = omega}));
}

}  // namespace

TEST_CASE("the warm-up plays round-robin while rewards are awaited", "[delayed][warmup]") {
  for_each_policy(2, [](const std::string& name, auto policy) {
    INFO(name);
    xoshiro256pp gen(7);
    // A batch of 2K selections before any reward: each arm twice, in index order. (Counting
    // rewards alone played arm 0 eight times.)
    std::vector<Eigen::Index> batch;
    for (int k = 0; k < 2 * arms; ++k) batch.push_back(policy.select(gen));
    CHECK(batch == std::vector<Eigen::Index>{0, 1, 2, 3, 0, 1, 2, 3});
    for (Eigen::Index a = 0; a < arms; ++a) CHECK(policy.statistics().awaiting(a) == 2.0);
    // Their rewards, in order: each answers one awaited selection.
    for (std::size_t k = 0; k < batch.size(); ++k)
      policy.update(batch[k], k % 3 == 0 ? 1.0 : 0.0, gen);
    for (Eigen::Index a = 0; a < arms; ++a) {
      CHECK(policy.statistics().awaiting(a) == 0.0);
      CHECK(policy.statistics().count(a) == 2.0);
    }
  });
}

TEST_CASE("a reward that never comes delays the warm-up's end, not its order",
          "[delayed][warmup]") {
  for_each_policy(1, [](const std::string& name, auto policy) {
    INFO(name);
    xoshiro256pp gen(3);
    for (Eigen::Index a = 0; a < arms; ++a) CHECK(policy.select(gen) == a);
    // Arm 0's reward is lost; the others arrive. The warm-up is not over (arm 0 has none), and
    // plays the arm of least load (rewards plus awaited): arm 0, whose load is 1 as theirs.
    for (Eigen::Index a = 1; a < arms; ++a) policy.update(a, 1.0, gen);
    CHECK(policy.select(gen) == 0);
    CHECK(policy.statistics().awaiting(0) == 2.0);
    // Until arm 0 has a reward the round-robin goes on: arms 1, 2, 3, then 0 again.
    for (Eigen::Index a = 1; a < arms; ++a) CHECK(policy.select(gen) == a);
    policy.update(0, 0.0, gen);  // arm 0's first reward ends the warm-up
    CHECK(policy.statistics().awaiting(0) == 1.0);
    // A reward of an arm awaiting none (logged data, say) counts, and awaits nothing.
    policy.update(2, 1.0, gen);
    CHECK(policy.statistics().awaiting(2) == 0.0);
    for (int k = 0; k < 20; ++k) {
      const Eigen::Index arm = policy.select(gen);
      REQUIRE(arm >= 0);
      REQUIRE(arm < arms);
      policy.update(arm, 1.0, gen);
    }
  });
}

TEST_CASE("select followed by update warms up as before: the load is the count",
          "[delayed][warmup]") {
  // The paper's protocol (and every committed output) plays 0, 1, ..., K-1 Omega times; a
  // rejected reward leaves its selection awaited, so the next select plays the next arm.
  for_each_policy(2, [](const std::string& name, auto policy) {
    INFO(name);
    xoshiro256pp gen(5);
    std::vector<Eigen::Index> played;
    for (int k = 0; k < 2 * arms; ++k) {
      played.push_back(policy.select(gen));
      policy.update(played.back(), 0.0, gen);
      CHECK(policy.statistics().awaiting(played.back()) == 0.0);
    }
    CHECK(played == std::vector<Eigen::Index>{0, 1, 2, 3, 0, 1, 2, 3});
  });
  ucb policy(3, {.warmup = 1});
  xoshiro256pp gen(1);
  CHECK(policy.select(gen) == 0);
  CHECK_THROWS_AS(policy.update(0, std::nan(""), gen), std::invalid_argument);
  CHECK(policy.statistics().awaiting(0) == 1.0);  // the strong guarantee: as it was
  CHECK(policy.select(gen) == 1);
}

TEST_CASE("a checkpoint keeps the awaited selections", "[delayed][state]") {
  for_each_policy(2, [](const std::string& name, auto policy) {
    INFO(name);
    xoshiro256pp gen(11);
    // select then update: no awaited selection, and no `awaiting` field (the format as before)
    for (int k = 0; k < 3; ++k) policy.update(policy.select(gen), 1.0, gen);
    CHECK(test_state::saved(policy).find("awaiting") == std::string::npos);
    // three selections await their rewards across the restart
    std::vector<Eigen::Index> batch;
    for (int k = 0; k < 3; ++k) batch.push_back(policy.select(gen));
    const std::string text = test_state::saved(policy);
    CHECK(text.find("awaiting") != std::string::npos);
    auto restored = policy;
    for (int k = 0; k < 5; ++k) restored.update(k % arms, 0.0, gen);  // differ first
    std::istringstream in(text);
    state::restore(in, restored);
    CHECK(test_state::saved(restored) == text);
    xoshiro256pp g1(2), g2(2);
    for (int k = 0; k < 2 * arms; ++k) {
      const Eigen::Index a = policy.select(g1);
      CHECK(restored.select(g2) == a);
      if (k % 2 == 1) {  // rewards arrive late here too
        policy.update(a, 1.0, g1);
        restored.update(a, 1.0, g2);
      }
    }
    CHECK(test_state::saved(restored) == test_state::saved(policy));
  });
}

TEST_CASE("a state without awaited selections restores with none; a damaged count is refused",
          "[delayed][state]") {
  ucb policy(3, {.warmup = 2});
  xoshiro256pp gen(1);
  (void)policy.select(gen);
  (void)policy.select(gen);
  const std::string text = test_state::saved(policy);
  REQUIRE(text.find("\nstatistics.awaiting 3 1 1 0\n") != std::string::npos);
  // The same state as an older version wrote it: no field, so none awaited.
  std::string older = text;
  older.erase(older.find("\nstatistics.awaiting"), std::string("\nstatistics.awaiting 3 1 1 0").size());
  ucb restored(3);
  std::istringstream in(test_state::reseal(older));
  state::restore(in, restored);
  for (Eigen::Index a = 0; a < 3; ++a) CHECK(restored.statistics().awaiting(a) == 0.0);
  CHECK(restored.select(gen) == 0);  // arm 0 again: its selection is not known to await
  for (const std::string bad : {"-1", "0.5", "nan"}) {
    INFO(bad);
    std::istringstream damaged(test_state::with_token(text, "statistics.awaiting", 1, bad));
    ucb target(3);
    const std::string before = test_state::saved(target);
    CHECK_THROWS_AS(state::restore(damaged, target), state::format_error);
    CHECK(test_state::saved(target) == before);
  }
}

TEST_CASE("a restored warm-up at the counts' bound still selects at once", "[delayed][state]") {
  // 2^52 rewards and 2^52 - 1 awaited selections make a load of 2^53 - 1, then 2^53: a pass
  // of 2^53 + 1 compared as a double is 2^53, and the scan never ended (a review's finding).
  ucb policy(1, {.warmup = Eigen::Index{1} << 60});
  xoshiro256pp gen(1);
  (void)policy.select(gen);
  std::string text = test_state::saved(policy);
  text = test_state::with_token(text, "statistics.counts", 1, "4503599627370496");
  text = test_state::with_token(text, "statistics.total", 0, "4503599627370496");
  text = test_state::with_token(text, "statistics.awaiting", 1, "4503599627370495");
  std::istringstream in(text);
  state::restore(in, policy);
  CHECK(policy.select(gen) == 0);
  CHECK(policy.select(gen) == 0);
  CHECK(policy.statistics().awaiting(0) == 0x1p52 + 1.0);
}

TEST_CASE("between updates Thompson sampling draws afresh at every select", "[delayed][stat]") {
  // With no reward arriving, each select() of Beta-Bernoulli TS is an independent draw of
  // argmax_a theta_a, theta_a ~ Beta(1 + s_a, 1 + n_a - s_a): over N selects the share of arm 0
  // is a binomial proportion around p = P(theta_0 > theta_1) = int f_0(x) I_x(a_1, b_1) dx.
  thompson<bernoulli_model> policy(2);
  xoshiro256pp gen(2026);
  for (int k = 0; k < 30; ++k) {
    policy.update(0, k < 18 ? 1.0 : 0.0, gen);  // 18 of 30
    policy.update(1, k < 15 ? 1.0 : 0.0, gen);  // 15 of 30
  }
  const double a0 = 19, b0 = 13, a1 = 16, b1 = 16;
  const double log_norm0 = std::lgamma(a0 + b0) - std::lgamma(a0) - std::lgamma(b0);
  const int intervals = 4000;  // Simpson's rule; the integrand is smooth, its error ~1e-12
  double p = 0.0;
  for (int i = 0; i <= intervals; ++i) {
    const double x = static_cast<double>(i) / intervals;
    const double weight = (i == 0 || i == intervals) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);
    const double density =
        (x <= 0.0 || x >= 1.0)
            ? 0.0
            : std::exp(log_norm0 + (a0 - 1) * std::log(x) + (b0 - 1) * std::log1p(-x));
    p += weight * density * test::regularized_beta(a1, b1, x);
  }
  p /= 3.0 * intervals;
  const int draws = 40'000;
  int zeros = 0;
  for (int k = 0; k < draws; ++k) zeros += policy.select(gen) == 0 ? 1 : 0;
  // CLT: the share's standard error is sqrt(p (1 - p) / N), about 0.0024 here; five of them.
  const double share = static_cast<double>(zeros) / draws;
  CHECK(std::abs(share - p) <= test::z_five_sigma * std::sqrt(p * (1.0 - p) / draws));
  CHECK(p > 0.75);  // a question the draws can answer: neither arm always wins
  CHECK(p < 0.85);
}

TEST_CASE("between updates UCB plays one arm: its index does not move", "[delayed]") {
  // Why a deterministic index loses under delays (docs/delayed-feedback.md): with no reward
  // arriving, every select of a batch plays the same arm.
  ucb policy(3);
  xoshiro256pp gen(4);
  for (int k = 0; k < 30; ++k) policy.update(k % 3, (k % 3 == 1) ? 1.0 : 0.0, gen);
  const Eigen::Index first = policy.select(gen);
  for (int k = 0; k < 100; ++k) CHECK(policy.select(gen) == first);
}

TEST_CASE("the contextual Langevin policies' warm-up plays round-robin while rewards are awaited",
          "[delayed][warmup][contextual]") {
  const auto check = [](const std::string& name, auto policy) {
    INFO(name);
    xoshiro256pp gen(8);
    const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(3, -1.0, 1.0);
    // A bad context is refused before anything is recorded (the strong guarantee).
    CHECK_THROWS_AS(policy.select(Eigen::VectorXd::Constant(3, std::nan("")), gen),
                    std::invalid_argument);
    CHECK(policy.awaiting().sum() == 0.0);
    std::vector<Eigen::Index> batch;
    for (int k = 0; k < 8; ++k) batch.push_back(policy.select(x, gen));
    CHECK(batch == std::vector<Eigen::Index>{0, 1, 2, 3, 0, 1, 2, 3});
    // A checkpoint keeps them; an older state (no field) restores with none.
    const std::string text = test_state::saved(policy);
    auto restored = policy;
    std::istringstream in(text);
    state::restore(in, restored);
    CHECK(restored.awaiting().sum() == 8.0);
    for (std::size_t k = 0; k < batch.size(); ++k)
      policy.update(x, batch[k], k % 2 == 0 ? 1.0 : 0.0, gen);
    CHECK(policy.awaiting().sum() == 0.0);
    CHECK(policy.pulls().sum() == 8.0);
    CHECK(test_state::saved(policy).find("awaiting") == std::string::npos);
  };
  check("ts_sa", contextual::ts_sa<bernoulli_model>(4, 3));
  check("ts_sgld", contextual::ts_sgld<bernoulli_model>(4, 3));
}
