#pragma once
// Clean stops on SIGINT, SIGTERM and SIGHUP (the terminal closed). The handler only records the signal; the simulation sees
// it through `cancellable`, an environment wrapper that checks the flag at every pull, so a
// job stops within one round of each worker thread and unwinds as a `cancelled` exception:
// the staging folder is removed on the way out and the previous outputs stay as they were.
#include <atomic>
#include <csignal>
#include <stdexcept>
#include <string>

#include <Eigen/Core>

namespace repro {

namespace detail {
inline std::atomic<int> pending_signal{0};  // 0: none; else the first signal received
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");
extern "C" inline void record_signal(int signal) {
  int none = 0;
  pending_signal.compare_exchange_strong(none, signal);
}
}  // namespace detail

/// The job was stopped by a signal; nothing it had started is left behind.
struct cancelled : std::runtime_error {
  explicit cancelled(int signal)
      : std::runtime_error(std::string("interrupted by ") +
                           (signal == SIGINT    ? "SIGINT"
                            : signal == SIGTERM ? "SIGTERM"
                            : signal == SIGHUP  ? "SIGHUP"
                                                : "a signal")),
        signal_number(signal) {}
  int signal_number;
};

/// Routes SIGINT, SIGTERM and SIGHUP to the flag (no SA_RESTART: a blocked wait returns
/// EINTR). A SIGHUP that the program was started ignoring (nohup) stays ignored.
inline void install_signal_handlers() {
  struct sigaction action {};
  action.sa_handler = detail::record_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  struct sigaction hangup {};
  if (sigaction(SIGHUP, nullptr, &hangup) == 0 && hangup.sa_handler != SIG_IGN)
    sigaction(SIGHUP, &action, nullptr);
}

/// Asks the running job to stop, as a signal would (tests use it; so could a GUI).
inline void request_cancel(int signal = SIGINT) { detail::record_signal(signal); }
/// Forgets a past request (the next job runs).
inline void reset_cancel() { detail::pending_signal.store(0); }
[[nodiscard]] inline bool cancel_requested() noexcept {
  return detail::pending_signal.load(std::memory_order_relaxed) != 0;
}
inline void throw_if_cancelled() {
  if (const int signal = detail::pending_signal.load(); signal != 0) throw cancelled(signal);
}

/// `Env` whose every pull first checks for a stop request: rewards, and so results, are those
/// of `Env` itself.
template <class Env>
struct cancellable {
  Env env;
  [[nodiscard]] Eigen::Index num_arms() const { return env.num_arms(); }
  [[nodiscard]] double mean(Eigen::Index arm) const { return env.mean(arm); }
  template <class URBG>
  double pull(Eigen::Index arm, URBG& gen) {
    if (cancel_requested()) throw_if_cancelled();
    return env.pull(arm, gen);
  }
};
template <class Env>
cancellable(Env) -> cancellable<Env>;

}  // namespace repro
