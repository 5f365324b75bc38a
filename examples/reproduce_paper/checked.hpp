#pragma once
// Strict number parsing and checked integer arithmetic for the reproduction's command line and
// parameter files: a number is read whole or rejected, and a product or sum of counts that
// would overflow 64 bits is an error naming the options, never undefined behaviour.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace repro {

/// A bad command line or parameter file: the message is the whole report, ready for the user.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The whole of `text` as a signed 64-bit integer (decimal, optional '-'), or nothing.
[[nodiscard]] inline std::optional<long long> parse_integer(std::string_view text) {
  long long value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}

/// The whole of `text` as an unsigned 64-bit integer (decimal digits only), or nothing:
/// "-1", "18446744073709551616" and "1e23" are all nothing.
[[nodiscard]] inline std::optional<std::uint64_t> parse_unsigned(std::string_view text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}

/// The whole of `text` as a finite double (decimal or scientific notation), or nothing:
/// "1,5", "1.5abc", "inf", "nan" and hexfloats such as "0x1p-2" are nothing.
[[nodiscard]] inline std::optional<double> parse_real(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, std::chars_format::general);
  if (text.empty() || ec != std::errc{} || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

/// The shortest decimal text that reads back as exactly `value`.
[[nodiscard]] inline std::string format_real(double value) {
  char text[32];
  const auto [ptr, ec] = std::to_chars(text, text + sizeof text, value);
  (void)ec;  // 32 characters always suffice for a double
  return {text, ptr};
}

[[noreturn]] inline void throw_overflow(const std::string& what, long long a, const char* op,
                                        long long b) {
  throw usage_error(what + " is too large: " + std::to_string(a) + op + std::to_string(b) +
                    " overflows 64 bits");
}

/// a * b, or usage_error("<what> is too large: ... overflows 64 bits").
[[nodiscard]] inline long long checked_mul(long long a, long long b, const std::string& what) {
  long long product = 0;
  if (__builtin_mul_overflow(a, b, &product)) throw_overflow(what, a, " x ", b);
  return product;
}

/// a + b, or usage_error("<what> is too large: ... overflows 64 bits").
[[nodiscard]] inline long long checked_add(long long a, long long b, const std::string& what) {
  long long sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) throw_overflow(what, a, " + ", b);
  return sum;
}

}  // namespace repro
