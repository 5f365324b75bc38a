#pragma once
// Several xoshiro256++ engines advanced in lock step, for blocks of random numbers.
//
// One xoshiro256++ step is a chain of dependent shifts and XORs: a single engine yields one
// 64-bit word every couple of cycles however wide the machine is. L independent engines ("lanes")
// stepped together are L copies of the same integer operations on different data, which a
// compiler turns into vector instructions: two lanes a 128-bit register with the baseline
// x86-64 instruction set (SSE2: 64-bit add, shift, XOR, OR are all there), four with AVX2, eight
// with AVX-512. The code is plain loops over the lanes, so it is the same C++ whatever the
// target, and it never needs -march=native: a user who compiles for AVX2 gets wider vectors,
// and the same numbers.
//
// What comes out is defined without reference to any instruction set:
//  - lane j is exactly the scalar engine xoshiro256pp(seed + 4 j g), g = 0x9e3779b97f4a7c15 (the
//    SplitMix64 expansion of `seed` continued: lane 0 is xoshiro256pp(seed), and lane j starts
//    where lane j-1's seeding stopped), so `make_stream<xoshiro256pp_lanes<>>(seed, trial, role)`
//    derives a lane engine from the same (seed, trial, role) keys as every other stream;
//  - a step produces one word per lane; words come out step by step, lane 0 first;
//  - a block fill starts at a step boundary and consumes whole steps (the words of a last,
//    partly used step are dropped), and 32-bit values are the low then the high half of a word.
// That definition, written with L scalar xoshiro256pp engines, is the scalar fallback the tests
// compare the vectorised code with, bit for bit (tests/unit/lanes_test.cpp, built once as the
// library's users build it and once each with -O3 and -O3 -mavx2).
#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "sabandit/detail/compiler.hpp"
#include "sabandit/random/bits.hpp"
#include "sabandit/random/lemire32.hpp"
#include "sabandit/random/normal.hpp"
#include "sabandit/random/xoshiro.hpp"

// SABANDIT_LANES_AVX2_DISPATCH (detail/compiler.hpp): whether the lane engine compiles an AVX2
// copy of its kernel next to the portable one and picks it at run time.

namespace sabandit {

/// `Lanes` (4 or 8) xoshiro256++ engines stepped together; models
/// std::uniform_random_bit_generator (one word at a time, buffered a step at a time) and fills
/// blocks of words, 32-bit halves, uniform indices and standard normals. A copy is a checkpoint.
template <std::size_t Lanes = 4>
class xoshiro256pp_lanes {
  static_assert(Lanes == 4 || Lanes == 8, "xoshiro256pp_lanes: 4 or 8 lanes");

 public:
  /// Full 64-bit words.
  using result_type = std::uint64_t;
  /// L, the number of lanes: words per step.
  static constexpr std::size_t lanes = Lanes;
  /// The SplitMix64 increment: lane j is seeded with seed + 4 j golden (header comment).
  static constexpr std::uint64_t golden = 0x9e3779b97f4a7c15ULL;

  /// Lane j = xoshiro256pp(seed + 4 j golden); every seed is valid.
  constexpr explicit xoshiro256pp_lanes(std::uint64_t seed = 0) noexcept {
    for (std::size_t j = 0; j < Lanes; ++j) {
      const xoshiro256pp lane(seed + 4U * static_cast<std::uint64_t>(j) * golden);
      for (std::size_t k = 0; k < 4; ++k) state_[k][j] = lane.state()[k];
    }
  }

  /// 0: every 64-bit word can come out.
  static constexpr result_type min() noexcept { return 0; }
  /// 2^64 - 1: all 64 bits are random.
  static constexpr result_type max() noexcept { return std::numeric_limits<result_type>::max(); }

  /// Lane j as a scalar engine at the next step boundary (buffered words not counted).
  [[nodiscard]] constexpr xoshiro256pp lane(std::size_t j) const noexcept {
    return xoshiro256pp(xoshiro256pp::state_type{state_[0][j], state_[1][j], state_[2][j],
                                                 state_[3][j]});
  }

