#pragma once
/// @file
/// Checkpoint files: save_all()/restore_all() (persist.hpp) on a path. A checkpoint is written
/// to a temporary file beside the target and renamed over it once complete, so that a reader
/// (or a restart after a crash) finds the previous checkpoint or the new one, never a part of
/// one; a file that does not exist or cannot be read or written is reported with its path and
/// the system's reason ("No such file or directory"), apart from a damaged checkpoint
/// (format_error). Not in sabandit.hpp: include it where checkpoints are files.
#include <atomic>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "sabandit/state/persist.hpp"

namespace sabandit::state {

namespace detail {

[[noreturn]] inline void throw_file_error(int error, const std::string& what,
                                          const std::filesystem::path& path,
                                          const std::string& detail = "") {
  throw std::system_error(error != 0 ? error : EIO, std::generic_category(),
                          "sabandit: " + what + " " + printable(path.string(), 256) + detail);
}

// After the blocks restore_file was asked for, only blank lines: a checkpoint holds what
// save_file wrote, so a block left over is an object the caller forgot (an engine, restarted
// from a fresh seed, would no longer replay the run), not data for someone else.
inline void require_end_of_checkpoint(std::istream& in, const std::filesystem::path& path,
                                      std::size_t blocks, std::size_t lines) {
  std::string line;
  while (std::getline(in, line)) {
    ++lines;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    throw format_error("sabandit: the checkpoint file " + printable(path.string(), 256) +
                       " holds more than the " + std::to_string(blocks) +
                       " block(s) asked for: line " + std::to_string(lines) + " is '" +
                       printable(line) +
                       "'; pass restore_file every object that save_file wrote, in order "
                       "(restore_all on a stream reads the first blocks only)");
  }
}

}  // namespace detail

/// Writes `objects` (policies and engines) as one checkpoint file at `path`, replacing it only
/// once the whole checkpoint is written: a temporary file in the same folder, renamed over
/// `path`. Throws std::system_error naming the path and the reason (a missing folder, no
/// permission, a full disk: "No space left on device") and leaves `path` as it was. Not
/// durable across a power loss (no fsync).
template <class... T>
  requires(sizeof...(T) >= 1)
void save_file(const std::filesystem::path& path, const T&... objects) {
  detail::require_blocks<T...>();
  static std::atomic<unsigned> counter{0};
  std::filesystem::path temporary = path;
  temporary += ".tmp-" + std::to_string(counter++);
  try {
    errno = 0;
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    // The path the caller passed is named first: the temporary is ours, not theirs to know.
    const auto through = " (through its temporary " + printable(temporary.string(), 256) + ")";
    if (!out) detail::throw_file_error(errno, "cannot create the checkpoint file", path, through);
    out.exceptions(std::ios::failbit | std::ios::badbit);
    try {
      save_all(out, objects...);
      out.close();
    } catch (const std::ios_base::failure&) {
      detail::throw_file_error(errno, "cannot write the checkpoint file", path, through);
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) detail::throw_file_error(ec.value(), "cannot replace the checkpoint file", path);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw;
  }
}

/// Restores `objects` from the checkpoint file at `path` (restore_all(): all or nothing).
/// A file that does not exist or cannot be read throws std::system_error naming the path and
/// the reason ("No such file or directory"); a damaged checkpoint throws format_error naming
/// the block and the line, as restore_all() does, and so does a file with more blocks than
/// `objects` (save_file(path, policy, engine) restored as restore_file(path, policy)). The
/// objects are then unchanged.
template <class... T>
  requires(sizeof...(T) >= 1)
void restore_file(const std::filesystem::path& path, T&... objects) {
  detail::require_blocks<T...>();
  // A directory opens on Linux and fails at the first read, as a damaged checkpoint would
  // ("reading the stream failed", without the path: a probe's finding).
  if (std::error_code ec; std::filesystem::is_directory(path, ec))
    detail::throw_file_error(EISDIR, "cannot read the checkpoint file", path);
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::error_code ec;
    const bool missing = !std::filesystem::exists(path, ec) && !ec;
    detail::throw_file_error(missing ? ENOENT : errno, "cannot open the checkpoint file", path);
  }
  detail::restore_blocks(in, [&](std::size_t lines) {
    detail::require_end_of_checkpoint(in, path, sizeof...(T), lines);
  }, objects...);
}

}  // namespace sabandit::state
