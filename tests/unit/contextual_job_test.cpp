// The contextual job through the command line, on the committed digits excerpt (T = 300): it
// tunes on permutations disjoint from the reported ones, writes every file it promises, and
// gives the same regrets for any thread count. The full job is not run here.
#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "reproduce_paper/cli.hpp"
#include "support/catch.hpp"
#include "support/files.hpp"

namespace fs = std::filesystem;
using test_files::slurp;

namespace {

int run(const std::vector<std::string>& args, std::string& out) {
  std::ostringstream o;
  std::ostringstream e;
  const int status = repro::run_cli(args, o, e);
  out = o.str() + e.str();
  return status;
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
  const std::vector<std::string> common{"contextual", "--data", data.string(), "--datasets", "digits",
                                        "--policies", "LinUCB,uniform", "--trials", "3",
                                        "--tune-trials", "1", "--no-plots", "--record-points", "10"};
  auto args = common;
  args.insert(args.end(), {"--threads", "1", "--out", out1.string()});
  std::string said;
  REQUIRE(run(args, said) == 0);
  args = common;
  args.insert(args.end(), {"--threads", "3", "--out", out2.string()});
  std::string said2;
  REQUIRE(run(args, said2) == 0);

  for (const char* file : {"contextual.md", "contextual.csv", "contextual_curves.csv", "contextual_tuning.csv"}) {
    INFO(file);
    CHECK(fs::exists(out1 / file));
  }
  const std::string md = slurp(out1 / "contextual.md");
  CHECK(md.find("Command: `reproduce_paper contextual --data") != std::string::npos);
  CHECK(md.find("| policy | digits T/10 | digits T |") != std::string::npos);
  CHECK(md.find("| digits | 300 | 65 | 10 | 300 (T/10 = 30) | LinUCB | alpha = ") != std::string::npos);
  CHECK(said.find("contextual: ") != std::string::npos);

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
  CHECK(without_last_column(slurp(out1 / "contextual.csv")) ==
        without_last_column(slurp(out2 / "contextual.csv")));
}

TEST_CASE("contextual: bad names and missing data are reported", "[reproduce][contextual]") {
  const auto out = test_files::scratch("contextual_bad");
  std::string said;
  CHECK(run({"contextual", "--datasets", "iris", "--out", out.string()}, said) == 2);
  CHECK(said.find("--datasets: unknown name 'iris'; valid: shuttle, satellite, digits") != std::string::npos);
  CHECK(run({"contextual", "--data", "/nonexistent", "--datasets", "digits", "--out", out.string()}, said) == 1);
  CHECK(said.find("cannot read /nonexistent/digits.csv (run scripts/contextual-data") != std::string::npos);
  CHECK(run({"contextual", "--policies", "UCB", "--out", out.string()}, said) == 2);
  CHECK(said.find("--policies: unknown name 'UCB'") != std::string::npos);
}
