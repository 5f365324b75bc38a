#pragma once
// A policy's (or engine's) saved state as text, for tests that compare states byte for byte,
// and forged states: one field's token replaced, the checksum recomputed.
#include <sstream>
#include <string>
#include <vector>

#include "sabandit/state/persist.hpp"
#include "support/catch.hpp"

namespace test_state {

/// What state::save writes for `object`.
inline std::string saved(const auto& object) {
  std::ostringstream out;
  sabandit::state::save(out, object);
  return out.str();
}

/// Recomputes a block's checksum after an edit, to reach the checks behind it (a forged block).
inline std::string reseal(const std::string& block) {
  const auto end = block.rfind("end ");
  sabandit::state::detail::fnv1a checksum;
  checksum.add(block.substr(0, end));
  return block.substr(0, end) + "end " + sabandit::state::detail::hex(checksum.value()) + "\n";
}

/// `text` with token `index` (0: the first value after the name) of the field `name` set to
/// `value`, re-sealed: a forged state that only the consistency checks can reject.
inline std::string with_token(const std::string& text, const std::string& name,
                              std::size_t index, const std::string& value) {
  const auto at = text.find("\n" + name + " ");
  REQUIRE(at != std::string::npos);
  const auto start = at + 1;
  const auto end = text.find('\n', start);
  std::vector<std::string> tokens;
  std::istringstream split(text.substr(start, end - start));
  for (std::string token; split >> token;) tokens.push_back(token);
  REQUIRE(index + 1 < tokens.size());
  tokens[index + 1] = value;
  std::string line;
  for (const auto& token : tokens) line += (line.empty() ? "" : " ") + token;
  return reseal(text.substr(0, start) + line + text.substr(end));
}

}  // namespace test_state
