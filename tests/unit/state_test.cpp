// Save and restore (docs/state-format.md): a restored policy given the same engine state makes
// exactly the decisions of the one that was saved, and a stream that is truncated, altered,
// of another version or type, or describes an impossible state is rejected with the target
// left exactly as it was.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "sabandit/sabandit.hpp"
#include "sabandit/state/files.hpp"
#include "support/catch.hpp"
#include "support/saved_state.hpp"
#include "unit/state_corpus/corpus.hpp"

namespace {

using sabandit::xoshiro256pp;

// Rewards in every model's support, from their own engine so that the policy's engine is the
// policy's alone: the corpus's (unit/state_corpus/corpus.hpp), which its checkpoints were
// played with.
using corpus::draw;
using corpus::rewards;

using test_state::saved;
using test_state::reseal;
using test_state::with_token;

// Plays `rounds` rounds and returns the arms played.
template <class Policy>
std::vector<Eigen::Index> play(Policy& policy, xoshiro256pp& gen, xoshiro256pp& env,
                               rewards kind, int rounds) {
  std::vector<Eigen::Index> arms;
  arms.reserve(static_cast<std::size_t>(rounds));
  for (int t = 0; t < rounds; ++t) {
    const Eigen::Index arm = policy.select(gen);
    policy.update(arm, draw(kind, arm, env), gen);
    arms.push_back(arm);
  }
  return arms;
}

// The property of issue 10, item 5: save after 300 rounds (warm-up over, chains moving), go on
// for 10^4 rounds; a policy restored from the save, with an engine restored from its save,
// makes the same 10^4 decisions and ends in the same state.
template <class Policy>
void check_replay(Policy original, Policy target, rewards kind) {
  xoshiro256pp gen(2026), env(7);
  play(original, gen, env, kind, 300);
  std::stringstream stream;
  sabandit::state::save(stream, original);
  sabandit::state::save(stream, gen);
  sabandit::state::save(stream, env);
  const auto expected = play(original, gen, env, kind, 10'000);

  xoshiro256pp gen2(1), env2(2);
  sabandit::state::restore(stream, target);
  sabandit::state::restore(stream, gen2);
  sabandit::state::restore(stream, env2);
  CHECK(play(target, gen2, env2, kind, 10'000) == expected);
  CHECK(saved(target) == saved(original));
  CHECK(gen2 == gen);
}

}  // namespace

TEST_CASE("a restored policy replays the saved one's next 10^4 decisions", "[state]") {
  using namespace sabandit;
  SECTION("ucb") { check_replay(ucb(5, {.bonus_scale = 0.5}), ucb(5), rewards::gaussian); }
  SECTION("gaussian_ts") {
    check_replay(gaussian_ts(6, {.temperature = 0.7}), gaussian_ts(6), rewards::gaussian);
  }
  SECTION("thompson<bernoulli_model>") {
    check_replay(thompson<bernoulli_model>(4), thompson<bernoulli_model>(4, {.warmup = 3}),
                 rewards::bernoulli);
  }
  SECTION("thompson<poisson_model>") {
    check_replay(thompson<poisson_model>(4, {.temperature = 2.0}), thompson<poisson_model>(4),
                 rewards::poisson);
  }
  SECTION("epsilon_ts") {
    check_replay(epsilon_ts<>(5, {.epsilon = 0.2}), epsilon_ts<>(5), rewards::gaussian);
    check_replay(epsilon_ts<bernoulli_model>(3), epsilon_ts<bernoulli_model>(3),
                 rewards::bernoulli);
  }
  SECTION("kl_ucb") {
    check_replay(kl_ucb<>(4, {.log_log_coefficient = 3.0}), kl_ucb<>(4), rewards::bernoulli);
    check_replay(kl_ucb<poisson_model>(4), kl_ucb<poisson_model>(4), rewards::poisson);
  }
  SECTION("ts_sa") {
    check_replay(ts_sa<>(5, {.window = 7}), ts_sa<>(5), rewards::gaussian);
    xoshiro256pp features(11);
    check_replay(ts_sa<>(random_features(3, 4, features), {.warmup = 3, .temperature = 0.5}),
                 ts_sa<>(Eigen::MatrixXd::Ones(3, 4), {}), rewards::gaussian);
    using harmonic = ts_sa<bernoulli_model>;
    check_replay(harmonic(4, {.warmup = 5, .window = 3, .step_size = 1.0,
                              .sa_schedule = polynomial_decay::harmonic()}),
                 harmonic(4), rewards::bernoulli);
    using constant = ts_sa<poisson_model, constant_schedule>;
    // Alg. 1's metric: the Fisher metric's step assumes the Newton schedule (gamma_n h =
    // 1 / (n + 1)); a constant gamma h = 10 overshoots the posterior mean tenfold and, for a
    // Poisson arm with a flat prior, runs its iterate to the non-finite error (ts_sa::params).
    check_replay(constant(3, {.warmup = 4, .sa_schedule = constant_schedule(0.1),
                              .metric = step_metric::identity}),
                 constant(3, {.sa_schedule = constant_schedule(0.5)}), rewards::poisson);
    using horizon = ts_sa<gaussian_model, horizon_schedule>;
    check_replay(horizon(3, {.warmup = 2, .sa_schedule = horizon_schedule(50)}),
                 horizon(3, {.sa_schedule = horizon_schedule(10)}), rewards::gaussian);
  }
  SECTION("ts_sgld") {
    check_replay(ts_sgld<>(4, {.batch_size = 8}), ts_sgld<>(4), rewards::gaussian);
    check_replay(ts_sgld<poisson_model>(3, {.init = initialisation::prior}),
                 ts_sgld<poisson_model>(3), rewards::poisson);
  }
  SECTION("over exponential durations") {
    check_replay(thompson<exponential_model>(4, {.prior = {1.0, 2.0}}),
                 thompson<exponential_model>(4), rewards::exponential);
    check_replay(kl_ucb<exponential_model>(3), kl_ucb<exponential_model>(3), rewards::exponential);
    check_replay(ts_sa<exponential_model>(3, {.warmup = 2}), ts_sa<exponential_model>(3),
                 rewards::exponential);
  }
  SECTION("a Gaussian model's noise variance is part of the state") {
    check_replay(ts_sa<>(unit_features(3), {}, gaussian_model(4.0)), ts_sa<>(3),
                 rewards::gaussian);
  }
}

namespace {

// A model with state of its own, written as a user would (docs/state-format.md): Gaussian
// rewards with a known scale, persisted by name and field.
class scaled_gaussian {
 public:
  explicit scaled_gaussian(double scale = 1.0) : inner_(scale * scale), scale_(scale) {}
  [[nodiscard]] double mean(const sabandit::vector_cref& phi,
                            const sabandit::vector_cref& theta) const {
    return inner_.mean(phi, theta);
  }
  [[nodiscard]] double log_likelihood(double x, const sabandit::vector_cref& phi,
                                      const sabandit::vector_cref& theta) const {
    return inner_.log_likelihood(x, phi, theta);
  }
  void grad_log_likelihood(const sabandit::vector_cref& rewards,
                           const sabandit::vector_cref& phi, const sabandit::vector_cref& theta,
                           sabandit::vector_ref grad) const {
    inner_.grad_log_likelihood(rewards, phi, theta, grad);
  }
  static std::string state_name() { return "scaled_gaussian"; }
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    double scale = self.scale_;
    ar("scale", scale);
    if constexpr (Archive::reading) self = scaled_gaussian(scale);
  }
  [[nodiscard]] double scale() const { return scale_; }

 private:
  sabandit::gaussian_model inner_;
  double scale_;
};

}  // namespace

TEST_CASE("a policy over a user's model with state of its own replays too", "[state]") {
  using policy = sabandit::ts_sa<scaled_gaussian>;
  check_replay(policy(sabandit::unit_features(4), {.warmup = 3}, scaled_gaussian(2.0)),
               policy(sabandit::unit_features(4), {}, scaled_gaussian(1.0)), rewards::gaussian);
  using sgld = sabandit::ts_sgld<scaled_gaussian>;
  check_replay(sgld(sabandit::unit_features(3), {}, scaled_gaussian(0.5)),
               sgld(sabandit::unit_features(3), {}, scaled_gaussian(1.0)), rewards::gaussian);
}

namespace {

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// Restoring `text` into `target` throws E and leaves it exactly as it was.
template <class E, class Policy>
void check_rejected(Policy& target, const std::string& text, const std::string& message_part) {
  const std::string before = saved(target);
  std::istringstream in(text);
  try {
    sabandit::state::restore(in, target);
    FAIL("restore accepted: " << text.substr(0, 200));
  } catch (const E& error) {
    CHECK_THAT(error.what(), Catch::Matchers::Contains(message_part));
  }
  CHECK(saved(target) == before);
}

}  // namespace

TEST_CASE("a damaged, foreign or impossible stream is rejected and changes nothing", "[state]") {
  using namespace sabandit;
  using state::format_error;
  xoshiro256pp gen(3), env(4);
  ts_sa<> source(4, {.warmup = 2, .window = 3});
  play(source, gen, env, rewards::gaussian, 40);
  const std::string good = saved(source);
  ts_sa<> target(4);
  play(target, gen, env, rewards::gaussian, 20);

  SECTION("every truncation") {
    for (std::size_t length = 0; length < good.size(); length += 7)
      check_rejected<format_error>(target, good.substr(0, length), "cannot restore");
  }
  SECTION("any altered byte fails the checksum") {
    for (std::size_t at = 0; at < good.rfind("end "); at += 11) {
      std::string bad = good;
      bad[at] = bad[at] == '7' ? '8' : '7';
      check_rejected<format_error>(target, bad, "");
    }
    check_rejected<format_error>(target, replaced(good, "window 3", "window 4"), "checksum");
  }
  SECTION("another version or type") {
    check_rejected<format_error>(target, reseal(replaced(good, "sabandit-state 1", "sabandit-state 2")),
                                 "format version 2");
    // The version is written as save writes it, or refused: not "01", "+1", "1.0" or "1e0".
    for (const char* written : {"01", "+1", "1.0", "1e0", " 1"}) {
      check_rejected<format_error>(
          target, reseal(replaced(good, "sabandit-state 1", std::string("sabandit-state ") + written)),
          "format version");
    }
    check_rejected<format_error>(target, "hello\nend 0\n", "not a sabandit state");
    ucb other(3);
    check_rejected<format_error>(other, good, "not 'ucb'");
    ts_sa<bernoulli_model> other_model(3);
    check_rejected<format_error>(other_model, good, "not 'ts_sa<bernoulli,polynomial_decay>'");
  }
  SECTION("invalid parameters behind a valid checksum: the constructor's checks") {
    check_rejected<std::invalid_argument>(
        target, reseal(replaced(good, "params.temperature 1", "params.temperature -1")),
        "temperature (tau)");
    check_rejected<std::invalid_argument>(
        target, reseal(replaced(good, "params.step_size 100", "params.step_size 1e300")),
        "step_size (h)");
  }
  SECTION("an impossible state behind a valid checksum") {
    check_rejected<format_error>(target, reseal(replaced(good, "statistics.total 40", "statistics.total 41")),
                                 "total must be the sum");
    check_rejected<format_error>(target, reseal(replaced(good, "theta 1 4 ", "theta 1 5 ")),
                                 "expected 1 x 4");
    check_rejected<format_error>(target, reseal(replaced(good, "source.windows.heads 4", "source.windows.heads 4 3")),
                                 "");
    check_rejected<format_error>(target, reseal(replaced(good, "statistics.counts 4 ", "statistics.counts 4 -")),
                                 "");
    // Range errors quote numbers exactly (the shortest text that reads back), not to 6 places.
    check_rejected<format_error>(target, reseal(replaced(good, "statistics.counts 4 ", "statistics.counts 4 -0.25")),
                                 "has an entry, -0.25");
    check_rejected<format_error>(target, reseal(replaced(good, "statistics.counts 4 ", "statistics.counts 4 -0.25")),
                                 "outside [0, 4503599627370496]");
  }
}

// Found by the langevin_policies fuzz target in CI (its input is in the seed corpus as
// regression-restore-length-error): an altered size parameter made restore() rebuild a policy
// of more than bounds::state_doubles doubles, and the constructor's std::length_error escaped
// restore(), whose documented answer for a stream no policy saved is format_error.
TEST_CASE("restore: saved sizes beyond bounds::state_doubles are a format error (fuzzing)",
          "[state][fuzz]") {
  using namespace sabandit;
  using state::format_error;
  xoshiro256pp gen(3), env(4);
  ts_sa<> source(4, {.warmup = 2, .window = 3});
  play(source, gen, env, rewards::gaussian, 40);
  ts_sa<> target(3);
  // 4 arms x (2^31 + 3) window doubles: not backed by the block (below), so rejected earlier
  check_rejected<format_error>(
      target, reseal(replaced(saved(source), "params.window 3", "params.window 2147483648")),
      "params.window = 2147483648 asks for a state of 2147483648 x 4 values");
  ts_sgld<> sgld(3, {.batch_size = 4});
  play(sgld, gen, env, rewards::gaussian, 20);
  ts_sgld<> sgld_target(2);
  check_rejected<format_error>(
      sgld_target,
      reseal(replaced(saved(sgld), "params.batch_size 4", "params.batch_size 2147483648")),
      "beyond the bound of 2^31 doubles");
}

// The follow-up to the case above (a review): below the bound, a few altered bytes could still
// make a restore allocate gigabytes (UCB's num_arms 300000000: 14 GB) before the fields that
// contradict them were read. Saved sizes must now be backed by the block's own values.
TEST_CASE("restore: saved sizes the block does not back are a format error", "[state]") {
  using namespace sabandit;
  using state::format_error;
  xoshiro256pp gen(3), env(4);
  ucb u(3);
  play(u, gen, env, rewards::gaussian, 12);
  ucb u_target(2);
  check_rejected<format_error>(u_target, reseal(replaced(saved(u), "num_arms 3", "num_arms 300000000")),
                               "num_arms = 300000000 asks for a state of 300000000 x 2 values, but the "
                               "block holds only");
  epsilon_ts<> e(3);
  play(e, gen, env, rewards::gaussian, 12);
  epsilon_ts<> e_target(2);
  check_rejected<format_error>(e_target, reseal(replaced(saved(e), "ts.num_arms 3", "ts.num_arms 150000000")),
                               "ts.num_arms = 150000000 asks for a state of");
  kl_ucb<bernoulli_model> k(3);
  play(k, gen, env, rewards::bernoulli, 12);
  kl_ucb<bernoulli_model> k_target(2);
  check_rejected<format_error>(k_target, reseal(replaced(saved(k), "num_arms 3", "num_arms 100000000")),
                               "asks for a state of 100000000 x 2 values");
  ts_sa<> sa(4, {.warmup = 2, .window = 3});
  play(sa, gen, env, rewards::gaussian, 40);
  ts_sa<> sa_target(3);
  check_rejected<format_error>(sa_target,
                               reseal(replaced(saved(sa), "params.window 3", "params.window 100000000")),
                               "asks for a state of 100000000 x 4 values");
  // The sizes a genuine state has pass (every other restore test), also at the edge: a window
  // of B = 1 leaves exactly K buffer numbers.
  ts_sa<> edge(4, {.warmup = 1, .window = 1});
  play(edge, gen, env, rewards::gaussian, 10);
  ts_sa<> edge_target(4);
  std::istringstream in(saved(edge));
  sabandit::state::restore(in, edge_target);
  CHECK(saved(edge_target) == saved(edge));
}

TEST_CASE("engines save and restore their state", "[state]") {
  sabandit::xoshiro256pp gen(99);
  (void)gen();
  std::stringstream stream;
  sabandit::state::save(stream, gen);
  sabandit::xoshiro256pp copy(1);
  sabandit::state::restore(stream, copy);
  CHECK(copy == gen);
  CHECK(copy() == gen());

  // The all-zero state is a fixed point the engine never reaches: a stream claiming it is forged.
  const std::string zero = reseal(
      "sabandit-state 1 xoshiro256pp\nword0 0\nword1 0\nword2 0\nword3 0\nend 0\n");
  std::istringstream in(zero);
  const auto before = copy;
  CHECK_THROWS_AS(sabandit::state::restore(in, copy), sabandit::state::format_error);
  CHECK(copy == before);
}

TEST_CASE("a saved state is text with one field per line, exact to the bit", "[state]") {
  sabandit::gaussian_ts policy(2);
  sabandit::xoshiro256pp gen(5);
  policy.update(0, 0.1, gen);
  policy.update(1, 1.0 / 3.0, gen);
  const std::string text = saved(policy);
  CHECK(text.starts_with("sabandit-state 1 thompson<gaussian>\nnum_arms 2\ntemperature 1\n"));
  // Shortest round-trip form: 1/3 reads back as the same double.
  CHECK(text.find("statistics.sums 2 0.1 0.3333333333333333\n") != std::string::npos);
}

// Issue 20, item 1: a format that survives versions. Fields are read by name, in any order; a
// field the reader does not know (one a later version added) is ignored; a field a later
// version added is read with optional() and takes its default when an older state lacks it.
TEST_CASE("restore reads fields by name: a reordered state and one with an added field restore",
          "[state][guarantees]") {
  using namespace sabandit;
  xoshiro256pp gen(3), env(4);
  ts_sa<> source(4, {.warmup = 2, .window = 3});
  play(source, gen, env, rewards::gaussian, 40);
  const std::string good = saved(source);

  SECTION("reordered: the field lines reversed") {
    std::vector<std::string> lines;
    std::istringstream split(good);
    for (std::string line; std::getline(split, line);) lines.push_back(line);
    std::string reversed = lines.front() + "\n";
    for (std::size_t i = lines.size() - 2; i >= 1; --i) reversed += lines[i] + "\n";
    reversed += "end 0\n";
    ts_sa<> target(4);
    std::istringstream in(reseal(reversed));
    sabandit::state::restore(in, target);
    CHECK(saved(target) == good);
  }
  SECTION("an added field, unknown to this version, is ignored") {
    const std::string added =
        replaced(good, "params.window 3\n", "params.window 3\nparams.future_knob 1 2 3\n");
    ts_sa<> target(4);
    std::istringstream in(reseal(added));
    sabandit::state::restore(in, target);
    CHECK(saved(target) == good);
  }
  SECTION("a field that appears twice is an error naming it and both lines") {
    ts_sa<> target(4);
    check_rejected<state::format_error>(
        target, reseal(replaced(good, "params.window 3\n", "params.window 3\nparams.window 3\n")),
        "the field 'params.window' appears twice (also at line 12)");
  }
  SECTION("a missing field is named, with the block and the line") {
    ts_sa<> target(4);
    check_rejected<state::format_error>(
        target, reseal(replaced(good, "params.window 3\n", "")),
        "the field 'params.window' is missing (block 'ts_sa<gaussian,polynomial_decay>', line");
  }
}

namespace {

// A type of a "later version": field `b` was added after states without it were saved, so it
// is read with optional() and its default reproduces what the earlier version did.
struct knob_v2 {
  double a = 1.0;
  int b = 7;
  static std::string state_name() { return "knob"; }
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    ar("a", self.a);
    ar.optional("b", self.b, 7, 0, 10);
  }
};

}  // namespace

TEST_CASE("a field a later version added takes its default when an older state lacks it",
          "[state][guarantees]") {
  knob_v2 target{.a = 5.0, .b = 3};
  std::istringstream older(reseal("sabandit-state 1 knob\na 2\nend 0\n"));
  sabandit::state::restore(older, target);
  CHECK(target.a == 2.0);
  CHECK(target.b == 7);  // the default, not the target's 3

  std::stringstream newer;
  sabandit::state::save(newer, knob_v2{.a = 4.0, .b = 9});
  CHECK(newer.str().find("\nb 9\n") != std::string::npos);
  sabandit::state::restore(newer, target);
  CHECK(target.b == 9);

  const knob_v2 before = target;
  std::istringstream out_of_range(reseal("sabandit-state 1 knob\na 2\nb 11\nend 0\n"));
  CHECK_THROWS_WITH(sabandit::state::restore(out_of_range, target),
                    Catch::Matchers::Contains("b = 11 is outside [0, 10]"));
  CHECK(target.b == before.b);
}

TEST_CASE("a renamed field is written under its new name and read under either",
          "[state][guarantees]") {
  // UCB's bonus scale was `temperature` in 0.2 (every other policy's temperature multiplies a
  // variance): a state of 0.2 restores, and a new one says bonus_scale.
  std::stringstream saved;
  sabandit::state::save(saved, sabandit::ucb(2, {.bonus_scale = 0.25}));
  CHECK(saved.str().find("\nbonus_scale 0.25\n") != std::string::npos);
  CHECK(saved.str().find("temperature") == std::string::npos);
  sabandit::ucb target(2);
  sabandit::state::restore(saved, target);
  CHECK(target.parameters().bonus_scale == 0.25);

  const std::string old_state =
      "sabandit-state 1 ucb\nnum_arms 2\ntemperature 0.75\nwarmup 1\n"
      "statistics.counts 2 0 0\nstatistics.sums 2 0 0\nstatistics.total 0\nend 0\n";
  std::istringstream older(reseal(old_state));
  sabandit::state::restore(older, target);
  CHECK(target.parameters().bonus_scale == 0.75);
}

TEST_CASE("restore into a policy of another shape is rejected and changes nothing",
          "[state][guarantees]") {
  using namespace sabandit;
  xoshiro256pp gen(3), env(4);
  ucb six(6);
  play(six, gen, env, rewards::gaussian, 30);
  ucb three(3);
  check_rejected<state::format_error>(three, saved(six),
                                      "the state has 6 arms, the policy restored into has 3");
  gaussian_ts ts_six(6);
  gaussian_ts ts_three(3);
  check_rejected<state::format_error>(ts_three, saved(ts_six), "has 6 arms");
  ts_sa<> wide(Eigen::MatrixXd::Ones(3, 4), {});
  ts_sa<> narrow(4);
  check_rejected<state::format_error>(narrow, saved(wide), "features of dimension 3");
  ts_sgld<> sgld_six(6);
  ts_sgld<> sgld_three(3);
  check_rejected<state::format_error>(sgld_three, saved(sgld_six), "has 6 arms");
}

TEST_CASE("restore_all restores a policy and its engines all or nothing, naming the block",
          "[state][guarantees]") {
  using namespace sabandit;
  xoshiro256pp gen(3), env(4);
  ts_sa<> policy(4, {.warmup = 2, .window = 3});
  play(policy, gen, env, rewards::gaussian, 40);
  std::stringstream checkpoint;
  state::save_all(checkpoint, policy, gen, env);
  const std::string text = checkpoint.str();

  xoshiro256pp gen2(1), env2(2);
  ts_sa<> target(4);
  play(target, gen2, env2, rewards::gaussian, 10);
  const std::string target_before = saved(target);
  const xoshiro256pp gen2_before = gen2, env2_before = env2;

  // Truncated inside the third block (the rewards' engine): the first two were read, but
  // nothing is replaced.
  const std::size_t third = text.rfind("sabandit-state");
  std::istringstream truncated(text.substr(0, third + 50));
  try {
    state::restore_all(truncated, target, gen2, env2);
    FAIL("a truncated checkpoint was accepted");
  } catch (const state::format_error& error) {
    const std::size_t header_line =
        static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<long>(third), '\n')) + 1;
    CHECK_THAT(error.what(), Catch::Matchers::Contains("truncated"));
    CHECK_THAT(error.what(), Catch::Matchers::Contains(
                                 "block 3 of 3 'xoshiro256pp', line " + std::to_string(header_line + 2)));
  }
  CHECK(saved(target) == target_before);
  CHECK(gen2 == gen2_before);
  CHECK(env2 == env2_before);

  // A field error in the second block names it and its line (the policy's block is intact).
  const std::size_t second = text.find("sabandit-state 1 xoshiro256pp");
  const std::string first_block = text.substr(0, second);
  const std::string second_block = text.substr(second, third - second);
  std::istringstream bad(first_block + reseal(replaced(second_block, "word1 ", "word1 x")) +
                         text.substr(third));
  const auto second_line =
      static_cast<std::size_t>(std::count(first_block.begin(), first_block.end(), '\n')) + 1;
  CHECK_THROWS_WITH(state::restore_all(bad, target, gen2, env2),
                    Catch::Matchers::Contains("word1: 'x") &&
                        Catch::Matchers::Contains("(block 2 of 3 'xoshiro256pp', line " +
                                                  std::to_string(second_line + 2) + ")"));
  CHECK(saved(target) == target_before);
  CHECK(gen2 == gen2_before);

  std::istringstream whole(text);
  state::restore_all(whole, target, gen2, env2);
  CHECK(saved(target) == saved(policy));
  CHECK(gen2 == gen);
  CHECK(env2 == env);
}

