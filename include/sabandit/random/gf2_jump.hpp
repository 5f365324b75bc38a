#pragma once
// Jumping a linear engine ahead by any number of steps. xoshiro256's state moves by a fixed
// linear map T over GF(2) (xoshiro.hpp; the ++ scrambler only reads it), so n steps are T^n.
// With P the characteristic polynomial of T (degree 256, so P(T) = 0 by Cayley-Hamilton),
// x^n = q(x) mod P gives T^n = q(T): the state after n steps is the sum (xor) of T^i s over the
// coefficients q_i = 1, i < 256. q comes from square-and-multiply on polynomials of degree
// < 256, at most 2 log2(n) products: 64 us for n = 2^64 - 1 (bench/random_bench.cpp), where
// stepping takes n steps (Blackman & Vigna's jump() and long_jump() are the fixed n = 2^128
// and 2^192 of the same construction).
#include <array>
#include <cstdint>

namespace sabandit::detail {

/// A polynomial over GF(2) of degree < 256: bit i % 64 of word i / 64 is the coefficient of x^i.
using gf2_polynomial = std::array<std::uint64_t, 4>;

/// a b mod P, where P = x^256 + `low` (low: P's coefficients below x^256).
[[nodiscard]] constexpr gf2_polynomial gf2_multiply_mod(gf2_polynomial a, const gf2_polynomial& b,
                                                       const gf2_polynomial& low) noexcept {
  // Masks, not branches, on the coefficients: they are random bits, which a branch predictor
  // gets wrong half the time (a product took 4x longer with branches at -O2).
  gf2_polynomial product{};
  for (unsigned i = 0; i < 256; ++i) {
    const std::uint64_t take = 0 - ((b[i / 64] >> (i % 64)) & 1U);  // all ones if b_i = 1
    for (unsigned w = 0; w < 4; ++w) product[w] ^= a[w] & take;
    // a <- x a mod P: shift by one place; an x^256 that falls out is replaced by `low`.
    const std::uint64_t overflow = 0 - (a[3] >> 63);
    for (unsigned w = 3; w > 0; --w) a[w] = (a[w] << 1) | (a[w - 1] >> 63);
    a[0] <<= 1;
    for (unsigned w = 0; w < 4; ++w) a[w] ^= low[w] & overflow;
  }
  return product;
}

/// x^n mod P, where P = x^256 + `low`.
[[nodiscard]] constexpr gf2_polynomial gf2_power_of_x(unsigned long long n,
                                                     const gf2_polynomial& low) noexcept {
  gf2_polynomial result{1, 0, 0, 0};
  gf2_polynomial square{2, 0, 0, 0};  // x^(2^k), k = the bit of n being read
  for (; n != 0; n >>= 1) {
    if ((n & 1U) != 0) result = gf2_multiply_mod(result, square, low);
    if (n > 1) square = gf2_multiply_mod(square, square, low);
  }
  return result;
}

/// q(T) s: the xor of T^i s over the coefficients q_i = 1, where `step(state)` applies T.
template <class Step>
[[nodiscard]] constexpr gf2_polynomial gf2_apply(const gf2_polynomial& q, gf2_polynomial state,
                                                Step step) noexcept {
  gf2_polynomial sum{};
  for (unsigned i = 0; i < 256; ++i) {
    const std::uint64_t take = 0 - ((q[i / 64] >> (i % 64)) & 1U);  // as in gf2_multiply_mod
    for (unsigned w = 0; w < 4; ++w) sum[w] ^= state[w] & take;
    step(state);
  }
  return sum;
}

}  // namespace sabandit::detail
