#pragma once
// Outputs of the reproduction, written as a set: a job writes every file into a staging folder
// inside --out (created and proved writable before any computing), and only a complete job
// moves them into --out, one rename per file. A failure, a full disk or a SIGINT removes the
// staging folder and leaves the previous outputs as they were. Every write is checked.
// Plots come from gnuplot run without a shell: an argument vector, the script on its standard
// input, the PNG from its standard output; no path is ever written into the script.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

#include <sabandit/sim/progress.hpp>

#include "common/cancel.hpp"
#include "common/checked.hpp"

extern char** environ;

namespace repro {

namespace fs = std::filesystem;

namespace detail {

[[noreturn]] inline void throw_errno(const std::string& what, int error) {
  throw std::system_error(error, std::generic_category(), what);
}

/// Creates (or truncates) `path` with `content`, retrying short writes and EINTR; a failed
/// open, write or close throws std::system_error naming `path` with the errno text.
inline void write_file(const fs::path& path, const std::string& content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw_errno("cannot open " + path.string(), errno);
  for (std::size_t done = 0; done < content.size();) {
    const ssize_t written = ::write(fd, content.data() + done, content.size() - done);
    if (written < 0 && errno != EINTR) {
      const int error = errno;
      ::close(fd);
      throw_errno("cannot write " + path.string(), error);
    }
    done += written > 0 ? static_cast<std::size_t>(written) : 0;
  }
  if (::close(fd) != 0) throw_errno("cannot write " + path.string(), errno);  // a delayed error (NFS)
}

// One prefix for every example program (reproduce_paper, problem_suite, contextual_benchmark).
constexpr const char* staging_prefix = ".sabandit-staging-";

/// Removes staging folders left by a process that no longer exists (killed with SIGKILL).
inline void remove_stale_staging(const fs::path& out) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(out, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(staging_prefix, 0) != 0) continue;
    const std::string rest = name.substr(std::strlen(staging_prefix));
    const long pid = std::strtol(rest.c_str(), nullptr, 10);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      fs::remove_all(entry.path(), ec);
    }
  }
}

}  // namespace detail

/// The output set of one job. Files go to a staging folder inside `out`; `commit()` moves them
/// into `out`; destroying an uncommitted set removes the staging folder and everything in it,
/// and the folders of `out` that it created, if they are still empty: a job that fails (a size
/// beyond the library's bounds, found once the job has started) leaves no trace.
class output_set {
 public:
  /// Creates `out` and the staging folder and writes a probe file, so that an unwritable
  /// --out is reported before any computing. `plot_prefix` names the job's plots
  /// ("figure1_"): commit() removes the `<plot_prefix>*.png` in `out` that the new set does
  /// not have, so that a run with --no-plots (or fewer settings) leaves no stale plot beside
  /// its new CSV.
  explicit output_set(fs::path out, std::string plot_prefix = {})
      : out_(std::move(out)), plot_prefix_(std::move(plot_prefix)) {
    try {
      // The folders that create_directories(out) will make, one per component of `out` that
      // does not exist yet ("c/../d" makes c and d), deepest first: ours to remove if unused.
      // A dangling symbolic link counts as existing (create_directories then fails on it, and
      // it is not ours to remove); "." and ".." name no new folder.
      fs::path prefix;
      for (const auto& part : fs::absolute(out_)) {
        prefix /= part;
        if (part == "." || part == ".." || part.empty()) continue;
        if (!fs::exists(fs::symlink_status(prefix))) created_.insert(created_.begin(), prefix);
      }
      fs::create_directories(out_);
      detail::remove_stale_staging(out_);
      static std::atomic<unsigned> counter{0};
      staging_ = out_ / (detail::staging_prefix + std::to_string(::getpid()) + "-" +
                         std::to_string(counter++));
      fs::remove_all(staging_);
      fs::create_directory(staging_);
      detail::write_file(staging_ / ".probe", "probe\n");
      fs::remove(staging_ / ".probe");
    } catch (const std::exception& error) {
      discard();
      remove_created();
      // A bad --out, refused before any computing: a bad command line (exit status 2).
      throw usage_error("--out " + out_.string() + " is not a writable folder: " + error.what());
    }
  }
  output_set(const output_set&) = delete;
  output_set& operator=(const output_set&) = delete;
  ~output_set() {
    const bool committed = staging_.empty();
    discard();
    if (!committed) remove_created();
  }

