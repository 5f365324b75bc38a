#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <sstream>
#include <stop_token>
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
  // One thread: the trials share `seen`, which policies may write without synchronising only
  // if trials do not run at once (simulate()'s thread contract).
  const run_config config{.horizon = 100, .trials = 3, .seed = 1, .threads = 1,
                          .record_points = 10};
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
  // 7e8 trials of one recorded round: the results' matrices fit the bound (2.1e9 doubles of
  // 2^31), the per-trial records (K + 9 words each, 1.3e10) do not, and were allocated (a
  // probe's std::bad_alloc, after 50 GB) before this check.
  CHECK_THROWS_AS(simulate(env, factory, {.horizon = 1, .trials = 700'000'000, .record_points = 1}),
                  std::length_error);
  CHECK_THROWS_WITH(simulate(env, factory, {.horizon = 1, .trials = 700'000'000, .record_points = 1}),
                    Catch::Contains("per-trial records") && Catch::Contains("700000000 trials"));
  // unsigned(-1), C's "all": with 200,000 trials of one round it started threads until
  // std::system_error's "Resource temporarily unavailable", which names nothing.
  CHECK_THROWS_WITH(simulate(env, factory, {.horizon = 5, .trials = 2, .threads = static_cast<unsigned>(-1)}),
                    Catch::Contains("threads = 4294967295") && Catch::Contains("at most 4096"));
  CHECK_THROWS_AS(simulate(env, factory, {.horizon = 5, .trials = 2, .threads = bounds::threads + 1}),
                  std::invalid_argument);
  CHECK_NOTHROW(simulate(env, factory, {.horizon = 5, .trials = 2, .threads = bounds::threads}));
}

namespace {

// A user's environment: K arms of constant reward, no bounds checks of its own.
struct plain_env {
  Eigen::Index arms = 3;
  [[nodiscard]] Eigen::Index num_arms() const { return arms; }
  [[nodiscard]] double mean(Eigen::Index arm) const { return 0.1 * static_cast<double>(arm); }
  template <class G>
  double pull(Eigen::Index arm, G&) {
    return mean(arm);
  }
};

// Selects `bad` at round `at` (counted from 1) if `faulty`, arm 0 otherwise.
struct faulty_policy {
  Eigen::Index bad;
  Eigen::Index at;
  bool faulty;
  Eigen::Index t = 0;
  [[nodiscard]] Eigen::Index num_arms() const { return 3; }
  template <class G>
  Eigen::Index select(G&) {
    return ++t == at && faulty ? bad : 0;
  }
  template <class G>
  void update(Eigen::Index, double, G&) {}
};

// Trial 0's throws at its first round; the others wait until it is about to, then count
// their rounds.
struct waiting_policy {
  std::atomic<bool>* failing;
  std::atomic<long long>* rounds_after;
  bool thrower;
  [[nodiscard]] Eigen::Index num_arms() const { return 3; }
  template <class G>
  Eigen::Index select(G&) {
    if (thrower) {
      failing->store(true);
      throw std::runtime_error("trial 0 fails");
    }
    while (!failing->load()) {
    }
    ++*rounds_after;
    return 1;
  }
  template <class G>
  void update(Eigen::Index, double, G&) {}
};

}  // namespace

// Issue 20, item 2: an arm from a user's policy indexed the engines before any check (arm
// 1,000,000 segfaulted with a user's environment; arm 3 of 3 gave a wrong regret).
TEST_CASE("simulate rejects a bad arm from a user's policy, naming the trial and the round",
          "[sim][errors][guarantees]") {
  const plain_env env;
  for (const Eigen::Index bad : {Eigen::Index{1'000'000}, Eigen::Index{3}, Eigen::Index{-1}}) {
    const auto factory = [bad](Eigen::Index trial) {
      return faulty_policy{bad, 7, trial == 4};
    };
    CHECK_THROWS_MATCHES(
        simulate(env, factory, {.horizon = 20, .trials = 6, .threads = 2}), std::out_of_range,
        Catch::Matchers::Message("sabandit: simulate(): in trial 4, round 7, policy.select() "
                                 "returned arm " + std::to_string(bad) +
                                 ", outside [0, 3) (env.num_arms())"));
  }
}

