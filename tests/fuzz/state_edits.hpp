#pragma once
// Corrupting a saved state (docs/state-format.md) the ways that reach past its checksum: byte
// and token edits, truncation, deleted and repeated lines, and, on request, a new checksum over
// the edited block. Without that last edit nearly every corruption would stop at the checksum,
// and the checks behind it (counts, window heads, sizes, parameters) would never be fuzzed.
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "sabandit/state/archive.hpp"

namespace sabandit_fuzz {

/// A saved text without its `awaiting` field (the warm-up's selections awaiting their
/// rewards) and without its checksum: what a select() in the warm-up leaves as it was (it
/// records its arm as awaited, docs/delayed-feedback.md).
[[nodiscard]] inline std::string without_awaiting(const std::string& text) {
  std::istringstream in(text);
  std::string kept;
  for (std::string line; std::getline(in, line);) {
    const std::string name = line.substr(0, line.find(' '));
    if (name == "awaiting" || name.ends_with(".awaiting") || name == "end") continue;
    kept += line + '\n';
  }
  return kept;
}

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

/// Whether `text` has a TS-SGLD batch size between 2^20 and 2^31. Its scratch is the one size
/// that the block's numbers need not back (reader::require_backed; K and TS-SA's window must
/// be), so restoring it allocates, as documented, up to bounds::state_doubles doubles
/// (16 GiB), beyond the fuzzer's -rss_limit_mb: the driver does not restore such texts (the
/// targets cap the sizes they construct for the same reason). Sizes of 2^31 and more are
/// restored: they must be rejected before any allocation.
[[nodiscard]] inline bool asks_for_large_state(std::string_view text) {
  static constexpr std::int64_t most_restored = std::int64_t{1} << 20;
  static constexpr std::int64_t rejected = std::int64_t{1} << 31;
  static constexpr std::string_view field = "params.batch_size ";
  for (std::size_t at = text.find(field); at != std::string_view::npos;
       at = text.find(field, at + 1)) {
    if (at != 0 && text[at - 1] != '\n') continue;
    const std::string_view value = text.substr(at + field.size());
    std::int64_t size = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), size);
    (void)end;
    if (error == std::errc() && size > most_restored && size < rejected) return true;
  }
  return false;
}

}  // namespace sabandit_fuzz
