#pragma once
// The saved-state text format (docs/state-format.md), version 1: a block of lines
//   sabandit-state 1 <type>
//   <name> <value>                    scalars
//   <name> <n> <v1> ... <vn>          vectors
//   <name> <rows> <cols> <values>     matrices, column-major
//   end <checksum>
// Fields are read by name, in any order; a field a later version added is read with
// optional() and takes its default when absent; a field the reader does not know is ignored.
// Numbers are written with std::to_chars (the shortest text that reads back to the same
// double, so a restore is bit-exact) and read with std::from_chars on the whole token. The
// checksum (FNV-1a, 64 bits, over every byte before the `end` line) rejects a stream that was
// truncated or altered; the field names, counts and ranges reject one that was built by hand
// for another type, another size or an impossible state.
//
// One function per stateful class lists its fields once, for both directions:
//   template <class Self, class Archive> static void persist(Self& self, Archive& ar);
// `writer` takes const fields; `reader` writes into them, and `Archive::reading` tells a
// persist function whether it must rebuild a derived value or re-run a constructor's checks.
#include <algorithm>
#include <charconv>
#include <concepts>
#include <cstdint>
#include <istream>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "sabandit/detail/compiler.hpp"
#include "sabandit/errors.hpp"

namespace sabandit::state {

/// The format version this library writes and the newest it reads (it reads every version
/// from 1 to this one; docs/state-format.md, "Versions").
inline constexpr int format_version = 1;

namespace detail {

inline constexpr std::string_view magic = "sabandit-state";

// FNV-1a (Fowler, Noll, Vo): one multiply per byte, and any single changed byte changes it.
class fnv1a {
 public:
  void add(std::string_view bytes) noexcept {
    for (const char c : bytes) {
      hash_ ^= static_cast<unsigned char>(c);
      hash_ *= 0x100000001b3ULL;
    }
  }
  [[nodiscard]] std::uint64_t value() const noexcept { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

[[nodiscard]] inline std::string hex(std::uint64_t value) {
  char text[17];
  const auto result = std::to_chars(text, text + 16, value, 16);
  return std::string(16 - static_cast<std::size_t>(result.ptr - text), '0') +
         std::string(text, result.ptr);
}

/// The shortest text that reads back to `value` (std::to_chars): what the writer stores, and
/// what error messages quote, so that a rejected value is shown exactly.
template <class T>
[[nodiscard]] std::string number_text(T value) {
  char text[64];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return {text, result.ptr};
}

template <class T>
void append_number(std::string& line, T value) {  // no temporary string: a history has many
  char text[64];
  const auto result = std::to_chars(text, text + sizeof text, value);
  line.push_back(' ');
  line.append(text, result.ptr);
}

using sabandit::printable;

// Field names qualified by the members they belong to ("params.prior.variance").
class scoped_names {
 public:
  /// Runs `fields` with every name prefixed by `scope.` (a member object's own fields).
  template <class Fields>
  void nest(std::string_view scope, Fields&& fields) {
    const auto size = prefix_.size();
    prefix_.append(scope).push_back('.');
    fields();
    prefix_.resize(size);
  }

 protected:
  [[nodiscard]] std::string qualified(std::string_view name) const {
    return prefix_ + std::string(name);
  }

 private:
  std::string prefix_;
};

}  // namespace detail

/// Thrown for a stream that cannot be restored: truncated, altered, another version or type,
/// or a state no policy could reach. Derives from std::invalid_argument (bad input).
class format_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Writes one state block to a stream (the `save` direction of a persist function).
class writer : public detail::scoped_names {
 public:
  /// persist functions read fields and construct nothing.
  static constexpr bool reading = false;

  /// Starts the block of an object of type `type` (a word: no spaces).
  writer(std::ostream& out, std::string_view type) : out_(out) {
    std::string header(detail::magic);
    header += ' ' + std::to_string(format_version) + ' ';
    header += type;
    emit(std::move(header));
  }

  /// A scalar field: a double (any value, infinities included) or an integer.
  template <class T>
    requires std::is_arithmetic_v<T>
  void operator()(std::string_view name, const T& value) {
    std::string line = qualified(name);
    detail::append_number(line, value);
    emit(std::move(line));
  }
  /// The same with a range, which only the reader checks.
  template <class T>
    requires std::is_arithmetic_v<T>
  void operator()(std::string_view name, const T& value, T /*lowest*/, T /*highest*/) {
    (*this)(name, value);
  }

