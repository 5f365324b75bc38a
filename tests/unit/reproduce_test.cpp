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

/// A tune run small enough for a unit test: `configs` configurations, halving by `eta` over
/// `rungs` rungs from one trial each, T = `horizon`.
repro::tune_options tiny_tune(const std::string& name, Eigen::Index horizon, Eigen::Index configs,
                              Eigen::Index eta, Eigen::Index rungs, Eigen::Index eval_trials) {
  repro::tune_options o;
  o.common.out = test_files::scratch(name);
  o.common.plots = false;
  o.horizon = horizon;
  o.configs = configs;
  o.initial_trials = 1;
  o.eta = eta;
  o.rungs = rungs;
  o.eval_trials = eval_trials;
  return o;
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
  const auto o = tiny_tune("reproduce_tune", 100, 4, 2, 2, 2);
  const auto result = repro::run_tune(o);
  const auto log = read_csv(o.common.out / "tune.csv");
  REQUIRE(log[0] == std::vector<std::string>{"setting", "policy", "rung", "config", "trials", "mean_final_regret",
                                             "parameters"});
  std::map<std::string, int> trials_per_policy;
  for (std::size_t i = 1; i < log.size(); ++i) trials_per_policy[log[i][1]] += std::stoi(log[i][4]);
  REQUIRE(trials_per_policy.size() == 5);
  for (const auto& [policy, trials] : trials_per_policy) CHECK(trials == 4 * 1 + 2 * 2);
  const auto params = repro::suite_params::from_file((o.common.out / "tuned_params.txt").string());
  CHECK(params.eps_ts.epsilon.has_value());  // tuned, not the 1/K default
  CHECK(params.get("TS-SA.h") > 0.0);
  CHECK(params.get("TS-SA.alpha") != sabandit::polynomial_decay::paper_default().alpha());  // (h, alpha) by default
  CHECK(params.get("TS-SA.tau") == 1.0);
  for (const auto& policy : repro::policy_names) {
    CHECK(result.table.find("| " + policy + " |") != std::string::npos);
  }
  CHECK(result.table.find("evaluation seed: mean ± s.e.") != std::string::npos);
}

TEST_CASE("tune --protocol paper: a search per (K, gap), equal budgets, sections figure1 applies", "[reproduce]") {
  auto o = tiny_tune("reproduce_tune_paper", 60, 3, 3, 2, 0);
  o.per_setting = true;
  const auto result = repro::run_tune(o);
  const auto log = read_csv(o.common.out / "tune.csv");
  // Every (setting, policy) pair spends the same trials: 3 x 1 + 1 x 3.
  std::map<std::string, int> trials;
  for (std::size_t i = 1; i < log.size(); ++i) trials[log[i][0] + "/" + log[i][1]] += std::stoi(log[i][4]);
  REQUIRE(trials.size() == 4 * 5);
  for (const auto& [key, n] : trials) CHECK(n == 3 * 1 + 1 * 3);
  for (const char* id : {"SGR_gap0.1_K10", "SGR_gap0.5_K10", "SGR_gap0.1_K50", "SGR_gap0.5_K50"}) {
    CHECK(trials.count(std::string(id) + "/TS-SA") == 1);
  }
  CHECK(result.table.find("evaluation seed") == std::string::npos);  // --eval-trials 0
  CHECK(result.table.find("| K = 50, gap = 0.1 | TS-SA | h = ") != std::string::npos);
  // The file: four sections, read back exactly, each applied to SGR and MGR of its (K, gap).
  const auto text = slurp(o.common.out / "tuned_params.txt");
  const auto grid = repro::grid_params::from_text(text, "tuned_params.txt");
  REQUIRE(grid.sections.size() == 4);
  CHECK(grid.to_text() == text);
  for (const auto& [key, params] : grid.sections) {
    CHECK(&grid.at({false, key.gap, key.arms}) == &params);
    CHECK(&grid.at({true, key.gap, key.arms}) == &params);
  }
  CHECK(grid.sections[0].second.get("TS.tau") == result.tuned.sections[0].second.get("TS.tau"));
  // figure1 runs with it and records it unchanged.
  repro::figure1_options f;
  f.common.out = test_files::scratch("reproduce_figure1_per_setting");
  f.common.plots = false;
  f.common.record_points = 2;
  f.horizon = 30;
  f.trials = 2;
  f.params = grid;
  (void)repro::run_figure1(f);
  CHECK(slurp(f.common.out / "figure1_params.txt") == text);
  // ... and refuses a section that matches none of its settings.
  f.grid = {{false, 0.5, 10}};
  CHECK_THROWS_WITH(repro::run_figure1(f), Catch::Contains("[K = 10, gap = 0.1] matches no setting of the grid"));
}