  [[nodiscard]] const fs::path& staging() const noexcept { return staging_; }

  /// Writes `name` (a plain file name) into the staging folder.
  void write(const std::string& name, const std::string& content) {
    detail::write_file(staging_ / name, content);
    add(name);
  }
  /// Records a file that something else (gnuplot) wrote into the staging folder.
  void add(const std::string& name) {
    if (std::find(files_.begin(), files_.end(), name) == files_.end()) files_.push_back(name);
  }

  /// Moves every file into `out` (each rename atomic), removes the job's plots that the set
  /// does not have (constructor), then removes the staging folder.
  void commit() {
    throw_if_cancelled();
    for (const auto& name : files_) fs::rename(staging_ / name, out_ / name);
    if (!plot_prefix_.empty()) {
      std::vector<fs::path> stale;
      for (const auto& entry : fs::directory_iterator(out_)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && name.starts_with(plot_prefix_) && name.ends_with(".png") &&
            std::find(files_.begin(), files_.end(), name) == files_.end())
          stale.push_back(entry.path());
      }
      for (const auto& path : stale) fs::remove(path);
    }
    discard();
  }

 private:
  void discard() noexcept {
    if (staging_.empty()) return;
    std::error_code ec;
    fs::remove_all(staging_, ec);
    staging_.clear();
  }
  // fs::remove removes only an empty folder: anything written there since is kept.
  void remove_created() noexcept {
    std::error_code ec;
    for (const auto& folder : created_)
      if (!fs::remove(folder, ec)) return;
  }

  fs::path out_;
  std::vector<fs::path> created_;
  std::string plot_prefix_;
  fs::path staging_;
  std::vector<std::string> files_;
};

/// The library's progress display on stderr: a redrawn bar on a terminal, lines every 10 % in
/// logs and pipes.
struct progress : sabandit::progress_bar {
  progress(std::string label, long long total)
      : progress_bar(std::move(label), total, stderr, isatty(STDERR_FILENO) != 0) {}
};

/// Thrown when gnuplot is missing or fails; the message says which.
struct plot_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace detail {
/// Reads `fd` to its end (retrying EINTR), at most `limit` bytes; throws naming `what`.
inline std::string read_all(int fd, std::size_t limit, const std::string& what) {
  std::string data;
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw_errno("cannot read " + what, errno);
    }
    if (got == 0) return data;
    if (data.size() + static_cast<std::size_t>(got) > limit)
      throw std::runtime_error(what + " is larger than " + std::to_string(limit) + " bytes");
    data.append(buffer, static_cast<std::size_t>(got));
  }
}
}  // namespace detail

