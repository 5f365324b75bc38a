#pragma once
// Decoding a fuzzer's bytes into the values a policy is driven with, and the fuzz targets'
// oracle for exceptions. Values are drawn from tables of boundary cases (the numeric contract's
// bounds and their neighbours, NaN, infinities, signed zeros, subnormals) as often as from raw
// bits: a mutator that flips bytes rarely lands on 1e150 or on the size just beyond
// bounds::state_doubles, and those are where the guarantees are decided.
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iterator>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeinfo>

#include <fuzzer/FuzzedDataProvider.h>

#include <Eigen/Core>

namespace sabandit_fuzz {

/// A property does not hold: report it and abort, which libFuzzer records as a crash with the
/// input that caused it.
[[noreturn]] inline void fail(std::string_view what) {
  std::fprintf(stderr, "sabandit fuzz: property violated: %.*s\n", static_cast<int>(what.size()),
               what.data());
  std::abort();
}

/// The fuzzer's bytes, read as parameters, arm indices, rewards and operations.
class input {
 public:
  input(const std::uint8_t* data, std::size_t size) : in_(data, size) {}

  [[nodiscard]] bool empty() { return in_.remaining_bytes() == 0; }
  [[nodiscard]] bool coin() { return in_.ConsumeBool(); }
  template <class Int>
  [[nodiscard]] Int in_range(Int low, Int high) {
    return in_.ConsumeIntegralInRange<Int>(low, high);
  }
  template <class Int>
  [[nodiscard]] Int any_integer() {
    return in_.ConsumeIntegral<Int>();
  }
  [[nodiscard]] std::string bytes(std::size_t max_length) {
    return in_.ConsumeRandomLengthString(max_length);
  }

  /// Any double: a boundary case, a small multiple of 1/4, or raw bits (any NaN payload).
  [[nodiscard]] double any_double() {
    static constexpr double inf = std::numeric_limits<double>::infinity();
    static constexpr double table[] = {
        0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, 1e-300, 5e-324, 2.2250738585072014e-308,
        1e-100, 9.999999999999999e-101, 1e100, 1.0000000000000002e100, 1e150,
        1.0000000000000002e150, -1e150, -1.0000000000000002e150, 1e300, 1e308,
        std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(), 1e6,
        1.0000000000000002e6, 1e-9, 0.999999999999, 1.0 - 1e-16, 709.78, 745.2, inf, -inf,
        std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN()};
    switch (in_.ConsumeIntegralInRange<int>(0, 2)) {
      case 0:
        return table[in_.ConsumeIntegralInRange<std::size_t>(0, std::size(table) - 1)];
      case 1:
        return 0.25 * in_.ConsumeIntegralInRange<int>(-16, 16);
      default:
        return std::bit_cast<double>(in_.ConsumeIntegral<std::uint64_t>());
    }
  }

  /// A reward: mostly in every model's support (0, 1, small counts), so that runs get past the
  /// warm-up, and otherwise any double.
  [[nodiscard]] double reward() {
    static constexpr double common[] = {0.0, 1.0, 2.0, 0.5, 3.0, 7.0, -1.0, 0.25};
    if (in_.ConsumeIntegralInRange<int>(0, 3) != 0)
      return common[in_.ConsumeIntegralInRange<std::size_t>(0, std::size(common) - 1)];
    return any_double();
  }

  /// A count parameter that sizes memory or work (K, B, a batch, N, a warm-up, a horizon):
  /// small (up to `small_max`), or invalid (zero, negative), or so large that the documented
  /// answer is std::length_error before anything is allocated. Sizes that would be accepted
  /// and only cost time or memory (a window of 2^30) are the caller's choice and not generated.
  [[nodiscard]] Eigen::Index size(Eigen::Index small_max, bool huge_allowed) {
    static constexpr Eigen::Index max = std::numeric_limits<Eigen::Index>::max();
    static constexpr Eigen::Index huge[] = {Eigen::Index{1} << 31, (Eigen::Index{1} << 31) + 1,
                                            Eigen::Index{1} << 40, max / 2, max - 3, max};
    switch (in_.ConsumeIntegralInRange<int>(0, 7)) {
      case 0:
        return in_.ConsumeBool() ? 0 : std::numeric_limits<Eigen::Index>::min();
      case 1:
        return huge_allowed ? huge[in_.ConsumeIntegralInRange<std::size_t>(0, std::size(huge) - 1)]
                            : -1;
      default:
        return in_.ConsumeIntegralInRange<Eigen::Index>(1, small_max);
    }
  }

  /// An arm for update(): half the time one in [0, K), else one just outside it or at the
  /// index type's limits (K >= 1 and below the index type's maximum).
  [[nodiscard]] Eigen::Index arm(Eigen::Index num_arms) {
    static constexpr Eigen::Index max = std::numeric_limits<Eigen::Index>::max();
    if (in_.ConsumeBool()) return in_.ConsumeIntegralInRange<Eigen::Index>(0, num_arms - 1);
    const Eigen::Index bad[] = {-1, num_arms, num_arms + 1, max, -max - 1};
    return bad[in_.ConsumeIntegralInRange<std::size_t>(0, std::size(bad) - 1)];
  }

  /// A count that costs nothing to be large (a multi-armed warm-up that never ends is a choice;
  /// contextual TS-SA sizes its window by its warm-up, so its target draws it with size()).
  [[nodiscard]] Eigen::Index any_count(Eigen::Index small_max) {
    if (in_.ConsumeIntegralInRange<int>(0, 5) == 0) return in_.ConsumeIntegral<Eigen::Index>();
    return in_.ConsumeIntegralInRange<Eigen::Index>(1, small_max);
  }

 private:
  FuzzedDataProvider in_;
};

/// The exceptions an operation may throw (docs/guarantees.md), as a bit set.
enum allowed : unsigned {
  none = 0,
  invalid_argument = 1,
  out_of_range = 2,
  domain_error = 4,
  length_error = 8,
};
constexpr allowed operator|(allowed a, allowed b) {
  return static_cast<allowed>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}

/// Runs `call`; returns the kind of exception it threw if it was one of the `expected` ones with a
/// message naming the library ("sabandit: ..."), `none` if it returned, and fails on anything
/// else.
template <class Call>
allowed thrown_kind(allowed expected, std::string_view operation, Call&& call,
                    std::string_view prefix = "sabandit: ") {
  const auto check = [&](allowed kind, const std::exception& error) {
    if ((expected & kind) == 0)
      fail(std::string(operation) + " threw an undocumented " + typeid(error).name() + ": " +
           error.what());
    if (std::string_view(error.what()).substr(0, prefix.size()) != prefix)
      fail(std::string(operation) + " threw a message without '" + std::string(prefix) +
           "': " + error.what());
    return kind;
  };
  try {
    call();
    return none;
  } catch (const std::length_error& e) {
    return check(length_error, e);
  } catch (const std::out_of_range& e) {
    return check(out_of_range, e);
  } catch (const std::invalid_argument& e) {
    return check(invalid_argument, e);
  } catch (const std::domain_error& e) {
    return check(domain_error, e);
  } catch (const std::exception& e) {
    return check(none, e);
  } catch (...) {
    fail(std::string(operation) + " threw something that is not a std::exception");
  }
}

/// thrown_kind(...) != none: whether `call` threw one of the `expected` exceptions.
template <class Call>
bool throws_documented(allowed expected, std::string_view operation, Call&& call,
                       std::string_view prefix = "sabandit: ") {
  return thrown_kind(expected, operation, call, prefix) != none;
}

}  // namespace sabandit_fuzz
