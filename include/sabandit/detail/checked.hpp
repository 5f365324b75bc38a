#pragma once
// Checked integer arithmetic: sizes, horizons, trial counts and budgets are multiplied or
// summed through these, so that an overflow (undefined behaviour on signed integers) becomes a
// clear exception instead.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "sabandit/detail/compiler.hpp"
#include "sabandit/detail/join.hpp"

namespace sabandit::detail {

/// a * b, or std::overflow_error naming `what` if the product does not fit in Int.
template <class Int>
[[nodiscard]] Int checked_mul(Int a, Int b, std::string_view what) {
  Int result{};
  if (mul_overflow(a, b, &result))
    throw std::overflow_error(
        join({"sabandit: ", what, " overflows: ", std::to_string(a), " x ", std::to_string(b)}));
  return result;
}

/// a + b, or std::overflow_error naming `what` if the sum does not fit in Int.
template <class Int>
[[nodiscard]] Int checked_add(Int a, Int b, std::string_view what) {
  Int result{};
  if (add_overflow(a, b, &result))
    throw std::overflow_error(
        join({"sabandit: ", what, " overflows: ", std::to_string(a), " + ", std::to_string(b)}));
  return result;
}

/// ceil(a / b) for a >= 0, b >= 1, without forming a + b - 1 (which overflows near the top).
template <class Int>
[[nodiscard]] constexpr Int ceil_div(Int a, Int b) noexcept {
  return a / b + (a % b != 0 ? 1 : 0);
}

}  // namespace sabandit::detail
