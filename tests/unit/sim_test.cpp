#include <memory>
#include <sstream>
#include <vector>

#include "sabandit/sim.hpp"
#include "support/catch.hpp"

using namespace sabandit;

namespace {
bool same_curves(const regret_curve& a, const regret_curve& b) {
  return a.rounds == b.rounds && a.mean_regret == b.mean_regret &&
         a.standard_error == b.standard_error && a.optimal_fraction == b.optimal_fraction &&
         a.final_regrets == b.final_regrets;
}

// Plays a fixed cycle of arms and records the rewards it sees for arm 1.
struct cycle_policy {
  std::vector<Eigen::Index> cycle;
  std::shared_ptr<std::vector<double>> seen;
  std::size_t t = 0;
  Eigen::Index num_arms() const { return 3; }
  template <class G>
  Eigen::Index select(G&) {
    return cycle[t++ % cycle.size()];
  }
  template <class G>
  void update(Eigen::Index arm, double reward, G&) {
    if (arm == 1) seen->push_back(reward);
  }
};
}  // namespace

TEST_CASE("simulation output is identical for 1 and 2 threads", "[sim]") {
  const auto env = make_mgr({.num_arms = 5, .gap = 0.5});
  for (unsigned threads : {2U, 3U}) {
    const run_config one{.horizon = 500, .trials = 7, .seed = 3, .threads = 1, .record_points = 20};
    auto many = one;
    many.threads = threads;
    const auto sa = [](Eigen::Index) { return ts_sa<>(5, {.warmup = 2, .window = 8}); };
    CHECK(same_curves(simulate(env, sa, one), simulate(env, sa, many)));
    const auto sgld = [](Eigen::Index) { return ts_sgld<>(5, {.batch_size = 4}); };
    CHECK(same_curves(simulate(env, sgld, one), simulate(env, sgld, many)));
  }
}

TEST_CASE("common random numbers: the k-th pull of an arm is the same for any policy", "[sim]") {
  const auto env = make_sgr({.num_arms = 3, .gap = 0.5});
  const run_config config{.horizon = 60, .trials = 1, .seed = 12, .threads = 1};
  auto only_one = std::make_shared<std::vector<double>>();
  auto mixed = std::make_shared<std::vector<double>>();
  (void)simulate(env, [&](Eigen::Index) { return cycle_policy{{1}, only_one}; }, config);
  (void)simulate(env, [&](Eigen::Index) { return cycle_policy{{0, 2, 1, 0}, mixed}; }, config);
  REQUIRE(mixed->size() == 15);
  CHECK(std::equal(mixed->begin(), mixed->end(), only_one->begin()));
}

TEST_CASE("regret curve bookkeeping", "[sim]") {
  const auto env = make_sgr({.num_arms = 3, .gap = 0.25});
  const run_config config{.horizon = 100, .trials = 3, .seed = 1, .record_points = 10};
  auto seen = std::make_shared<std::vector<double>>();
  // Always arm 1 (suboptimal): regret = 0.25 t exactly, never optimal, zero spread.
  const auto curve = simulate(env, [&](Eigen::Index) { return cycle_policy{{1}, seen}; }, config);
  REQUIRE(curve.rounds.size() == 10);
  CHECK(curve.rounds.front() == 10);
  CHECK(curve.rounds.back() == 100);
  CHECK(curve.final_regret() == Approx(25.0));
  CHECK(curve.final_standard_error() == 0.0);
  CHECK(curve.optimal_fraction.back() == 0.0);
  CHECK(curve.final_regrets.size() == 3);
  std::ostringstream csv;
  write_regret_csv_rows(csv, "sgr", "always1", curve);
  std::string first;
  std::getline(std::istringstream(csv.str()) >> std::ws, first);
  CHECK(first == "sgr,always1,10,2.500000,0.000000,0.000000");
}

TEST_CASE("simulation rejects bad configurations", "[sim][errors]") {
  const auto env = make_sgr({});
  const auto factory = [](Eigen::Index) { return ucb(10); };
  CHECK_THROWS_WITH(simulate(env, factory, {.horizon = 0}), Catch::Contains("horizon (T) = 0"));
  CHECK_THROWS_WITH(simulate(env, factory, {.trials = 0}), Catch::Contains("trials (R) = 0"));
  CHECK_THROWS_WITH(simulate(env, [](Eigen::Index) { return ucb(3); }, {.horizon = 5}),
                    Catch::Contains("policy.num_arms() = 3"));
}