namespace {
/// An arm whose every reward is 5: a count, which a Bernoulli model rejects.
struct count_of_five {
  [[nodiscard]] double mean() const { return 5.0; }
  template <class G>
  double operator()(G&) const { return 5.0; }
};
}  // namespace

// Newcomer's run: a Poisson environment under a Bernoulli policy said only "reward = 5".
TEST_CASE("simulate names the trial, round, arm and reward of a reward the policy rejects",
          "[sim][errors]") {
  const bandit_env<count_of_five> env({count_of_five{}, count_of_five{}});
  const auto factory = [](Eigen::Index) { return thompson<bernoulli_model>(2); };
  // Thompson's warm-up plays arm 0 first, in round 1 of trial 0.
  CHECK_THROWS_MATCHES(
      simulate(env, factory, {.horizon = 10, .trials = 1, .threads = 1}), std::invalid_argument,
      Catch::Matchers::Message("sabandit: simulate(): in trial 0, round 1, policy.update(arm 0, "
                               "reward 5): invalid argument: reward = 5 (must be in [0, 1] for "
                               "Bernoulli rewards)"));
}

namespace {
/// A user's own error type, and a policy that throws it from update.
struct my_error : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
struct throwing_policy {
  [[nodiscard]] Eigen::Index num_arms() const { return 3; }
  template <class G>
  Eigen::Index select(G&) {
    return 0;
  }
  template <class G>
  void update(Eigen::Index, double, G&) {
    throw my_error("mine");
  }
};
}  // namespace

TEST_CASE("simulate passes a user's own error type unchanged", "[sim][errors]") {
  const plain_env env;
  // A subclass of std::invalid_argument keeps its type (and its message): a catch of it matches.
  CHECK_THROWS_MATCHES(simulate(env, [](Eigen::Index) { return throwing_policy{}; },
                                {.horizon = 5, .trials = 1, .threads = 1}),
                       my_error, Catch::Matchers::Message("mine"));
}

TEST_CASE("simulate stops every trial at the first error and reports it", "[sim][errors][guarantees]") {
  const plain_env env;
  SECTION("no trial starts after a failure") {
    std::atomic<int> made{0};
    const auto factory = [&made](Eigen::Index trial) {
      ++made;
      return faulty_policy{9, 5, trial == 0};
    };
    CHECK_THROWS_AS(simulate(env, factory, {.horizon = 50, .trials = 40, .threads = 1}),
                    std::out_of_range);
    CHECK(made == 1);
  }
  SECTION("a running trial stops within a round") {
    // Trial 1 waits until trial 0 is about to throw, then would play 10^7 rounds; it stops as
    // soon as it sees the failure.
    std::atomic<bool> failing{false};
    std::atomic<long long> rounds_after{0};
    const Eigen::Index horizon = 10'000'000;
    CHECK_THROWS_WITH(simulate(env,
                               [&](Eigen::Index trial) {
                                 return waiting_policy{&failing, &rounds_after, trial == 0};
                               },
                               {.horizon = horizon, .trials = 2, .threads = 2,
                                .record_points = 1}),
                      "trial 0 fails");
    CHECK(rounds_after.load() < horizon);
  }
}

// The thread contract (simulate()'s documentation): the factory is called and the environment
// copied on the worker threads. A factory with shared state that synchronises it is correct,
// and ThreadSanitizer (scripts/test, step "tsan") checks this file for races.
TEST_CASE("simulate calls a synchronised factory from its workers", "[sim][guarantees]") {
  std::atomic<int> made{0};
  const auto env = make_mgr({.num_arms = 4, .gap = 0.5});
  const auto curve = simulate(
      env,
      [&made](Eigen::Index) {
        ++made;
        return ucb(4);
      },
      {.horizon = 200, .trials = 8, .threads = 2});
  CHECK(made == 8);
  CHECK(curve.final_regrets.size() == 8);
}

