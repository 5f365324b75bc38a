#pragma once
// --help and --version for the example programs that take no other argument, so that
// `policy_table --help` explains the program instead of starting its whole job.
#include <sabandit/version.hpp>

#include <cstdio>
#include <optional>
#include <string_view>

namespace examples {

/// Answers --help/-h and --version, and rejects anything else. Returns the exit status when
/// the program must stop there (0 after help or version, 2 after a bad argument), nothing
/// when it was called without arguments and should run.
inline std::optional<int> answer_help_and_version(int argc, char** argv, const char* name,
                                                  const char* description) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    if (argument == "--help" || argument == "-h") {
      std::printf("Usage: %s [--help] [--version]\n\n%s\n", name, description);
      return 0;
    }
    if (argument == "--version") {
      std::printf("%s (sabandit %s)\n", name, SABANDIT_VERSION_STRING);
      return 0;
    }
    std::fprintf(stderr, "%s: unknown argument '%s'; it takes none but --help and --version\n",
                 name, argv[i]);
    return 2;
  }
  return std::nullopt;
}

}  // namespace examples