  /// A scalar field that a later version added (reader::optional): written like the others.
  template <class T>
    requires std::is_arithmetic_v<T>
  void optional(std::string_view name, const T& value, T /*fallback*/) {
    (*this)(name, value);
  }
  /// The same with a range, which only the reader checks.
  template <class T>
    requires std::is_arithmetic_v<T>
  void optional(std::string_view name, const T& value, T /*fallback*/, T /*lowest*/,
                T /*highest*/) {
    (*this)(name, value);
  }

  /// A scalar field that a later version renamed (reader::renamed): written under its new name.
  template <class T>
    requires std::is_arithmetic_v<T>
  void renamed(std::string_view name, std::string_view /*old_name*/, const T& value) {
    (*this)(name, value);
  }

  /// An Eigen vector or matrix (its shape, then its entries in column-major order).
  template <class Derived>
  void operator()(std::string_view name, const Eigen::PlainObjectBase<Derived>& values) {
    std::string line = qualified(name);
    if constexpr (Derived::ColsAtCompileTime != 1) detail::append_number(line, values.rows());
    detail::append_number(line, Derived::ColsAtCompileTime == 1 ? values.rows() : values.cols());
    for (Eigen::Index i = 0; i < values.size(); ++i) detail::append_number(line, values.data()[i]);
    emit(std::move(line));
  }
  /// The same with a range for every entry, which only the reader checks.
  template <class Derived, class T>
  void operator()(std::string_view name, const Eigen::PlainObjectBase<Derived>& values,
                  T /*lowest*/, T /*highest*/) {
    (*this)(name, values);
  }

  /// A matrix whose shape the saved parameters decide (a policy's features).
  void shaped(std::string_view name, const Eigen::MatrixXd& values) { (*this)(name, values); }

  /// A vector of doubles whose length the state decides (a reward history).
  void operator()(std::string_view name, const std::vector<double>& values) {
    std::string line = qualified(name);
    detail::append_number(line, values.size());
    for (const double x : values) detail::append_number(line, x);
    emit(std::move(line));
  }

  /// Checks are the reader's: nothing to do when writing.
  void require(bool /*condition*/, std::string_view /*what*/) const noexcept {}
  /// The same.
  void require_backed(std::string_view /*name*/, std::int64_t /*count*/,
                      std::int64_t /*per*/ = 1) const noexcept {}


  /// Ends the block with its checksum; throws std::ios_base::failure if the stream failed.
  void finish() {
    out_ << "end " << detail::hex(checksum_.value()) << '\n';
    out_.flush();
    if (!out_) throw std::ios_base::failure("sabandit: writing the saved state failed");
  }

 private:
  void emit(std::string line) {
    line.push_back('\n');
    checksum_.add(line);
    out_ << line;
  }

  std::ostream& out_;
  detail::fnv1a checksum_;
};

/// Where a block sits in its stream, for error messages: the block's position among the
/// blocks one call reads (0: a call that reads one block) and the stream's line number, counted
/// from where the call began reading, of the block's first line.
struct block_location {
  int index = 0;             ///< 1-based position among several blocks; 0 for a single one
  int count = 0;             ///< how many blocks the call reads
  std::size_t first_line = 1;  ///< line number of the block's header
};

/// Reads one state block (the `restore` direction of a persist function). The whole block is
/// read and its checksum verified at construction, before any field is parsed. Fields are
/// looked up by name, in any order (docs/state-format.md, "Versions"): a field the type lists
/// but the block lacks is an error unless the type reads it with optional(), which gives it
/// its default; a field the block has but the type does not list (one a later version added)
/// is ignored. Every error names the block and the line.
class reader : public detail::scoped_names {
 public:
  /// persist functions write fields and re-run checks.
  static constexpr bool reading = true;

