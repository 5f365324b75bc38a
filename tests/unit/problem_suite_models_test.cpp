// The models job on tiny configurations: the same bytes for any thread count, the Lai–Robbins
// constant against a hand computation, the table's shape, and its options on the command line.
#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "problem_suite/cli.hpp"
#include "support/catch.hpp"
#include "support/files.hpp"

namespace fs = std::filesystem;
using test_files::slurp;

namespace {

/// Two settings, one per reward model, small enough for about a second in a Debug build. T =
/// 200 leaves TS-SA 105 rounds after its warm-up (Omega = 19 pulls of each of 5 arms).
repro::models_options tiny_models(const std::string& scratch) {
  repro::models_options o;
  o.common.out = test_files::scratch(scratch);
  o.common.record_points = 10;
  o.horizon = 200;
  o.trials = 3;
  o.grid = {{repro::reward_family::bernoulli, 0.5, 5}, {repro::reward_family::poisson, 0.1, 5}};
  return o;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("models job: the same bytes on 1 and 2 threads", "[reproduce]") {
  auto o = tiny_models("reproduce_models_threads");
  o.common.threads = 1;
  const auto first = repro::run_models(o);
  const auto csv = slurp(o.common.out / "models.csv");
  const auto md = slurp(o.common.out / "models.md");
  const auto png = slurp(o.common.out / "models_Poisson_gap0.1_K5.png");
  CHECK(fs::exists(o.common.out / "models_Bernoulli_gap0.5_K5.png"));
  CHECK(!slurp(o.common.out / "models_params.txt").empty());
  CHECK(first.policy_rounds == 2 * 9 * 200 * 3);
  o.common.threads = 2;
  (void)repro::run_models(o);
  CHECK(slurp(o.common.out / "models.csv") == csv);
  CHECK(slurp(o.common.out / "models.md") == md);
  CHECK(slurp(o.common.out / "models_Poisson_gap0.1_K5.png") == png);
}

TEST_CASE("models job: a row per setting, a column per policy and the bound", "[reproduce]") {
  auto o = tiny_models("reproduce_models_table");
  o.common.plots = false;
  const auto result = repro::run_models(o);
  const auto names = repro::model_policy_names();
  REQUIRE(names == std::vector<std::string>{"UCB", "KL-UCB", "TS", "eps-TS", "TS-SGLD",
                                            "TS-SA (default)", "TS-SA (paper)",
                                            "TS-SA (sabandit GLM setting)", "TS-SA (sabandit robust preset)"});
  const auto lines = lines_of(result.table);
  REQUIRE(lines.size() >= 2 + o.grid.size());
  // Header, separator and one row per setting: 1 + 9 policies + 2 bound columns = 12 cells.
  for (std::size_t i = 0; i < 2 + o.grid.size(); ++i) {
    CHECK(std::count(lines[i].begin(), lines[i].end(), '|') == 13);
  }
  CHECK(lines[0].find("| TS-SA (sabandit robust preset) | Lai–Robbins C | C log T |") != std::string::npos);
  CHECK(lines[2].rfind("| Bernoulli (best 0.9), gap = 0.5, K = 5 |", 0) == 0);
  CHECK(lines[3].rfind("| Poisson (best 3), gap = 0.1, K = 5 |", 0) == 0);
  // The CSV: a header and record_points rows per (setting, policy).
  CHECK(lines_of(slurp(o.common.out / "models.csv")).size() == 1 + 2 * 9 * 10);
  CHECK(!fs::exists(o.common.out / "models_Bernoulli_gap0.5_K5.png"));  // --no-plots
}

TEST_CASE("models job: its options are checked like figure1's", "[reproduce][cli]") {
  const auto run = [](const std::vector<std::string>& args) {
    std::ostringstream out;
    std::ostringstream err;
    const int status = repro::run_problem_suite_cli(args, out, err);
    return std::make_pair(status, err.str());
  };
  const auto zero = run({"models", "-R", "0"});
  CHECK(zero.first == 2);
  CHECK(zero.second.find("--trials must be ≥ 1 (got 0)") != std::string::npos);
  CHECK(run({"models", "-T", "x"}).second.find("--horizon must be an integer (got 'x')") != std::string::npos);
  CHECK(run({"models", "--seed", "-1"}).second.find("--seed must be an integer") != std::string::npos);
  CHECK(run({"models", "--trials", "4611686018427387904"}).second.find("overflows 64 bits") !=
        std::string::npos);
  CHECK(run({"models", "--params", "p.txt"}).first == 2);  // figure1's option only
}