TEST_CASE("an unreadable stream and an empty one have their own messages", "[state][guarantees]") {
  sabandit::ucb target(2);
  std::ifstream missing("/nonexistent/sabandit.state");
  CHECK_THROWS_WITH(sabandit::state::restore(missing, target),
                    Catch::Matchers::Contains("the input stream is not readable"));
  std::istringstream empty("");
  CHECK_THROWS_WITH(sabandit::state::restore(empty, target), Catch::Matchers::Contains("the stream is empty"));
}

TEST_CASE("restore's messages escape the bytes they quote", "[state][guarantees]") {
  sabandit::ucb target(2);
  std::istringstream escape("\x1b]0;owned\x07\n");
  CHECK_THROWS_WITH(sabandit::state::restore(escape, target),
                    Catch::Matchers::Contains("the first line is '\\x1b]0;owned\\x07'"));
  std::istringstream type(reseal("sabandit-state 1 ucb\x1b[2J\nend 0\n"));
  CHECK_THROWS_WITH(sabandit::state::restore(type, target), Catch::Matchers::Contains("'ucb\\x1b[2J'"));
}


// Issue 20, the probe: restore accepted impossible states once the checksum was recomputed.
TEST_CASE("restore checks the numeric contract: sums and saved rewards beyond 1e150",
          "[state][guarantees]") {
  using namespace sabandit;
  using state::format_error;
  xoshiro256pp gen(3), env(4);
  ucb u(3);
  play(u, gen, env, rewards::gaussian, 30);
  ucb u_target(3);
  check_rejected<format_error>(u_target, with_token(saved(u), "statistics.sums", 1, "1e308"),
                               "the reward sum of arm 0, 1e+308, is not one its");
  // The rounding allowance (models/support.hpp, sum_in_range) is none for one pull: the sum of
  // one reward within 1e150 is within 1e150, and 1e150 (1 + 1e-13) is refused.
  ucb one(1);
  one.update(0, 1e150, gen);
  ucb one_target(1);
  check_rejected<format_error>(
      one_target, with_token(saved(one), "statistics.sums", 1, "1.0000000000001e+150"),
      "the reward sum of arm 0, 1.0000000000001e+150, is not one its 1 rewards in "
      "[-1e+150, 1e+150] can have");
  ts_sa<> sa(4, {.warmup = 2, .window = 3});
  play(sa, gen, env, rewards::gaussian, 40);
  ts_sa<> sa_target(4);
  check_rejected<format_error>(sa_target, with_token(saved(sa), "source.windows.buffer", 2, "1e308"),
                               "has an entry, 1e+308, outside [-1e+150, 1e+150]");
  ts_sgld<> sgld(3);
  play(sgld, gen, env, rewards::gaussian, 30);
  ts_sgld<> sgld_target(3);
  check_rejected<format_error>(sgld_target,
                               with_token(saved(sgld), "source.history.0", 1, "1e308"),
                               "the history of arm 0 holds 1e+308, beyond the reward bound");
}

