#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "sabandit/random.hpp"
#include "support/archetypes.hpp"
#include "support/catch.hpp"
#include "support/stat_checks.hpp"

using namespace sabandit;

TEST_CASE("engines model std::uniform_random_bit_generator", "[random]") {
  STATIC_REQUIRE(std::uniform_random_bit_generator<splitmix64>);
  STATIC_REQUIRE(std::uniform_random_bit_generator<xoshiro256pp>);
  STATIC_REQUIRE(std::uniform_random_bit_generator<test::urbg_archetype>);
}

TEST_CASE("splitmix64 matches the published reference outputs", "[random]") {
  // First outputs of Steele/Lea/Flood's SplitMix64 with state 0 (Vigna's splitmix64.c).
  splitmix64 gen(0);
  CHECK(gen() == 0xE220A8397B1DCDAFULL);
  CHECK(gen() == 0x6E789E6AA1B965F4ULL);
  CHECK(gen() == 0x06C45D188009454FULL);
  CHECK(gen() == 0xF88BB8A8724C81ECULL);
}

TEST_CASE("xoshiro256++ matches known answers", "[random]") {
  // From state {0, 0, 0, 1}: the first outputs of the reference xoshiro256plusplus.c,
  // as tabulated by independent ports of it.
  xoshiro256pp gen(xoshiro256pp::state_type{0, 0, 0, 1});
  const std::uint64_t expected[] = {0x0000000000800000ULL, 0x0000000000800011ULL,
                                    0x0002200000800011ULL, 0x0002200044000020ULL,
                                    0x00022000448008A1ULL, 0x01102100802208A0ULL,
                                    0x0114002284200880ULL, 0x0402896644A64095ULL,
                                    0x8A14A0A244ACC891ULL, 0x8C88BA4680B20495ULL};
  for (auto value : expected) CHECK(gen() == value);

  SECTION("seeding expands the seed with SplitMix64") {
    const xoshiro256pp seeded(0);
    CHECK(seeded.state() == xoshiro256pp::state_type{0xE220A8397B1DCDAFULL, 0x6E789E6AA1B965F4ULL,
                                                      0x06C45D188009454FULL, 0xF88BB8A8724C81ECULL});
  }
  SECTION("the all-zero state is never used") {
    const xoshiro256pp zero(xoshiro256pp::state_type{});
    CHECK(zero.state() != xoshiro256pp::state_type{});
  }
}

TEST_CASE("xoshiro256++'s characteristic polynomial, derived from the engine", "[random]") {
  // Berlekamp-Massey over GF(2) on 512 bits of one state bit: a sequence driven by a linear map
  // of 256 bits with a primitive characteristic polynomial has that polynomial as its shortest
  // recurrence, of length 256 (2n bits determine it).
  auto words = xoshiro256pp(123).state();
  std::vector<int> bits;
  for (int i = 0; i < 512; ++i) {
    bits.push_back(static_cast<int>(words[0] & 1U));
    xoshiro256pp::step(words);
  }
  std::vector<int> c(513, 0), b(513, 0);  // connection polynomials, c(x) = 1 + c_1 x + ...
  c[0] = b[0] = 1;
  std::size_t length = 0, shift = 1;
  for (std::size_t i = 0; i < bits.size(); ++i) {
    int discrepancy = bits[i];
    for (std::size_t j = 1; j <= length; ++j) discrepancy ^= c[j] & bits[i - j];
    if (discrepancy == 0) {
      ++shift;
      continue;
    }
    const std::vector<int> previous = c;
    for (std::size_t j = 0; j + shift < c.size(); ++j) c[j + shift] ^= b[j];
    if (2 * length <= i) {
      length = i + 1 - length;
      b = previous;
      shift = 1;
    } else {
      ++shift;
    }
  }
  REQUIRE(length == 256);
  // P(x) = x^256 c(1/x): the coefficient of x^i is c_{256 - i}.
  xoshiro256pp::state_type low{};
  for (std::size_t i = 0; i < 256; ++i)
    if (c[256 - i] != 0) low[i / 64] |= std::uint64_t{1} << (i % 64);
  CHECK(low == xoshiro256pp::characteristic_polynomial);
  // x^(2^256) = x mod P: the order of x divides 2^256 - 1, the period.
  detail::gf2_polynomial power{2, 0, 0, 0};
  for (int k = 0; k < 256; ++k) power = detail::gf2_multiply_mod(power, power, low);
  CHECK(power == detail::gf2_polynomial{2, 0, 0, 0});
}

