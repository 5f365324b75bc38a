#pragma once
// The uniform policy: each round an arm drawn uniformly, whatever the context and the rewards
// so far. It is the reference a contextual benchmark measures learning against. Its regret per
// round is E_x[max_a mu_a(x) - (1/K) sum_a mu_a(x)], which needs the context distribution in
// closed form; contextual::simulate measures it on the same paired trials as the policies
// compared with it (an independent check computed it by Monte Carlo, for want of this policy).
#include <cstdint>
#include <string>

#include <Eigen/Core>

#include "sabandit/contextual/concepts.hpp"
#include "sabandit/contextual/feature_maps.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/random/bits.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit::contextual {

/// Plays an arm drawn uniformly from [0, K) each round; models ContextualPolicy. Its select
/// and update check their arguments as every contextual policy's do, and it learns nothing.
class uniform_random {
 public:
  /// K >= 1 arms, contexts of `context_size` >= 1 entries; throws std::invalid_argument naming
  /// the one that is not.
  uniform_random(Eigen::Index num_arms, Eigen::Index context_size)
      : num_arms_(num_arms), context_size_(context_size) {
    detail::require_at_least<Eigen::Index>("num_arms", num_arms, 1);
    detail::require_feature_size("context_size", context_size);
  }

  /// K.
  [[nodiscard]] Eigen::Index num_arms() const noexcept { return num_arms_; }
  /// The length of every context.
  [[nodiscard]] Eigen::Index context_size() const noexcept { return context_size_; }

  /// An arm drawn uniformly (one uniform_index draw from `gen`), after checking the context.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(const vector_cref& x, URBG& gen) const {
    require_context(x, context_size_);
    return static_cast<Eigen::Index>(uniform_index(gen, static_cast<std::uint64_t>(num_arms_)));
  }

  /// Checks the context, the arm and the reward (finite, |r| <= 1e150), and learns nothing.
  template <uniform_random_bit_generator URBG>
  void update(const vector_cref& x, Eigen::Index arm, double reward, URBG& /*gen*/) const {
    require_context(x, context_size_);
    detail::require_arm(arm, num_arms_);
    detail::require_reward(reward);
  }

  // --- persistence (state::save and state::restore, state/persist.hpp) ----------------------
  /// "contextual_uniform_random", the type in a saved state's header: a service that saves
  /// every policy it runs (save_all) saves its reference arm too.
  [[nodiscard]] static std::string state_name() { return "contextual_uniform_random"; }
  /// The saved fields: K and the context size, all it has; the constructor checks them.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    Eigen::Index arms = self.num_arms_, context = self.context_size_;
    ar("num_arms", arms);
    ar("context_size", context);
    if constexpr (Archive::reading) self = uniform_random(arms, context);
  }

 private:
  Eigen::Index num_arms_;
  Eigen::Index context_size_;
};

static_assert(ContextualPolicy<uniform_random>);

}  // namespace sabandit::contextual
