#pragma once
// Validation helpers shared by every public type. Each check throws *before* anything is
// modified, so a rejected call leaves the object exactly as it was (strong guarantee), and
// the message names the offending parameter and its value.
#include <charconv>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

#include <Eigen/Core>

#include "sabandit/detail/compiler.hpp"
#include "sabandit/detail/join.hpp"

namespace sabandit {

/// The numeric contract: the documented bounds every policy and model checks
/// (docs/guarantees.md). Each is chosen from where double arithmetic would break, with room to spare.
namespace bounds {

/// Largest |reward| that update() accepts. With |x| <= 1e150, a sum of 2^53 rewards (more pulls
/// than a double counts exactly) is <= 1e166 and a square <= 1e300, so no sum, mean, window sum,
/// squared residual or Langevin gradient (even divided by a variance >= min_scale) overflows,
/// and a single extreme reward can always be outweighed by later ones.
inline constexpr double reward = 1e150;

/// Largest |prior mean|: the same scale as a reward, since the prior mean is a guess of one.
inline constexpr double prior_mean = 1e150;

/// Smallest scale parameter (temperature, prior variance, noise variance): its reciprocal, a
/// precision, is <= 1e100, so a precision times a sum of rewards stays <= 1e266. Below about
/// 1e-308 the reciprocal is +inf (prior variance 1e-310 made NaN posterior means).
inline constexpr double min_scale = 1e-100;

/// Largest finite scale parameter: a temperature times a bonus or a variance stays far from
/// overflow (UCB with temperature 1e308 gave +inf for every arm, so arm 0 always won).
inline constexpr double max_scale = 1e100;

/// Largest Langevin step size h: h times a gradient (<= 1e250 under the bounds above) stays
/// finite. Stability needs more (h below about 2 sigma^2 / |phi|^2 for the Gaussian); an
/// unstable chain is reported with std::domain_error and leaves the policy unchanged.
inline constexpr double step_size = 1e6;

/// Largest state a policy allocates at construction, in doubles (2^31 doubles, 16 GiB): a fixed
/// bound, not the machine's free memory, so that whether a construction succeeds does not
/// depend on the machine or on other processes. Beyond it the constructor throws
/// std::length_error before allocating anything (ts_sa with K = 10^8 needed 21.6 GB and was
/// killed by the out-of-memory killer).
inline constexpr std::int64_t state_doubles = std::int64_t{1} << 31;

/// Most gradient terms (rewards x dimension, summed over inner steps and arms) that the next
/// round of a restored Langevin policy may compute: 2^28, under a second on one core. A state
/// asking for more (a huge inner_steps N, horizon_schedule horizon T, window or batch size) is
/// rejected by restore(), so that a checkpoint cannot make a service's next round run for
/// minutes, deaf to SIGINT (docs/state-format.md). Constructors do not check it: a policy built
/// by its owner may be as slow as its owner chooses.
inline constexpr std::int64_t round_work = std::int64_t{1} << 28;

/// Largest pull count a restored state may hold: 2^52. A double counts exactly up to 2^53 (at
/// 2^53, adding 1 changes nothing), so that the 2^52 pulls after a restore (52 days at a
/// billion rounds a second) still count, and a total of counts, at most 2^62, cannot overflow a
/// signed 64-bit integer. (A probe restored 1,024 counts of 2^53 whose total was 2^63 - 1: the
/// next round's ++total overflowed.) No real run comes near it.
inline constexpr double restored_count = 0x1p52;

/// Most worker threads a simulation starts (run_config::threads): far more than any machine's
/// hardware threads, which is where more threads stop helping. A larger count is a mistake such
/// as unsigned(-1) (C's -1 for "all"): with 200,000 trials it started threads until
/// std::system_error's "Resource temporarily unavailable", which names nothing.
inline constexpr unsigned threads = 4096;

}  // namespace bounds

/// `text` with every byte outside printable ASCII (and the backslash) written as `\xNN`, cut
/// after `limit` bytes ("..." then): how sabandit's messages, and the example programs', quote
/// what a stream or a file holds, so that a terminal's escape sequences in it are shown, never
/// acted on.
[[nodiscard]] inline std::string printable(std::string_view text, std::size_t limit = 64) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      out += "\\x";
      out.push_back(digits[c >> 4]);
      out.push_back(digits[c & 15]);
    }
  }
  if (text.size() > limit) out += "...";
  return out;
}

}  // namespace sabandit

