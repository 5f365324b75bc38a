#pragma once
// Every compiler-specific construct the library uses, in one place (issue 19: portability).
// The library is built and tested with GCC >= 12 and Clang >= 14, which have all of them; each
// has a portable fallback, so that another C++20 compiler builds the same results (defining
// SABANDIT_PORTABLE_FALLBACKS selects the fallbacks on GCC and Clang too: the unit tests compare
// both, tests/unit/compiler_test.cpp):
//  - overflow-checked integer arithmetic (__builtin_mul_overflow, __builtin_add_overflow);
//  - the high half of a 64 x 64-bit product (unsigned __int128), for Lemire's uniform index;
//  - 4 and 8 lanes of 64-bit words as one value (the vector_size extension), for the
//    multi-lane engine (random/lanes.hpp); the fallback is a loop over an array;
//  - inlining attributes ([[gnu::noinline]], [[gnu::always_inline]], [[gnu::cold]]), which
//    others ignore;
//  - an AVX2 copy of a function chosen at run time (gnu::target, __builtin_cpu_supports), only
//    on x86-64 with GCC or Clang (random/lanes.hpp, SABANDIT_LANES_AVX2_DISPATCH).
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#if (defined(__GNUC__) || defined(__clang__)) && !defined(SABANDIT_PORTABLE_FALLBACKS)
#define SABANDIT_GNU_EXTENSIONS 1
#else
#define SABANDIT_GNU_EXTENSIONS 0
#endif

#if SABANDIT_GNU_EXTENSIONS
/// Keeps a function out of line (a rare path that would bloat its callers).
#define SABANDIT_NOINLINE [[gnu::noinline]]
/// Inlines a function even where the compiler would not (a hot loop's body).
#define SABANDIT_ALWAYS_INLINE [[gnu::always_inline]] inline
/// Marks a function that runs rarely (once per arm or per object): the compiler optimizes it
/// for size and keeps it out of its callers, which costs every unit that uses it less compile
/// time and leaves its arithmetic, hence its results, as they are.
#define SABANDIT_COLD [[gnu::cold]]
#else
#define SABANDIT_NOINLINE
#define SABANDIT_ALWAYS_INLINE inline
#define SABANDIT_COLD
#endif

namespace sabandit::detail {

namespace portable {

/// a * b into `result`, true if it overflows Int (then `result` is unspecified).
template <std::integral Int>
[[nodiscard]] constexpr bool mul_overflow(Int a, Int b, Int* result) noexcept {
  constexpr Int high = std::numeric_limits<Int>::max();
  constexpr Int low = std::numeric_limits<Int>::min();
  bool overflow = false;
  if (a != 0 && b != 0) {
    if constexpr (std::is_unsigned_v<Int>) {
      overflow = a > high / b;
    } else if (a > 0) {
      overflow = b > 0 ? a > high / b : b < low / a;
    } else {
      overflow = b > 0 ? a < low / b : a < high / b;  // a, b < 0: a b > 0, a b <= high
    }
  }
  if (!overflow) *result = static_cast<Int>(a * b);
  return overflow;
}

/// a + b into `result`, true if it overflows Int (then `result` is unspecified).
template <std::integral Int>
[[nodiscard]] constexpr bool add_overflow(Int a, Int b, Int* result) noexcept {
  const bool overflow = b > 0 ? a > std::numeric_limits<Int>::max() - b
                              : a < std::numeric_limits<Int>::min() - b;
  if (!overflow) *result = static_cast<Int>(a + b);
  return overflow;
}

/// The high 64 bits of the 128-bit product a b, from four 32 x 32-bit products.
[[nodiscard]] constexpr std::uint64_t mul_high64(std::uint64_t a, std::uint64_t b) noexcept {
  constexpr std::uint64_t half = 0xFFFFFFFFU;
  const std::uint64_t a_lo = a & half, a_hi = a >> 32U, b_lo = b & half, b_hi = b >> 32U;
  const std::uint64_t low = a_lo * b_lo;
  const std::uint64_t middle1 = a_hi * b_lo + (low >> 32U);  // < 2^64: no carry lost
  const std::uint64_t middle2 = a_lo * b_hi + (middle1 & half);
  return a_hi * b_hi + (middle1 >> 32U) + (middle2 >> 32U);
}

/// Lanes 64-bit words as one value with the element-wise operators the lane engine uses (what
/// the vector_size extension gives GCC and Clang; a compiler may vectorise these loops too).
template <std::size_t Lanes>
struct u64_lanes {
  std::uint64_t word[Lanes];  ///< lane j's word

