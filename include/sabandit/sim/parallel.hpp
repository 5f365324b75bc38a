#pragma once
// A minimal parallel-for over independent tasks. Each task writes only its own slot, so the
// results do not depend on the number of threads or on scheduling. The first task to throw
// stops the others: no new task starts, and a running task that takes the stop flag returns
// early; the first exception in task order is rethrown after every thread has finished.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace sabandit {

/// 0 means "one per hardware thread".
[[nodiscard]] inline unsigned resolve_threads(unsigned requested) noexcept {
  if (requested != 0) return requested;
  return std::max(1U, std::thread::hardware_concurrency());
}

/// Calls task(i) for every i in [0, count) on `threads` threads (0: one per hardware
/// thread), handing out indices one at a time so that uneven tasks balance; returns when all
/// are done, then rethrows the first exception in index order, if any. Once a task has thrown,
/// no task starts; a task invocable as task(i, stop) gets the flag (a `const
/// std::atomic<bool>&`, set by the first failure) to return early from long work.
template <class Task>
void parallel_for(std::size_t count, unsigned threads, Task&& task) {
  std::vector<std::exception_ptr> errors(count);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  auto worker = [&] {
    for (std::size_t i = next.fetch_add(1); i < count && !stop.load(); i = next.fetch_add(1)) {
      try {
        if constexpr (std::is_invocable_v<Task&, std::size_t, const std::atomic<bool>&>) {
          task(i, std::as_const(stop));
        } else {
          task(i);
        }
      } catch (...) {
        errors[i] = std::current_exception();
        stop.store(true);
      }
    }
  };
  // The calling thread is one of the workers; never more workers than tasks.
  const std::size_t workers = std::min<std::size_t>(resolve_threads(threads), count);
  {
    std::vector<std::jthread> pool;
    for (std::size_t t = 1; t < workers; ++t) pool.emplace_back(worker);
    worker();
  }  // jthreads join here
  for (auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace sabandit
