// contextual_benchmark's job on the committed digits excerpt (T = 300): it
// tunes on permutations disjoint from the reported ones, writes every file it promises, and
// gives the same regrets for any thread count. The full job is not run here.
#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "contextual_benchmark/job.hpp"
#include "support/catch.hpp"
#include "support/files.hpp"

namespace fs = std::filesystem;
using test_files::slurp;

namespace {

/// LinUCB and the uniform reference on the excerpt, 3 permutations, 1 for each candidate.
repro::contextual_options small_run(const fs::path& data, const fs::path& out, unsigned threads) {
  repro::contextual_options o;
  o.common.out = out;
  o.common.threads = threads;
  o.common.plots = false;
  o.common.record_points = 10;
  o.trials = 3;
  o.tune_trials = 1;
  o.data = data;
  o.datasets = {"digits"};
  o.policies = {"LinUCB", "uniform"};
  o.args = {"--datasets", "digits"};
  return o;
}

/// A CSV without its last column (ns per round, the machine's).
std::string without_last_column(const std::string& csv) {
  std::istringstream in(csv);
  std::string line;
  std::string kept;
  while (std::getline(in, line)) kept += line.substr(0, line.rfind(',')) + "\n";
  return kept;
}

}  // namespace

TEST_CASE("contextual: a small run on the digits excerpt writes its files", "[reproduce][contextual]") {
  const auto data = test_files::scratch("contextual_data");
  fs::create_directories(data);
  fs::copy_file(SABANDIT_TEST_DATA_DIR "/digits_excerpt.csv", data / "digits.csv");
  const auto out1 = test_files::scratch("contextual_out1");
  const auto out2 = test_files::scratch("contextual_out2");
  const auto result = repro::run_contextual(small_run(data, out1, 1));
  (void)repro::run_contextual(small_run(data, out2, 3));

  for (const char* file : {"contextual.md", "contextual.csv", "contextual_curves.csv", "contextual_tuning.csv",
                           "contextual_trials.csv"}) {
    INFO(file);
    CHECK(fs::exists(out1 / file));
  }
  const std::string md = slurp(out1 / "contextual.md");
  CHECK(md.find("Command: `contextual_benchmark --datasets digits`") != std::string::npos);
  CHECK(md.find("| policy | digits T/10 | digits T |") != std::string::npos);
  CHECK(md.find("| digits | 300 | 65 | 10 | 300 (T/10 = 30) | LinUCB | alpha = ") != std::string::npos);
  CHECK(result.table == md);
  CHECK(result.policy_rounds == (5 * 1 + 3 + 3) * 300);

  // Tuning: LinUCB's five candidates, one chosen; uniform has nothing to tune.
  const std::string tuning = slurp(out1 / "contextual_tuning.csv");
  CHECK(std::count(tuning.begin(), tuning.end(), '\n') == 6);
  CHECK(tuning.find("digits,LinUCB,alpha = 0.01,1,") != std::string::npos);
  std::istringstream rows(tuning);
  int chosen = 0;
  for (std::string row; std::getline(rows, row);) chosen += row.ends_with(",1") ? 1 : 0;
  CHECK(chosen == 1);

  // Everything but the wall time is the same on 1 and 3 threads.
  CHECK(slurp(out1 / "contextual_curves.csv") == slurp(out2 / "contextual_curves.csv"));
  CHECK(slurp(out1 / "contextual_tuning.csv") == slurp(out2 / "contextual_tuning.csv"));
  CHECK(slurp(out1 / "contextual_trials.csv") == slurp(out2 / "contextual_trials.csv"));
  // Each permutation's regret: a row per policy and trial.
  const std::string trials = slurp(out1 / "contextual_trials.csv");
  CHECK(std::count(trials.begin(), trials.end(), '\n') == 1 + 2 * 3);
  CHECK(trials.find("digits,uniform,2,") != std::string::npos);
  CHECK(without_last_column(slurp(out1 / "contextual.csv")) ==
        without_last_column(slurp(out2 / "contextual.csv")));
}

TEST_CASE("contextual: bad names and missing data are reported", "[reproduce][contextual]") {
  const auto out = test_files::scratch("contextual_bad");
  auto o = small_run("/nonexistent", out, 1);
  CHECK_THROWS_WITH(repro::run_contextual(o), Catch::Contains("cannot read /nonexistent/digits.csv (run scripts/contextual-data"));
  o.datasets = {"iris"};
  CHECK_THROWS_WITH(repro::run_contextual(o), "--datasets: unknown name 'iris'; valid: shuttle, satellite, digits");
  o.datasets = {"digits"};
  o.policies = {"UCB"};
  CHECK_THROWS_AS(repro::run_contextual(o), repro::usage_error);
}
