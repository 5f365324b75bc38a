#pragma once
// Clean stops on SIGINT, SIGTERM and SIGHUP (the terminal closed). The handler records the
// signal and requests a stop of the library's std::stop_token, which simulate() checks at every
// round: a job stops within one round of each worker thread and unwinds as a `cancelled`
// exception, the staging folder is removed on the way out and the previous outputs stay.
#include <atomic>
#include <csignal>
#include <stdexcept>
#include <stop_token>
#include <string>

#include <sabandit/sim.hpp>

namespace repro {

namespace detail {
inline std::atomic<int> pending_signal{0};  // 0: none; else the first signal received
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");
/// Never given a std::stop_callback, so request_stop() only flips atomics: a signal handler
/// may call it.
inline std::stop_source stop_source;
extern "C" inline void record_signal(int signal) {
  int none = 0;
  if (pending_signal.compare_exchange_strong(none, signal)) stop_source.request_stop();
}
}  // namespace detail

/// The job was stopped by a signal; nothing it had started is left behind.
struct cancelled : std::runtime_error {
  explicit cancelled(int signal)
      : std::runtime_error(std::string("interrupted by ") + (signal == SIGINT    ? "SIGINT"
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
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  struct sigaction hangup {};
  if (sigaction(SIGHUP, nullptr, &hangup) == 0 && hangup.sa_handler != SIG_IGN) sigaction(SIGHUP, &action, nullptr);
}

/// Forgets a past request (the next job runs); not while a job runs.
inline void reset_cancel() {
  // Swapped with a named fresh source, not assigned a temporary: GCC 12 took the temporary's
  // constructor, which passes the object to its own member's, for a read of an uninitialised
  // value (-Wmaybe-uninitialized, in the tests that inline this).
  std::stop_source fresh;
  detail::stop_source.swap(fresh);
  detail::pending_signal.store(0);
}
inline void throw_if_cancelled() {
  if (const int signal = detail::pending_signal.load(); signal != 0) throw cancelled(signal);
}

/// `run(config)` (a simulator call) with config.stop tied to the signals: a signal stops it
/// within a round, and it ends as `cancelled`.
template <class Run>
auto run_cancellable(sabandit::run_config config, Run run) {
  config.stop = detail::stop_source.get_token();
  try {
    return run(config);
  } catch (const sabandit::simulation_stopped&) {
    throw_if_cancelled();
    throw;
  }
}

/// sabandit::simulate() that a signal stops within a round (run_config::stop).
template <class Env, class Factory, class Progress>
sabandit::regret_curve simulate_cancellable(const Env& env, Factory factory, const sabandit::run_config& config,
                                            Progress on_trial) {
  return run_cancellable(config, [&](const sabandit::run_config& c) {
    return sabandit::simulate(env, factory, c, on_trial);
  });
}

}  // namespace repro
