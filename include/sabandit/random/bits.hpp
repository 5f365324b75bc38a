#pragma once
// Turning any uniform random bit generator (random/engine.hpp) into 64 random bits and uniform
// doubles. Full-range 64-bit engines (the library's own) cost one call; full-range 32-bit
// engines (std::mt19937) two; any other engine b bits per call (below).
#include <concepts>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "sabandit/detail/compiler.hpp"
#include "sabandit/detail/join.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit {

/// 64 uniformly random bits from any URBG.
template <uniform_random_bit_generator URBG>
[[nodiscard]] inline std::uint64_t random_bits64(URBG& gen) {
  using result = typename URBG::result_type;
  constexpr auto lo = URBG::min();
  constexpr auto hi = URBG::max();
  if constexpr (lo == 0 && std::numeric_limits<result>::digits == 64 &&
                hi == std::numeric_limits<result>::max()) {
    return static_cast<std::uint64_t>(gen());
  } else if constexpr (lo == 0 && hi == 0xffffffffULL) {
    const auto high = static_cast<std::uint64_t>(gen());
    return (high << 32U) | static_cast<std::uint64_t>(gen());
  } else {
    // An engine whose outputs, less min(), span [0, R] with R + 1 neither 2^32 nor 2^64
    // (std::minstd_rand, std::ranlux24, a 128-bit engine where the compiler has the type, an
    // engine of the user's own). An output below 2^b, the largest power of two at most R + 1,
    // carries b uniform bits; larger ones are drawn again (fewer than half of them). From
    // b >= 64 one such output's low 64 bits are the word; below, ceil(64 / b) of them, shifted
    // in one after another, fill it. Written here rather than through
    // std::uniform_int_distribution, whose <random> would cost every unit that draws
    // (random/engine.hpp).
    using word = std::conditional_t<(std::numeric_limits<result>::digits > 64), result,
                                    std::uint64_t>;
    constexpr word range = static_cast<word>(hi) - static_cast<word>(lo);
    constexpr int b = [] {
      if (range == std::numeric_limits<word>::max()) return std::numeric_limits<word>::digits;
      int bits = 0;
      for (word n = (range + 1) >> 1U; n != 0; n >>= 1U) ++bits;
      return bits;
    }();
    const auto draw = [&gen] {  // an output below 2^b, less min()
      for (;;) {
        const word x = static_cast<word>(gen()) - static_cast<word>(lo);
        if constexpr (b == std::numeric_limits<word>::digits) {
          return x;
        } else if (x < (word{1} << b)) {
          return x;
        }
      }
    };
    if constexpr (b >= 64) {
      return static_cast<std::uint64_t>(draw());  // 2^b is a multiple of 2^64
    } else {
      std::uint64_t bits = 0;
      for (int filled = 0; filled < 64; filled += b)
        bits = (bits << b) | static_cast<std::uint64_t>(draw());
      return bits;
    }
  }
}

/// The 53 high bits as a double in [0, 1): every value a multiple of 2^-53. The detour through
/// a signed integer is exact (the value is below 2^53) and lets x86-64 without AVX-512 convert
/// with one instruction instead of an unsigned-conversion sequence.
[[nodiscard]] constexpr double to_unit_interval(std::uint64_t bits) noexcept {
  return static_cast<double>(static_cast<std::int64_t>(bits >> 11U)) * 0x1.0p-53;
}

/// A double in (0, 1]: safe to take the logarithm of.
[[nodiscard]] constexpr double to_open_unit_interval(std::uint64_t bits) noexcept {
  return static_cast<double>(static_cast<std::int64_t>((bits >> 11U) + 1U)) * 0x1.0p-53;
}

/// A double in [0, 1) from the engine's top 53 bits (every value a multiple of 2^-53): the
/// library's own uniform, so that results do not depend on the standard library's
/// std::uniform_real_distribution, and one engine call where the engine gives 64 bits.
template <uniform_random_bit_generator URBG>
[[nodiscard]] inline double uniform01(URBG& gen) {
  return to_unit_interval(random_bits64(gen));
}

namespace detail {
// errors.hpp's invalid-argument message, written without errors.hpp, which would bring Eigen
// to a header that needs none; out of line, off the draw's path. `call` is the drawing
// function as its caller writes it (uniform_index, the lane engine's fill_indices).
[[noreturn]] SABANDIT_NOINLINE inline void throw_empty_index_range(
    long long n, const char* call = "uniform_index(gen, n)") {
  throw std::invalid_argument(join({"sabandit: invalid argument: n = ", std::to_string(n),
                                    " (must be >= 1: ", call, " draws from [0, n))"}));
}
}  // namespace detail

/// A uniform index in [0, n), n >= 1, by Lemire's multiply-shift: one engine call, no division.
/// Without the rejection step its bias is at most n / 2^64, far below anything measurable.
/// Throws std::invalid_argument naming n for n = 0, an empty range (n = 0 used to give 0).
template <uniform_random_bit_generator URBG>
[[nodiscard]] inline std::uint64_t uniform_index(URBG& gen, std::uint64_t n) {
  if (n == 0) [[unlikely]] detail::throw_empty_index_range(0);
  return detail::mul_high64(random_bits64(gen), n);
}

/// The same for a signed n (an int or Eigen::Index count): throws std::invalid_argument naming
/// n for n < 1, where the conversion to std::uint64_t would turn -1 into 2^64 - 1.
template <uniform_random_bit_generator URBG, std::signed_integral Int>
[[nodiscard]] inline std::uint64_t uniform_index(URBG& gen, Int n) {
  if (n < 1) [[unlikely]] detail::throw_empty_index_range(static_cast<long long>(n));
  return uniform_index(gen, static_cast<std::uint64_t>(n));
}

/// A floating-point n is refused at compile time: its conversion would truncate (2.9 draws
/// from [0, 2)) or be undefined (-1.0, 1e30). Pass an integer count.
template <uniform_random_bit_generator URBG, std::floating_point Real>
std::uint64_t uniform_index(URBG&, Real) = delete;

namespace detail {

/// Runs `body(engine)` on a local copy of a small value engine (xoshiro256++, SplitMix64) and
/// stores the copy back; any other engine is passed through. Why: a loop that draws through a
/// reference and also reads a table of 64-bit words cannot prove the two apart, so it stores
/// the engine's state to memory on every draw; a local whose address never escapes lives in
/// registers. The results are the same words in the same order, so no stream changes.
/// (std::mt19937_64 is trivially copyable too, but 2.5 KB: copying it would cost more.)
template <uniform_random_bit_generator URBG, class Body>
inline void with_local_engine(URBG& gen, Body&& body) {
  if constexpr (std::is_trivially_copyable_v<URBG> && sizeof(URBG) <= 64) {
    URBG local = gen;
    body(local);
    gen = local;
  } else {
    body(gen);
  }
}

}  // namespace detail
}  // namespace sabandit