// Each trial's record is what the mean curve averages away: a policy stuck on a suboptimal arm
// and one on the best arm are known round by round (SGR puts the best arm last).
TEST_CASE("per-trial records: pulls, regret at T/2 and T, late optimal pulls, the trial's curve",
          "[sim]") {
  const auto env = make_sgr({.num_arms = 3, .gap = 0.25});
  auto seen = std::make_shared<std::vector<double>>();
  const run_config config{.horizon = 101, .trials = 3, .seed = 5, .threads = 2, .record_points = 7,
                          .trial_points = 10};
  const auto stuck = simulate(env, [&](Eigen::Index) { return cycle_policy{{0}, seen}; }, config);
  const auto best = simulate(env, [&](Eigen::Index) { return cycle_policy{{2}, seen}; }, config);
  // Alternating 0, 2: the best arm on the even rounds, 25 of them in rounds 51..101.
  const auto mixed = simulate(env, [&](Eigen::Index) { return cycle_policy{{0, 2}, seen}; }, config);
  REQUIRE(stuck.trial_rounds == recorded_rounds(101, 10));  // 11, 21, ..., 101
  // A horizon or a count below 1 is named (0 points divided by zero: a probe's finding).
  CHECK_THROWS_WITH(recorded_rounds(10, 0), Catch::Contains("points = 0"));
  CHECK_THROWS_WITH(recorded_rounds(0, 5), Catch::Contains("horizon = 0"));
  CHECK_THROWS_WITH(recorded_rounds(-5, 3), Catch::Contains("horizon = -5"));
  REQUIRE(stuck.per_trial.size() == 3);
  for (std::size_t r = 0; r < 3; ++r) {
    const auto& s = stuck.per_trial[r];
    CHECK(s.pulls == std::vector<Eigen::Index>{101, 0, 0});
    CHECK(s.regret == Approx(0.25 * 101));
    CHECK(s.regret == stuck.final_regrets[r]);
    CHECK(s.regret_half == Approx(0.25 * 50));  // floor(101 / 2) = 50 rounds
    CHECK(s.optimal_late == 0);
    REQUIRE(s.curve.size() == 10);
    CHECK(s.curve.front() == Approx(0.25 * 11));
    CHECK(s.curve.back() == s.regret);
    CHECK(best.per_trial[r].pulls == std::vector<Eigen::Index>{0, 0, 101});
    CHECK(best.per_trial[r].regret == 0.0);
    CHECK(best.per_trial[r].optimal_late == 51);
    CHECK(mixed.per_trial[r].pulls == std::vector<Eigen::Index>{51, 0, 50});
    CHECK(mixed.per_trial[r].optimal_late == 25);
    CHECK(mixed.per_trial[r].regret_half == Approx(0.25 * 25));
  }
  // Without trial_points, no trial curve; more points than rounds record each round once.
  CHECK(simulate(env, [&](Eigen::Index) { return cycle_policy{{0}, seen}; }, {.horizon = 8, .trials = 1})
            .per_trial.front().curve.empty());
  const auto every = simulate(env, [&](Eigen::Index) { return cycle_policy{{0}, seen}; },
                              {.horizon = 8, .trials = 1, .trial_points = 50});
  CHECK(every.trial_rounds.size() == 8);
  CHECK(every.per_trial.front().curve.size() == 8);
  CHECK_THROWS_WITH(simulate(env, [&](Eigen::Index) { return cycle_policy{{0}, seen}; },
                             {.horizon = 8, .trials = 1, .trial_points = -1}),
                    Catch::Contains("trial_points = -1"));
}

// A policy that requests a stop at its `at`-th update, as a user's GUI or signal handler would
// from outside; counts its rounds.
struct stopping_policy {
  std::stop_source* source;
  std::atomic<long>* rounds;
  long at;
  std::atomic<long>* at_request = nullptr;  // the rounds counted once the request is made
  [[nodiscard]] Eigen::Index num_arms() const { return 3; }
  template <class G>
  [[nodiscard]] Eigen::Index select(G&) const {
    return 0;
  }
  template <class G>
  void update(Eigen::Index, double, G&) {
    if (++*rounds == at) {
      source->request_stop();
      if (at_request != nullptr) *at_request = rounds->load();
    }
  }
};

