// The portable fallbacks of detail/compiler.hpp against the GCC/Clang builtins they replace,
// on the values where overflow checks and wide products go wrong: zero, one, minus one, the
// extremes and their neighbours, and the square-root boundary of the type. (The lane engine's
// fallback is compared with the scalar engines by lanes_test.cpp, built with
// SABANDIT_PORTABLE_FALLBACKS as the "lanes portable" variant: tests/CMakeLists.txt.)
#include <cstdint>
#include <limits>
#include <vector>

#include "sabandit/detail/compiler.hpp"
#include "support/catch.hpp"

namespace {

template <class Int>
std::vector<Int> edge_values() {
  using limits = std::numeric_limits<Int>;
  const Int root = static_cast<Int>(Int{1} << (limits::digits / 2));  // root^2 ~ the top
  std::vector<Int> values{Int{0},          Int{1},           Int{2},
                          Int{3},          root,             static_cast<Int>(root - 1),
                          static_cast<Int>(root + 1), limits::max(), static_cast<Int>(limits::max() - 1),
                          static_cast<Int>(limits::max() / 2), static_cast<Int>(limits::max() / 2 + 1),
                          static_cast<Int>(limits::max() / 3)};
  if constexpr (limits::is_signed) {
    const std::size_t positives = values.size();
    for (std::size_t i = 0; i < positives; ++i) values.push_back(static_cast<Int>(-values[i]));
    values.push_back(limits::min());
    values.push_back(static_cast<Int>(limits::min() + 1));
    values.push_back(static_cast<Int>(limits::min() / 2));
  }
  return values;
}

template <class Int>
void compare_with_builtins() {
  for (const Int a : edge_values<Int>()) {
    for (const Int b : edge_values<Int>()) {
      INFO("a = " << +a << ", b = " << +b);
      Int expected{}, got{};
      const bool mul_overflows = __builtin_mul_overflow(a, b, &expected);
      REQUIRE(sabandit::detail::portable::mul_overflow(a, b, &got) == mul_overflows);
      if (!mul_overflows) CHECK(got == expected);
      const bool add_overflows = __builtin_add_overflow(a, b, &expected);
      REQUIRE(sabandit::detail::portable::add_overflow(a, b, &got) == add_overflows);
      if (!add_overflows) CHECK(got == expected);
    }
  }
}

}  // namespace

TEST_CASE("the portable overflow checks agree with the builtins on every edge pair", "[compiler]") {
  compare_with_builtins<std::int64_t>();   // Eigen::Index: state sizes
  compare_with_builtins<std::uint64_t>();  // std::size_t: mini-batch blocks
  compare_with_builtins<std::int32_t>();
  compare_with_builtins<std::uint8_t>();
}

TEST_CASE("the portable high half of a 64 x 64-bit product agrees with __int128", "[compiler]") {
  __extension__ using uint128 = unsigned __int128;
  const auto values = edge_values<std::uint64_t>();
  std::vector<std::uint64_t> words(values.begin(), values.end());
  std::uint64_t x = 0x9E3779B97F4A7C15ULL;  // and 64 words of a Weyl sequence
  for (int i = 0; i < 64; ++i) words.push_back(x += 0x9E3779B97F4A7C15ULL);
  for (const std::uint64_t a : words) {
    for (const std::uint64_t b : words) {
      INFO("a = " << a << ", b = " << b);
      const auto expected = static_cast<std::uint64_t>((static_cast<uint128>(a) * b) >> 64U);
      CHECK(sabandit::detail::portable::mul_high64(a, b) == expected);
    }
  }
}

TEST_CASE("saturating arithmetic stops at the largest value", "[compiler]") {
  constexpr auto top = std::numeric_limits<std::int64_t>::max();
  STATIC_REQUIRE(sabandit::detail::saturating_mul<std::int64_t>(top / 2, 3) == top);
  STATIC_REQUIRE(sabandit::detail::saturating_mul<std::int64_t>(6, 7) == 42);
  STATIC_REQUIRE(sabandit::detail::saturating_add<std::int64_t>(top, 1) == top);
  STATIC_REQUIRE(sabandit::detail::saturating_add<std::int64_t>(40, 2) == 42);
}
