// The problems job: two disjoint sets of the sizes the issue asks, and a tiny run of each set
// through the command line (T = 200, 2 trials) that writes every file it promises, prints its
// command line, and gives the same CSV for any thread count. The full suite is not run here.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "problem_suite/cli.hpp"
#include "support/catch.hpp"
#include "support/files.hpp"

namespace fs = std::filesystem;
using test_files::slurp;

namespace {

int run(const std::vector<std::string>& args, std::string& out) {
  std::ostringstream o;
  std::ostringstream e;
  const int status = repro::run_problem_suite_cli(args, o, e);
  out = o.str() + e.str();
  return status;
}

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

/// Always plays one arm: its trial's late regret is known exactly.
struct fixed_arm {
  Eigen::Index arm;
  [[nodiscard]] Eigen::Index num_arms() const { return 4; }
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

// The per-trial records are the library's (sim_test.cpp checks them); this checks the test the
// problems job applies to them, with problems.hpp's threshold (half the gap per late round).
TEST_CASE("problems: linear trials are told from learning ones, at the bound's edge too",
          "[reproduce][problems]") {
  // SGR puts the best arm last: arm 0 has gap 0.5, arm 3 none.
  const auto env = sabandit::make_sgr({.num_arms = 4, .gap = 0.5});
  const auto threshold = [](Eigen::Index horizon) {
    return 0.5 * 0.5 * static_cast<double>(horizon - horizon / 2);
  };
  const sabandit::run_config config{.horizon = 101, .trials = 3, .seed = 5, .threads = 2, .record_points = 7};
  const auto wrong = sabandit::simulate(env, [](Eigen::Index) { return fixed_arm{0}; }, config);
  const auto right = sabandit::simulate(env, [](Eigen::Index) { return fixed_arm{3}; }, config);
  CHECK(repro::linear_trials(wrong, threshold(101)) == 3);  // 0.5 per round over 51 rounds
  CHECK(repro::linear_trials(right, threshold(101)) == 0);
  // Rounds 51..100: 25 on arm 0 (regret 12.5) = (0.5 / 2) x 50: half the late pulls on the best
  // arm is linear (the bound is >=), and one fewer pull of arm 0 would not be.
  const sabandit::run_config one{.horizon = 100, .trials = 1, .record_points = 1};
  const auto half = sabandit::simulate(env, [](Eigen::Index) { return alternate{}; }, one);
  REQUIRE(half.per_trial[0].regret - half.per_trial[0].regret_half == Approx(12.5));
  CHECK(repro::linear_trials(half, threshold(100)) == 1);
  CHECK(repro::linear_trials(half, std::nextafter(threshold(100), 13.0)) == 0);
}

TEST_CASE("problems: a small tuning set and a larger evaluation set with no arm mean in common",
          "[reproduce][problems]") {
  const auto tuning = repro::tuning_problems();
  const auto evaluation = repro::evaluation_problems();
  CHECK(tuning.size() >= 2);
  CHECK(tuning.size() <= 4);
  CHECK(evaluation.size() >= 10);
  std::set<double> tuned;
  std::set<std::string> ids;
  for (const auto& p : tuning) {
    tuned.insert(p.means.begin(), p.means.end());
    ids.insert(p.id);
  }
  bool features = false;
  for (const auto& p : evaluation) {
    INFO(p.id);
    for (const double m : p.means) CHECK(tuned.count(m) == 0);
    CHECK(ids.insert(p.id).second);  // ids name the output files: unique across both sets
    CHECK(p.horizon >= 10'000);
    CHECK(p.horizon <= 200'000);
    CHECK(p.smallest_gap() > 0.0);
    features = features || p.dimension > 1;
  }
  CHECK(features);
}

TEST_CASE("problems job runs both sets and writes its files", "[reproduce][problems]") {
  const auto out = test_files::scratch("reproduce_problems");
  std::string said;
  const std::vector<std::string> args{"problems", "--set", "tuning", "--horizon", "200", "--trials", "2",
                                      "--threads", "1", "--record-points", "5", "--out", out.string()};
  REQUIRE(run(args, said) == 0);
  const auto md = slurp(out / "problems.md");
  CHECK(md.find("Command: `problem_suite problems --set tuning --horizon 200") != std::string::npos);
  CHECK(md.find("seed 7;") != std::string::npos);  // the tuning set's own default seed
  CHECK(md.find("Linear trials: ") != std::string::npos);
  const auto tuning = repro::tuning_problems();
  for (const auto& p : tuning) CHECK(fs::exists(out / ("problems_" + p.id + ".png")));
  // One summary row per problem and policy: seven policies where d = 1 and the model is
  // Bernoulli, Poisson or Gaussian, four (both TS-SGLD, both TS-SA) with features.
  std::size_t cells = 0;
  for (const auto& p : tuning) cells += p.dimension == 1 ? 7 : 4;
  const auto csv = slurp(out / "problems.csv");
  CHECK(line_count(csv) == 1 + cells);
  CHECK(line_count(slurp(out / "problems_curves.csv")) == 1 + cells * 5);

  auto again = args;
  again[again.size() - 5] = "2";  // --threads 2
  REQUIRE(run(again, said) == 0);
  CHECK(slurp(out / "problems.csv") == csv);

  const auto eval_out = test_files::scratch("reproduce_problems_evaluation");
  REQUIRE(run({"problems", "--horizon", "200", "--trials", "2", "--no-plots", "--out", eval_out.string()}, said) == 0);
  const auto eval_md = slurp(eval_out / "problems.md");
  CHECK(eval_md.find("the evaluation set") != std::string::npos);
  CHECK(eval_md.find("seed 2026;") != std::string::npos);
  CHECK(eval_md.find("Session length in minutes (exponential") != std::string::npos);
  CHECK(line_count(slurp(eval_out / "problems.csv")) > 1 + 10 * 3);
}
