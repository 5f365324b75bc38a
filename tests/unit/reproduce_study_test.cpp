// The study job (docs/ts-sa-study.md) and the preset it chose: the per-trial facts it reads,
// the tables it writes, and what the preset's comment promises about its SA iterate.
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "reproduce_paper/study.hpp"
#include "support/catch.hpp"
#include "support/files.hpp"
#include "support/stat_checks.hpp"

namespace fs = std::filesystem;
using test_files::slurp;

namespace {

/// Always plays one arm: its trial's regret, linear growth and starvation are known exactly.
struct fixed_arm {
  Eigen::Index arms;
  Eigen::Index arm;
  [[nodiscard]] Eigen::Index num_arms() const { return arms; }
  template <class URBG>
  [[nodiscard]] Eigen::Index select(URBG&) const {
    return arm;
  }
  template <class URBG>
  void update(Eigen::Index, double, URBG&) {}
};
static_assert(sabandit::Policy<fixed_arm>);

/// Arm 0, then the best arm 3, alternately.
struct alternate {
  Eigen::Index t = 0;
  [[nodiscard]] Eigen::Index num_arms() const { return 4; }
  template <class URBG>
  [[nodiscard]] Eigen::Index select(URBG&) {
    return t++ % 2 == 0 ? 0 : 3;
  }
  template <class URBG>
  void update(Eigen::Index, double, URBG&) {}
};

}  // namespace

// The per-trial records are the library's (sim_test.cpp checks them); these check the tests the
// study and problems jobs apply to them.
TEST_CASE("recorded trials: linear growth and starvation told from learning", "[reproduce]") {
  const auto env = sabandit::make_sgr({.num_arms = 4, .gap = 0.5});
  const sabandit::run_config config{.horizon = 101, .trials = 3, .seed = 5, .threads = 2, .record_points = 7};
  // SGR puts the best arm last: arm 0 has gap 0.5, arm 3 none.
  const auto wrong = repro::run_tracked(env, 0.5, [] { return fixed_arm{4, 0}; }, config, sabandit::no_progress{}, 10);
  const auto right = repro::run_tracked(env, 0.5, [] { return fixed_arm{4, 3}; }, config, sabandit::no_progress{}, 10);
  REQUIRE(wrong.curve.trial_rounds == sabandit::recorded_rounds(101, 10));
  for (std::size_t r = 0; r < 3; ++r) {
    CHECK(wrong.curve.per_trial[r].regret_half == Approx(0.5 * 50));  // T/2 = 50 rounds
    CHECK(right.curve.per_trial[r].optimal_late == 51);
    CHECK(wrong.linear(wrong.curve.per_trial[r]));
    CHECK(wrong.starved(wrong.curve.per_trial[r]));
    CHECK_FALSE(right.linear(right.curve.per_trial[r]));
    CHECK_FALSE(right.starved(right.curve.per_trial[r]));
  }
  CHECK(wrong.count(&repro::tracked_run::linear) == 3);
  CHECK(wrong.worst() == Approx(50.5));
  CHECK(wrong.median() == Approx(50.5));
  // Half the late pulls on the best arm is linear (the bound is >=), more than half is not.
  const auto half = repro::run_tracked(env, 0.5, [] { return alternate{}; },
                                       {.horizon = 100, .trials = 1, .record_points = 1}, sabandit::no_progress{}, 0);
  // Rounds 51..100: 25 on arm 0 (regret 12.5) = (0.5 / 2) x 50: linear, but not starved (25 x 4 > 50).
  CHECK(half.linear(half.curve.per_trial[0]));
  CHECK_FALSE(half.starved(half.curve.per_trial[0]));
}

TEST_CASE("study job: every section's table, the selection and the evaluation; same bytes on any thread count",
          "[reproduce]") {
  repro::study_options o;
  o.common.out = test_files::scratch("reproduce_study");
  o.common.plots = false;
  o.common.record_points = 5;
  o.common.threads = 1;
  o.horizon = 40;
  o.trials = 2;
  o.trial_points = 4;
  const auto result = repro::run_study(o);
  for (const auto& section : repro::study_sections()) {
    CHECK(result.table.find("\n## " + section.name + ": ") != std::string::npos);
    for (const auto& v : section.variants) CHECK(result.table.find("| " + v.label + " |") != std::string::npos);
  }
  for (const char* heading : {"\n## frozen: ", "\n## selection: ", "\n## evaluation: "}) {
    CHECK(result.table.find(heading) != std::string::npos);
  }
  // Exactly one candidate is chosen, and it is one of the candidates.
  CHECK(result.table.find("**yes**") == result.table.rfind("**yes**"));
  bool known = false;
  for (const auto& c : repro::preset_candidates()) known = known || c.label == result.chosen;
  CHECK(known);
  // The evaluation has a row per Figure 1 setting; without --tuned, no tuned column.
  for (const auto& where : repro::figure1_grid()) {
    CHECK(result.table.find("| " + where.title() + " | ") != std::string::npos);
  }
  CHECK(result.table.find("tuned per setting") == std::string::npos);
  const auto csv = slurp(o.common.out / "study.csv");
  CHECK(csv.rfind("section,variant,setting,", 0) == 0);
  o.common.threads = 2;
  (void)repro::run_study(o);
  CHECK(slurp(o.common.out / "study.csv") == csv);
}

