#pragma once
// Corrupting a saved state (docs/state-format.md) the ways that reach past its checksum: byte
// and token edits, truncation, deleted and repeated lines, and, on request, a new checksum over
// the edited block. Without that last edit nearly every corruption would stop at the checksum,
// and the checks behind it (counts, window heads, sizes, parameters) would never be fuzzed.
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

#include "sabandit/state/archive.hpp"

namespace sabandit_fuzz {

namespace detail {

// Where byte `at` (0-255) points in a text of `size` bytes.
[[nodiscard]] inline std::size_t position(unsigned char at, std::size_t size) {
  return size == 0 ? 0 : at * size / 256;
}

[[nodiscard]] inline std::size_t line_start(const std::string& text, std::size_t at) {
  const std::size_t newline = at == 0 ? std::string::npos : text.rfind('\n', at - 1);
  return newline == std::string::npos ? 0 : newline + 1;
}
[[nodiscard]] inline std::size_t line_end(const std::string& text, std::size_t at) {
  const std::size_t newline = text.find('\n', at);
  return newline == std::string::npos ? text.size() : newline + 1;
}

// Replaces the checksum of the first block's `end` line by that of the bytes before it, as the
// reader computes it (every line before `end`, each with its newline).
inline void reseal(std::string& text) {
  std::size_t end = text.starts_with("end ") ? 0 : text.find("\nend ");
  if (end == std::string::npos) return;
  if (end != 0) ++end;
  sabandit::state::detail::fnv1a checksum;
  checksum.add(std::string_view(text).substr(0, end));
  const std::size_t stop = line_end(text, end);
  text.replace(end, stop - end, "end " + sabandit::state::detail::hex(checksum.value()) + "\n");
}

}  // namespace detail

/// `text` after the edits that `edits` encodes, three bytes each (kind, where, value).
[[nodiscard]] inline std::string edited(std::string text, std::string_view edits) {
  // Tokens that cross a boundary of some field: signs, zero, fractions, NaN, infinities, the
  // integer limits, the size bound 2^31, subnormals, and things that are not numbers.
  static constexpr std::string_view tokens[] = {
      "-1", "0", "1", "2", "-0", "0.5", "1e308", "-1e308", "1e151", "nan", "inf", "-inf",
      "9223372036854775807", "-9223372036854775808", "2147483648", "4294967296",
      "18446744073709551615", "5e-324", "", "x", "00", "+1", "0x10", "1 2", "3"};
  for (std::size_t i = 0; i + 2 < edits.size(); i += 3) {
    const auto kind = static_cast<unsigned char>(edits[i]) % 6;
    const std::size_t at = detail::position(static_cast<unsigned char>(edits[i + 1]), text.size());
    const auto value = static_cast<unsigned char>(edits[i + 2]);
    switch (kind) {
      case 0:  // one byte
        if (at < text.size()) text[at] = static_cast<char>(value);
        break;
      case 1:  // truncation
        text.resize(at);
        break;
      case 2: {  // the token at `at` becomes one of `tokens`
        const std::size_t begin = text.find_last_of(" \n", at) == std::string::npos
                                      ? 0
                                      : text.find_last_of(" \n", at) + 1;
        const std::size_t end = std::min(text.find_first_of(" \n", begin), text.size());
        text.replace(begin, end - begin, tokens[value % std::size(tokens)]);
        break;
      }
      case 3:  // the line at `at` deleted
        text.erase(detail::line_start(text, at),
                   detail::line_end(text, at) - detail::line_start(text, at));
        break;
      case 4: {  // the line at `at` repeated
        const std::size_t begin = detail::line_start(text, at);
        text.insert(begin, text.substr(begin, detail::line_end(text, at) - begin));
        break;
      }
      default:
        detail::reseal(text);
        break;
    }
  }
  return text;
}

/// Whether `text` asks for more state than the fuzzer gives what it constructs, but less than
/// the library's bound: K (num_arms, under any scope: epsilon-TS saves it as ts.num_arms)
/// above 64, or K times the per-arm size (window, batch_size) above 2^20 doubles, while
/// below 2^31. Restoring such a text builds, as documented, a policy of up to
/// bounds::state_doubles doubles (16 GiB), beyond the fuzzer's -rss_limit_mb, so the driver
/// does not restore it (the targets cap the sizes they construct for the same reason). Sizes
/// of 2^31 and more are restored: they must be rejected before any allocation. A Langevin
/// policy's K comes from its features matrix, whose values the text must hold: at most the
/// targets' 6 arms.
[[nodiscard]] inline bool asks_for_large_state(std::string_view text) {
  static constexpr std::int64_t most_arms = 64, most_doubles = std::int64_t{1} << 20;
  static constexpr std::int64_t rejected = std::int64_t{1} << 31;
  const auto named = [](std::string_view name, std::string_view field) {
    return name == field || (name.ends_with(field) && name[name.size() - field.size() - 1] == '.');
  };
  std::int64_t arms = 6, per_arm = 1;
  while (!text.empty()) {
    const std::size_t newline = std::min(text.find('\n'), text.size());
    const std::string_view line = text.substr(0, newline);
    text.remove_prefix(std::min(newline + 1, text.size()));
    const std::size_t space = line.find(' ');
    if (space == std::string_view::npos) continue;
    const std::string_view name = line.substr(0, space), value = line.substr(space + 1);
    const bool is_arms = named(name, "num_arms");
    if (!is_arms && !named(name, "window") && !named(name, "batch_size")) continue;
    std::int64_t size = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), size);
    (void)end;
    if (error != std::errc() || size < 1) continue;  // rejected by the reader or the constructor
    if (size >= rejected) return false;  // rejected before allocating: restore it
    (is_arms ? arms : per_arm) = std::max(is_arms ? arms : per_arm, size);
  }
  return arms > most_arms || arms * per_arm > most_doubles;
}

}  // namespace sabandit_fuzz