  /// Reads a block up to its `end` line. Throws format_error if the stream cannot be read or
  /// ends first, the checksum differs, a field name appears twice, or the header is not
  /// `sabandit-state <version> <type>` with a version this library reads.
  reader(std::istream& in, std::string_view type, block_location where = {})
      : where_(where), type_(type) {
    if (!in) {
      fail("the input stream is not readable (a file that does not exist or could not be "
           "opened?)");
    }
    // The header first, so that a foreign stream is named as such and not read to its end.
    std::string line;
    if (!std::getline(in, line)) fail(in.bad() ? "reading the stream failed" : "the stream is empty");
    const std::string magic = std::string(detail::magic) + ' ';
    if (!line.starts_with(magic))
      fail("not a sabandit state (the first line is '" + detail::printable(line, 64) + "')");
    const std::string_view rest = std::string_view(line).substr(magic.size());
    const std::string_view version_text = rest.substr(0, rest.find(' '));
    int version = 0;
    const auto parsed =
        std::from_chars(version_text.data(), version_text.data() + version_text.size(), version);
    // As save writes it: digits without a leading zero ("01" was read as 1).
    if (parsed.ec != std::errc{} || parsed.ptr != version_text.data() + version_text.size() ||
        version < 1 || version > format_version || version_text.size() == rest.size() ||
        version_text.front() == '0')
      fail("format version " + detail::printable(version_text, 16) +
           " is not a version this library reads (1 to " + std::to_string(format_version) + ")");
    const std::size_t header_size = magic.size() + version_text.size() + 1;
    detail::fnv1a checksum;
    bool ended = false;
    do {
      if (line.starts_with("end ")) {
        ended = true;
        break;
      }
      checksum.add(line);
      checksum.add("\n");
      values_ += values_on(line);
      lines_.push_back(std::move(line));
    } while (std::getline(in, line));
    if (!ended) {
      fail(in.bad() ? "reading the stream failed"
                    : "the stream ends before the block's `end` line (truncated?)",
           lines_.size());
    }
    if (line.substr(4) != detail::hex(checksum.value()))
      fail("checksum mismatch: the saved state was altered or damaged", lines_.size());
    const std::string_view header = lines_.front();
    if (header.substr(header_size) != type) {
      // The trailer would name the type expected as the block's: the message names both.
      fail("the state is of type '" + detail::printable(header.substr(header_size), 64) +
               "', not '" + std::string(type) + "'",
           0, false);
    }
    index_.reserve(lines_.size() - 1);
    for (std::size_t i = 1; i < lines_.size(); ++i) index_.emplace_back(name_of(lines_[i]), i);
    std::stable_sort(index_.begin(), index_.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    for (std::size_t i = 1; i < index_.size(); ++i) {
      if (index_[i].first == index_[i - 1].first)
        fail("the field '" + detail::printable(index_[i].first, 64) + "' appears twice (also at line " +
                 std::to_string(line_number(index_[i - 1].second)) + ")",
             index_[i].second);
    }
  }

  /// The stream's lines this block took, its `end` line included (where the next block starts).
  [[nodiscard]] std::size_t lines_read() const noexcept { return lines_.size() + 1; }

  /// A scalar field. Doubles may be infinite (a flat prior's variance), never NaN.
  template <class T>
    requires std::is_arithmetic_v<T>
  void operator()(std::string_view name, T& value) {
    auto tokens = field(name);
    expect_count(name, tokens, 1);
    value = parse<T>(name, tokens.front());
  }
  /// A scalar field that must lie in [lowest, highest].
  template <class T>
    requires std::is_arithmetic_v<T>
  void operator()(std::string_view name, T& value, T lowest, T highest) {
    T read{};
    (*this)(name, read);
    if (!(read >= lowest && read <= highest))
      fail(qualified(name) + " = " + detail::number_text(read) + " is outside [" +
           detail::number_text(lowest) + ", " + detail::number_text(highest) + "]");
    value = read;
  }

  /// A scalar field that a later version added: read like the others when the block has it,
  /// else `value` becomes `fallback`, the value that reproduces what the versions without the
  /// field did (docs/state-format.md, "Versions").
  template <class T>
    requires std::is_arithmetic_v<T>
  void optional(std::string_view name, T& value, T fallback) {
    if (has(name)) {
      (*this)(name, value);
    } else {
      value = fallback;
    }
  }
  /// The same, a present value in [lowest, highest].
  template <class T>
    requires std::is_arithmetic_v<T>
  void optional(std::string_view name, T& value, T fallback, T lowest, T highest) {
    if (has(name)) {
      (*this)(name, value, lowest, highest);
    } else {
      value = fallback;
    }
  }

  /// A scalar field that a later version renamed: read under `name`, or under `old_name` from a
  /// block written before the rename (docs/state-format.md, "Versions").
  template <class T>
    requires std::is_arithmetic_v<T>
  void renamed(std::string_view name, std::string_view old_name, T& value) {
    (*this)(has(name) ? name : old_name, value);
  }

  /// Whether the block has the field `name` (in the present scope).
  [[nodiscard]] bool has(std::string_view name) const { return find(qualified(name)) != 0; }

  /// An Eigen vector or matrix of the target's present shape (the constructor sized it from
  /// the saved parameters, so a shape mismatch means a damaged or foreign stream). Entries
  /// must be finite.
  template <class Derived>
  void operator()(std::string_view name, Eigen::PlainObjectBase<Derived>& values) {
    using Scalar = typename Derived::Scalar;
    read_array(name, values, std::numeric_limits<Scalar>::lowest(),
               std::numeric_limits<Scalar>::max());
  }
  /// The same, every entry in [lowest, highest].
  template <class Derived, class T>
  void operator()(std::string_view name, Eigen::PlainObjectBase<Derived>& values, T lowest,
                  T highest) {
    read_array(name, values, static_cast<typename Derived::Scalar>(lowest),
               static_cast<typename Derived::Scalar>(highest));
  }

  /// A matrix of finite entries of the saved shape, at most bounds::state_doubles entries.
  void shaped(std::string_view name, Eigen::MatrixXd& values) {
    read_array(name, values, std::numeric_limits<double>::lowest(),
               std::numeric_limits<double>::max(), /*any_shape=*/true);
  }

  /// A vector of finite doubles of the saved length, at most bounds::state_doubles.
  void operator()(std::string_view name, std::vector<double>& values) {
    auto tokens = field(name);
    if (tokens.empty()) fail(qualified(name) + " has no length");
    const auto size = parse<std::int64_t>(name, tokens.front());
    if (size < 0 || size > bounds::state_doubles)
      fail(qualified(name) + " has length " + std::to_string(size) + ", outside [0, 2^31]");
    expect_count(name, tokens, static_cast<std::size_t>(size) + 1);
    std::vector<double> read(static_cast<std::size_t>(size));
    for (std::size_t i = 0; i < read.size(); ++i) read[i] = finite(name, tokens[i + 1]);
    values = std::move(read);
  }

  /// Rejects the stream unless `condition` holds (an invariant between fields); the message
  /// names the line of the field read last.
  void require(bool condition, std::string_view what) const {
    if (!condition) fail("inconsistent state: " + std::string(what));
  }

  /// Rejects the stream unless the block holds at least `count` x `per` values: the check a
  /// saved size (K, TS-SA's window) passes before the object is rebuilt from it and allocates
  /// for it. The state saved with such a size holds that many values (per-arm statistics, the
  /// window buffer), so a genuine state passes, and an altered one can make a restore allocate
  /// only in proportion to its own text (each value is at least two bytes of it). Negative
  /// sizes pass: the constructor names them.
  void require_backed(std::string_view name, std::int64_t count, std::int64_t per = 1) const {
    std::int64_t needed = 0;
    if (count <= 0 || per <= 0) return;
    if (sabandit::detail::mul_overflow(count, per, &needed) || needed > values_)
      fail(qualified(name) + " = " + std::to_string(count) + " asks for a state of " +
           (per == 1 ? std::to_string(count) : std::to_string(count) + " x " + std::to_string(per)) +
           " values, but the block holds only " + std::to_string(values_));
  }

  /// Ends the read. Fields the type did not ask for are ignored: a later version's additions
  /// (docs/state-format.md, "Versions").
  void finish() const noexcept {}

  /// Throws format_error with `why`, naming the block (and its type, unless `with_type` is
  /// false) and the line of the field read last (or `line`, an index into the block: 0 is its
  /// header).
  [[noreturn]] void fail(const std::string& why, std::size_t line, bool with_type = true) const {
    std::string where;  // "block 2 of 3 'type', line 9", "block 'type', line 9", "line 9"
    if (where_.index > 0)
      where = "block " + std::to_string(where_.index) + " of " + std::to_string(where_.count);
    if (with_type) where += (where.empty() ? "block '" : " '") + detail::printable(type_, 64) + "'";
    if (!where.empty()) where += ", ";
    where += "line " + std::to_string(line_number(line));
    throw format_error("sabandit: cannot restore the saved state: " + why + " (" + where + ")");
  }
  /// The same at the line of the field read last.
  [[noreturn]] void fail(const std::string& why) const { fail(why, current_); }

 private:
  [[nodiscard]] std::size_t line_number(std::size_t line) const noexcept {
    return where_.first_line + line;
  }
  [[nodiscard]] static std::string name_of(std::string_view line) {
    return std::string(line.substr(0, line.find(' ')));
  }
  // The line of the field `name` (0: none; line 0 is the header).
  [[nodiscard]] std::size_t find(const std::string& name) const {
    const auto at = std::lower_bound(index_.begin(), index_.end(), name,
                                     [](const auto& entry, const std::string& key) {
                                       return entry.first < key;
                                     });
    return at != index_.end() && at->first == name ? at->second : 0;
  }

  // The tokens after the name of the field `name`.
  std::vector<std::string_view> field(std::string_view name) {
    const std::string expected = qualified(name);
    const std::size_t at = find(expected);
    if (at == 0) fail("the field '" + expected + "' is missing", 0);  // at: the block's header
    current_ = at;
    const std::string_view line = lines_[at];
    std::vector<std::string_view> tokens;
    std::size_t start = expected.size();
    while (start < line.size()) {
      if (line[start] != ' ') fail("malformed field '" + expected + "'");
      const std::size_t end = std::min(line.find(' ', start + 1), line.size());
      tokens.push_back(line.substr(start + 1, end - start - 1));
      start = end;
    }
    return tokens;
  }

  void expect_count(std::string_view name, const std::vector<std::string_view>& tokens,
                    std::size_t count) const {
    if (tokens.size() != count)
      fail(qualified(name) + " has " + std::to_string(tokens.size()) + " values, expected " +
           std::to_string(count));
  }

  template <class T>
  T parse(std::string_view name, std::string_view token) const {
    T value{};
    const auto result = std::from_chars(token.data(), token.data() + token.size(), value);
    if (result.ec != std::errc{} || result.ptr != token.data() + token.size())
      fail(qualified(name) + ": '" + detail::printable(token, 40) + "' is not a number of its type");
    if constexpr (std::is_floating_point_v<T>) {
      if (value != value) fail(qualified(name) + " is NaN");
    }
    return value;
  }
  double finite(std::string_view name, std::string_view token) const {
    const auto value = parse<double>(name, token);
    if (!std::isfinite(value)) fail(qualified(name) + " has a non-finite entry");
    return value;
  }

  template <class Derived, class Scalar>
  void read_array(std::string_view name, Eigen::PlainObjectBase<Derived>& values, Scalar lowest,
                  Scalar highest, bool any_shape = false) {
    auto tokens = field(name);
    constexpr bool vector = Derived::ColsAtCompileTime == 1;
    const std::size_t shape = vector ? 1 : 2;
    if (tokens.size() < shape) fail(qualified(name) + " has no shape");
    const auto rows = parse<Eigen::Index>(name, tokens[0]);
    const auto cols = vector ? Eigen::Index{1} : parse<Eigen::Index>(name, tokens[1]);
    const bool allowed = any_shape ? rows >= 0 && cols >= 0 &&
                                         (cols == 0 || rows <= bounds::state_doubles / cols)
                                   : rows == values.rows() && cols == values.cols();
    if (!allowed)
      fail(qualified(name) + " is " + std::to_string(rows) + " x " + std::to_string(cols) +
           ", expected " + std::to_string(values.rows()) + " x " +
           std::to_string(values.cols()));
    expect_count(name, tokens, shape + static_cast<std::size_t>(rows * cols));
    Derived read(rows, cols);
    for (Eigen::Index i = 0; i < read.size(); ++i) {
      const std::string_view token = tokens[shape + static_cast<std::size_t>(i)];
      Scalar entry{};
      if constexpr (std::is_floating_point_v<Scalar>) {
        entry = finite(name, token);
      } else {
        entry = parse<Scalar>(name, token);
      }
      if (!(entry >= lowest && entry <= highest))
        fail(qualified(name) + " has an entry, " + detail::number_text(entry) + ", outside [" +
             detail::number_text(lowest) + ", " + detail::number_text(highest) + "]");
      read.data()[i] = entry;
    }
    values.derived().swap(read);
  }

  block_location where_;
  std::string type_;
  std::vector<std::string> lines_;
  std::vector<std::pair<std::string, std::size_t>> index_;  // (name, line), sorted by name
  std::size_t current_ = 0;  // the line of the field read last
  std::int64_t values_ = 0;  // the block's values (tokens after each line's first)

  // The tokens of a line after its first (a field's name): runs of non-space characters.
  [[nodiscard]] static std::int64_t values_on(std::string_view line) noexcept {
    std::int64_t tokens = 0;
    bool in_token = false;
    for (const char c : line) {
      if (c != ' ' && !in_token) ++tokens;
      in_token = c != ' ';
    }
    return tokens > 0 ? tokens - 1 : 0;
  }
};

}  // namespace sabandit::state