TEST_CASE("the study's evaluation adds the per-setting tuned TS-SA from a tune file", "[reproduce]") {
  const auto dir = test_files::scratch("reproduce_study_tuned");
  fs::create_directories(dir);
  repro::grid_params tuned;
  auto p = repro::suite_params{};
  p.sa.step_size = 0.25;
  tuned.set_section({10, 0.5}, p);
  std::ofstream(dir / "tuned.txt") << tuned.to_text();
  repro::study_options o;
  o.common.out = dir / "out";
  o.common.plots = false;
  o.horizon = 30;
  o.trials = 2;
  o.tuned_params = (dir / "tuned.txt").string();
  CHECK(repro::run_study(o).table.find("| TS-SA, tuned per setting (paper protocol) |") != std::string::npos);
  // A section for a setting outside Figure 1 is refused before any computing.
  tuned.set_section({7, 0.5}, p);
  std::ofstream(dir / "tuned.txt") << tuned.to_text();
  CHECK_THROWS_WITH(repro::run_study(o), Catch::Contains("[K = 7, gap = 0.5] matches no setting"));
}

TEST_CASE("the robust preset's iterate is the running mean of the rewards plus noise of variance 2/(h n)",
          "[reproduce][statistical]") {
  // ts_sa.hpp: with gamma_n = 1/(h n), B = 1 and unit noise variance, an update after n pulls is
  //   theta <- theta + (X_n - theta) / n + sqrt(2 / h) / n xi,   xi ~ N(0, 1)   (Alg. 1 lines 8-9),
  // from the warm start theta = mean of the Omega warm-up rewards. So theta = m + e, with m the
  // noiseless recursion on the same rewards and e ~ N(0, v),
  //   v_{n+1} = (1 - 1/n)^2 v_n + (2 / h) / n^2.
  // Over 400 independent chains, z = e / sqrt(v) is N(0, 1): its mean is within 5 / sqrt(400)
  // of 0 and its variance within 5 sd of 1 (the sample variance of 400 normals has sd
  // sqrt(2 / 399) = 0.071), at five sigma both (stat_checks.hpp).
  const auto preset = sabandit::ts_sa<>::params::robust();
  CHECK(preset.sa_schedule.c1() == 1.0);
  CHECK(preset.sa_schedule.c2() == preset.step_size);
  CHECK(preset.sa_schedule.c3() == 0.0);
  CHECK(preset.sa_schedule.alpha() == 1.0);
  REQUIRE(preset.window == 1);
  const double h = preset.step_size;
  const Eigen::Index pulls = 300;
  const int chains = 400;
  std::vector<double> rewards(static_cast<std::size_t>(pulls));
  auto reward_gen = sabandit::make_stream(11, 0, 99);
  for (auto& x : rewards) x = 3.0 + sabandit::standard_normal(reward_gen);
  double m = 0.0, v = 0.0;
  for (Eigen::Index n = 1; n <= pulls; ++n) {
    const double x = rewards[static_cast<std::size_t>(n - 1)];
    if (n <= preset.warmup) {
      m += x / static_cast<double>(preset.warmup);  // the warm start: the warm-up's mean
    } else {
      const auto k = static_cast<double>(n - 1);  // pulls before this one; the window holds X_k
      const double previous = rewards[static_cast<std::size_t>(n - 2)];
      m += (previous - m) / k;
      v = (1.0 - 1.0 / k) * (1.0 - 1.0 / k) * v + 2.0 / h / (k * k);
    }
  }
  double sum = 0.0, sum_sq = 0.0;
  for (int c = 0; c < chains; ++c) {
    sabandit::ts_sa<> policy(2, preset);
    auto gen = sabandit::make_stream(2026, static_cast<std::uint64_t>(c), 1);
    for (const double x : rewards) policy.update(0, x, gen);
    const double z = (policy.parameter_estimates()(0, 0) - m) / std::sqrt(v);
    sum += z;
    sum_sq += z * z;
  }
  const double mean = sum / chains;
  const double variance = (sum_sq - chains * mean * mean) / (chains - 1);
  CHECK(std::abs(mean) < sabandit::test::z_five_sigma / std::sqrt(static_cast<double>(chains)));
  CHECK(std::abs(variance - 1.0) < sabandit::test::z_five_sigma * std::sqrt(2.0 / (chains - 1)));
}