TEST_CASE("discard(n) skips n outputs, by steps or by the jump polynomial", "[random]") {
  xoshiro256pp base(2026);
  (void)base();
  // Below, at and past the threshold where discard jumps: the state of n calls.
  for (const unsigned long long n : {0ULL, 1ULL, 255ULL, 256ULL, 32767ULL, 32768ULL, 32769ULL,
                                     100'000ULL, 1'000'003ULL}) {
    xoshiro256pp stepped = base, jumped = base;
    for (unsigned long long i = 0; i < n; ++i) (void)stepped();
    jumped.discard(n);
    CHECK(jumped == stepped);
  }
  // Jumps compose as the steps they stand for: 2^63 = 2 x 2^62 = (2^64 - 1) - (2^63 - 1).
  xoshiro256pp a = base, b = base, c = base;
  a.discard(1ULL << 63);
  b.discard(1ULL << 62);
  b.discard(1ULL << 62);
  b.discard(1ULL << 62);
  b.discard(1ULL << 62);
  c.discard((1ULL << 63) - 1);
  c.discard(1);
  a.discard(1ULL << 63);
  c.discard(1ULL << 63);
  CHECK(a == b);
  CHECK(a == c);
  xoshiro256pp d = base;
  d.discard(~0ULL);  // 2^64 - 1 outputs, at once
  d.discard(1);
  CHECK(d == a);
}

TEST_CASE("copies replay and equality compares state", "[random]") {
  xoshiro256pp a(42);
  a.discard(10);
  xoshiro256pp b = a;
  CHECK(a == b);
  for (int i = 0; i < 100; ++i) REQUIRE(a() == b());
  (void)a();
  CHECK_FALSE(a == b);
}

TEST_CASE("streams are deterministic and distinct", "[random]") {
  CHECK(make_stream(1, 2, 3) == make_stream(1, 2, 3));
  std::set<std::uint64_t> firsts;
  for (std::uint64_t experiment = 0; experiment < 4; ++experiment)
    for (std::uint64_t trial = 0; trial < 16; ++trial)
      for (std::uint64_t role = 0; role < 16; ++role)
        firsts.insert(make_stream(experiment, trial, role)());
  CHECK(firsts.size() == 4U * 16U * 16U);
}

TEST_CASE("uniform helpers stay in range for every kind of engine", "[random]") {
  test::urbg_archetype partial;
  std::mt19937 std32(5);
  xoshiro256pp fast(5);
  for (int i = 0; i < 10000; ++i) {
    const double u = uniform01(partial);
    REQUIRE((u >= 0.0 && u < 1.0));
    REQUIRE(uniform_index(std32, 7) < 7U);
    REQUIRE(to_open_unit_interval(fast()) > 0.0);
  }
  CHECK(to_open_unit_interval(0) > 0.0);
  CHECK(to_unit_interval(~0ULL) < 1.0);
}

// Engines that the standard's concept refuses, for the restatement in random/engine.hpp.
struct signed_result_engine {
  static constexpr int min() { return 0; }
  static constexpr int max() { return 9; }
  int operator()() { return 0; }
};
struct empty_range_engine {
  static constexpr unsigned min() { return 3; }
  static constexpr unsigned max() { return 3; }
  unsigned operator()() { return 3; }
};
struct mismatched_bounds_engine {
  static constexpr unsigned long min() { return 0; }
  static constexpr unsigned long max() { return 9; }
  unsigned operator()() { return 0; }
};
struct runtime_bounds_engine {
  static unsigned min() { return 0; }
  static unsigned max() { return 9; }
  unsigned operator()() { return 0; }
};
template <class G>
inline constexpr bool agrees_with_std =
    uniform_random_bit_generator<G> == std::uniform_random_bit_generator<G>;

TEST_CASE("sabandit's engine concept is the standard's", "[random]") {
  STATIC_REQUIRE(uniform_random_bit_generator<xoshiro256pp>);
  STATIC_REQUIRE(uniform_random_bit_generator<std::mt19937>);
  STATIC_REQUIRE(uniform_random_bit_generator<test::urbg_archetype>);
  STATIC_REQUIRE_FALSE(uniform_random_bit_generator<signed_result_engine>);
  STATIC_REQUIRE_FALSE(uniform_random_bit_generator<empty_range_engine>);
  STATIC_REQUIRE_FALSE(uniform_random_bit_generator<mismatched_bounds_engine>);
  STATIC_REQUIRE_FALSE(uniform_random_bit_generator<runtime_bounds_engine>);
  STATIC_REQUIRE_FALSE(uniform_random_bit_generator<double>);
  STATIC_REQUIRE(agrees_with_std<xoshiro256pp> && agrees_with_std<splitmix64> &&
                 agrees_with_std<std::mt19937> && agrees_with_std<std::mt19937_64> &&
                 agrees_with_std<std::minstd_rand> && agrees_with_std<std::ranlux24> &&
                 agrees_with_std<std::knuth_b> && agrees_with_std<test::urbg_archetype> &&
                 agrees_with_std<signed_result_engine> && agrees_with_std<empty_range_engine> &&
                 agrees_with_std<mismatched_bounds_engine> &&
                 agrees_with_std<runtime_bounds_engine> && agrees_with_std<double> &&
                 agrees_with_std<const xoshiro256pp>);
}

TEST_CASE("random_bits64 fills 64 uniform bits from engines of any range", "[random]") {
  // std::ranlux24's range is [0, 2^24): every output carries 24 bits, and three of them, shifted
  // in one after another, are the word (the first one's top 8 bits shifted out).
  std::ranlux24 engine(11), replay(11);
  for (int i = 0; i < 100; ++i) {
    std::uint64_t expected = 0;
    for (int k = 0; k < 3; ++k) expected = (expected << 24U) | replay();
    REQUIRE(random_bits64(engine) == expected);
  }
  // std::minstd_rand spans [1, 2^31 - 2], so 30 bits per accepted output (those below 2^30
  // once less 1; the archetype likewise). Each of the 64 bits is 1 with probability 1/2: over
  // n = 20,000 words its count has standard deviation sqrt(n) / 2 = 70.7, and 5 of them (353.6)
  // bound all 128 counts at once with probability above 1 - 128 * 5.7e-7 (normal tails; the
  // draws are fixed by the seeds).
  std::minstd_rand lcg(12);
  test::urbg_archetype partial;
  constexpr int n = 20000;
  std::array<int, 64> ones_lcg{}, ones_partial{};
  for (int i = 0; i < n; ++i) {
    const std::uint64_t a = random_bits64(lcg), b = random_bits64(partial);
    for (std::size_t bit = 0; bit < 64; ++bit) {
      ones_lcg[bit] += static_cast<int>((a >> bit) & 1U);
      ones_partial[bit] += static_cast<int>((b >> bit) & 1U);
    }
  }
  for (std::size_t bit = 0; bit < 64; ++bit) {
    CAPTURE(bit);
    CHECK(std::abs(ones_lcg[bit] - n / 2) < 5.0 * std::sqrt(double{n}) / 2.0);
    CHECK(std::abs(ones_partial[bit] - n / 2) < 5.0 * std::sqrt(double{n}) / 2.0);
  }
}

#ifdef __SIZEOF_INT128__
// A 128-bit counter engine with outputs in [0, top] (both concepts take unsigned __int128 only
// where the compiler counts it as an unsigned integer: GNU mode, which CMake's default selects;
// __extension__ keeps -Wpedantic quiet about the type).
__extension__ typedef unsigned __int128 uint128;
template <uint128 top>
struct counter128 {
  using result_type = uint128;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return top; }
  result_type next = 0;
  result_type operator()() { return top == ~result_type{0} ? next++ : next++ % (top + 1); }
};
#endif