TEST_CASE("restore rejects statistics that contradict the window, history or posterior",
          "[state][guarantees]") {
  using namespace sabandit;
  using state::format_error;
  xoshiro256pp gen(3), env(4);
  SECTION("TS-SA: a window that has not wrapped holds the arm's rewards") {
    ts_sa<> sa(4, {.warmup = 2, .window = 50});
    play(sa, gen, env, rewards::gaussian, 40);
    ts_sa<> target(4);
    check_rejected<format_error>(target, with_token(saved(sa), "source.windows.buffer", 2, "7.5"),
                                 "the window of arm 0 does not hold the rewards its statistics sum");
  }
  SECTION("TS-SGLD: the history sums to the statistics' sum") {
    ts_sgld<> sgld(3);
    play(sgld, gen, env, rewards::gaussian, 30);
    ts_sgld<> target(3);
    check_rejected<format_error>(target, with_token(saved(sgld), "source.history.1", 1, "7.5"),
                                 "the history of arm 1 does not sum to its statistics' sum");
  }
  // A Python probe forged these, recomputing the checksum: each was restored, and its chains then
  // learned from rewards that update() refuses.
  SECTION("every reward a window or history holds is one the model accepts") {
    ts_sa<bernoulli_model> sa(3, {.window = 4});
    play(sa, gen, env, rewards::bernoulli, 30);
    ts_sa<bernoulli_model> target(3);
    check_rejected<format_error>(target, with_token(saved(sa), "source.windows.buffer", 2, "-1"),
                                 "the window of arm 0 holds a reward the model refuses "
                                 "(invalid argument: reward = -1");
    ts_sgld<poisson_model> sgld(3);
    play(sgld, gen, env, rewards::poisson, 30);
    ts_sgld<poisson_model> sgld_target(3);
    check_rejected<format_error>(sgld_target, with_token(saved(sgld), "source.history.1", 1, "0.5"),
                                 "the history of arm 1 holds a reward the model refuses");
  }
  SECTION("TS: each posterior is the prior updated by the arm's count and sum") {
    gaussian_ts ts(3);
    play(ts, gen, env, rewards::gaussian, 30);
    gaussian_ts target(3);
    check_rejected<format_error>(target, with_token(saved(ts), "posterior.1.sum", 0, "1000"),
                                 "the posterior of arm 1 is not the prior updated");
    check_rejected<format_error>(target,
                                 with_token(saved(ts), "posterior.2.noise_precision", 0, "0.5"),
                                 "the posterior of arm 2 has another noise variance");
    thompson<bernoulli_model> beta(3);
    play(beta, gen, env, rewards::bernoulli, 30);
    thompson<bernoulli_model> beta_target(3);
    check_rejected<format_error>(beta_target, with_token(saved(beta), "posterior.0.alpha", 0, "500"),
                                 "the posterior of arm 0 is not the prior updated");
    epsilon_ts<poisson_model> gamma(3);
    play(gamma, gen, env, rewards::poisson, 30);
    epsilon_ts<poisson_model> gamma_target(3);
    check_rejected<format_error>(gamma_target,
                                 with_token(saved(gamma), "ts.posterior.2.rate", 0, "2"),
                                 "the posterior of arm 2 is not the prior updated");
  }
}