TEST_CASE("TS-SA's search spaces: the appendix's (h, alpha), the Experiments section's (h, tau), the wide one",
          "[reproduce]") {
  const auto keys = [](repro::ts_sa_space space) {
    std::vector<std::string> k;
    for (const auto& d : repro::search_space("TS-SA", space)) k.push_back(d.key);
    return k;
  };
  CHECK(keys(repro::ts_sa_space::h_alpha) == std::vector<std::string>{"TS-SA.h", "TS-SA.alpha"});
  CHECK(keys(repro::ts_sa_space::h_tau) == std::vector<std::string>{"TS-SA.h", "TS-SA.tau"});
  CHECK(keys(repro::ts_sa_space::wide) ==
        std::vector<std::string>{"TS-SA.h", "TS-SA.alpha", "TS-SA.tau", "TS-SA.N", "TS-SA.B", "TS-SA.Omega"});
  // The baselines' spaces are the appendix's, whatever TS-SA's.
  for (const auto space : {repro::ts_sa_space::h_alpha, repro::ts_sa_space::wide}) {
    CHECK(repro::search_space("TS-SGLD", space).size() == 2);
    CHECK(repro::search_space("eps-TS", space).size() == 2);
    CHECK(repro::search_space("TS", space).size() == 1);
    CHECK(repro::search_space("UCB", space).size() == 1);
  }
  // The wide space draws integers within its ranges, and the file reads them back.
  auto o = tiny_tune("reproduce_tune_wide", 40, 6, 2, 1, 0);
  o.space = repro::ts_sa_space::wide;
  (void)repro::run_tune(o);
  const auto p = repro::suite_params::from_file((o.common.out / "tuned_params.txt").string());
  CHECK(p.sa.inner_steps >= 1);
  CHECK(p.sa.inner_steps <= 20);
  CHECK(p.sa.window >= 1);
  CHECK(p.sa.window <= 100);
  CHECK(p.sa.warmup >= 1);
  CHECK(p.sa.warmup <= 50);
  const auto alpha = p.sa.sa_schedule.alpha();
  CHECK((alpha >= 0.5 && alpha <= 1.0));
}

