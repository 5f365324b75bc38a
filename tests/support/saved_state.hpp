#pragma once
// A policy's (or engine's) saved state as text, for tests that compare states byte for byte.
#include <sstream>
#include <string>

#include "sabandit/state/persist.hpp"

namespace test_state {

/// What state::save writes for `object`.
inline std::string saved(const auto& object) {
  std::ostringstream out;
  sabandit::state::save(out, object);
  return out.str();
}

}  // namespace test_state