namespace sabandit::detail {

// A value as a message shows it: a double as the shortest text that reads back as exactly it
// (1e+200, 0.1, 2.2250738585072014e-308; never 9.9999999999999997e+199), in fixed notation for
// exponents -4 to 15 and scientific beyond, as Python's repr chooses; an integer in decimal,
// text as it is. Formatted without a stream, so that a program pays for no stream code to
// report a bad argument; with to_chars, whose text is the same in every locale (snprintf would
// write "0,5" after setlocale(LC_NUMERIC, "de_DE"), as Python may do).
[[nodiscard]] inline std::string value_text(double value) {
  char text[32];  // the longest shortest form, -2.2250738585072014e-308, has 24 characters
  auto written = std::to_chars(text, text + sizeof text, value, std::chars_format::scientific);
  const std::string_view scientific(text, static_cast<std::size_t>(written.ptr - text));
  if (const auto e = scientific.find('e'); e != std::string_view::npos) {
    // The exponent, "+200" or "-05", read digit by digit: std::from_chars would compile
    // <charconv>'s integer parser into every unit that includes this header.
    int exponent = 0;
    for (const char digit : scientific.substr(e + 2)) exponent = 10 * exponent + (digit - '0');
    if (scientific[e + 1] == '-') exponent = -exponent;
    if (exponent >= -4 && exponent < 16)
      written = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed);
  }
  return std::string(text, static_cast<std::size_t>(written.ptr - text));
}
template <class C>
concept character_type = std::same_as<C, char> || std::same_as<C, signed char> ||
                         std::same_as<C, unsigned char> || std::same_as<C, wchar_t> ||
                         std::same_as<C, char8_t> || std::same_as<C, char16_t> ||
                         std::same_as<C, char32_t>;
template <std::integral Int>
  requires(!character_type<Int>)
[[nodiscard]] std::string value_text(Int value) {
  return std::to_string(value);
}
// A character would show as its code ('A' as 65, through either overload above), which no
// message means: naming one is a compile error.
template <character_type C>
std::string value_text(C) = delete;
[[nodiscard]] inline std::string value_text(std::string_view value) { return std::string(value); }

/// A sabandit exception's message without its "sabandit: " prefix, for a caller that puts its
/// own context in front (the simulator's trial and round, a restore's line, a builder's
/// parameters); any other exception's message whole.
[[nodiscard]] inline std::string reason_of(const std::exception& e) {
  std::string_view why = e.what();
  if (why.starts_with("sabandit: ")) why.remove_prefix(10);
  return std::string(why);
}

// "sabandit: <what>: <name> = <value> (<expectation>)", the value already formatted.
[[nodiscard]] inline std::string describe_text(std::string_view what, std::string_view name,
                                               std::string_view value,
                                               std::string_view expectation) {
  return join({"sabandit: ", what, ": ", name, " = ", value, " (", expectation, ")"});
}

template <class T>
[[nodiscard]] std::string describe(std::string_view what, std::string_view name, const T& value,
                                   std::string_view expectation) {
  return describe_text(what, name, value_text(value), expectation);
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
    throw_invalid(name, value, join({"must be >= ", std::to_string(minimum)}));
  }
}

inline void require_arm(Eigen::Index arm, Eigen::Index num_arms) {
  if (arm < 0 || arm >= num_arms) {
    throw std::out_of_range(join({"sabandit: arm index out of range: arm = ",
                                  std::to_string(arm), " (must be in [0, ",
                                  std::to_string(num_arms), "))"}));
  }
}

/// A reward must be finite with |reward| <= bounds::reward (1e150): see bounds::reward.
inline void require_reward(double reward) {
  if (!(std::abs(reward) <= bounds::reward))
    throw_invalid("reward", reward, "must be finite with |reward| <= 1e150, so that sums cannot overflow");
}

