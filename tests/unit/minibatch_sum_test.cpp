// The mini-batch sum kernel (kernels/minibatch_sum.hpp) against its definition: picks mapped
// by Lemire's multiply-shift, four partial sums by position mod 4, (p0 + p1) + (p2 + p3), and
// the "low half below n" flag, bit for bit. The file is also built with -O3 for baseline
// x86-64 and with -O3 -mavx2, next to the lane engine's test (tests/CMakeLists.txt), so the
// association holds whatever the compiler vectorises.
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "sabandit/kernels/minibatch_sum.hpp"
#include "sabandit/random/xoshiro.hpp"
#include "support/catch.hpp"

using namespace sabandit;

namespace {

// The definition, one pick at a time, with no shared code.
minibatch_pick_sum definition(const std::vector<double>& rewards,
                                       const std::vector<std::uint32_t>& picks) {
  const auto n = static_cast<std::uint64_t>(rewards.size());
  std::array<double, 4> partial{};
  bool suspect = false;
  for (std::size_t i = 0; i < picks.size(); ++i) {
    const std::uint64_t product = picks[i] * n;
    partial[i % 4] += rewards[product >> 32U];
    suspect = suspect || (product & 0xffffffffU) < n;
  }
  return {(partial[0] + partial[1]) + (partial[2] + partial[3]), suspect};
}

}  // namespace

TEST_CASE("mini-batch sums are the definition's, bit for bit, with the same suspect flag",
          "[kernels][lanes]") {
  xoshiro256pp gen(2026);
  int suspects = 0;
  int cases = 0;
  // Small histories make suspect values common (probability n / 2^32 per pick is tiny, so
  // some picks are forced to low values below); batch sizes cover empty tails and 1-3 left.
  for (const std::size_t n : {1U, 2U, 3U, 7U, 64U, 1000U, 65537U}) {
    std::vector<double> rewards(n);
    for (auto& r : rewards)  // every bit pattern's magnitude: rounding must match exactly
      r = std::bit_cast<double>((gen() >> 12U) | 0x3ff0000000000000ULL) * 1e3 - 1.5e3;
    for (const std::size_t batch : {1U, 3U, 4U, 5U, 7U, 31U, 32U, 33U, 100U}) {
      for (int repeat = 0; repeat < 20; ++repeat) {
        std::vector<std::uint32_t> picks(batch);
        for (auto& x : picks) x = static_cast<std::uint32_t>(gen() >> 32U);
        if (repeat % 4 == 0) picks[static_cast<std::size_t>(repeat) % batch] = 0;  // low half 0 < n
        const auto expected = definition(rewards, picks);
        const auto got = minibatch_sum(rewards.data(), picks.data(), batch,
                                                static_cast<std::uint32_t>(n));
        CHECK(std::bit_cast<std::uint64_t>(got.sum) == std::bit_cast<std::uint64_t>(expected.sum));
        CHECK(got.suspect == expected.suspect);
        suspects += expected.suspect ? 1 : 0;
        ++cases;
      }
    }
  }
  // Both outcomes of the flag were exercised.
  CHECK(suspects > 0);
  CHECK(suspects < cases);
}

TEST_CASE("the largest 32-bit value picks a history's last reward",
          "[kernels][lanes]") {
  // The largest value maps to the last index: (2^32 - 1) n >> 32 = n - 1 for n >= 1.
  std::vector<double> rewards{1.0, 2.0, 3.0};
  const std::vector<std::uint32_t> picks(8, 0xffffffffU);
  const auto got = minibatch_sum(rewards.data(), picks.data(), picks.size(), 3U);
  CHECK(got.sum == 24.0);
}
