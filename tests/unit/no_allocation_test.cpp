// After warm-up, a round (select + update) allocates nothing: proven by counting, not timing.
// Two counters: the replaced global operator new (std containers, strings, exceptions) and
// Eigen's own malloc guard (EIGEN_RUNTIME_NO_MALLOC: Eigen calls std::malloc directly, not
// operator new). This file is its own executable because it replaces operator new.
#include <atomic>
#include <cstdlib>
#include <new>

static std::atomic<long> eigen_malloc_violations{0};
#define EIGEN_RUNTIME_NO_MALLOC
// Count instead of aborting, in every build type (NDEBUG or not).
#define eigen_assert(x)                                  \
  do {                                                   \
    if (!(x)) eigen_malloc_violations.fetch_add(1);      \
  } while (false)

#include "sabandit/sabandit.hpp"
#include "support/catch.hpp"

static std::atomic<long> operator_new_calls{0};

// The whole family is replaced, so that every allocation and deallocation goes through the
// same pair (malloc/free): a partial set mixes allocators, which AddressSanitizer rightly flags.
namespace {
void* counted_allocation(std::size_t size) {
  operator_new_calls.fetch_add(1);
  return std::malloc(size == 0 ? 1 : size);
}
}  // namespace

void* operator new(std::size_t size) {
  if (void* p = counted_allocation(size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return ::operator new(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return counted_allocation(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return counted_allocation(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

template <class P>
void check_rounds_allocate_nothing(P policy) {
  sabandit::xoshiro256pp gen(1);
  Eigen::VectorXd rewards(4096);
  sabandit::fill_standard_normal(rewards, gen);
  for (int t = 0; t < 2000; ++t) {  // warm-up and beyond, allocations allowed
    const auto arm = policy.select(gen);
    policy.update(arm, rewards(t % 4096), gen);
  }
  const long before_new = operator_new_calls.load();
  const long before_eigen = eigen_malloc_violations.load();
  Eigen::internal::set_is_malloc_allowed(false);
  for (int t = 0; t < 20'000; ++t) {
    const auto arm = policy.select(gen);
    policy.update(arm, rewards(t % 4096) + 0.1 * static_cast<double>(arm), gen);
  }
  Eigen::internal::set_is_malloc_allowed(true);
  CHECK(operator_new_calls.load() - before_new == 0);
  CHECK(eigen_malloc_violations.load() - before_eigen == 0);
}

}  // namespace

TEST_CASE("the guard itself detects an Eigen allocation", "[allocation]") {
  const long before = eigen_malloc_violations.load();
  Eigen::internal::set_is_malloc_allowed(false);
  Eigen::VectorXd allocates(16);
  Eigen::internal::set_is_malloc_allowed(true);
  CHECK(eigen_malloc_violations.load() > before);
  allocates.setZero();
}

TEST_CASE("no allocation in a round after warm-up", "[allocation]") {
  // TS-SGLD is absent on purpose: it keeps every reward (the paper's Table 1), so its history
  // grows by design.
  SECTION("UCB") { check_rounds_allocate_nothing(sabandit::ucb(50)); }
  SECTION("Gaussian TS") { check_rounds_allocate_nothing(sabandit::gaussian_ts(50)); }
  SECTION("epsilon-TS") { check_rounds_allocate_nothing(sabandit::epsilon_ts<>(50)); }
  SECTION("TS-SA") { check_rounds_allocate_nothing(sabandit::ts_sa<>(50)); }
  SECTION("TS-SA, d = 3") {
    check_rounds_allocate_nothing(sabandit::ts_sa<>(Eigen::MatrixXd::Ones(3, 20), {.warmup = 2}));
  }
}