/// Runs `gnuplot` (found on PATH) on `script`, its standard error going to `log`; its standard
/// output, the PNG, comes through a pipe and this program writes it to `png`, so that a full
/// disk is reported with its errno text ("cannot write ...: No space left on device"), which
/// gnuplot, writing the file itself, did not report. No shell, and no path inside the script.
inline void run_gnuplot(const std::string& script, const fs::path& png, const fs::path& log) {
  const fs::path script_file = log.string() + ".gp";
  detail::write_file(script_file, script);
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) detail::throw_errno("cannot create a pipe for gnuplot", errno);

  // gnuplot's standard input is the script, its standard output the pipe, its standard error the log.
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attributes);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, script_file.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  sigset_t defaults;
  sigset_t none;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigaddset(&defaults, SIGHUP);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  char program[] = "gnuplot";
  char* argv[] = {program, nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, program, &actions, &attributes, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(pipe_fds[1]);  // gnuplot holds the only write end: EOF when it exits
  if (spawned != 0) {
    ::close(pipe_fds[0]);
    if (spawned == ENOENT) {
      throw plot_error("gnuplot not found on PATH: install it (scripts/demo does: Debian package "
                       "gnuplot-nox) or pass --no-plots");
    }
    throw plot_error(std::string("cannot start gnuplot: ") + std::strerror(spawned));
  }
  std::string image;
  std::exception_ptr read_error;
  try {
    image = detail::read_all(pipe_fds[0], std::size_t{1} << 26, "gnuplot's PNG");
  } catch (...) {
    read_error = std::current_exception();
  }
  ::close(pipe_fds[0]);  // a gnuplot still writing gets EPIPE and ends
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) detail::throw_errno("waiting for gnuplot", errno);
  }
  throw_if_cancelled();  // a terminal's ^C reaches gnuplot too
  if (read_error) std::rethrow_exception(read_error);
  std::string messages(600, '\0');  // the head of what gnuplot said
  std::ifstream said_in(log, std::ios::binary);
  said_in.read(messages.data(), 600);
  messages.resize(static_cast<std::size_t>(said_in.gcount()));
  fs::remove(script_file);
  fs::remove(log);
  const std::string said = messages.empty() ? "" : "; gnuplot said:\n" + messages;
  if (WIFSIGNALED(status)) {
    throw plot_error("gnuplot was killed by signal " + std::to_string(WTERMSIG(status)) +
                     " while plotting " + png.filename().string() + said);
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw plot_error("gnuplot failed with status " + std::to_string(WEXITSTATUS(status)) +
                     " while plotting " + png.filename().string() + said);
  }
  if (image.rfind(std::string("\x89PNG\r\n\x1a\n", 8), 0) != 0) {
    throw plot_error("gnuplot exited with status 0 but wrote no PNG for " +
                     png.filename().string() + said);
  }
  detail::write_file(png, image);  // std::system_error with the errno text: ENOSPC, EFBIG
}

/// A line's look: colour "#rrggbb", gnuplot dash type (1 solid, 2 dashed, 3 dotted, 4 dash-dot,
/// 5 dash-dot-dot) or a dash pattern such as "(18,6)" in its place (five types are not enough for
/// eight policies with a pattern each), width, and whether it is drawn again on top of the
/// others (the legend order is kept).
struct policy_style {
  const char* color;
  int dash_type = 1;
  double width = 2;
  const char* dash_pattern = "";
  bool on_top = false;
};

/// One line of a plot: a curve, optionally with its +-1 s.e. band.
struct series {
  std::string label;
  policy_style style;
  std::vector<long long> x;
  std::vector<double> y;
  std::vector<double> se;  ///< empty: no band
};

/// One panel of a figure: its lines and axis labels.
struct panel_spec {
  std::string ylabel;
  std::vector<series> lines;
  bool zero_line = false;
  /// Upper end of the y axis; unset: gnuplot's autoscale. A reference line far above the
  /// curves then leaves the top of the panel instead of flattening them.
  std::optional<double> y_max{};
};

