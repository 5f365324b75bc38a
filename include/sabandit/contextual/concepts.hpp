#pragma once
// The contextual interface: a context x in R^d arrives every round, the policy picks an arm,
// and the reward depends on both (the paper's conclusion names this TS-SA's next step).
// Requirement tables: docs/contextual.md.
#include <concepts>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/random/engine.hpp"
#include "sabandit/random/xoshiro.hpp"

namespace sabandit::contextual {

/// An online contextual bandit policy. The caller owns the engine, as for `Policy`.
///  - `p.num_arms()`                 K;
///  - `p.context_size()`             d, the length of every context;
///  - `p.select(x, gen)`             the arm to play for context x, in [0, K);
///  - `p.update(x, arm, r, gen)`     learns reward r of `arm` at context x. Throws
///                                   std::out_of_range for a bad arm, std::invalid_argument
///                                   naming "context" for a context of the wrong size or with a
///                                   non-finite entry, and naming "reward" for a reward the
///                                   policy's model rejects, leaving the policy unchanged.
/// `select` checks its context the same way. A copy is a checkpoint that replays the same
/// decisions.
template <class P, class URBG = default_engine>
concept ContextualPolicy =
    std::copy_constructible<P> && uniform_random_bit_generator<URBG> &&
    requires(const P& cpolicy, P& policy, URBG& gen, const Eigen::VectorXd& x, Eigen::Index arm,
             double r) {
      { cpolicy.num_arms() } -> std::convertible_to<Eigen::Index>;
      { cpolicy.context_size() } -> std::convertible_to<Eigen::Index>;
      { policy.select(x, gen) } -> std::convertible_to<Eigen::Index>;
      policy.update(x, arm, r, gen);
    };

/// A source of contexts and rewards for simulation.
///  - `e.num_arms()`, `e.context_size()`  K and d;
///  - `e.next_context(gen)`               draws the next round's context (or takes the next
///                                        row of a dataset) and returns it; it stays the
///                                        current context until the next call;
///  - `e.mean(arm)`                       the expected reward of `arm` at the current context
///                                        (for pseudo-regret; for a classification dataset,
///                                        1 for the label's arm and 0 otherwise);
///  - `e.pull(arm, gen)`                  draws a reward of `arm` at the current context.
template <class E, class URBG = default_engine>
concept ContextualEnvironment = requires(const E& env, E& mutable_env, Eigen::Index arm,
                                         URBG& gen) {
  { env.num_arms() } -> std::convertible_to<Eigen::Index>;
  { env.context_size() } -> std::convertible_to<Eigen::Index>;
  { mutable_env.next_context(gen) } -> std::convertible_to<vector_cref>;
  { env.mean(arm) } -> std::convertible_to<double>;
  { mutable_env.pull(arm, gen) } -> std::convertible_to<double>;
};

/// Throws std::invalid_argument naming "context" unless x has `size` entries, all finite:
/// every contextual policy calls it first in select and update.
inline void require_context(const vector_cref& x, Eigen::Index size) {
  if (x.size() != size) {
    detail::throw_invalid("context.size()", x.size(),
                          "must equal the policy's context_size() " + std::to_string(size));
  }
  for (Eigen::Index i = 0; i < size; ++i) {
    if (!std::isfinite(x[i])) {
      detail::throw_invalid("context[" + std::to_string(i) + "]", x[i], "must be finite");
    }
  }
}

}  // namespace sabandit::contextual
