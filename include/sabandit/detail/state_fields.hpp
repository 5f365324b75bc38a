#pragma once
// What a policy's field list (its static `persist(self, archive)`) needs from the persistence
// layer without depending on it: the names and fields of the components a policy holds (its
// reward model, its SA schedule). The archive is a template parameter of `persist`, so a policy
// header never includes state/: a program that never saves parses and compiles none of it
// (DESIGN.md, "Arrows point one way"); state/persist.hpp's save() and restore() instantiate
// `persist` with its writer and reader when a program does save (docs/state-format.md).
#include <concepts>
#include <string>
#include <string_view>
#include <type_traits>

namespace sabandit::detail {

/// The name of a component (`T::state_name()`), for the type names of the policies that hold
/// it; "unnamed" for a component without one, which can then not be saved (persist_component).
template <class Component>
[[nodiscard]] std::string component_name() {
  if constexpr (requires { { Component::state_name() } -> std::convertible_to<std::string>; }) {
    return std::string(Component::state_name());
  } else {
    return "unnamed";
  }
}

/// Saves or restores a component's fields under `scope` through `ar` (nothing for an empty
/// type). A component is persistent if it names itself and, unless it is empty, lists its
/// fields: the name is required either way, so that a saved ts_sa<poisson_model> never
/// restores into a ts_sa<bernoulli_model>.
template <class Component, class Archive>
void persist_component(std::string_view scope, Component& component, Archive& ar) {
  using plain = std::remove_const_t<Component>;
  static_assert(
      requires { { plain::state_name() } -> std::convertible_to<std::string>; } &&
          (std::is_empty_v<plain> || requires { plain::persist(component, ar); }),
      "saving this policy needs its model and schedule to be persistent: give them a static "
      "state_name() and, unless they are empty, a static persist(self, archive) listing their "
      "fields (docs/state-format.md)");
  if constexpr (!std::is_empty_v<plain>) ar.nest(scope, [&] { plain::persist(component, ar); });
}

}  // namespace sabandit::detail
