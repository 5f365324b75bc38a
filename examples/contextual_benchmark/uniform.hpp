#pragma once
// contextual_benchmark's reference of no learning, in a header of its own so that the
// simulator's tests (built alone under ThreadSanitizer) need none of the policies.
#include <cstdint>

#include <Eigen/Core>

#include <sabandit/contextual/concepts.hpp>
#include <sabandit/random/bits.hpp>

namespace repro {

/// A uniformly random arm whatever the context, one uniform_index draw per select (the
/// simulator's test replays it): the job's reference of no learning, whose expected regret is
/// T (1 - 1/K) on any data set.
class uniform_random_policy {
 public:
  /// K arms, contexts of size d.
  uniform_random_policy(Eigen::Index arms, Eigen::Index d) : arms_(arms), d_(d) {}
  /// K.
  [[nodiscard]] Eigen::Index num_arms() const { return arms_; }
  /// d.
  [[nodiscard]] Eigen::Index context_size() const { return d_; }
  /// A uniform arm (the context is checked, not used).
  template <class URBG>
  Eigen::Index select(const sabandit::vector_cref& x, URBG& gen) {
    sabandit::contextual::require_context(x, d_);
    return static_cast<Eigen::Index>(sabandit::uniform_index(gen, static_cast<std::uint64_t>(arms_)));
  }
  /// Learns nothing.
  template <class URBG>
  void update(const sabandit::vector_cref& x, Eigen::Index /*arm*/, double /*reward*/, URBG& /*gen*/) {
    sabandit::contextual::require_context(x, d_);
  }

 private:
  Eigen::Index arms_;
  Eigen::Index d_;
};

}  // namespace repro