// A policy over a model that declares the interval of its rewards (models/support.hpp) restores
// only sums its counts of such rewards can have: a forged Bernoulli sum above the count or below
// 0 was accepted (UCB-type and conjugate policies keep nothing of the rewards but the sums).
TEST_CASE("restore rejects reward sums outside the model's range", "[state][guarantees]") {
  using namespace sabandit;
  xoshiro256pp gen(3), env(4);
  // `policy` after 30 rounds, its sum of arm `arm` (the `index`-th token of `field`, after the
  // length) forged to `value`, is refused with a message that names them.
  const auto check_sum_refused = [&](auto policy, rewards kind, const std::string& field,
                                     Eigen::Index arm, const std::string& value) {
    auto target = policy;
    play(policy, gen, env, kind, 30);
    const auto index = static_cast<std::size_t>(arm) + 1;
    check_rejected<state::format_error>(target, with_token(saved(policy), field, index, value),
                                        "the reward sum of arm " + std::to_string(arm) + ", " +
                                            value + ", is not one its");
  };
  SECTION("KL-UCB over Bernoulli: a sum in [0, n]") {
    check_sum_refused(kl_ucb<bernoulli_model>(3), rewards::bernoulli, "statistics.sums", 0, "-0.5");
    check_sum_refused(kl_ucb<bernoulli_model>(3), rewards::bernoulli, "statistics.sums", 1, "1000");
  }
  SECTION("TS over Poisson: before its posterior is compared with the sum") {
    check_sum_refused(thompson<poisson_model>(3), rewards::poisson, "statistics.sums", 1, "-3");
  }
  SECTION("TS and TS-SA over Poisson: a sum of counts is a whole number") {
    check_sum_refused(thompson<poisson_model>(3), rewards::poisson, "statistics.sums", 1, "2.5");
    check_sum_refused(ts_sa<poisson_model>(3), rewards::poisson, "statistics.sums", 0, "30.5");
  }
  SECTION("epsilon-TS over exponential durations") {
    check_sum_refused(epsilon_ts<exponential_model>(3), rewards::exponential,
                      "ts.statistics.sums", 2, "-1");
  }
  SECTION("KL-UCB over exponential durations: an arm with rewards has a positive sum") {
    check_sum_refused(kl_ucb<exponential_model>(3), rewards::exponential, "statistics.sums", 1,
                      "0");
  }
  SECTION("TS-SA over Bernoulli, whose windows have wrapped and no longer hold the sum") {
    check_sum_refused(ts_sa<bernoulli_model>(3, {.window = 2}), rewards::bernoulli,
                      "statistics.sums", 2, "1000");
  }
  SECTION("the message states the range") {
    kl_ucb<bernoulli_model> policy(2);
    for (int t = 0; t < 20; ++t) policy.update(t % 2, 1.0, gen);
    kl_ucb<bernoulli_model> target(2);
    check_rejected<state::format_error>(
        target, with_token(saved(policy), "statistics.sums", 1, "10.5"),
        "the reward sum of arm 0, 10.5, is not one its 10 rewards in [0, 1] can have");
  }
  SECTION("the message states what the range declares") {
    thompson<poisson_model> counts(1);
    for (int t = 0; t < 4; ++t) counts.update(0, 2.0, gen);
    thompson<poisson_model> counts_target(1);
    check_rejected<state::format_error>(
        counts_target, with_token(saved(counts), "statistics.sums", 1, "7.5"),
        "the reward sum of arm 0, 7.5, is not one its 4 whole-number rewards in [0, 1e+150] can "
        "have");
    kl_ucb<exponential_model> durations(1);
    durations.update(0, 0.25, gen);
    kl_ucb<exponential_model> durations_target(1);
    check_rejected<state::format_error>(
        durations_target, with_token(saved(durations), "statistics.sums", 1, "0"),
        "the reward sum of arm 0, 0, is not one its 1 rewards in (0, 1e+150] can have");
  }
  SECTION("a sum at the edge of the range restores") {
    kl_ucb<bernoulli_model> policy(2);
    for (int t = 0; t < 20; ++t) policy.update(t % 2, t % 2 == 0 ? 1.0 : 0.0, gen);
    kl_ucb<bernoulli_model> target(2);
    std::istringstream in(saved(policy));
    state::restore(in, target);
    CHECK(saved(target) == saved(policy));
  }
}

