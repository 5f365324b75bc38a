#pragma once
// Minimal types that satisfy sabandit's concepts and nothing more: a template that compiles
// with them uses no member beyond what the concept promises.
#include <cstdint>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/contextual/concepts.hpp"

namespace sabandit::test {

/// A URBG with a 32-bit partial range, unlike the library's full 64-bit engine: it exercises
/// the generic path of random_bits64. (A multiplicative LCG; quality is irrelevant here.)
class urbg_archetype {
 public:
  using result_type = std::uint32_t;
  static constexpr result_type min() { return 1; }
  static constexpr result_type max() { return 2147483646; }
  result_type operator()() {
    state_ = static_cast<std::uint32_t>((std::uint64_t{state_} * 48271U) % 2147483647U);
    return state_;
  }

 private:
  std::uint32_t state_ = 1;
};

/// A reward model with only the generic gradient (no sufficient-statistics path):
/// Gaussian with unit variance, written independently of sabandit::gaussian_model.
struct reward_model_archetype {
  double mean(const vector_cref& phi, const vector_cref& theta) const { return phi.dot(theta); }
  double log_likelihood(double x, const vector_cref& phi, const vector_cref& theta) const {
    const double r = x - phi.dot(theta);
    return -0.5 * r * r;
  }
  void grad_log_likelihood(const vector_cref& xs, const vector_cref& phi, const vector_cref& theta,
                           vector_ref grad) const {
    grad.setZero();
    for (Eigen::Index i = 0; i < xs.size(); ++i) grad += phi * (xs(i) - phi.dot(theta));
    grad /= static_cast<double>(xs.size());
  }
};

struct environment_archetype {
  Eigen::Index num_arms() const { return 2; }
  double mean(Eigen::Index arm) const { return arm == 0 ? 0.0 : 1.0; }
  template <class URBG>
  double pull(Eigen::Index arm, URBG& /*gen*/) {
    return mean(arm);
  }
};

struct policy_archetype {
  Eigen::Index num_arms() const { return 2; }
  template <class URBG>
  Eigen::Index select(URBG& /*gen*/) {
    return 0;
  }
  template <class URBG>
  void update(Eigen::Index /*arm*/, double /*reward*/, URBG& /*gen*/) {}
};

// Near misses: each lacks one member of its concept.
struct model_without_gradient {
  double mean(const vector_cref&, const vector_cref&) const { return 0; }
  double log_likelihood(double, const vector_cref&, const vector_cref&) const { return 0; }
};
struct environment_without_pull {
  Eigen::Index num_arms() const { return 1; }
  double mean(Eigen::Index) const { return 0; }
};
struct policy_without_update {
  Eigen::Index num_arms() const { return 1; }
  template <class URBG>
  Eigen::Index select(URBG&) {
    return 0;
  }
};

/// A contextual policy with only the members ContextualPolicy promises: two arms, contexts of
/// size 3; it plays arm 0 and learns nothing.
struct contextual_policy_archetype {
  Eigen::Index num_arms() const { return 2; }
  Eigen::Index context_size() const { return 3; }
  template <class URBG>
  Eigen::Index select(const vector_cref& /*x*/, URBG& /*gen*/) {
    return 0;
  }
  template <class URBG>
  void update(const vector_cref& /*x*/, Eigen::Index /*arm*/, double /*reward*/, URBG& /*gen*/) {}
};

/// A contextual environment with only the members ContextualEnvironment promises: two arms,
/// the constant context (1, 1, 1), arm 1 always the better.
struct contextual_environment_archetype {
  Eigen::Index num_arms() const { return 2; }
  Eigen::Index context_size() const { return 3; }
  template <class URBG>
  const Eigen::VectorXd& next_context(URBG& /*gen*/) {
    return context_;
  }
  double mean(Eigen::Index arm) const { return arm == 0 ? 0.0 : 1.0; }
  template <class URBG>
  double pull(Eigen::Index arm, URBG& /*gen*/) {
    return mean(arm);
  }

 private:
  Eigen::VectorXd context_ = Eigen::VectorXd::Ones(3);
};

// Near misses of the contextual concepts: each lacks one member.
struct contextual_policy_without_context_size {
  Eigen::Index num_arms() const { return 1; }
  template <class URBG>
  Eigen::Index select(const vector_cref&, URBG&) {
    return 0;
  }
  template <class URBG>
  void update(const vector_cref&, Eigen::Index, double, URBG&) {}
};
struct contextual_environment_without_next_context {
  Eigen::Index num_arms() const { return 1; }
  Eigen::Index context_size() const { return 1; }
  double mean(Eigen::Index) const { return 0; }
  template <class URBG>
  double pull(Eigen::Index, URBG&) {
    return 0;
  }
};

static_assert(contextual::ContextualPolicy<contextual_policy_archetype>);
static_assert(contextual::ContextualPolicy<contextual_policy_archetype, urbg_archetype>);
static_assert(!contextual::ContextualPolicy<contextual_policy_without_context_size>);
static_assert(contextual::ContextualEnvironment<contextual_environment_archetype>);
static_assert(contextual::ContextualEnvironment<contextual_environment_archetype, urbg_archetype>);
static_assert(!contextual::ContextualEnvironment<contextual_environment_without_next_context>);
// A non-contextual policy is not a contextual one, nor the reverse.
static_assert(!contextual::ContextualPolicy<policy_archetype>);
static_assert(!Policy<contextual_policy_archetype>);

}  // namespace sabandit::test