TEST_CASE("random_bits64 takes a word from one output of an engine wider than 64 bits",
          "[random]") {
#ifdef __SIZEOF_INT128__
  using wide = uint128;
  if constexpr (uniform_random_bit_generator<counter128<~wide{0}>>) {
    // All of [0, 2^128): every output is accepted, and its low 64 bits are the word.
    counter128<~wide{0}> full{(wide{7} << 64U) + 5U};
    CHECK(random_bits64(full) == 5U);
    CHECK(random_bits64(full) == 6U);
    // [0, 2^64]: 2^b = 2^64, so the one output 2^64 is drawn again (it used to hang, b = 0).
    counter128<wide{1} << 64U> edge{(wide{1} << 64U) - 1U};
    CHECK(random_bits64(edge) == ~std::uint64_t{0});
    CHECK(random_bits64(edge) == 0U);  // 2^64 refused, then 0 (the counter wraps past top)
  }
#endif
  SUCCEED("no 128-bit integer type here");
}

// Whether uniform_index(gen, n) compiles for an n of type N (a template, so that a deleted
// overload makes the requirement false instead of the program ill-formed).
template <class N>
concept uniform_index_accepts = requires(xoshiro256pp gen, N n) { uniform_index(gen, n); };

TEST_CASE("uniform_index rejects an empty or negative range, drawing nothing", "[random]") {
  // [0, 0) has no index: n = 0 used to return 0, and a signed -1 converted to 2^64 - 1.
  xoshiro256pp gen(3);
  const xoshiro256pp before = gen;
  CHECK_THROWS_WITH(uniform_index(gen, std::uint64_t{0}),
                    Catch::Contains("n = 0") && Catch::Contains("must be >= 1"));
  CHECK_THROWS_WITH(uniform_index(gen, -1), Catch::Contains("n = -1"));
  CHECK_THROWS_AS(uniform_index(gen, Eigen::Index{0}), std::invalid_argument);
  CHECK(gen == before);  // checked before the engine is called
  CHECK(uniform_index(gen, Eigen::Index{1}) == 0U);
  CHECK(uniform_index(gen, 1U) == 0U);
  // A floating-point n does not compile (2.9 drew from [0, 2); -1.0 converted undefined).
  static_assert(!uniform_index_accepts<double> && !uniform_index_accepts<float>);
  static_assert(uniform_index_accepts<int> && uniform_index_accepts<std::uint64_t>);
}

