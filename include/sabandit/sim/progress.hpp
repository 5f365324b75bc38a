#pragma once
// A progress display for simulate(): its hook counts finished trials and draws on a C stream.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <utility>

namespace sabandit {

/// Counts the trials of one or more simulate() runs (`total` in all) and shows the count on
/// `out`: a bar redrawn in place with its ETA when `redraw` (a terminal), else a line at every
/// 10 % (logs, pipes). Thread-safe: simulate() calls the hook from its worker threads.
class progress_bar {
 public:
  /// `label` starts every line; `total` trials make 100 % (at least 1).
  progress_bar(std::string label, long long total, std::FILE* out = stderr, bool redraw = false)
      : label_(std::move(label)), total_(total > 0 ? total : 1), out_(out), redraw_(redraw),
        start_(std::chrono::steady_clock::now()) {}
  progress_bar(const progress_bar&) = delete;
  progress_bar& operator=(const progress_bar&) = delete;
  /// A run stopped part-way (an error, a signal) ends the redrawn bar's line, so that the
  /// message that follows starts on a line of its own.
  ~progress_bar() {
    if (redraw_ && last_percent_ >= 0 && done_.load() != total_) std::fprintf(out_, "\n");
  }

  /// One more trial done.
  void tick() {
    const long long done = ++done_;
    const int percent = static_cast<int>(100 * done / total_);
    const std::lock_guard lock(mutex_);
    if (redraw_) {
      if (percent == last_percent_ && done != total_) return;
      const double elapsed = seconds();
      const double eta = elapsed * static_cast<double>(total_ - done) / static_cast<double>(done);
      const int filled = percent * 30 / 100;
      std::fprintf(out_, "\r%s [%.*s%*s] %3d%%  ETA %5.1fs %s", label_.c_str(), filled,
                   "##############################", 30 - filled, "", percent, eta, done == total_ ? "\n" : "");
    } else if (percent / 10 != last_percent_ / 10 || done == total_) {
      std::fprintf(out_, "%s: %d%% (%lld/%lld trials, %.1fs)\n", label_.c_str(), percent, done, total_, seconds());
    }
    last_percent_ = percent;
  }

  /// The hook to pass to simulate() as `on_trial_done`; it refers to this display.
  [[nodiscard]] auto hook() {
    return [this] { tick(); };
  }

  /// Seconds since construction.
  [[nodiscard]] double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::string label_;
  long long total_;
  std::FILE* out_;
  bool redraw_;
  std::chrono::steady_clock::time_point start_;
  std::atomic<long long> done_{0};
  std::mutex mutex_;
  int last_percent_ = -1;
};

}  // namespace sabandit
