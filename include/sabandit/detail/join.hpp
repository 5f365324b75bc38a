#pragma once
// Messages built by one call: join({"arm = ", std::to_string(arm), ...}) instead of a chain of
// operator+, each of whose temporaries the compiler inlines at every site that formats one
// (docs/performance.md, "Compile cost").
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

namespace sabandit::detail {

/// The parts, one after another.
[[nodiscard]] inline std::string join(std::initializer_list<std::string_view> parts) {
  std::size_t length = 0;
  for (const std::string_view part : parts) length += part.size();
  std::string out;
  out.reserve(length);
  for (const std::string_view part : parts) out.append(part.data(), part.size());
  return out;
}

}  // namespace sabandit::detail