// An independent probe's findings (2026-11-29), each a forged state that restored.
TEST_CASE("restore bounds the counts so that the pulls after it count, and checks the total in "
          "integers", "[state][guarantees]") {
  using namespace sabandit;
  xoshiro256pp gen(3);
  ucb policy(3);
  for (int t = 0; t < 6; ++t) policy.update(t % 3, 0.5, gen);
  const std::string good = saved(policy);  // counts 2 2 2, total 6
  ucb target(3);
  // A count of 2^53 no longer grows by 1 (it was accepted, and the next checkpoint refused).
  check_rejected<state::format_error>(
      target,
      with_token(with_token(good, "statistics.counts", 1, "9007199254740992"), "statistics.total",
                 0, "9007199254740996"),
      "outside [0, 4503599627370496]");
  // 2^52 + 2^52 + 1 is 2^53 + 1, which a double rounds to 2^53: a total of 2^53 matched the
  // counts' sum as doubles (a probe's 1,024 counts of 2^53 matched a total of 2^63 - 1, and the
  // next ++total overflowed).
  std::string edge = with_token(good, "statistics.counts", 1, "4503599627370496");
  edge = with_token(edge, "statistics.counts", 2, "4503599627370496");
  edge = with_token(edge, "statistics.counts", 3, "1");
  check_rejected<state::format_error>(
      target, with_token(edge, "statistics.total", 0, "9007199254740992"),
      "total must be the sum of the counts");
  // The genuine total restores, and the next pulls count.
  std::istringstream in(with_token(edge, "statistics.total", 0, "9007199254740993"));
  state::restore(in, target);
  target.update(2, 0.5, gen);
  CHECK(target.statistics().count(2) == 2.0);
  CHECK(target.statistics().total() == 9007199254740994LL);
  CHECK(saved(target).find("statistics.total 9007199254740994") != std::string::npos);
}

