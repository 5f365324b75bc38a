#pragma once
// Exponential variates (durations) from any URBG, by inversion: -mean log U.
#include <cmath>
#include <cstdint>

#include "sabandit/errors.hpp"
#include "sabandit/random/bits.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit {

/// An Exponential(mean) variate, mean in [1e-100, 1e100] (else std::invalid_argument naming
/// it). One engine call: U is the midpoint of one of 2^52 equal cells of [0, 1) (52 bits, so
/// that every midpoint is a double: with 53, the top one rounded to 1), never 0 or 1, so the
/// variate is always finite and > 0, between 1.1e-16 and 36.8 means, as exponential_model's
/// support requires.
template <uniform_random_bit_generator URBG>
[[nodiscard]] double exponential_variate(double mean, URBG& gen) {
  detail::require_scale("mean", mean);
  const auto cell = static_cast<std::int64_t>(random_bits64(gen) >> 12U);
  const double u = (static_cast<double>(cell) + 0.5) * 0x1.0p-52;
  return -mean * std::log(u);
}

}  // namespace sabandit
