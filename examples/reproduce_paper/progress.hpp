#pragma once
// Progress on stderr: a redrawn bar with ETA on a terminal, plain lines every 10% otherwise
// (CI logs, pipes). Thread-safe: trials finish on worker threads.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

namespace repro {

class progress {
 public:
  progress(std::string label, long long total)
      : label_(std::move(label)), total_(total > 0 ? total : 1), tty_(isatty(STDERR_FILENO) != 0),
        start_(std::chrono::steady_clock::now()) {}
  progress(const progress&) = delete;
  progress& operator=(const progress&) = delete;
  /// A job stopped part-way (error, SIGINT) ends the redrawn bar's line, so that the message
  /// that follows starts on a line of its own.
  ~progress() {
    if (tty_ && last_percent_ >= 0 && done_.load() != total_) std::fprintf(stderr, "\n");
  }

  void tick() {
    const long long done = ++done_;
    const int percent = static_cast<int>(100 * done / total_);
    const std::lock_guard lock(mutex_);
    if (tty_) {
      if (percent == last_percent_ && done != total_) return;
      const double elapsed = seconds();
      const double eta = done > 0 ? elapsed * static_cast<double>(total_ - done) / static_cast<double>(done) : 0;
      const int filled = percent * 30 / 100;
      std::fprintf(stderr, "\r%s [%.*s%*s] %3d%%  ETA %5.1fs ", label_.c_str(), filled,
                   "##############################", 30 - filled, "", percent, eta);
      if (done == total_) std::fprintf(stderr, "\n");
    } else if (percent / 10 != last_percent_ / 10 || done == total_) {
      std::fprintf(stderr, "%s: %d%% (%lld/%lld trials, %.1fs)\n", label_.c_str(), percent, done,
                   total_, seconds());
    }
    last_percent_ = percent;
  }

  /// The hook simulate() calls after each trial.
  auto hook() {
    return [this] { tick(); };
  }

  [[nodiscard]] double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::string label_;
  long long total_;
  bool tty_;
  std::chrono::steady_clock::time_point start_;
  std::atomic<long long> done_{0};
  std::mutex mutex_;
  int last_percent_ = -1;
};

}  // namespace repro