TEST_CASE("restore refuses a normal posterior's noise precision no noise variance has",
          "[state][guarantees]") {
  using namespace sabandit;
  xoshiro256pp gen(3), env(4);
  thompson<gaussian_model> policy(3);
  play(policy, gen, env, rewards::gaussian, 30);
  thompson<gaussian_model> target(3);
  // sigma^2 in [1e-100, 1e100]: 5e-324 made every posterior mean infinite, 1e300 every draw
  // greedy.
  for (const char* precision : {"5e-324", "1e+300"}) {
    check_rejected<state::format_error>(
        target, with_token(saved(policy), "posterior.0.noise_precision", 0, precision),
        "noise precision in [1e-100, 1e100]");
  }
}

TEST_CASE("restore checks a wrapped TS-SA window's running sum against its rewards",
          "[state][guarantees]") {
  using namespace sabandit;
  xoshiro256pp gen(3), env(4);
  // A window of B = 4 wraps after 4 pulls; 60 rounds wrap every arm's. The running sum is then
  // unconstrained by the statistics: a forged one of -1e6 starved the best arm without an error.
  const auto refused = [&](auto policy, rewards kind, const std::string& value) {
    auto target = policy;
    play(policy, gen, env, kind, 60);
    REQUIRE(policy.statistics().count(1) > 4.0);
    check_rejected<state::format_error>(
        target, with_token(saved(policy), "source.windows.sums", 2, value),
        "inconsistent state: the window of arm 1 has the running sum " + value);
  };
  SECTION("Bernoulli") {
    for (const char* value : {"-1", "-1e+06", "1e+06", "4.5"})
      refused(ts_sa<bernoulli_model>(3, {.window = 4}), rewards::bernoulli, value);
  }
  SECTION("Poisson: also a sum that is not whole") {
    for (const char* value : {"-1", "0.5"})
      refused(ts_sa<poisson_model>(3, {.window = 4}), rewards::poisson, value);
  }
  SECTION("exponential") {
    refused(ts_sa<exponential_model>(3, {.window = 4}), rewards::exponential, "-1");
  }
  SECTION("the arm's statistics hold at least its window") {
    ts_sa<bernoulli_model> policy(1, {.window = 3});
    for (int t = 0; t < 5; ++t) policy.update(0, 1.0, gen);
    ts_sa<bernoulli_model> target(1, {.window = 3});
    check_rejected<state::format_error>(
        target, with_token(saved(policy), "statistics.sums", 1, "0"), "cannot have");
  }
}