  friend constexpr u64_lanes operator+(u64_lanes x, const u64_lanes& y) noexcept {
    for (std::size_t j = 0; j < Lanes; ++j) x.word[j] += y.word[j];
    return x;
  }
  friend constexpr u64_lanes operator|(u64_lanes x, const u64_lanes& y) noexcept {
    for (std::size_t j = 0; j < Lanes; ++j) x.word[j] |= y.word[j];
    return x;
  }
  friend constexpr u64_lanes& operator^=(u64_lanes& x, const u64_lanes& y) noexcept {
    for (std::size_t j = 0; j < Lanes; ++j) x.word[j] ^= y.word[j];
    return x;
  }
  friend constexpr u64_lanes operator<<(u64_lanes x, unsigned shift) noexcept {
    for (std::size_t j = 0; j < Lanes; ++j) x.word[j] <<= shift;
    return x;
  }
  friend constexpr u64_lanes operator>>(u64_lanes x, unsigned shift) noexcept {
    for (std::size_t j = 0; j < Lanes; ++j) x.word[j] >>= shift;
    return x;
  }
};

}  // namespace portable

#if SABANDIT_GNU_EXTENSIONS
/// a * b into `result`, true if it overflows Int (then `result` is unspecified).
template <std::integral Int>
[[nodiscard]] constexpr bool mul_overflow(Int a, Int b, Int* result) noexcept {
  return __builtin_mul_overflow(a, b, result);
}
/// a + b into `result`, true if it overflows Int (then `result` is unspecified).
template <std::integral Int>
[[nodiscard]] constexpr bool add_overflow(Int a, Int b, Int* result) noexcept {
  return __builtin_add_overflow(a, b, result);
}
#else
using portable::add_overflow;
using portable::mul_overflow;
#endif

/// a * b, or the largest Int if that overflows: for size estimates, where "too much" is enough.
template <std::integral Int>
[[nodiscard]] constexpr Int saturating_mul(Int a, Int b) noexcept {
  Int r{};
  return mul_overflow(a, b, &r) ? std::numeric_limits<Int>::max() : r;
}

/// a + b, or the largest Int if that overflows.
template <std::integral Int>
[[nodiscard]] constexpr Int saturating_add(Int a, Int b) noexcept {
  Int r{};
  return add_overflow(a, b, &r) ? std::numeric_limits<Int>::max() : r;
}

/// The high 64 bits of the 128-bit product a b.
[[nodiscard]] constexpr std::uint64_t mul_high64(std::uint64_t a, std::uint64_t b) noexcept {
#if SABANDIT_GNU_EXTENSIONS && defined(__SIZEOF_INT128__)
  __extension__ using uint128 = unsigned __int128;
  return static_cast<std::uint64_t>((static_cast<uint128>(a) * b) >> 64U);
#else
  return portable::mul_high64(a, b);
#endif
}

#if SABANDIT_GNU_EXTENSIONS
/// Four 64-bit lanes as one value (GCC/Clang vector extension).
using u64x4 = std::uint64_t __attribute__((vector_size(32)));
/// Eight 64-bit lanes as one value.
using u64x8 = std::uint64_t __attribute__((vector_size(64)));
#else
/// Four 64-bit lanes as one value (portable fallback).
using u64x4 = portable::u64_lanes<4>;
/// Eight 64-bit lanes as one value (portable fallback).
using u64x8 = portable::u64_lanes<8>;
#endif

}  // namespace sabandit::detail

// Whether the lane engine compiles an AVX2 copy of its kernel next to the portable one and
// picks it at run time: on x86-64 with GCC or Clang, unless the code is already compiled for
// AVX2 (then the portable copy is AVX2) or the user defines it to 0.
#ifndef SABANDIT_LANES_AVX2_DISPATCH
#if SABANDIT_GNU_EXTENSIONS && defined(__x86_64__) && !defined(__AVX2__)
#define SABANDIT_LANES_AVX2_DISPATCH 1
#else
#define SABANDIT_LANES_AVX2_DISPATCH 0
#endif
#endif

#if SABANDIT_LANES_AVX2_DISPATCH
/// Compiles a function for AVX2 whatever the flags (called only where cpu_has_avx2()).
#define SABANDIT_TARGET_AVX2 [[gnu::target("avx2")]]
namespace sabandit::detail {
/// Whether the processor running the program has AVX2.
[[nodiscard]] inline bool cpu_has_avx2() noexcept { return __builtin_cpu_supports("avx2") != 0; }
}  // namespace sabandit::detail
#endif