TEST_CASE("a stop token stops every trial within a round", "[sim][guarantees]") {
  const auto env = make_sgr({.num_arms = 3, .gap = 0.25});
  std::stop_source source;
  std::atomic<long> rounds{0};
  std::atomic<long> at_request{0};
  const long horizon = 1'000'000'000;  // hours if the stop were not seen
  run_config config{.horizon = horizon, .trials = 4, .threads = 2, .stop = source.get_token()};
  CHECK_THROWS_AS(simulate(env, [&](Eigen::Index) {
                    return stopping_policy{&source, &rounds, 1000, &at_request};
                  }, config),
                  simulation_stopped);
  // Each of the two workers plays at most one round after the request. Counted from when the
  // request was made, not from the 1000th round: the other worker may play rounds between the
  // requesting worker's count and its request (a ThreadSanitizer run in CI played 18).
  REQUIRE(at_request.load() >= 1000);
  CHECK(rounds.load() <= at_request.load() + 2);
  // A token already stopped: no round is played.
  rounds = 0;
  CHECK_THROWS_AS(simulate(env, [&](Eigen::Index) { return stopping_policy{&source, &rounds, -1}; }, config),
                  simulation_stopped);
  CHECK(rounds.load() == 0);
}

TEST_CASE("progress_bar counts the trials of simulate(), from its workers too", "[sim]") {
  std::FILE* log = std::tmpfile();
  REQUIRE(log != nullptr);
  {
    progress_bar bar("run", 20, log);
    const auto env = make_sgr({.num_arms = 3, .gap = 0.25});
    (void)simulate(env, [](Eigen::Index) { return ucb(3); }, {.horizon = 50, .trials = 20, .threads = 1}, bar.hook());
  }
  std::rewind(log);
  std::string text;
  for (int c = std::fgetc(log); c != EOF; c = std::fgetc(log)) text += static_cast<char>(c);
  std::fclose(log);
  // Without redrawing, one line per 10 %: 2, 4, ..., 20 trials.
  CHECK(std::count(text.begin(), text.end(), '\n') == 10);
  CHECK(text.rfind("run: 10% (2/20 trials, ", 0) == 0);
  CHECK(text.find("run: 100% (20/20 trials, ") != std::string::npos);
  // From two workers the last trial still reaches 100 %.
  log = std::tmpfile();
  REQUIRE(log != nullptr);
  {
    progress_bar bar("run", 20, log);
    (void)simulate(make_sgr({.num_arms = 3}), [](Eigen::Index) { return ucb(3); },
                   {.horizon = 50, .trials = 20, .threads = 2}, bar.hook());
  }
  std::rewind(log);
  text.clear();
  for (int c = std::fgetc(log); c != EOF; c = std::fgetc(log)) text += static_cast<char>(c);
  std::fclose(log);
  CHECK(text.find("run: 100% (20/20 trials, ") != std::string::npos);
}

TEST_CASE("Lai–Robbins constant of Bernoulli and Poisson arms, gap 0.5, K = 10", "[sim]") {
  // Nine arms of p = 0.4 against p* = 0.9:
  //   KL(0.4, 0.9) = 0.4 ln(0.4/0.9) + 0.6 ln(0.6/0.1) = -0.3243721 + 1.0750557 = 0.7506836,
  //   C = 9 x 0.5 / 0.7506836 = 5.994536.
  CHECK(lai_robbins_constant(bernoulli_model{}, make_bernoulli_gap(10, 0.9, 0.5)) == Approx(5.994536).epsilon(1e-6));
  // Poisson, best mean 3: KL(2.5, 3) = 3 - 2.5 + 2.5 ln(2.5/3) = 0.0441961, C = 4.5 / 0.0441961
  // = 101.8189.
  CHECK(lai_robbins_constant(poisson_model{}, make_poisson_gap(10, 3.0, 0.5)) == Approx(101.8189).epsilon(1e-6));
  // Every arm optimal: no regret to bound.
  CHECK(lai_robbins_constant(bernoulli_model{}, bandit_env<bernoulli_arm>({bernoulli_arm(0.5), bernoulli_arm(0.5)})) == 0.0);
}

namespace {
// Records every select (kind 's', the arm it plays: 0, 1, 2, 0, ...) and update ('u', the arm
// and reward it learns), in call order.
struct event {
  char kind;
  Eigen::Index arm;
  double reward;
};
struct logging_policy {
  std::shared_ptr<std::vector<event>> log;
  Eigen::Index played = 0;
  Eigen::Index num_arms() const { return 3; }
  template <class G>
  Eigen::Index select(G&) {
    const Eigen::Index arm = played++ % 3;
    log->push_back({'s', arm, 0.0});
    return arm;
  }
  template <class G>
  void update(Eigen::Index arm, double reward, G&) {
    if (reward < 0.0) throw std::invalid_argument("sabandit: reward = -1: must not be negative");
    log->push_back({'u', arm, reward});
  }
};
// The same, rejecting the reward of round 3 (the seventh event of a batch of 5).
struct rejecting : logging_policy {
  template <class G>
  void update(Eigen::Index arm, double reward, G& gen) {
    logging_policy::update(arm, log->size() == 7 ? -1.0 : reward, gen);
  }
};
}  // namespace