TEST_CASE("per-setting parameter files: sections override the base; mistakes name the line", "[reproduce][errors]") {
  const auto grid = repro::grid_params::from_text(
      "TS.tau = 0.5\nUCB.tau = 2\n\n[K = 10, gap = 0.1]  # both reward models\nTS.tau = 0.25\n[K=50,gap=0.5]\n"
      "TS-SA.B = 3\n",
      "p.txt");
  CHECK(grid.base.get("TS.tau") == 0.5);
  CHECK(grid.at({true, 0.1, 10}).get("TS.tau") == 0.25);
  CHECK(grid.at({true, 0.1, 10}).get("UCB.tau") == 2.0);  // from the base
  CHECK(grid.at({false, 0.5, 50}).sa.window == 3);
  CHECK(grid.at({false, 0.5, 10}).get("TS.tau") == 0.5);  // no section: the base
  const auto error = [](const std::string& text) {
    try {
      (void)repro::grid_params::from_text(text, "p.txt");
    } catch (const repro::usage_error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(error("[K = 10]\n").find("p.txt:1: expected a section [K = INT, gap = REAL]") == 0);
  CHECK(error("[K = 1, gap = 0.1]\n").find("K must be an integer >= 2") != std::string::npos);
  CHECK(error("[K = 10, gap = -1]\n").find("gap must be a decimal number > 0") != std::string::npos);
  CHECK(error("[K = 10, gap = 0.1, tau = 1]\n").find("'tau' is not K or gap") != std::string::npos);
  CHECK(error("[K = 10, gap = 0.1]\nTS.tau = 1\n[K = 10, gap = 0.1]\n")
            .find("p.txt:3: section [K = 10, gap = 0.1] already starts on line 1") == 0);
  CHECK(error("[K = 10, gap = 0.1]\nTS.tau = 1\nTS.tau = 2\n").find("p.txt:3: 'TS.tau' is already set on line 2") == 0);
  CHECK(error("TS.tau = 1\n[K = 10, gap = 0.1]\nTS.tau = 2\n") == "accepted");  // a section may override
  CHECK(error("[K = 10, gap = 0.1]\nTS.tau = x\n").find("p.txt:2: TS.tau: 'x' is not a finite decimal number") == 0);
  CHECK(error("[K = 10, gap = 0.1]\nTS-SA.B = 0\n").find("p.txt, section [K = 10, gap = 0.1]: ") == 0);
  // A section's refused key is found by undoing it to the base's value (the library names its
  // own field, temperature): the line of the section's tau, not the base's or the warm-up's.
  CHECK(error("TS.tau = 2\n[K = 10, gap = 0.1]\nTS.warmup = 3\nTS.tau = 0\n")
            .find("(TS.tau, set on line 4)") != std::string::npos);
  // An undoing that makes an error of its own blames nothing (a review's cases): B back to the
  // base's 2^20 beside N = 8 passes N x B's cap; c3 back to 0 beside c2 = 0 is no schedule.
  CHECK(error("TS-SA.B = 1048576\n[K = 10, gap = 0.1]\nTS-SA.B = 1\nTS-SA.N = 8\nTS-SA.h = -1\n")
            .find("step_size (h) = -1 (must be in (0, 1e6]") != std::string::npos);
  CHECK(error("TS-SA.B = 1048576\n[K = 10, gap = 0.1]\nTS-SA.B = 1\nTS-SA.N = 8\nTS-SA.h = -1\n")
            .find("(TS-SA.h, set on line 5)") != std::string::npos);
  const std::string c = error("TS-SA.c1 = 0.5\nTS-SA.c2 = 1\nTS-SA.c3 = 0\n[K = 10, gap = 0.1]\n"
                              "TS-SA.c3 = 1\nTS-SA.c2 = 0\nTS-SA.h = -1\n");
  CHECK(c.find("p.txt, section [K = 10, gap = 0.1]: TS-SA: invalid argument: step_size (h) = -1") == 0);
  CHECK(c.find("(TS-SA.h, set on line 7)") != std::string::npos);
  // A file for one setting only (tune --protocol single, figure1) has no sections.
  CHECK_THROWS_WITH(repro::suite_params::from_text("TS.tau = 1\n[K = 10, gap = 0.1]\n", "p.txt"),
                    Catch::Contains("p.txt:2: sections are for figure1's per-setting parameters"));
}

TEST_CASE("parameter files reject unknown keys with the line", "[reproduce][errors]") {
  const auto path = fs::temp_directory_path() / "sabandit_bad_params.txt";
  std::ofstream(path) << "TS.tau = 0.5\nTS.h = 3\n";
  CHECK_THROWS_WITH(repro::suite_params::from_file(path.string()), Catch::Contains(":2:"));
}
