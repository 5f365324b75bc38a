#pragma once
// The two parts a Langevin policy is composed from besides its model (langevin/core.hpp), as
// concepts, so that a new combination states what it must provide and a part that lacks a
// member fails at the composition with the member's name:
//  - GradientSource: where line 8's gradient comes from (recent_window: TS-SA's last B rewards;
//    uniform_minibatch: TS-SGLD's mini-batches of the whole history);
//  - Averager: what a chain does with each proposal (sa_averaging: line 9; last_iterate: none).
#include <concepts>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/random/xoshiro.hpp"

namespace sabandit {
namespace detail {
/// The least RewardModel (an archetype): what a GradientSource's gradient() must accept.
struct langevin_model_probe {
  [[nodiscard]] double mean(const vector_cref&, const vector_cref&) const { return 0.0; }
  [[nodiscard]] double log_likelihood(double, const vector_cref&, const vector_cref&) const {
    return 0.0;
  }
  void grad_log_likelihood(const vector_cref&, const vector_cref&, const vector_cref&,
                           vector_ref) const {}
};
static_assert(RewardModel<langevin_model_probe>);
}  // namespace detail

namespace langevin {

/// A chain's source of rewards and gradients, per arm:
///  - `S(size, K)`; `S::doubles_per_arm(size)`, `S::shared_doubles(size)` (the state's size,
///    checked before anything is allocated);
///  - `s.record(arm, x)`, with `s.undo(arm, s.before_record(arm))` taking it back when a
///    later step of the same update fails (the strong guarantee);
///  - `s.rewards(arm)`, the rewards a warm start fits; `s.holds(arm, pulls)`, whether a
///    restored source is consistent with the pull count;
///  - `s.gradient(model, arm, phi, theta, grad, gen)`, the mean log-likelihood gradient of its
///    rewards at theta, written into grad (any Eigen vectors);
///  - `S::persist(s, archive)` (state/persist.hpp).
template <class S>
concept GradientSource =
    std::copy_constructible<S> && std::constructible_from<S, Eigen::Index, Eigen::Index> &&
    requires(S& s, const S& cs, Eigen::Index i, double x, const sabandit::detail::langevin_model_probe& model,
             const Eigen::VectorXd& v, Eigen::VectorXd& out, xoshiro256pp& gen) {
      { S::doubles_per_arm(i) } -> std::convertible_to<Eigen::Index>;
      { S::shared_doubles(i) } -> std::convertible_to<Eigen::Index>;
      s.record(i, x);
      s.undo(i, cs.before_record(i));
      cs.rewards(i);
      { cs.holds(i, i) } -> std::convertible_to<bool>;
      s.gradient(model, i, v, v, out, gen);
    };

/// What a chain does with each proposal omega:
///  - `a.validate(first_update)`, checked at construction (an SA weight must lie in (0, 1]);
///  - `a.weight(n)` (gamma_n) and `a.iterations(n, fixed)` (N(n)) for the update after n pulls;
///  - `a.average(theta, omega, gamma)`, theta <- the averaged iterate (any Eigen vectors).
template <class A>
concept Averager = std::copy_constructible<A> &&
                   requires(const A& a, Eigen::Index n, Eigen::VectorXd& theta,
                            const Eigen::VectorXd& omega, double gamma) {
                     a.validate(n);
                     { a.weight(n) } -> std::convertible_to<double>;
                     { a.iterations(n, n) } -> std::convertible_to<Eigen::Index>;
                     a.average(theta, omega, gamma);
                   };

}  // namespace langevin
}  // namespace sabandit