TEST_CASE("an engine's text with a signed word is refused, the engine unchanged", "[random]") {
  // operator<< writes no sign; the standard's unsigned extraction wraps "-1" to 2^64 - 1, so
  // a probe's "-1 -2 -3 -18446744073709551615" used to be read as a valid state.
  for (const char* text : {"-1 -2 -3 -18446744073709551615", "1 2 3 -4", "+1 2 3 4"}) {
    INFO(text);
    xoshiro256pp engine(5);
    const xoshiro256pp before = engine;
    std::istringstream in(text);
    in >> engine;
    CHECK(in.fail());
    CHECK(engine == before);
  }
  std::istringstream fine(" 1  2\n3 4");
  xoshiro256pp engine(5);
  fine >> engine;
  CHECK_FALSE(fine.fail());
  CHECK(engine.state() == xoshiro256pp::state_type{1, 2, 3, 4});
}

TEST_CASE("uniform_index is uniform", "[random][statistical]") {
  // 7 cells, 700,000 draws: each count ~ Binomial(n, 1/7), sd = sqrt(n p (1-p)) = 292.8;
  // a 5 sigma band per cell (family-wise false alarm < 7 x 5.7e-7).
  xoshiro256pp gen(2024);
  constexpr int n = 700000;
  std::vector<int> counts(7, 0);
  for (int i = 0; i < n; ++i) ++counts[uniform_index(gen, 7)];
  const double sd = std::sqrt(n * (1.0 / 7) * (6.0 / 7));
  for (int c : counts) CHECK(std::abs(c - n / 7.0) < test::z_five_sigma * sd);
}

TEST_CASE("fill_standard_normal equals repeated scalar draws", "[random]") {
  xoshiro256pp a(9), b(9);
  Eigen::MatrixXd m(3, 4);
  fill_standard_normal(m, a);
  for (Eigen::Index j = 0; j < 4; ++j)
    for (Eigen::Index i = 0; i < 3; ++i) REQUIRE(m(i, j) == standard_normal(b));
  SECTION("blocks bind too") {
    Eigen::MatrixXd big = Eigen::MatrixXd::Zero(5, 5);
    fill_standard_normal(big.col(2), a);
    CHECK(big.col(2).cwiseAbs().minCoeff() > 0.0);
    CHECK(big.col(1).isZero());
  }
}

