// libFuzzer target: reproduce_paper's parameter-file parser, suite_params::from_text (the
// whole of from_file once the file is read). Properties:
//   - it returns, or throws repro::usage_error whose message names the source and, for a line's
//     error, the line ("fuzz:LINE: ...");
//   - what it accepts, written back with to_text(), parses again to the same text (every
//     parameter is read whole and written in a form that reads back exactly).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_input.hpp"
#include "reproduce_paper/suite.hpp"

namespace {

// Window and batch sizes up to the library's bound (2^31 doubles) are valid, and validate()
// builds the policies, so a file with TS-SA.B = 10^9 allocates 16 GB, past libFuzzer's memory
// limit. Such files are skipped: what they cost is documented (docs/guarantees.md).
bool sizes_memory(std::string_view text) {
  constexpr long long limit = 1 << 16;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.find("TS-SA.B") == std::string_view::npos &&
        line.find("TS-SGLD.batch_size") == std::string_view::npos)
      continue;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] < '0' || line[i] > '9') continue;
      std::size_t j = i;
      while (j < line.size() && line[j] >= '0' && line[j] <= '9') ++j;
      if (j - i > 5 || std::stoll(std::string(line.substr(i, j - i))) > limit) return true;
      i = j;
    }
  }
  return false;
}

// Runs `call`: true if it threw repro::usage_error naming the source, false if it returned;
// fails on any other exception.
template <class Call>
bool throws_usage_error(const char* what, Call&& call) {
  try {
    call();
    return false;
  } catch (const repro::usage_error& error) {
    if (std::string_view(error.what()).substr(0, 5) != "fuzz:")
      sabandit_fuzz::fail(std::string(what) + ": a message without its source: " + error.what());
    return true;
  } catch (const std::exception& error) {
    sabandit_fuzz::fail(std::string(what) + " threw " + typeid(error).name() + ": " + error.what());
  } catch (...) {
    sabandit_fuzz::fail(std::string(what) + " threw something that is not a std::exception");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (sizes_memory(text)) return 0;
  std::string written;
  const bool rejected = throws_usage_error(
      "from_text", [&] { written = repro::suite_params::from_text(text, "fuzz").to_text(); });
  if (rejected) return 0;
  std::string again;
  if (throws_usage_error(
          "from_text of to_text's output",
          [&] { again = repro::suite_params::from_text(written, "fuzz").to_text(); }))
    sabandit_fuzz::fail("to_text() wrote a file that from_text() rejects:\n" + written);
  if (again != written) sabandit_fuzz::fail("to_text() does not read back:\n" + written);
  return 0;
}
