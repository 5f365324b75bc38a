#pragma once
// Validation helpers shared by every public type. Each check throws *before* anything is
// modified, so a rejected call leaves the object exactly as it was (strong guarantee), and
// the message names the offending parameter and its value.
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include <Eigen/Core>

namespace sabandit::detail {

template <class T>
[[nodiscard]] std::string describe(std::string_view what, std::string_view name, const T& value,
                                   std::string_view expectation) {
  std::ostringstream out;
  out.precision(17);
  out << "sabandit: " << what << ": " << name << " = " << value << " (" << expectation << ")";
  return out.str();
}

template <class T>
[[noreturn]] void throw_invalid(std::string_view name, const T& value,
                                std::string_view expectation) {
  throw std::invalid_argument(describe("invalid argument", name, value, expectation));
}

inline void require_finite(std::string_view name, double value) {
  if (!std::isfinite(value)) throw_invalid(name, value, "must be finite");
}

inline void require_positive(std::string_view name, double value) {
  if (!(value > 0.0) || !std::isfinite(value)) throw_invalid(name, value, "must be finite and > 0");
}

inline void require_non_negative(std::string_view name, double value) {
  if (!(value >= 0.0) || !std::isfinite(value))
    throw_invalid(name, value, "must be finite and >= 0");
}

template <class Int>
void require_at_least(std::string_view name, Int value, Int minimum) {
  if (value < minimum) {
    throw_invalid(name, value, "must be >= " + std::to_string(minimum));
  }
}

inline void require_arm(Eigen::Index arm, Eigen::Index num_arms) {
  if (arm < 0 || arm >= num_arms) {
    std::ostringstream out;
    out << "sabandit: arm index out of range: arm = " << arm << " (must be in [0, " << num_arms
        << "))";
    throw std::out_of_range(out.str());
  }
}

inline void require_reward(double reward) { require_finite("reward", reward); }

}  // namespace sabandit::detail