// The allowance of the check above is the rounding a genuine running sum can have: states
// saved along long runs whose sums round (fractional Bernoulli rewards; durations from 1e-10 to
// 1e100, whose running sum cancels to 0 where the window holds only small ones) all restore.
TEST_CASE("genuine wrapped TS-SA windows restore along long runs", "[state][guarantees]") {
  using namespace sabandit;
  xoshiro256pp gen(5), env(6);
  const auto check_run = [&](auto policy, auto draw) {
    for (int t = 1; t <= 3000; ++t) {
      const Eigen::Index arm = policy.select(gen);
      policy.update(arm, draw(arm, t), gen);
      if (t % 97 == 0) {
        auto target = policy;
        std::istringstream in(saved(policy));
        REQUIRE_NOTHROW(state::restore(in, target));
      }
    }
  };
  check_run(ts_sa<bernoulli_model>(3, {.window = 27}),
            [&](Eigen::Index arm, int) { return uniform01(env) * (0.3 + 0.2 * double(arm)); });
  check_run(ts_sa<exponential_model>(2, {.window = 5}), [&](Eigen::Index, int t) {
    return t % 11 == 0 ? 1e100 : 1e-10 * (1.0 + uniform01(env));
  });
  check_run(ts_sa<poisson_model>(2, {.window = 7}),
            [&](Eigen::Index arm, int) { return poisson_variate(2.0 + double(arm), env); });
}

TEST_CASE("restore names invalid saved parameters as a format error of the block",
          "[state][guarantees]") {
  using namespace sabandit;
  xoshiro256pp gen(3), env(4);
  ts_sa<> policy(3);
  play(policy, gen, env, rewards::gaussian, 20);
  ts_sa<> target(3);
  // The constructor's own message, inside restore's: the caller that catches format_error for a
  // bad checkpoint catches this too.
  check_rejected<state::format_error>(
      target, with_token(saved(policy), "params.step_size", 0, "-1"),
      "its parameters are invalid: step_size (h) = -1");
}

TEST_CASE("restore rejects a ts_sa<poisson_model> iterate that would make every round throw",
          "[state][guarantees]") {
  using namespace sabandit;
  xoshiro256pp gen(3), env(4);
  ts_sa<poisson_model> policy(3);
  play(policy, gen, env, rewards::poisson, 30);
  ts_sa<poisson_model> target(3);
  check_rejected<state::format_error>(target, with_token(saved(policy), "theta", 2, "1000"),
                                      "the model's mean at the iterate of arm 0 is inf");
}

