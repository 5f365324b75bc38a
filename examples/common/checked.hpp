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

#include <Eigen/Core>

namespace repro {

/// A bad command line or parameter file: the message is the whole report, ready for the user.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The whole of `text` as a T (std::from_chars: decimal, no '+', no blanks), or nothing.
template <class T>
[[nodiscard]] std::optional<T> parse_whole(std::string_view text) {
  T value{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}
/// A signed 64-bit integer (decimal, optional '-').
[[nodiscard]] inline std::optional<long long> parse_integer(std::string_view text) { return parse_whole<long long>(text); }
/// An unsigned 64-bit integer: "-1", "18446744073709551616" and "1e23" are nothing.
[[nodiscard]] inline std::optional<std::uint64_t> parse_unsigned(std::string_view text) {
  return parse_whole<std::uint64_t>(text);
}
/// A finite double (decimal or scientific notation): "1,5", "1.5abc", "inf", "nan" and
/// hexfloats such as "0x1p-2" are nothing.
[[nodiscard]] inline std::optional<double> parse_real(std::string_view text) {
  const auto value = parse_whole<double>(text);
  return value && std::isfinite(*value) ? value : std::nullopt;
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

/// The library's recorded_rounds computes k T for k up to the record points: it must fit.
inline void check_run_size(Eigen::Index horizon, Eigen::Index record_points) {
  (void)checked_mul(horizon, record_points, "--horizon (T) x --record-points");
}

}  // namespace repro
