#pragma once
// Save and restore of whole objects over the text format of archive.hpp: what a policy's
// save()/restore() and the engines' save()/restore() do.
//
// A persistent type names itself (`state_name()`, written in the block's header, so that a
// stream saved by another type is rejected) and lists its fields once in
//   template <class Self, class Archive> static void persist(Self& self, Archive& ar);
// which, when reading, first rebuilds the object through its public constructor from the
// saved parameters (so every parameter check runs again) and then reads the state into it.
// restore() reads into a copy and swaps it in at the end: a stream that fails at any point
// leaves the target exactly as it was (strong guarantee).
#include <array>
#include <cstdint>
#include <istream>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "sabandit/errors.hpp"
#include "sabandit/random/xoshiro.hpp"
#include "sabandit/state/archive.hpp"

namespace sabandit::state {

/// A type whose objects can be saved: it names itself and lists its fields (see above).
template <class T>
concept Persistent = requires(const T& object, T& target, writer& w, reader& r) {
  { T::state_name() } -> std::convertible_to<std::string>;
  T::persist(object, w);
  T::persist(target, r);
};

/// A component of a policy's state (a reward model, an SA schedule) is persistent if it lists
/// its fields, or if it is empty (nothing to save). Its name is then `state_name()`, required
/// either way so that a saved ts_sa<poisson_model> never restores into a ts_sa<bernoulli_model>.
template <class T>
concept PersistentComponent =
    requires { { T::state_name() } -> std::convertible_to<std::string>; } &&
    (std::is_empty_v<T> || requires(const T& object, T& target, writer& w, reader& r) {
      T::persist(object, w);
      T::persist(target, r);
    });

/// Saves or restores a component's fields under `scope` (nothing for an empty type).
template <class Component, class Archive>
void persist_component(std::string_view scope, Component& component, Archive& ar) {
  using plain = std::remove_const_t<Component>;
  static_assert(PersistentComponent<plain>,
                "saving this policy needs its model and schedule to be persistent: give them a "
                "static state_name() and, unless they are empty, a static persist(self, "
                "archive) listing their fields (docs/state-format.md)");
  if constexpr (!std::is_empty_v<plain>) ar.nest(scope, [&] { plain::persist(component, ar); });
}

/// The name of a component, for the type names of the policies that hold it.
template <class Component>
[[nodiscard]] std::string component_name() {
  if constexpr (requires { { Component::state_name() } -> std::convertible_to<std::string>; }) {
    return std::string(Component::state_name());
  } else {
    return "unnamed";  // save() then fails at compile time in persist_component
  }
}

/// Writes `object`'s complete state as one block (docs/state-format.md). Throws
/// std::ios_base::failure if the stream fails.
template <Persistent T>
void save(std::ostream& out, const T& object) {
  writer ar(out, T::state_name());
  T::persist(object, ar);
  ar.finish();
}

/// Replaces `target` by the object saved in the next block of `in`. Throws format_error (a
/// std::invalid_argument) for a truncated, altered, wrong-version or wrong-type block, or an
/// impossible state (sizes beyond bounds::state_doubles among them), and the parameter
/// checks' std::invalid_argument for invalid parameters; `target` is then unchanged. Saved
/// sizes must be backed by the block's own numbers before the object is rebuilt from them
/// (reader::require_backed), except TS-SGLD's batch size, for which a restore may allocate
/// up to the bound: std::bad_alloc, `target` unchanged, when memory runs out
/// (docs/state-format.md).
template <Persistent T>
void restore(std::istream& in, T& target) {
  reader ar(in, T::state_name());
  T restored = target;  // rebuilt by persist from the saved parameters
  try {
    T::persist(restored, ar);
  } catch (const sabandit::detail::state_size_error& e) {
    // The constructor's bound on K and the per-arm sizes: no policy could have saved such a
    // state, so the stream was altered.
    std::string_view why = e.what();
    if (why.starts_with("sabandit: ")) why.remove_prefix(10);
    throw format_error("sabandit: cannot restore the saved state: its sizes ask for more state "
                       "than any policy has: " + std::string(why));
  }
  ar.finish();
  target = std::move(restored);
}

/// The save() and restore() members of every policy, for a Persistent `Derived` (CRTP).
template <class Derived>
class saveable {
 public:
  /// Writes the complete state to `out` as versioned text (docs/state-format.md).
  void save(std::ostream& out) const { state::save(out, static_cast<const Derived&>(*this)); }
  /// Becomes the policy saved in `in`: given the same engine state it then makes exactly the
  /// decisions the saved one would. A truncated, altered, wrong-version or wrong-type stream
  /// throws format_error (a std::invalid_argument) and leaves this policy unchanged (see
  /// state::restore, also for std::bad_alloc).
  void restore(std::istream& in) { state::restore(in, static_cast<Derived&>(*this)); }
};

/// Saves an xoshiro256++ engine: its 256-bit state.
inline void save(std::ostream& out, const xoshiro256pp& engine) {
  writer ar(out, "xoshiro256pp");
  for (std::size_t i = 0; i < 4; ++i) ar("word" + std::to_string(i), engine.state()[i]);
  ar.finish();
}

/// Restores an xoshiro256++ engine saved by save(); the all-zero state (which the engine can
/// never reach) is rejected. Strong guarantee.
inline void restore(std::istream& in, xoshiro256pp& engine) {
  reader ar(in, "xoshiro256pp");
  xoshiro256pp::state_type words{};
  for (std::size_t i = 0; i < 4; ++i) ar("word" + std::to_string(i), words[i]);
  ar.finish();
  ar.require(words != xoshiro256pp::state_type{}, "the all-zero xoshiro256++ state");
  engine = xoshiro256pp(words);
}

}  // namespace sabandit::state
