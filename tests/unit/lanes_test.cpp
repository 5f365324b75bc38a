// The multi-lane engine (random/lanes.hpp) against its definition written with scalar engines:
// the same numbers, bit for bit. This file is also built as its own executables with -O3 and
// with -O3 -mavx2 (tests/CMakeLists.txt), so the vectorised code of each instruction set, and
// the run-time AVX2 kernel of a baseline build, are each compared with the one scalar
// definition.
#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "sabandit/random.hpp"
#include "support/catch.hpp"
#include "support/stat_checks.hpp"

using namespace sabandit;

namespace {

constexpr std::uint64_t seed = 2026;

/// The definition of xoshiro256pp_lanes<L>'s output, with L scalar engines: lane j is
/// xoshiro256pp(seed + 4 j golden); a step is one word of each lane, lane 0 first; a block
/// starts at a step boundary. The scalar fallback the header comment speaks of.
template <std::size_t L>
class scalar_lanes {
 public:
  using result_type = std::uint64_t;
  explicit scalar_lanes(std::uint64_t s) {
    for (std::size_t j = 0; j < L; ++j)
      engines_.push_back(xoshiro256pp(s + 4U * j * xoshiro256pp_lanes<L>::golden));
  }
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }
  result_type operator()() {
    const auto word = engines_[next_]();
    next_ = (next_ + 1) % L;
    return word;
  }
  /// Drops the rest of a partly used step.
  void to_step_boundary() {
    while (next_ != 0) (void)(*this)();
  }
  std::vector<std::uint64_t> words(std::size_t count) {
    to_step_boundary();
    std::vector<std::uint64_t> out(count);
    for (auto& w : out) w = (*this)();
    to_step_boundary();
    return out;
  }
  std::vector<std::uint32_t> halves(std::size_t count) {
    const auto w = words((count + 1) / 2);
    std::vector<std::uint32_t> out(count);
    for (std::size_t i = 0; i < count; ++i)
      out[i] = static_cast<std::uint32_t>(w[i / 2] >> (32U * (i % 2)));
    return out;
  }
  /// Exact Lemire: (x n) >> 32, a value whose product's low half is below 2^32 mod n replaced,
  /// in order, by the low halves of the words after the block.
  std::vector<std::uint32_t> indices(std::size_t count, std::uint32_t n) {
    auto out = halves(count);
    const std::uint32_t threshold = static_cast<std::uint32_t>(0U - n) % n;
    for (auto& x : out) {
      while (static_cast<std::uint32_t>(static_cast<std::uint64_t>(x) * n) < threshold)
        x = static_cast<std::uint32_t>((*this)());
      x = static_cast<std::uint32_t>((static_cast<std::uint64_t>(x) * n) >> 32U);
    }
    return out;
  }
  /// Ziggurat: chunks of 64 first words; a word outside its layer's core finishes with the
  /// scalar slow path on the words after the chunk, in order.
  std::vector<double> normals(std::size_t count) {
    const auto& z = detail::ziggurat();
    std::vector<double> out;
    for (std::size_t start = 0; start < count; start += 64) {
      const auto w = words(std::min<std::size_t>(64, count - start));
      for (const auto word : w) {
        const auto core = detail::ziggurat_core(z, word);
        out.push_back(core.inside ? core.value : detail::ziggurat_finish(z, word, *this));
      }
    }
    return out;
  }

 private:
  std::vector<xoshiro256pp> engines_;
  std::size_t next_ = 0;
};

}  // namespace

