#pragma once
// xoshiro256++ (Blackman & Vigna, "Scrambled linear pseudorandom number generators", 2021),
// seeded through SplitMix64 (Steele, Lea & Flood 2014) as its authors recommend: 256 bits of
// state, period 2^256 - 1, passes BigCrush, and one output costs a handful of ALU operations,
// about 4x cheaper than std::mt19937_64 (bench/random_bench.cpp).
#include <array>
#include <bit>
#include <cstdint>
#include <ios>
#include <istream>
#include <limits>

#include "sabandit/random/gf2_jump.hpp"

namespace sabandit {

/// SplitMix64: a 64-bit counter passed through a strong bijective mixer. Used to expand one
/// seed into an engine state and to derive independent streams (see streams.hpp).
class splitmix64 {
 public:
  /// Full 64-bit words, as std::uniform_random_bit_generator requires a result type.
  using result_type = std::uint64_t;

  /// Starts the counter at `seed`: every seed is valid, including 0 (the mixer hides it).
  constexpr explicit splitmix64(std::uint64_t seed = 0) noexcept : state_(seed) {}

  /// 0: every 64-bit word can come out (the mixer is a bijection).
  static constexpr result_type min() noexcept { return 0; }
  /// 2^64 - 1: with min(), tells samplers that all 64 bits are random.
  static constexpr result_type max() noexcept { return std::numeric_limits<result_type>::max(); }

  /// The next word: advance the Weyl counter, then mix it.
  constexpr result_type operator()() noexcept {
    state_ += 0x9e3779b97f4a7c15ULL;  // golden-ratio increment (Weyl sequence)
    return mix(state_);
  }

  /// The finaliser alone: a bijection of 64-bit words with full avalanche.
  static constexpr std::uint64_t mix(std::uint64_t z) noexcept {
    z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31U);
  }

  /// Equal engines produce equal futures (the state is the counter alone).
  friend constexpr bool operator==(const splitmix64&, const splitmix64&) = default;

 private:
  std::uint64_t state_;
};

/// xoshiro256++ 1.0; models std::uniform_random_bit_generator. Copying an engine copies its
/// stream, so a copied policy + engine replays the same trajectory.
class xoshiro256pp {
 public:
  /// Full 64-bit words (xoshiro256++ has no weak low bits, unlike xoshiro256+).
  using result_type = std::uint64_t;
  /// The 256-bit state, exposed for known-answer tests and checkpoints.
  using state_type = std::array<std::uint64_t, 4>;

  /// Expands `seed` with SplitMix64; never yields the forbidden all-zero state.
  constexpr explicit xoshiro256pp(std::uint64_t seed = 0) noexcept : state_{} {
    splitmix64 expand(seed);
    for (auto& word : state_) word = expand();
  }

  /// Sets the raw state (for known-answer tests); an all-zero state is replaced by seed 0's.
  constexpr explicit xoshiro256pp(const state_type& state) noexcept : state_(state) {
    if (state_ == state_type{}) *this = xoshiro256pp(0);
  }

  /// 0: the output covers every 64-bit word.
  static constexpr result_type min() noexcept { return 0; }
  /// 2^64 - 1: with min(), tells samplers (random/bits.hpp) they may use all 64 bits at once.
  static constexpr result_type max() noexcept { return std::numeric_limits<result_type>::max(); }

  /// The next output, then one step of the linear recurrence (the published algorithm).
  constexpr result_type operator()() noexcept {
    const std::uint64_t result = std::rotl(state_[0] + state_[3], 23) + state_[0];
    step(state_);
    return result;
  }

  /// Skips `count` outputs, as std engines do, in time logarithmic in `count`: from
  /// jump_threshold (2^15) outputs on it jumps by the characteristic polynomial
  /// (random/gf2_jump.hpp), so that discard(2^64 - 1) returns at once. Both routes give the
  /// same state (tests/unit/random_test.cpp).
  constexpr void discard(unsigned long long count) noexcept {
    if (count < jump_threshold) {
      for (; count != 0; --count) step(state_);
    } else {
      state_ = detail::gf2_apply(detail::gf2_power_of_x(count, characteristic_polynomial), state_,
                                 step);
    }
  }

  /// The characteristic polynomial of the state's linear recurrence T, x^256 + these
  /// coefficients (below x^256, in gf2_polynomial's order). It is primitive (the period is
  /// 2^256 - 1); tests/unit/random_test.cpp derives it from the engine by Berlekamp-Massey.
  static constexpr state_type characteristic_polynomial{
      0x9d116f2bb0f0f001ULL, 0x0280002bcefd1a5eULL, 0x04b4edcf26259f85ULL, 0x0003c03c3f3ecb19ULL};

  /// The raw state: save it to checkpoint an engine, pass it to the state constructor to resume.
  [[nodiscard]] constexpr const state_type& state() const noexcept { return state_; }

  /// Restarts the engine as xoshiro256pp(seed) would start, as std engines' seed() does.
  constexpr void seed(std::uint64_t seed = 0) noexcept { *this = xoshiro256pp(seed); }

  /// One step of the linear recurrence T (the state's move in operator()).
  static constexpr void step(state_type& s) noexcept {
    const std::uint64_t t = s[1] << 17U;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = std::rotl(s[3], 45);
  }

  /// Equal states produce equal futures; what the copy-replays-the-trajectory tests compare.
  friend constexpr bool operator==(const xoshiro256pp&, const xoshiro256pp&) = default;

  /// Writes the state as four decimal words separated by spaces, as std engines write theirs
  /// (the stream's format flags are restored afterwards).
  template <class CharT, class Traits>
  friend std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& out,
                                                       const xoshiro256pp& engine) {
    const auto flags = out.flags(std::ios_base::dec | std::ios_base::left);
    const CharT fill = out.fill(out.widen(' '));
    for (std::size_t i = 0; i < engine.state_.size(); ++i) {
      if (i != 0) out << out.widen(' ');
      out << engine.state_[i];
    }
    out.flags(flags);
    out.fill(fill);
    return out;
  }
  /// Reads what operator<< wrote. On a failure, or the all-zero state no engine can have, the
  /// stream's failbit is set and the engine is unchanged.
  template <class CharT, class Traits>
  friend std::basic_istream<CharT, Traits>& operator>>(std::basic_istream<CharT, Traits>& in,
                                                       xoshiro256pp& engine) {
    const auto flags = in.flags(std::ios_base::dec | std::ios_base::skipws);
    state_type read{};
    for (auto& word : read) {
      // operator<< writes no sign, and the standard's unsigned extraction would wrap one ("-1"
      // read as 2^64 - 1): a word that starts with a sign is malformed.
      in >> std::ws;
      if (const auto next = in.peek(); next == Traits::to_int_type(in.widen('-')) ||
                                       next == Traits::to_int_type(in.widen('+')))
        in.setstate(std::ios_base::failbit);
      in >> word;
    }
    in.flags(flags);
    if (in && read == state_type{}) in.setstate(std::ios_base::failbit);
    if (in) engine.state_ = read;
    return in;
  }

 private:
  // Below this count, stepping is faster than the jump's up to 2 log2(count) polynomial
  // products of ~0.45 us (bench/random_bench.cpp: BM_discard against BM_discard_by_steps).
  static constexpr unsigned long long jump_threshold = 1ULL << 15;

  state_type state_;
};

/// The library's default engine.
using default_engine = xoshiro256pp;

}  // namespace sabandit