  /// The next word: the words of one step are buffered and handed out lane 0 first.
  constexpr result_type operator()() noexcept {
    if (next_ == Lanes) {
      generate(buffer_.data(), 1);
      next_ = 0;
    }
    return buffer_[next_++];
  }

  /// Fills `out` with the words of ceil(size / L) steps, step by step, lane 0 first. Words
  /// left in operator()'s buffer are dropped first: a block starts at a step boundary.
  void fill(std::span<std::uint64_t> out) noexcept {
    next_ = Lanes;
    const std::size_t full = out.size() / Lanes;
    generate(out.data(), full);
    if (const std::size_t rest = out.size() - full * Lanes; rest != 0) {
      word_block last;
      generate(last.data(), 1);
      std::copy_n(last.begin(), rest, out.begin() + static_cast<std::ptrdiff_t>(full * Lanes));
    }
  }

  /// Fills `out` with 32-bit values: word w gives out[2w] (its low half) and out[2w + 1] (its
  /// high half), from ceil(size / 2L) steps.
  void fill(std::span<std::uint32_t> out) noexcept {
    next_ = Lanes;
    constexpr std::size_t per_step = 2 * Lanes;
    const std::size_t full = out.size() / per_step;
    generate(out.data(), full);  // little-endian: each word's bytes are its low, then high half
    if constexpr (std::endian::native != std::endian::little) {
      for (std::size_t i = 0; i + 1 < full * per_step; i += 2) std::swap(out[i], out[i + 1]);
    }
    if (const std::size_t rest = out.size() - full * per_step; rest != 0) {
      word_block last;
      generate(last.data(), 1);
      for (std::size_t i = 0; i < rest; ++i)
        out[full * per_step + i] = static_cast<std::uint32_t>(last[i / 2] >> (32U * (i % 2)));
    }
  }

  /// Fills `out` with independent uniform indices in [0, n), 1 <= n <= 2^32 - 1: a block of
  /// 32-bit values (fill) mapped by Lemire's multiply-shift in one pass (random/lemire32.hpp).
  /// When some value needs the exact check (probability below n / 2^32 each), the block is
  /// drawn again from a copy of the engine taken before it, the rejected values are redrawn
  /// in order from the engine after the block, and the block is mapped again.
  /// Throws std::invalid_argument naming n for n = 0, an empty range (it filled zeros).
  void fill_indices(std::span<std::uint32_t> out, std::uint32_t n) {
    if (n == 0) [[unlikely]] detail::throw_empty_index_range(0, "fill_indices(out, n)");
    const xoshiro256pp_lanes before = *this;
    fill(out);
    std::uint32_t suspect = 0;
    for (std::uint32_t& x : out) x = detail::lemire32_map(x, n, suspect);
    if (suspect == 0) return;
    *this = before;
    fill(out);
    for (std::uint32_t& x : out) x = detail::lemire32_accept(x, n, *this);
    for (std::uint32_t& x : out) x = detail::lemire32_index(x, n);
  }
  /// Any other type of n is refused at compile time: it would convert silently (-1 to
  /// 2^32 - 1, 5e9 to its low 32 bits). Pass a std::uint32_t.
  template <class N>
    requires(!std::same_as<N, std::uint32_t>)
  void fill_indices(std::span<std::uint32_t>, N) = delete;

  /// Fills `out` with independent N(0, 1) draws: the ziggurat of normal.hpp, its core test
  /// done on a whole chunk of words at once (98.8% of them end there), and the misses finished
  /// one by one, in order, by the scalar slow path with words from this engine after the chunk.
  void fill_normals(std::span<double> out) noexcept {
    const auto& tables = detail::ziggurat();
    constexpr std::size_t chunk = 64;  // a multiple of 8 lanes; 512 bytes of words on the stack
    std::array<std::uint64_t, chunk> words{};
    std::array<std::uint8_t, chunk> inside{};
    for (std::size_t start = 0; start < out.size(); start += chunk) {
      const std::size_t count = std::min(chunk, out.size() - start);
      fill(std::span(words.data(), count));
      std::uint32_t missed = 0;  // an integer, not a bool: see fill_indices
      for (std::size_t i = 0; i < count; ++i) {
        const auto core = detail::ziggurat_core(tables, words[i]);
        out[start + i] = core.value;
        inside[i] = static_cast<std::uint8_t>(core.inside);
        missed |= static_cast<std::uint32_t>(!core.inside);
      }
      if (missed == 0) continue;  // a chunk of 64 has a miss with probability 0.54
      for (std::size_t i = 0; i < count; ++i)
        if (inside[i] == 0) out[start + i] = detail::ziggurat_finish(tables, words[i], *this);
    }
  }