/// A string as a gnuplot single-quoted literal (no escapes but '' for '; newlines become spaces).
inline std::string gnuplot_quote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) {
    if (c == '\'') {
      quoted += "''";
    } else if (c == '\n' || c == '\r') {
      quoted += ' ';
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

/// The gnuplot script of a figure: data as inline datablocks, the PNG to standard output.
/// Panels stack vertically, the first one the tallest.
inline std::string gnuplot_script(const std::string& title, const std::string& xlabel,
                                  const std::vector<panel_spec>& panels) {
  std::ostringstream gp;
  const int height = panels.size() > 1 ? 820 : 560;
  gp << "set terminal pngcairo size 800," << height << " font 'Sans,11' noenhanced\nset output\n";
  for (std::size_t p = 0; p < panels.size(); ++p) {
    for (std::size_t i = 0; i < panels[p].lines.size(); ++i) {
      const auto& s = panels[p].lines[i];
      gp << "$d" << p << '_' << i << " << EOD\n";
      for (std::size_t k = 0; k < s.x.size(); ++k) {
        char row[96];
        std::snprintf(row, sizeof row, "%lld %.6f %.6f\n", s.x[k], s.y[k], s.se.empty() ? 0.0 : s.se[k]);
        gp << row;
      }
      gp << "EOD\n";
    }
  }
  if (panels.size() > 1) gp << "set multiplot title " << gnuplot_quote(title) << '\n';
  const double top = 0.94;
  const double split = 0.36;  // the lower panels share this height
  for (std::size_t p = 0; p < panels.size(); ++p) {
    const auto& panel = panels[p];
    if (panels.size() > 1) {
      const double lower = split / static_cast<double>(panels.size() - 1);
      const double y0 = p == 0 ? split : split - lower * static_cast<double>(p);
      const double y1 = p == 0 ? top : y0 + lower;
      gp << "set lmargin 10\nset rmargin 3\nset origin 0," << y0 << "\nset size 1," << (y1 - y0) << '\n';
      gp << "unset title\n";
    } else {
      gp << "set title " << gnuplot_quote(title) << '\n';
    }
    gp << "set xlabel " << gnuplot_quote(p + 1 == panels.size() ? xlabel : "") << '\n'
       << "set ylabel " << gnuplot_quote(panel.ylabel) << '\n'
       << "set key top left " << (p == 0 ? "box opaque" : "off") << "\nset grid\n";
    if (panel.zero_line) gp << "set xzeroaxis lt -1 lw 1\n"; else gp << "unset xzeroaxis\n";
    if (panel.y_max) {
      char range[64];
      std::snprintf(range, sizeof range, "set yrange [*:%.6g]\n", *panel.y_max);
      gp << range;
    }
    gp << "plot ";
    bool first = true;
    const auto sep = [&] { gp << (first ? "" : ", \\\n  "); first = false; };
    for (std::size_t i = 0; i < panel.lines.size(); ++i) {
      const auto& s = panel.lines[i];
      if (s.se.empty()) continue;
      sep();
      gp << "$d" << p << '_' << i << " using 1:($2-$3):($2+$3) with filledcurves fc rgb '"
         << s.style.color << "' fs transparent solid 0.15 noborder notitle";
    }
    const auto line = [&](std::size_t i, bool titled) {
      const auto& s = panel.lines[i];
      sep();
      gp << "$d" << p << '_' << i << " using 1:2 with lines lw " << s.style.width << " dt "
         << (*s.style.dash_pattern == '\0' ? std::to_string(s.style.dash_type) : s.style.dash_pattern)
         << " lc rgb '" << s.style.color << "' " << (titled ? "title " + gnuplot_quote(s.label) : "notitle");
    };
    for (std::size_t i = 0; i < panel.lines.size(); ++i) line(i, true);
    for (std::size_t i = 0; i < panel.lines.size(); ++i) {
      if (panel.lines[i].style.on_top) line(i, false);
    }
    gp << '\n';
    if (panel.y_max) gp << "set autoscale y\n";  // the next panel scales itself
  }
  if (panels.size() > 1) gp << "unset multiplot\n";
  return gp.str();
}

/// `c` as a plot line: its mean regret with the +-1 s.e. band.
inline series to_series(const std::string& label, const sabandit::regret_curve& c, policy_style style) {
  series s{label, style, {}, c.mean_regret, c.standard_error};
  s.x.assign(c.rounds.begin(), c.rounds.end());
  return s;
}

/// "T = 10,000, 50 trials": what a plot's title says about the run.
inline std::string run_text(Eigen::Index horizon, Eigen::Index trials) {
  // Digits copied with a comma before every group of three (appending, not insert(): GCC 12
  // warns a false -Wrestrict on string::insert at -O3).
  const std::string digits = std::to_string(horizon);
  std::string t;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && digits[i - 1] != '-' && (digits.size() - i) % 3 == 0) t += ',';
    t += digits[i];
  }
  return "T = " + t + ", " + std::to_string(trials) + (trials == 1 ? " trial" : " trials");
}

/// Renders a figure to `name` (a PNG) in the output set.
inline void plot_png(output_set& outputs, const std::string& name, const std::string& title,
                     const std::string& xlabel, const std::vector<panel_spec>& panels) {
  run_gnuplot(gnuplot_script(title, xlabel, panels), outputs.staging() / name,
              outputs.staging() / ("." + name + ".log"));
  outputs.add(name);
}

}  // namespace repro