namespace {
// The ziggurat on 10^6 draws, from two engines (full 64-bit and 32-bit std::mt19937).
template <class Engine>
void check_standard_normal(Engine gen) {
  constexpr std::size_t n = 1'000'000;
  std::vector<double> xs(n);
  Eigen::Map<Eigen::VectorXd> view(xs.data(), static_cast<Eigen::Index>(n));
  fill_standard_normal(view, gen);
  const auto m = test::sample_moments(xs);
  const double root_n = std::sqrt(static_cast<double>(n));
  // Sampling sds for N(0,1): mean 1/sqrt(n); variance sqrt(2/n); skewness sqrt(6/n);
  // excess kurtosis sqrt(24/n). Each checked at 5 sigma (false alarm 5.7e-7 each).
  CHECK(std::abs(m.mean) < test::z_five_sigma / root_n);
  CHECK(std::abs(m.variance - 1.0) < test::z_five_sigma * std::sqrt(2.0) / root_n);
  CHECK(std::abs(m.skewness) < test::z_five_sigma * std::sqrt(6.0) / root_n);
  CHECK(std::abs(m.excess_kurtosis) < test::z_five_sigma * std::sqrt(24.0) / root_n);
  // Kolmogorov–Smirnov: P(sqrt(n) D_n > 2.0) = 2 sum (-1)^(k-1) exp(-2 k^2 x^2) ~ 6.7e-4.
  CHECK(test::ks_statistic_standard_normal(xs) < 2.0);
  // The tail path beyond r = 3.6541528853610088: P(|X| > r) = 2.5806e-4, so the count is
  // Binomial(n, p) with sd sqrt(n p) ~ 16.1; 5 sigma band.
  const double p_tail = 2.0 * (1.0 - test::normal_cdf(3.6541528853610088));
  const auto tail = static_cast<double>(
      std::count_if(xs.begin(), xs.end(), [](double x) { return std::abs(x) > 3.6541528853610088; }));
  CHECK(std::abs(tail - n * p_tail) < test::z_five_sigma * std::sqrt(n * p_tail));
  // Symmetry: the sign bit is fair. Count of positives ~ Binomial(n, 1/2), sd = 500.
  const auto positive = static_cast<double>(std::count_if(xs.begin(), xs.end(), [](double x) { return x > 0; }));
  CHECK(std::abs(positive - n / 2.0) < test::z_five_sigma * 500.0);
}
}  // namespace

TEST_CASE("standard normal: moments, KS and tail on 10^6 draws", "[random][statistical]") {
  SECTION("xoshiro256++") { check_standard_normal(xoshiro256pp(20261125)); }
  SECTION("std::mt19937 (32-bit engine path)") { check_standard_normal(std::mt19937(20261125)); }
}

TEST_CASE("xoshiro256pp has seed(), ==, << and >> as std engines do", "[random]") {
  using sabandit::xoshiro256pp;
  xoshiro256pp engine(5);
  (void)engine();
  engine.seed(2026);
  CHECK(engine == xoshiro256pp(2026));
  engine.seed();
  CHECK(engine == xoshiro256pp(0));

  xoshiro256pp original(77), copy(1);
  original.discard(10);
  std::stringstream text;
  text << std::hex << original;  // the engine writes decimal whatever the stream's flags
  CHECK((text.flags() & std::ios_base::basefield) == std::ios_base::hex);
  text >> std::dec >> copy;
  REQUIRE(text);
  CHECK(copy == original);
  CHECK(copy() == original());

  // Garbage and the all-zero state: failbit, and the engine as it was.
  const xoshiro256pp before = copy;
  std::istringstream garbage("1 2 three 4");
  garbage >> copy;
  CHECK(garbage.fail());
  std::istringstream zeros("0 0 0 0");
  zeros >> copy;
  CHECK(zeros.fail());
  CHECK(copy == before);
}
