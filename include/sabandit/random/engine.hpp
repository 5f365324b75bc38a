#pragma once
// What sabandit takes as a random engine: the standard's uniform random bit generator
// ([rand.req.urng]), restated here so that a header that only takes an engine need not include
// <random>, which costs every translation unit about 7 MB of the compiler's memory and a tenth
// of a second (docs/performance.md, "Compile cost"). The definition is the standard's, word for
// word, so a type models one concept exactly when it models the other: std::mt19937_64,
// sabandit::xoshiro256pp and any engine of the user's own.
#include <concepts>
#include <type_traits>

namespace sabandit {

/// std::uniform_random_bit_generator: g() returns an unsigned integer, and G::min() < G::max()
/// are constant expressions of that type.
template <class G>
concept uniform_random_bit_generator =
    std::invocable<G&> && std::unsigned_integral<std::invoke_result_t<G&>> && requires {
      { G::min() } -> std::same_as<std::invoke_result_t<G&>>;
      { G::max() } -> std::same_as<std::invoke_result_t<G&>>;
      requires std::bool_constant<(G::min() < G::max())>::value;
    };

}  // namespace sabandit
