// reproduce_paper's outputs: gnuplot without a shell (any byte in a path is safe), truthful
// plotting errors, and a job's files replaced as a set — never a half-written or mixed set
// after a failure, a full disk or a SIGINT.
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <system_error>
#include <thread>

#include "reproduce_paper/jobs.hpp"
#include "support/catch.hpp"
#include "support/files.hpp"

namespace fs = std::filesystem;
using test_files::slurp;


namespace {

/// Every file under `dir` with its bytes.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    files[fs::relative(entry.path(), dir).string()] = entry.is_regular_file() ? slurp(entry.path()) : "<dir>";
  }
  return files;
}

bool is_png(const fs::path& path) { return slurp(path).rfind("\x89PNG\r\n\x1a\n", 0) == 0; }

/// A small figure1 job: two settings, short horizon.
repro::figure1_options small_job(const fs::path& out, bool plots) {
  repro::figure1_options o;
  o.common.out = out;
  o.common.plots = plots;
  o.common.record_points = 10;
  o.common.threads = 1;
  o.horizon = 200;
  o.trials = 2;
  o.grid = {{false, 0.5, 10}, {true, 0.1, 5}};
  return o;
}

/// Sets an environment variable for a scope.
struct scoped_env {
  scoped_env(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    ::setenv(name, value, 1);
  }
  ~scoped_env() {
    if (had_) {
      ::setenv(name_, old_.c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  const char* name_;
  std::string old_;
  bool had_ = false;
};

/// Runs the figure1 job `o` with writes beyond `bytes` failing (EFBIG, as a full disk's
/// ENOSPC would: a file-size limit, SIGXFSZ ignored); returns the error's message.
std::string failure_with_file_size_limit(rlim_t bytes, const repro::figure1_options& o) {
  struct rlimit old {};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &old) == 0);
  auto* previous = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = old;
  small.rlim_cur = bytes;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  std::string message;
  try {
    (void)repro::run_figure1(o);
  } catch (const std::exception& error) {
    message = error.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, previous);
  return message;
}

}  // namespace

TEST_CASE("a hostile output path is only a path: no shell, and the plots are right", "[reproduce][output]") {
  const auto base = test_files::scratch("output_hostile");
  const std::string name = "x';touch PWNED;' \"q\" $(touch PWNED) `touch PWNED` ; a b\nc \\ %s";
  const auto out = base / name / "it's";
  const auto o = small_job(out, true);
  (void)repro::run_figure1(o);
  CHECK(is_png(out / "figure1_SGR_gap0.5_K10.png"));
  CHECK(is_png(out / "figure1_MGR_gap0.1_K5.png"));
  CHECK(fs::exists(out / "figure1.csv"));
  CHECK_FALSE(fs::exists("PWNED"));  // the working directory of the test
  CHECK_FALSE(fs::exists(base / "PWNED"));
  CHECK_FALSE(fs::exists(base / name / "PWNED"));
  // Same bytes as a plain path: the path never reaches the script.
  const auto plain = test_files::scratch("output_hostile_plain");
  (void)repro::run_figure1(small_job(plain, true));
  CHECK(slurp(out / "figure1_SGR_gap0.5_K10.png") == slurp(plain / "figure1_SGR_gap0.5_K10.png"));
  CHECK(slurp(out / "figure1.csv") == slurp(plain / "figure1.csv"));
}

TEST_CASE("titles and labels are quoted for gnuplot", "[reproduce][output]") {
  CHECK(repro::gnuplot_quote("it's") == "'it''s'");
  CHECK(repro::gnuplot_quote("a\nb") == "'a b'");
  const auto script = repro::gnuplot_script("t'; system('touch PWNED') #", "x", {{"y", {}, false}});
  CHECK(script.find("set title 't''; system(''touch PWNED'') #'") != std::string::npos);
}

TEST_CASE("gnuplot missing and gnuplot failing are told apart", "[reproduce][output]") {
  const auto dir = test_files::scratch("output_gnuplot_errors");
  fs::create_directories(dir);
  {
    const scoped_env path("PATH", dir.c_str());  // no gnuplot there
    CHECK_THROWS_WITH(repro::run_gnuplot("plot x\n", dir / "a.png", dir / "a.log"),
                      Catch::StartsWith("gnuplot not found on PATH"));
  }
  CHECK_THROWS_WITH(repro::run_gnuplot("set terminal pngcairo\nset output\nplot $nothing\n", dir / "b.png",
                                       dir / "b.log"),
                    Catch::StartsWith("gnuplot failed with status 1 while plotting b.png; gnuplot said:"));
  CHECK_THROWS_WITH(repro::run_gnuplot("print 1\n", dir / "c.png", dir / "c.log"),
                    Catch::StartsWith("gnuplot exited with status 0 but wrote no PNG for c.png"));
  CHECK_FALSE(fs::exists(dir / "b.log"));  // its scratch files are removed
  CHECK_FALSE(fs::exists(dir / "b.log.gp"));
}

