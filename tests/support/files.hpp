#pragma once
// Files for the tests of the reproduction's jobs: fresh scratch folders and whole-file reads.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace test_files {

/// An empty path under the temporary folder, unique to `name` (ctest runs tests in parallel).
inline std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("sabandit_test_" + name);
  std::filesystem::remove_all(dir);
  return dir;
}

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace test_files