TEMPLATE_TEST_CASE_SIG("xoshiro256pp_lanes is L scalar xoshiro256++ engines, bit for bit",
                       "[random][lanes]", ((std::size_t L), L), 4, 8) {
  STATIC_REQUIRE(std::uniform_random_bit_generator<xoshiro256pp_lanes<L>>);
  xoshiro256pp_lanes<L> lanes(seed);
  scalar_lanes<L> scalar(seed);

  SECTION("lane j is xoshiro256pp(seed + 4 j golden), lane 0 the engine of the seed") {
    CHECK(lanes.lane(0) == xoshiro256pp(seed));
    for (std::size_t j = 0; j < L; ++j)
      CHECK(lanes.lane(j) == xoshiro256pp(seed + 4U * j * xoshiro256pp_lanes<L>::golden));
  }
  SECTION("words: whole steps and a partial step, which is dropped") {
    for (const std::size_t count : {std::size_t{3 * L}, std::size_t{1}, std::size_t{L + 3},
                                    std::size_t{1000}}) {
      std::vector<std::uint64_t> block(count);
      lanes.fill(std::span(block));
      REQUIRE(block == scalar.words(count));
    }
  }
  SECTION("operator() hands out a step lane by lane; a block then starts a new step") {
    for (int i = 0; i < 3; ++i) REQUIRE(lanes() == scalar());
    std::vector<std::uint64_t> block(2 * L);
    lanes.fill(std::span(block));
    REQUIRE(block == scalar.words(2 * L));
    REQUIRE(lanes() == scalar());
  }
  SECTION("32-bit values: the low then the high half of each word") {
    for (const std::size_t count : {std::size_t{64}, std::size_t{2 * L + 1}, std::size_t{7}}) {
      std::vector<std::uint32_t> block(count);
      lanes.fill(std::span(block));
      REQUIRE(block == scalar.halves(count));
    }
  }
  SECTION("uniform indices, including ranges where a quarter of the values are redrawn") {
    // n = 3 2^30: 2^32 mod n = 2^30, so each value is rejected with probability 1/4 and the
    // redraw order is exercised; n = 37 and 10^6: rejections are rare.
    for (const std::uint32_t n : {37U, 1000000U, 3U << 30U, 1U}) {
      std::vector<std::uint32_t> block(333);
      lanes.fill_indices(block, n);
      REQUIRE(block == scalar.indices(333, n));
    }
  }
  SECTION("standard normals, slow paths included") {
    // 5,000 draws reach the ziggurat's wedge and tail ~60 times (1.2% of first words).
    for (const std::size_t count : {std::size_t{5000}, std::size_t{10}, std::size_t{65}}) {
      std::vector<double> block(count);
      lanes.fill_normals(block);
      REQUIRE(block == scalar.normals(count));
    }
  }
  SECTION("copies replay") {
    (void)lanes();
    auto copy = lanes;
    std::vector<double> a(100), b(100);
    lanes.fill_normals(a);
    copy.fill_normals(b);
    CHECK(a == b);
    CHECK(lanes == copy);
  }
}

// Whether fill_indices(out, n) compiles for an n of type N (see random_test's
// uniform_index_accepts).
template <class N>
concept fill_indices_accepts =
    requires(xoshiro256pp_lanes<> lanes, std::vector<std::uint32_t> out, N n) {
      lanes.fill_indices(out, n);
    };

TEST_CASE("xoshiro256pp_lanes: an empty index range is refused, drawing nothing", "[random][lanes]") {
  // [0, 0) has no index: n = 0 filled zeros (a probe's finding; a signed n no longer compiles).
  xoshiro256pp_lanes<> lanes(seed);
  const auto before = lanes;
  std::vector<std::uint32_t> block(7, 9U);
  CHECK_THROWS_WITH(lanes.fill_indices(block, 0U), Catch::Contains("n = 0"));
  CHECK(lanes == before);
  CHECK(block == std::vector<std::uint32_t>(7, 9U));
  static_assert(!fill_indices_accepts<int> && !fill_indices_accepts<long long>);
  static_assert(fill_indices_accepts<std::uint32_t>);
}

TEST_CASE("xoshiro256pp_lanes: exact uniform indices and normals", "[random][lanes][statistical]") {
  xoshiro256pp_lanes<> lanes(seed);
  SECTION("index mod 3 at n = 3 2^30 is uniform (without the rejection it is 1/2, 1/4, 1/4)") {
    // (x n) >> 32 = floor(3x / 4): without rejection, residues 0, 1, 2 of the index have
    // probabilities 1/2, 1/4, 1/4. Chi-square with 2 degrees of freedom on 300,000 draws:
    // P(chi2 > 30) = e^-15 = 3e-7; the biased map would give chi2 ~ 25,000.
    std::vector<std::uint32_t> block(300000);
    lanes.fill_indices(block, 3U << 30U);
    std::array<double, 3> count{};
    for (const auto x : block) count[x % 3] += 1.0;
    double chi2 = 0.0;
    for (const double c : count) chi2 += (c - 1e5) * (c - 1e5) / 1e5;
    CHECK(chi2 < 30.0);
  }
  SECTION("normals: Kolmogorov-Smirnov against N(0, 1)") {
    // sqrt(n) D_n > 1.95 has probability 0.001 under the null (asymptotic KS law).
    std::vector<double> block(100000);
    lanes.fill_normals(block);
    CHECK(test::ks_statistic_standard_normal(block) < 1.95);
  }
}