TEST_CASE("feedback_batch: the policy learns each batch's rewards, in order, after its last "
          "selection", "[sim][delayed]") {
  const bandit_env<bernoulli_arm> env({bernoulli_arm(0.3), bernoulli_arm(0.5), bernoulli_arm(0.7)});
  const auto run = [&](Eigen::Index batch) {
    auto log = std::make_shared<std::vector<event>>();
    const auto curve = simulate(env, [&](Eigen::Index) { return logging_policy{log}; },
                                {.horizon = 23, .trials = 1, .threads = 1, .feedback_batch = batch});
    return std::pair{*log, curve};
  };
  const auto [one, curve_one] = run(1);
  const auto [five, curve_five] = run(5);
  REQUIRE(one.size() == 46);
  REQUIRE(five.size() == 46);
  // B = 1: select, update, select, update, ...; B = 5: five selects, their five updates, ...,
  // and the last batch (rounds 21-23) at T.
  std::vector<double> rewards_one, rewards_five;
  for (std::size_t k = 0; k < 46; ++k) {
    CHECK(one[k].kind == (k % 2 == 0 ? 's' : 'u'));
    if (one[k].kind == 'u') rewards_one.push_back(one[k].reward);
  }
  std::size_t k = 0;
  for (Eigen::Index start = 0; start < 23; start += 5) {
    const Eigen::Index size = std::min<Eigen::Index>(5, 23 - start);
    for (Eigen::Index i = 0; i < size; ++i, ++k) {
      CHECK(five[k].kind == 's');
      CHECK(five[k].arm == (start + i) % 3);
    }
    for (Eigen::Index i = 0; i < size; ++i, ++k) {
      CHECK(five[k].kind == 'u');
      CHECK(five[k].arm == (start + i) % 3);  // round order, each with its own arm
      rewards_five.push_back(five[k].reward);
    }
  }
  // The same pulls, so the same rewards (drawn when pulled) and the same regret.
  CHECK(rewards_five == rewards_one);
  CHECK(same_curves(curve_one, curve_five));
  CHECK(curve_five.per_trial[0].pulls == std::vector<Eigen::Index>{8, 8, 7});
  // A batch longer than the horizon holds every reward to the end, without allocating for B.
  const auto [all, curve_all] = run(Eigen::Index{1} << 62);
  for (std::size_t j = 0; j < 23; ++j) CHECK(all[j].kind == 's');
  CHECK(same_curves(curve_all, curve_one));
}

TEST_CASE("feedback_batch: same results on any number of threads; bad values and rewards are "
          "named", "[sim][delayed][errors]") {
  const auto env = make_bernoulli_gap(5, 0.05, 0.02);
  const auto make = [](Eigen::Index) { return ts_sa<bernoulli_model>(5); };
  run_config config{.horizon = 400, .trials = 6, .seed = 9, .threads = 1, .feedback_batch = 7};
  const auto a = simulate(env, make, config);
  config.threads = 3;
  CHECK(same_curves(a, simulate(env, make, config)));
  config.feedback_batch = 1;
  CHECK(!same_curves(a, simulate(env, make, config)));  // learning later plays other arms
  config.feedback_batch = 0;
  CHECK_THROWS_WITH(simulate(env, make, config), Catch::Contains("feedback_batch = 0"));
  config.feedback_batch = -3;
  CHECK_THROWS_AS(simulate(env, make, config), std::invalid_argument);
  // A reward the policy rejects names the round it was pulled in, not the batch's end.
  const bandit_env<bernoulli_arm> coins({bernoulli_arm(0.5), bernoulli_arm(0.5), bernoulli_arm(0.5)});
  const auto log = std::make_shared<std::vector<event>>();
  CHECK_THROWS_WITH(
      simulate(coins, [&](Eigen::Index) { return rejecting{{log}}; },
               {.horizon = 20, .trials = 1, .threads = 1, .feedback_batch = 5}),
      Catch::Contains("in trial 0, round 3, policy.update(arm 2"));
}
