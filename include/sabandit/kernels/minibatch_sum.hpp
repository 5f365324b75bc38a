#pragma once
// The sum of a mini-batch picked from a reward history by 32-bit random values: the inner loop
// of TS-SGLD's Gaussian gradient (policies/langevin/uniform_minibatch.hpp), where every pick
// is a load from a random place in the history.
//
// Value x picks rewards[(x n) >> 32] (Lemire's map, random/lemire32.hpp). The sum is defined as
// four partial sums, pick i going to partial i mod 4, combined as (p0 + p1) + (p2 + p3): four
// chains of additions overlap where one would wait on each addition (4 cycles each), and the
// fixed association makes the result the same on every instruction set. An AVX2 copy with one
// vgatherqpd per four picks was measured and dropped: on this project's machine (AMD EPYC, Zen
// 3) it took 27 ns for 32 picks from a hot history against this loop's 19 ns, and was no
// faster inside TS-SGLD's round (tests/unit/minibatch_sum_test.cpp checks the definition).
#include <array>
#include <cstddef>
#include <cstdint>

#include "sabandit/random/lemire32.hpp"

namespace sabandit {

/// A mini-batch's sum, and whether some value may need Lemire's exact test
/// (detail::lemire32_map's flag): then the caller makes the values exact and sums again.
struct minibatch_pick_sum {
  double sum;    ///< (p0 + p1) + (p2 + p3), p_j the sum of picks j, j + 4, ...
  bool suspect;  ///< some product's low half is below n
};

/// The sum of rewards[(picks[i] n) >> 32] over i < batch, in the association described above;
/// `rewards` holds n >= 1 values, n < 2^32. Unrolled by four so that the sums stay in
/// registers.
[[nodiscard]] inline minibatch_pick_sum minibatch_sum(const double* rewards,
                                                      const std::uint32_t* picks,
                                                      std::size_t batch,
                                                      std::uint32_t n) noexcept {
  std::array<double, 4> partial{};
  std::uint32_t suspect = 0;
  const std::size_t whole = batch - batch % 4;  // then pick whole + j goes to partial j
  for (std::size_t i = 0; i < whole; i += 4) {
    for (std::size_t j = 0; j < 4; ++j)
      partial[j] += rewards[detail::lemire32_map(picks[i + j], n, suspect)];
  }
  for (std::size_t j = 0; j < batch % 4; ++j)
    partial[j] += rewards[detail::lemire32_map(picks[whole + j], n, suspect)];
  return {(partial[0] + partial[1]) + (partial[2] + partial[3]), suspect != 0};
}

}  // namespace sabandit