  /// Equal lanes and buffers produce equal futures.
  friend constexpr bool operator==(const xoshiro256pp_lanes&,
                                   const xoshiro256pp_lanes&) = default;

 private:
  using word_block = std::array<std::uint64_t, Lanes>;

  // The lanes as one vector of the compiler's (GCC/Clang vector extensions, else an array:
  // detail/compiler.hpp): element j is lane j. On baseline x86-64 the compiler splits it into
  // SSE2 registers; compiled for AVX2 it is one register. Integer operations only, so every
  // split gives the same words.
  // (Defined outside the template: GCC drops vector_size from a dependent alias.)
  using lane_vector = std::conditional_t<Lanes == 4, detail::u64x4, detail::u64x8>;
  static_assert(sizeof(lane_vector) == sizeof(word_block));

  // `count` steps of every lane, the words of step t stored at out + t L (as bytes, in lane
  // order). The state is loaded into locals first and stored back at the end, so it stays in
  // registers for the whole block.
  SABANDIT_ALWAYS_INLINE static void generate_steps(std::array<word_block, 4>& state,
                                                           void* out, std::size_t count) noexcept {
    lane_vector s0, s1, s2, s3;
    std::memcpy(&s0, state[0].data(), sizeof s0);
    std::memcpy(&s1, state[1].data(), sizeof s1);
    std::memcpy(&s2, state[2].data(), sizeof s2);
    std::memcpy(&s3, state[3].data(), sizeof s3);
    auto* bytes = static_cast<unsigned char*>(out);
    for (std::size_t t = 0; t < count; ++t) {
      const lane_vector sum = s0 + s3;
      const lane_vector words = ((sum << 23U) | (sum >> 41U)) + s0;  // rotl(s0 + s3, 23) + s0
      const lane_vector shifted = s1 << 17U;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= shifted;
      s3 = (s3 << 45U) | (s3 >> 19U);  // rotl(s3, 45)
      std::memcpy(bytes + t * sizeof words, &words, sizeof words);
    }
    std::memcpy(state[0].data(), &s0, sizeof s0);
    std::memcpy(state[1].data(), &s1, sizeof s1);
    std::memcpy(state[2].data(), &s2, sizeof s2);
    std::memcpy(state[3].data(), &s3, sizeof s3);
  }

  // The same code compiled twice: for the target the user chose, and, on x86-64 compilers
  // built for less than AVX2, once more for AVX2, chosen at run time when the processor has it
  // (GCC/Clang's target attribute: still a header, and no -march flag asked of anyone). Both
  // give the same words; the AVX2 one takes four lanes an instruction instead of two.
  SABANDIT_NOINLINE static void generate_portable(std::array<word_block, 4>& state, void* out,
                                                  std::size_t count) noexcept {
    generate_steps(state, out, count);
  }
#if SABANDIT_LANES_AVX2_DISPATCH
  SABANDIT_NOINLINE SABANDIT_TARGET_AVX2 static void generate_avx2(
      std::array<word_block, 4>& state, void* out, std::size_t count) noexcept {
    generate_steps(state, out, count);
  }
#endif
  void generate(void* out, std::size_t count) noexcept {
#if SABANDIT_LANES_AVX2_DISPATCH
    static const bool avx2 = detail::cpu_has_avx2();
    if (avx2) {
      generate_avx2(state_, out, count);
      return;
    }
#endif
    generate_portable(state_, out, count);
  }

  std::array<word_block, 4> state_{};  // state_[k][j]: word k of lane j (lanes side by side)
  word_block buffer_{};                // operator()'s current step
  std::size_t next_ = Lanes;           // operator()'s position in buffer_; Lanes: empty
};

}  // namespace sabandit