TEST_CASE("restore bounds the work of the next round (bounds::round_work)", "[state][guarantees]") {
  using namespace sabandit;
  using state::format_error;
  xoshiro256pp gen(3), env(4);
  // The identity metric: in the Fisher metric, N = 1e8 inner steps is already a Newton gain of
  // 1e8, which the constructor refuses before the round's work is counted.
  ts_sa<> sa(3, {.window = 4, .metric = step_metric::identity});
  play(sa, gen, env, rewards::gaussian, 20);
  ts_sa<> sa_target(3);
  check_rejected<format_error>(sa_target, with_token(saved(sa), "params.inner_steps", 0, "100000000"),
                               "next round would compute 400000000 gradient terms");
  using horizon = ts_sa<gaussian_model, horizon_schedule>;
  horizon h(3, {.warmup = 2, .sa_schedule = horizon_schedule(50)});
  play(h, gen, env, rewards::gaussian, 20);
  horizon h_target(3, {.sa_schedule = horizon_schedule(10)});
  check_rejected<format_error>(h_target,
                               with_token(saved(h), "params.sa_schedule.horizon", 0, "1000000000000"),
                               "beyond bounds::round_work");
  ts_sgld<> sgld(3, {.batch_size = 4});
  play(sgld, gen, env, rewards::gaussian, 20);
  ts_sgld<> sgld_target(3);
  check_rejected<format_error>(sgld_target,
                               with_token(saved(sgld), "params.batch_size", 0, "100000000"),
                               "beyond bounds::round_work");
  check_rejected<format_error>(sgld_target,
                               with_token(saved(sgld), "params.inner_steps", 0, "100000000"),
                               "x arms), beyond bounds::round_work");
}

// Issue 20: a missing checkpoint file was reported as "the stream is empty". The file helpers
// name the path and the system's reason, and replace a checkpoint only once it is complete.
// Newcomer's run: the trailer named the type expected as if it were the block's.
TEST_CASE("a state of another type names both types, and the trailer neither", "[state][errors]") {
  using namespace sabandit;
  std::stringstream text;
  state::save(text, ts_sa<bernoulli_model>(2));
  thompson<bernoulli_model> other(2);
  const std::string before = saved(other);
  CHECK_THROWS_MATCHES(state::restore(text, other), state::format_error,
                       Catch::Matchers::Message(
                           "sabandit: cannot restore the saved state: the state is of type "
                           "'ts_sa<bernoulli,polynomial_decay>', not 'thompson<bernoulli>' "
                           "(line 1)"));
  CHECK(saved(other) == before);
}

TEST_CASE("checkpoint files: a missing file is named as such, a save replaces the file whole",
          "[state][guarantees]") {
  namespace fs = std::filesystem;
  using namespace sabandit;
  const fs::path dir = fs::temp_directory_path() / "sabandit_state_files";
  fs::remove_all(dir);
  fs::create_directories(dir);
  xoshiro256pp gen(3), env(4);
  ts_sa<> policy(3, {.window = 4});
  play(policy, gen, env, rewards::gaussian, 30);

  ts_sa<> target(3);
  xoshiro256pp gen2(1);
  const std::string before = saved(target);
  CHECK_THROWS_WITH(state::restore_file(dir / "none.state", target, gen2),
                    Catch::Matchers::Contains("cannot open the checkpoint file") &&
                        Catch::Matchers::Contains("none.state") &&
                        Catch::Matchers::Contains("No such file or directory"));
  CHECK(saved(target) == before);

  state::save_file(dir / "a.state", policy, gen);
  // Restoring fewer objects than the file holds (the engine forgotten): refused, naming the
  // block left over, and the policy unchanged; a stream's restore_all reads the first ones.
  CHECK_THROWS_WITH(state::restore_file(dir / "a.state", target),
                    Catch::Matchers::Contains("holds more than the 1 block(s) asked for") &&
                        Catch::Matchers::Contains("is 'sabandit-state 1 xoshiro256pp'"));
  CHECK(saved(target) == before);
  {
    std::ifstream in(dir / "a.state");
    ts_sa<> first(3);
    state::restore_all(in, first);
    CHECK(saved(first) == saved(policy));
  }
  state::restore_file(dir / "a.state", target, gen2);
  CHECK(saved(target) == saved(policy));
  CHECK(gen2 == gen);
  // Blank lines after the last block are not a block.
  {
    std::ofstream(dir / "a.state", std::ios::app) << "\n  \n";
  }
  ts_sa<> again(3);
  xoshiro256pp gen3(9);
  state::restore_file(dir / "a.state", again, gen3);
  CHECK(gen3 == gen);

  // A save that cannot be written or put in place leaves what was there, and no temporary file.
  // The message names the path passed, not only the temporary (a newcomer's finding).
  const std::string missing = (dir / "missing" / "b.state").string();
  CHECK_THROWS_WITH(state::save_file(dir / "missing" / "b.state", policy, gen),
                    Catch::Matchers::Contains("No such file or directory") &&
                        Catch::Matchers::Contains("file " + missing + " (through its temporary " +
                                                  missing + ".tmp-"));
  fs::create_directory(dir / "c.state");  // a rename cannot replace a folder
  CHECK_THROWS_WITH(state::save_file(dir / "c.state", policy, gen),
                    Catch::Matchers::Contains("cannot replace the checkpoint file"));
  CHECK(fs::is_directory(dir / "c.state"));
  // A folder where the checkpoint should be: named, as a missing file is (it read as a damaged
  // checkpoint, "reading the stream failed", without the path: a probe's finding).
  CHECK_THROWS_WITH(state::restore_file(dir / "c.state", target, gen2),
                    Catch::Matchers::Contains("cannot read the checkpoint file") &&
                        Catch::Matchers::Contains("c.state") &&
                        Catch::Matchers::Contains("Is a directory"));
  CHECK(saved(target) == saved(policy));
  const auto files = std::distance(fs::directory_iterator(dir), fs::directory_iterator{});
  CHECK(files == 2);  // a.state and the folder
  fs::remove_all(dir);
}