/// Whether `value` is in [bounds::min_scale, bounds::max_scale], a scale parameter's range.
[[nodiscard]] inline bool is_scale(double value) {
  return value >= bounds::min_scale && value <= bounds::max_scale;
}
/// A scale parameter (temperature, variance) in [bounds::min_scale, bounds::max_scale].
inline void require_scale(std::string_view name, double value) {
  if (!is_scale(value))
    throw_invalid(name, value,
                  "must be in [1e-100, 1e100], so that its products and reciprocal stay finite");
}
/// A posterior's sampling temperature tau, named as thompson's params name it.
inline void require_temperature(double tau) { require_scale("temperature", tau); }
/// A scale that may also be 0 (a term left out): 0, or in [1e-100, 1e100].
inline void require_zero_or_scale(std::string_view name, double value) {
  if (value != 0.0 && !is_scale(value))
    throw_invalid(name, value,
                  "must be 0 or in [1e-100, 1e100], so that its products stay finite");
}

/// A Langevin step size in (0, bounds::step_size].
inline void require_step_size(std::string_view name, double value) {
  if (!(value > 0.0 && value <= bounds::step_size))
    throw_invalid(name, value, "must be in (0, 1e6], so that h times a gradient stays finite");
}

/// What require_state_size throws: a std::length_error of its own type, so that restoring a
/// saved state can tell "these saved sizes exceed the bound" from any other length error.
class state_size_error : public std::length_error {
 public:
  using std::length_error::length_error;
};

/// Throws state_size_error (a std::length_error) unless `num_arms` x `per_arm` + `shared`
/// doubles (computed without overflow) is within bounds::state_doubles; returns `num_arms`.
/// Called before allocating. `unit` names what `num_arms` counts in the message (the simulator
/// checks recorded points, a contextual policy parameter blocks).
/// A negative `num_arms` passes through: its own check names it. A negative `per_arm` or
/// `shared` (from an invalid window or batch size, named by its own check later) counts as one
/// double per arm and none shared: letting it through skipped the check of a huge K, which was
/// then allocated before the invalid size was noticed.
inline Eigen::Index require_state_size(std::string_view what, Eigen::Index num_arms,
                                       Eigen::Index per_arm, Eigen::Index shared = 0,
                                       std::string_view unit = "arms") {
  if (num_arms < 0) return num_arms;
  if (per_arm < 1) per_arm = 1;
  if (shared < 0) shared = 0;
  Eigen::Index total = 0;
  if (detail::mul_overflow(num_arms, per_arm, &total) ||
      detail::add_overflow(total, shared, &total) || total > bounds::state_doubles) {
    // Callers count with saturating arithmetic: the largest Index means "at least that many".
    const auto count = [](Eigen::Index n) {
      return n == std::numeric_limits<Eigen::Index>::max() ? std::string("at least 2^63 - 1")
                                                            : std::to_string(n);
    };
    throw state_size_error(join({"sabandit: ", what, " needs ", std::to_string(num_arms), " ",
                                 unit, " x ", count(per_arm), " doubles + ", count(shared),
                                 " doubles, beyond the bound of 2^31 doubles (16 GiB) of state "
                                 "(sabandit::bounds::state_doubles)"}));
  }
  return num_arms;
}

/// Whether `got` is `expected` up to the rounding of `count` additions of terms of at most
/// `magnitude`: |got - expected| <= 4 eps (count + 1) magnitude.
[[nodiscard]] inline bool sums_agree(double got, double expected, double count,
                                     double magnitude) noexcept {
  return std::abs(got - expected) <=
         4.0 * std::numeric_limits<double>::epsilon() * (count + 1.0) * magnitude;
}

}  // namespace sabandit::detail

namespace sabandit {
/// The std::length_error a size beyond bounds::state_doubles throws (require_state_size), by
/// its own type: a program can tell "the sizes asked for are too large", a caller's mistake, from
/// any other length error (the experiment programs answer it as a bad command line).
using detail::state_size_error;
}  // namespace sabandit
