#pragma once
// Uniform indices from 32-bit random values, vectorisable: Lemire's multiply-shift (Lemire
// 2019, "Fast random integer generation in an interval") split into a branch-free map over a
// whole block and an exact test for the rare values that need it.
//
// The index of a 32-bit value x in [0, n), 1 <= n <= 2^32 - 1, is the high half of the product
// x n. It is exactly uniform once values whose product has a low half below 2^32 mod n are
// rejected; that happens with probability below n / 2^32, so a block's loop only ors into an
// integer flag the cheap superset "low half below n" (lemire32_map), and lemire32_accept does
// the exact test, with its division, when the flag is set. Users: the lane engine's
// fill_indices (random/lanes.hpp), TS-SGLD's mini-batches (policies/langevin/uniform_minibatch.hpp,
// kernels/minibatch_sum.hpp).
#include <cstdint>

#include "sabandit/random/bits.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit::detail {

/// The index in [0, n) of the 32-bit value x: the high half of x n.
[[nodiscard]] constexpr std::uint32_t lemire32_index(std::uint32_t x, std::uint32_t n) noexcept {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(x) * n) >> 32U);
}

/// The same index, or-ing 1 into `suspect` when x may have to be rejected (the low half of x n
/// is below n). The flag is a plain integer the caller keeps across a loop: a bool reduction
/// does not vectorise, and a struct of index and flag held in one register made the loops carry
/// a false dependency from value to value.
[[nodiscard]] constexpr std::uint32_t lemire32_map(std::uint32_t x, std::uint32_t n,
                                                   std::uint32_t& suspect) noexcept {
  const std::uint64_t product = static_cast<std::uint64_t>(x) * n;
  suspect |= static_cast<std::uint32_t>(static_cast<std::uint32_t>(product) < n);
  return static_cast<std::uint32_t>(product >> 32U);
}

/// x if it passes the exact test, else the first of the low halves of `gen`'s next words that
/// does: the value whose index is exactly uniform.
template <uniform_random_bit_generator URBG>
[[nodiscard]] std::uint32_t lemire32_accept(std::uint32_t x, std::uint32_t n, URBG& gen) {
  const std::uint32_t threshold = static_cast<std::uint32_t>(0U - n) % n;  // 2^32 mod n
  while (static_cast<std::uint32_t>(static_cast<std::uint64_t>(x) * n) < threshold)
    x = static_cast<std::uint32_t>(random_bits64(gen));
  return x;
}

}  // namespace sabandit::detail
