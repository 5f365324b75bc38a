// reproduce_paper's command line and parameter file: strict numbers, clear range errors,
// checked sizes, --help and --version that run nothing, and an exact rerun from the
// parameters a job writes. The program runs in-process through repro::run_cli.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "reproduce_paper/cli.hpp"
#include "support/catch.hpp"
#include "support/files.hpp"

namespace fs = std::filesystem;
using test_files::slurp;


namespace {

struct outcome {
  int status;
  std::string out;
  std::string err;
};

outcome run(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  const int status = repro::run_cli(args, out, err);
  return {status, out.str(), err.str()};
}

std::string parse_error(const std::string& text) {
  try {
    (void)repro::suite_params::from_text(text, "p.txt");
  } catch (const repro::usage_error& error) {
    return error.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("--help and --version answer without running", "[reproduce][cli]") {
  const auto out = test_files::scratch("cli_help");
  const auto version = run({"--version"});
  CHECK(version.status == 0);
  CHECK(version.out == std::string("reproduce_paper (sabandit ") + SABANDIT_VERSION_STRING + ")\n");
  for (const std::string sub : {"figure1", "ablation", "tune"}) {
    const auto help = run({sub, "--help", "--out", out.string()});
    CHECK(help.status == 0);
    CHECK((help.out.find("--trials") != std::string::npos || sub == "tune"));
    CHECK(run({sub, "--version", "--out", out.string()}).status == 0);
  }
  CHECK_FALSE(fs::exists(out));  // nothing ran, nothing was created
}

TEST_CASE("range errors name the option, the bound and the value", "[reproduce][cli]") {
  CHECK(run({"figure1", "--trials", "-5"}).err.find("--trials must be ≥ 1 (got -5)") != std::string::npos);
  CHECK(run({"figure1", "-R", "0"}).err.find("--trials must be ≥ 1 (got 0)") != std::string::npos);
  CHECK(run({"figure1", "-T", "0"}).err.find("--horizon must be ≥ 1 (got 0)") != std::string::npos);
  CHECK(run({"figure1", "-T", "1.5"}).err.find("--horizon must be an integer (got '1.5')") != std::string::npos);
  CHECK(run({"figure1", "--threads", "-1"}).err.find("--threads must be ≥ 0 (got -1)") != std::string::npos);
  CHECK(run({"figure1", "--record-points", "100001"}).err.find("--record-points must be ≤ 100000") != std::string::npos);
  CHECK(run({"tune", "--gap", "-1"}).err.find("--gap must be > 0 (got -1)") != std::string::npos);
  CHECK(run({"tune", "--gap", "0x1p-2"}).err.find("--gap must be a finite decimal number") != std::string::npos);
  CHECK(run({"tune", "--env", "XGR"}).err.find("--env must be SGR or MGR (got 'XGR')") != std::string::npos);
  const auto bad = run({"figure1", "--trials", "-5"});
  CHECK(bad.status == 2);
  CHECK(bad.err.find("1797693") == std::string::npos);  // no DBL_MAX
}

TEST_CASE("seeds are non-negative integers within 64 bits", "[reproduce][cli]") {
  for (const std::string seed : {"-1", "18446744073709551616", "1e23", "0x10", "12abc", ""}) {
    const auto r = run({"figure1", "--seed", seed});
    CHECK(r.status == 2);
    CHECK(r.err.find("--seed must be an integer in [0, 18446744073709551615] (got '" + seed + "')") !=
          std::string::npos);
  }
  CHECK(repro::parse_unsigned("18446744073709551615") == UINT64_MAX);
  const auto out = test_files::scratch("cli_max_seed");
  const auto r = run({"figure1", "--seed", "18446744073709551615", "-T", "5", "-R", "1", "--no-plots",
                      "--threads", "1", "--out", out.string()});
  CHECK(r.status == 0);
  CHECK(slurp(out / "figure1.md").find("seed 18446744073709551615.") != std::string::npos);
}

TEST_CASE("an unknown subcommand is named, with the valid ones", "[reproduce][cli]") {
  const auto r = run({"figure2"});
  CHECK(r.status == 2);
  CHECK(r.err.find("unknown subcommand 'figure2'; valid subcommands: figure1, ablation, tune\n") != std::string::npos);
  CHECK(run({}).status == 2);
}

TEST_CASE("sizes that overflow 64 bits are errors naming the options, before any output", "[reproduce][cli]") {
  const auto out = test_files::scratch("cli_overflow");
  const std::string big = "4611686018427387904";  // 2^62
  const auto check = [&](std::vector<std::string> args, const std::string& names) {
    args.insert(args.end(), {"--out", out.string(), "--no-plots"});
    const auto r = run(args);
    CHECK(r.status == 2);
    CHECK(r.err.find(names) != std::string::npos);
    CHECK(r.err.find("overflows 64 bits") != std::string::npos);
  };
  check({"figure1", "-R", big}, "--horizon (T) x --trials (R)");
  check({"figure1", "-T", big}, "--horizon (T) x --trials (R)");
  check({"figure1", "-T", "4611686018427387", "-R", "1000"}, "policy-settings");
  check({"figure1", "-T", "1000000000000000000", "-R", "1", "--record-points", "100"},
        "--horizon (T) x --trials (R) x 40 policy-settings");
  check({"tune", "--rungs", "50", "--initial-trials", "1"}, "--initial-trials x --eta^(--rungs - 1)");
  check({"tune", "--configs", big, "--initial-trials", "4"}, "--configs x trials per rung");
  check({"tune", "-T", big}, "--horizon (T)");
  check({"ablation", "-R", big}, "--trials (R)");
  CHECK_FALSE(fs::exists(out));
  CHECK_THROWS_AS(repro::checked_mul(INT64_MAX, 2, "x"), repro::usage_error);
  CHECK_THROWS_AS(repro::checked_add(INT64_MAX, 1, "x"), repro::usage_error);
  CHECK(repro::checked_mul(-3, 4, "x") == -12);
}

TEST_CASE("sizes beyond the library's bound are bad command lines that leave no --out behind",
          "[reproduce][cli][guarantees]") {
  // 10^11 trials fit 64 bits (so the overflow checks above pass them) but not simulate()'s bound
  // of 2^31 doubles of results; the job has created its --out (three new levels) when it finds
  // that out, and must leave the file system as it found it. An existing --out stays, and so
  // does a dangling symbolic link (a review's finding: it was taken for a folder to remove).
  const auto top = test_files::scratch("cli_state_bound");
  const auto out = top / "a" / "b";
  const auto r = run({"figure1", "-R", "99999999999", "--out", out.string(), "--no-plots"});
  CHECK(r.status == 2);
  CHECK(r.err.find("trials = 99999999999") != std::string::npos);
  CHECK(r.err.find("--trials") != std::string::npos);  // the option, beside the library's term
  CHECK(r.err.find("Run with --help") != std::string::npos);
  CHECK_FALSE(fs::exists(top));
  fs::create_directories(out);
  CHECK(run({"ablation", "-R", "99999999999", "--out", out.string(), "--no-plots"}).status == 2);
  CHECK(fs::is_directory(out));
  CHECK(fs::is_empty(out));
  fs::remove_all(top);
  // Through "..": the folders it names are the ones removed, none left beside them.
  const auto dotted = top / "c" / ".." / "d";
  CHECK(run({"figure1", "-R", "99999999999", "--out", dotted.string(), "--no-plots"}).status == 2);
  CHECK_FALSE(fs::exists(top));
  fs::create_directories(top);
  const auto link = top / "link";
  fs::create_symlink(top / "nowhere", link);
  CHECK(run({"figure1", "-R", "99999999999", "--out", link.string(), "--no-plots"}).status != 0);
  CHECK(fs::is_symlink(fs::symlink_status(link)));
  fs::remove_all(top);
}

TEST_CASE("parameter files: every number read whole, keys known and set once", "[reproduce][cli]") {
  CHECK(parse_error("TS.tau = 1,5\n").find("p.txt:1: TS.tau: '1,5' is not a finite decimal number") == 0);
  CHECK(parse_error("TS.tau = 1.5abc\n").find("p.txt:1:") == 0);
  CHECK(parse_error("# c\nTS.tau = 2 3\n").find("p.txt:2: expected one value after '='") == 0);
  CHECK(parse_error("TS.tau extra = 2\n").find("p.txt:1: expected one POLICY.PARAM before '='") == 0);
  CHECK(parse_error("TS.tau = 0x1p-2\n").find("p.txt:1: TS.tau: '0x1p-2' is not a finite decimal number") == 0);
  CHECK(parse_error("TS.tau = inf\n").find("p.txt:1:") == 0);
  CHECK(parse_error("TS.tau = nan\n").find("p.txt:1:") == 0);
  CHECK(parse_error("TS.tau = \n").find("p.txt:1:") == 0);
  CHECK(parse_error("TS.tau = 1 = 2\n").find("p.txt:1:") == 0);
  CHECK(parse_error("TS.tau 1\n").find("p.txt:1: expected POLICY.PARAM = VALUE") == 0);
  CHECK(parse_error("TS.tau = 1\n\nTS.tau = 2\n").find("p.txt:3: 'TS.tau' is already set on line 1") == 0);
  CHECK(parse_error("TS.tau = 1\nTS.h = 3\n").find("p.txt:2: unknown parameter 'TS.h'; valid: TS.tau,") == 0);
  CHECK(parse_error("TS-SA.B = 19.5\n").find("p.txt:1: TS-SA.B: '19.5' is not an integer") == 0);
  CHECK(parse_error("TS-SA.init = sometimes\n").find("p.txt:1:") == 0);
  CHECK(parse_error("TS-SA.alpha = 1.5\n").find("p.txt:1: TS-SA.alpha:") == 0);  // the library's range
  CHECK(parse_error("TS.tau = -1\n").find("p.txt:") == 0);
  CHECK(parse_error("TS.tau = -1\n").find("temperature") != std::string::npos);
  CHECK(parse_error("TS-SA.B = 0\n").find("window") != std::string::npos);
  // A policy's own check names the policy and the line of the key it refuses (it named
  // neither, then every line of the policy's keys), though the library names its own field.
  CHECK(parse_error("TS.tau = 1\n# c\nTS-SA.h = -1\nTS-SA.N = 2\n")
            .find("p.txt: TS-SA: invalid argument: step_size (h) = -1") == 0);
  CHECK(parse_error("TS.tau = 1\n# c\nTS-SA.h = -1\nTS-SA.N = 2\n")
            .find("(TS-SA.h, set on line 3)") != std::string::npos);
  const std::string tau = parse_error("TS.warmup = 2\nTS.tau = -1\nTS.prior_mean = 1\n");
  CHECK(tau.find("temperature = -1") != std::string::npos);
  CHECK(tau.find("(TS.tau, set on line 2)") != std::string::npos);
  // Another policy's mistake does not hide the key: TS's is named while TS-SA's h is refused too.
  CHECK(parse_error("TS-SA.h = -1\nTS.tau = -1\n").find("(TS.tau, set on line 2)") !=
        std::string::npos);
  CHECK(parse_error("TS.prior_variance = inf\n") == "accepted");  // flat, as TS-SA's
  // Sizes allocated K times are bounded before any policy is built (B = 10^9 allocated 16 GB).
  CHECK(parse_error("TS-SA.B = 1000000000\n").find("TS-SA.B = 1000000000 is above 1048576") !=
        std::string::npos);
  CHECK(parse_error("TS-SGLD.batch_size = 1048577\n").find("is above 1048576") != std::string::npos);

  const auto p = repro::suite_params::from_text("  TS.tau=1e-3  # comment\r\nTS-SA.B = 5\n", "p.txt");
  CHECK(p.get("TS.tau") == 0.001);
  CHECK(p.sa.window == 5);
  CHECK_THROWS_WITH(repro::suite_params::from_file("/nonexistent/params.txt"),
                    Catch::Contains("cannot open parameter file /nonexistent/params.txt"));
  CHECK_THROWS_WITH(repro::suite_params::from_file(fs::temp_directory_path().string()),
                    Catch::Contains("cannot open parameter file"));
}

TEST_CASE("the parameter file names every parameter and reads back exactly", "[reproduce][cli]") {
  repro::suite_params p;
  p.set("TS.tau", 0.1 + 1e-13);
  p.set("TS-SA.h", 1.0 / 3.0);
  p.set("eps-TS.epsilon", 0.123456789012345678);
  p.set("TS-SA.c2", 1000.000000000001);
  p.sa.window = 7;
  p.sa.init = sabandit::initialisation::prior;
  p.sa.prior = {0.0, 1.0};
  p.sgld_noise_variance = 2.5;
  const std::string text = p.to_text();
  for (const auto& key : {"eps-TS.epsilon", "TS-SA.Omega", "TS-SA.B", "TS-SA.N", "TS-SA.c1", "TS-SA.c2",
                          "TS-SA.c3", "TS-SA.alpha", "TS-SA.init", "TS-SA.prior.variance", "TS-SGLD.batch_size", "UCB.warmup"}) {
    CHECK(text.find(std::string("\n") + key + " = ") != std::string::npos);
  }
  const auto back = repro::suite_params::from_text(text, "p.txt");
  CHECK(back.to_text() == text);
  CHECK(back.get("TS.tau") == 0.1 + 1e-13);
  CHECK(back.get("TS-SA.h") == 1.0 / 3.0);
  CHECK(back.sa.sa_schedule.c2() == 1000.000000000001);
  CHECK(repro::suite_params::from_text(repro::suite_params{}.to_text(), "d").to_text() ==
        repro::suite_params{}.to_text());
  CHECK(repro::suite_params{}.get_text("eps-TS.epsilon") == "1/K");
}

TEST_CASE("figure1 --params figure1_params.txt repeats a run exactly", "[reproduce][cli]") {
  const auto first = test_files::scratch("cli_rerun_first");
  const auto second = test_files::scratch("cli_rerun_second");
  const auto tuned = test_files::scratch("cli_rerun_params");
  fs::create_directories(tuned);
  // Non-default values in every policy, with digits that %.10g would have lost.
  std::ofstream(tuned / "p.txt") << "TS.tau = 0.73123456789012\neps-TS.epsilon = 0.21\neps-TS.tau = 1.31\n"
                                    "TS-SGLD.h = 0.0123456789012\nTS-SA.h = 0.4123456789012\nTS-SA.B = 11\n"
                                    "TS-SA.Omega = 7\nTS-SA.c1 = 100.123456789\nUCB.tau = 0.51\n";
  const std::vector<std::string> common = {"-T", "300", "-R", "3", "--record-points", "10", "--no-plots"};
  auto args = std::vector<std::string>{"figure1", "--params", (tuned / "p.txt").string(), "--out", first.string()};
  args.insert(args.end(), common.begin(), common.end());
  REQUIRE(run(args).status == 0);
  args = {"figure1", "--params", (first / "figure1_params.txt").string(), "--out", second.string()};
  args.insert(args.end(), common.begin(), common.end());
  REQUIRE(run(args).status == 0);
  CHECK(slurp(first / "figure1.csv") == slurp(second / "figure1.csv"));
  CHECK(slurp(first / "figure1_params.txt") == slurp(second / "figure1_params.txt"));
  // ... and the parameters mattered: defaults give another table.
  const auto defaults = test_files::scratch("cli_rerun_defaults");
  args = {"figure1", "--out", defaults.string()};
  args.insert(args.end(), common.begin(), common.end());
  REQUIRE(run(args).status == 0);
  CHECK(slurp(defaults / "figure1.csv") != slurp(first / "figure1.csv"));
}

// Issue 20, the probe: the validators read decimal, then CLI11 converted the original text
// again, reading a leading 0 as octal: --seed 010 was 8, --horizon 010 T = 8, --trials 010 8
// trials; --seed 08 failed with an unprefixed "Could not convert".
TEST_CASE("integers on the command line are decimal: 010 is 10, 08 is 8", "[reproduce][cli][guarantees]") {
  const auto out = test_files::scratch("cli_decimal");
  const auto r = run({"figure1", "--seed", "010", "-T", "010", "--trials", "010", "--no-plots",
                      "--threads", "1", "--record-points", "05", "--out", out.string()});
  REQUIRE(r.status == 0);
  CHECK(slurp(out / "figure1.md").find("at T = 10, mean ± standard error over 10 trials, seed 10.") !=
        std::string::npos);
  const auto eight = run({"figure1", "--seed", "08", "-T", "5", "-R", "1", "--no-plots", "--threads",
                          "1", "--out", out.string()});
  REQUIRE(eight.status == 0);
  CHECK(slurp(out / "figure1.md").find("seed 8.") != std::string::npos);
}

// Issue 20, the probe: tune --gap 1e308 failed with a "reward" error that did not name --gap.
TEST_CASE("a --gap too large for the rewards is an error naming --gap", "[reproduce][cli][guarantees]") {
  const auto r = run({"tune", "--gap", "1e308"});
  CHECK(r.status == 2);
  CHECK(r.err.find("--gap must be ≤ 1e+100 (got 1e308)") != std::string::npos);
}

// Issue 20, the probe: a missing --params file was reported as "not a regular file".
TEST_CASE("a missing parameter file says it is missing", "[reproduce][cli][guarantees]") {
  const auto r = run({"figure1", "--params", "/nonexistent/p.txt"});
  CHECK(r.status == 2);
  CHECK(r.err.find("cannot open parameter file /nonexistent/p.txt: no such file") != std::string::npos);
  CHECK_THROWS_WITH(repro::suite_params::from_file(fs::temp_directory_path().string()),
                    Catch::Contains("not a regular file"));
}

// Issue 20, the probe: error messages echoed raw bytes of the parameter file, terminal escape
// sequences included.
TEST_CASE("parameter-file errors escape the bytes they quote", "[reproduce][cli][guarantees]") {
  const auto value = parse_error("TS.tau = \x1b[2J\n");
  CHECK(value.find("'\\x1b[2J' is not a finite decimal number") != std::string::npos);
  CHECK(value.find('\x1b') == std::string::npos);
  const auto key = parse_error("TS.\x1b]0;x\x07 = 1\n");
  CHECK(key.find("unknown parameter 'TS.\\x1b]0;x\\x07'") != std::string::npos);
  CHECK(key.find('\x1b') == std::string::npos);
  const auto line = parse_error("\x9b" "31m\n");
  CHECK(line.find("got '\\x9b31m'") != std::string::npos);
  const auto seed = run({"figure1", "--seed", "1\x1b[2J"});
  CHECK(seed.err.find("(got '1\\x1b[2J')") != std::string::npos);
}

// Issue 20, the probe: TS-SGLD.N = 100000000 was accepted, and the next round never finished:
// SIGINT waited 20 s or more.
TEST_CASE("parameter files bound the work of a round", "[reproduce][cli][guarantees]") {
  CHECK(parse_error("TS-SGLD.N = 100000000\n")
            .find("TS-SGLD.N x TS-SGLD.batch_size = 100000000 x 32 is above 4194304") !=
        std::string::npos);
  CHECK(parse_error("TS-SA.N = 5000000\nTS-SA.B = 1\n").find("TS-SA.N x TS-SA.B = 5000000 x 1 is above") !=
        std::string::npos);
  CHECK(parse_error("TS-SA.N = 4194304\nTS-SA.B = 1\n") == "accepted");
}
