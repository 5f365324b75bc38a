// The reproduction jobs on tiny configurations: the files they promise, with the right shape.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "reproduce_paper/jobs.hpp"
#include "support/catch.hpp"
#include "support/files.hpp"

namespace fs = std::filesystem;
using test_files::slurp;


namespace {

std::vector<std::vector<std::string>> read_csv(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream cells_in(line);
    std::string cell;
    while (std::getline(cells_in, cell, ',')) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

/// Regret is cumulative: within each (key) group it never decreases with the round.
bool monotone(const std::vector<std::vector<std::string>>& rows) {
  std::map<std::string, double> last;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const std::string key = rows[i][0] + "/" + rows[i][1];
    const double regret = std::stod(rows[i][3]);
    if (last.count(key) && regret < last[key]) return false;
    last[key] = regret;
  }
  return true;
}

}  // namespace

TEST_CASE("figure1 job writes CSV, one plot per setting and a table, reproducibly", "[reproduce]") {
  repro::figure1_options o;
  o.common.out = test_files::scratch("reproduce_figure1");
  o.common.record_points = 10;
  o.common.threads = 1;
  o.horizon = 200;
  o.trials = 3;
  o.grid = {{false, 0.5, 10}, {true, 0.1, 5}};
  const auto result = repro::run_figure1(o);
  const auto rows = read_csv(o.common.out / "figure1.csv");
  REQUIRE(rows.size() == 1 + 2 * 5 * 10);
  CHECK(rows[0] == std::vector<std::string>{"setting", "policy", "round", "mean_regret",
                                            "std_error", "optimal_fraction"});
  for (const auto& row : rows) REQUIRE(row.size() == 6);
  CHECK(monotone(rows));
  CHECK(fs::exists(o.common.out / "figure1_SGR_gap0.5_K10.png"));
  CHECK(fs::exists(o.common.out / "figure1_MGR_gap0.1_K5.png"));
  std::size_t pngs = 0;
  for (const auto& entry : fs::directory_iterator(o.common.out)) {
    pngs += entry.path().extension() == ".png" ? 1U : 0U;
    CHECK(entry.path().extension() != ".tmp");  // nothing half-written is left behind
  }
  CHECK(pngs == 2);
  CHECK(result.table.find("| SGR, gap = 0.5, K = 10 |") != std::string::npos);
  CHECK(result.policy_rounds == 2 * 5 * 200 * 3);

  // Same arguments, another thread count: the same bytes.
  const auto csv = slurp(o.common.out / "figure1.csv");
  const auto png = slurp(o.common.out / "figure1_SGR_gap0.5_K10.png");
  o.common.threads = 2;
  (void)repro::run_figure1(o);
  CHECK(slurp(o.common.out / "figure1.csv") == csv);
  CHECK(slurp(o.common.out / "figure1_SGR_gap0.5_K10.png") == png);
}

TEST_CASE("ablation job covers the appendix's eight parameters", "[reproduce]") {
  repro::ablation_options o;
  o.common.out = test_files::scratch("reproduce_ablation");
  o.common.record_points = 5;
  o.horizon = 100;
  o.trials = 2;
  const auto table = repro::run_ablation(o);
  const auto rows = read_csv(o.common.out / "ablation.csv");
  std::size_t values = 0;
  for (const auto& p : repro::ablation_panels()) {
    values += p.values.size();
    CHECK(fs::exists(o.common.out / ("ablation_" + p.name + ".png")));
    CHECK(table.find("| " + p.name + " |") != std::string::npos);
  }
  CHECK(repro::ablation_panels().size() == 8);
  CHECK(rows.size() == 1 + values * 5);
  CHECK(monotone(rows));
}

TEST_CASE("tune job: same budget per policy, parameters that figure1 reads back", "[reproduce]") {
  repro::tune_options o;
  o.common.out = test_files::scratch("reproduce_tune");
  o.common.plots = false;
  o.horizon = 100;
  o.configs = 4;
  o.initial_trials = 1;
  o.eta = 2;
  o.rungs = 2;
  o.eval_trials = 2;
  const auto table = repro::run_tune(o);
  const auto log = read_csv(o.common.out / "tune.csv");
  std::map<std::string, int> trials_per_policy;
  for (std::size_t i = 1; i < log.size(); ++i) trials_per_policy[log[i][0]] += std::stoi(log[i][3]);
  REQUIRE(trials_per_policy.size() == 5);
  for (const auto& [policy, trials] : trials_per_policy) CHECK(trials == 4 * 1 + 2 * 2);
  const auto params = repro::suite_params::from_file((o.common.out / "tuned_params.txt").string());
  CHECK(params.eps_ts.epsilon.has_value());  // tuned, not the 1/K default
  CHECK(params.get("TS-SA.h") > 0.0);
  for (const auto& policy : repro::policy_names) CHECK(table.find("| " + policy + " |") != std::string::npos);
}

TEST_CASE("parameter files reject unknown keys with the line", "[reproduce][errors]") {
  const auto path = fs::temp_directory_path() / "sabandit_bad_params.txt";
  std::ofstream(path) << "TS.tau = 0.5\nTS.h = 3\n";
  CHECK_THROWS_WITH(repro::suite_params::from_file(path.string()), Catch::Contains(":2:"));
}