TEST_CASE("a failed job leaves the previous outputs exactly as they were", "[reproduce][output]") {
  const auto out = test_files::scratch("output_keep_previous");
  auto o = small_job(out, false);
  (void)repro::run_figure1(o);
  fs::create_directories(out / "user");
  std::ofstream(out / "user" / "notes.txt") << "mine\n";
  const auto before = snapshot(out);

  SECTION("gnuplot not found, after the computing") {
    o.common.plots = true;
    o.common.seed = 7;
    const scoped_env path("PATH", "/nonexistent");
    CHECK_THROWS_WITH(repro::run_figure1(o), Catch::StartsWith("gnuplot not found"));
  }
  SECTION("a full disk (a file-size limit makes writes fail with EFBIG)") {
    o.common.seed = 7;
    o.common.record_points = 200;  // a CSV larger than the limit
    const std::string message = failure_with_file_size_limit(16 * 1024, o);
    CHECK(message.find("cannot write") != std::string::npos);
    CHECK(message.find("figure1.csv") != std::string::npos);
  }
  SECTION("an invalid setting, after the output folder was checked") {
    o.grid.push_back({false, 0.5, 1});  // one arm: the environment rejects it mid-job
    CHECK_THROWS_WITH(repro::run_figure1(o), Catch::Contains("num_arms"));
  }
  CHECK(snapshot(out) == before);  // no staging folder, no .tmp, no mix of old and new
}

TEST_CASE("an unwritable --out is reported before any computing", "[reproduce][output]") {
  const auto dir = test_files::scratch("output_unwritable");
  fs::create_directories(dir);
  std::ofstream(dir / "file") << "x";
  auto o = small_job(dir / "file" / "out", false);
  o.grid = {{false, 0.5, 1}};  // would fail with "num_arms" if it were computed first
  CHECK_THROWS_WITH(repro::run_figure1(o), Catch::Contains("--out") && Catch::Contains("is not a writable folder"));
}

namespace {

// Sends `signal` to this process once a figure1 job of hours has started in `out`, and checks
// that the job stops within a round, reporting the signal, and leaves nothing behind.
void check_signal_stops_job(int signal, const fs::path& out) {
  auto o = small_job(out, false);
  (void)repro::run_figure1(o);
  const auto before = snapshot(out);

  std::signal(signal, SIG_DFL);  // installed even if the test runner ignores it (nohup)
  repro::install_signal_handlers();
  repro::reset_cancel();
  o.horizon = 2'000'000'000;  // hours of work if the signal were ignored
  o.common.threads = 2;
  o.common.seed = 9;
  std::jthread interrupter([&] {
    // Wait for the job's staging folder: the job has checked its output and started.
    for (int i = 0; i < 2000; ++i) {
      bool staged = false;
      for (const auto& entry : fs::directory_iterator(out)) {
        staged = staged || entry.path().filename().string().rfind(".sabandit-staging-", 0) == 0;
      }
      if (staged) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ::kill(::getpid(), signal);
  });
  const auto start = std::chrono::steady_clock::now();
  int signal_number = 0;
  try {
    (void)repro::run_figure1(o);
  } catch (const repro::cancelled& stop) {
    signal_number = stop.signal_number;
  }
  interrupter.join();
  repro::reset_cancel();
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  std::signal(SIGHUP, SIG_DFL);
  CHECK(signal_number == signal);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(30));
  CHECK(snapshot(out) == before);
}

}  // namespace

TEST_CASE("SIGINT stops a job within a round; nothing of it is left behind", "[reproduce][output]") {
  check_signal_stops_job(SIGINT, test_files::scratch("output_sigint"));
}

// Issue 20, the probe: SIGHUP (a closed terminal) killed the job and left its staging folder.
TEST_CASE("SIGHUP stops a job like SIGINT: its staging folder is removed", "[reproduce][output][guarantees]") {
  check_signal_stops_job(SIGHUP, test_files::scratch("output_sighup"));
}

// Issue 20, the probe: --no-plots left the previous run's PNGs beside the new CSV.
TEST_CASE("a run with --no-plots removes the previous run's plots", "[reproduce][output][guarantees]") {
  const auto out = test_files::scratch("output_no_plots");
  (void)repro::run_figure1(small_job(out, true));
  REQUIRE(is_png(out / "figure1_SGR_gap0.5_K10.png"));
  std::ofstream(out / "mine.png") << "not the job's";
  auto o = small_job(out, false);
  o.common.seed = 5;
  (void)repro::run_figure1(o);
  CHECK_FALSE(fs::exists(out / "figure1_SGR_gap0.5_K10.png"));
  CHECK_FALSE(fs::exists(out / "figure1_MGR_gap0.1_K5.png"));
  CHECK(fs::exists(out / "figure1.csv"));
  CHECK(fs::exists(out / "mine.png"));  // not a name of the job's
}

// Issue 20, the probe: a full disk while plotting was "gnuplot exited with status 0 but wrote
// no PNG"; the PNG is now written by the program, whose error names the errno text.
TEST_CASE("a full disk while plotting names the errno text", "[reproduce][output][guarantees]") {
  const auto out = test_files::scratch("output_plot_full");
  auto o = small_job(out, true);
  o.grid = {{false, 0.5, 10}};
  // The CSV and tables fit in 8 KiB, a PNG does not.
  const std::string message = failure_with_file_size_limit(8 * 1024, o);
  CHECK_THAT(message, Catch::Contains("cannot write") && Catch::Contains("figure1_SGR_gap0.5_K10.png") &&
                          Catch::Contains(std::strerror(EFBIG)));
  CHECK_FALSE(fs::exists(out / "figure1.csv"));  // nothing of the failed set
}

TEST_CASE("a stale staging folder of a dead process is cleaned up", "[reproduce][output]") {
  const auto out = test_files::scratch("output_stale");
  // A pid beyond pid_max (4194304 on Linux) belongs to no process.
  fs::create_directories(out / ".sabandit-staging-99999999-0");
  std::ofstream(out / ".sabandit-staging-99999999-0" / "figure1.csv.tmp") << "half";
  (void)repro::run_figure1(small_job(out, false));
  CHECK_FALSE(fs::exists(out / ".sabandit-staging-99999999-0"));
  CHECK(fs::exists(out / "figure1.csv"));
}
