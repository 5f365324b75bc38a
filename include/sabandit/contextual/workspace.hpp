#pragma once
// The scratch of a contextual policy over a reward model (Laplace TS, TS-SA, TS-SGLD): an
// update or a chain's moves are computed here, aside, and committed only when they succeed
// (the strong guarantee), and no scratch is allocated per round. Not state: a saved policy does
// not save it, and a copy's is overwritten before it is read.
#include <stdexcept>
#include "sabandit/models/support.hpp"

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/contextual/context_buffer.hpp"
#include "sabandit/contextual/glm_map.hpp"
#include "sabandit/contextual/glm_terms.hpp"
#include "sabandit/contextual/information_factor.hpp"
#include "sabandit/contextual/langevin_move.hpp"
#include "sabandit/errors.hpp"

namespace sabandit::contextual {

/// Scratch of size d for the model-based contextual policies (header comment).
struct workspace {
  /// For dimension d.
  explicit workspace(Eigen::Index dimension)
      : solver(dimension), factor(dimension, 1.0), theta(dimension), gradient(dimension),
        vector(dimension), direction(dimension), terms(dimension), moves(dimension) {}
  glm_map_solver solver;       ///< Newton's method for a MAP (Laplace TS, warm starts)
  information_factor factor;   ///< a block's factor, updated aside
  Eigen::VectorXd theta;       ///< a block's parameter, updated aside
  Eigen::VectorXd gradient;    ///< a gradient (or the rank-one update's vector)
  Eigen::VectorXd vector;      ///< the decision's triangular solve
  Eigen::VectorXd direction;   ///< a second triangular solve (TS-SA's bounded drift)
  glm_scratch terms;           ///< glm_terms.hpp's scratch
  langevin_scratch moves;      ///< langevin_move.hpp's scratch

  /// Appends (phi, r) to `data`, then solves the MAP over all of `data` under N(0,
  /// prior_variance I) from `start` into `theta`, with H's factor in `factor` (glm_map.hpp):
  /// Laplace TS's update and the Langevin policies' warm start. If that throws, the pair is
  /// taken out again (`data` must not be a full ring, whose oldest pair the push overwrites)
  /// and the exception propagates.
  template <RewardModel Model>
  void push_and_fit(const Model& model, context_buffer& data, const vector_cref& phi,
                    double reward, const vector_cref& start, double prior_variance,
                    const newton_options& options) {
    const auto mark = data.before_push();
    data.push(phi, reward);
    try {
      theta = start;
      solver.solve(model, data, prior_variance, options, theta, factor);
      // Its factor too: a finite MAP whose Hessian overflows (a context of 1e200) made the
      // caller's commit throw after this push, which then stayed in `data` (a probe's finding).
      if (!theta.allFinite() || !factor.valid())
        throw std::domain_error("sabandit: a contextual MAP or its Hessian became non-finite; "
                                "scale the contexts or rewards down");
    } catch (...) {
      data.undo(mark);
      throw;
    }
  }
};

/// Throws std::invalid_argument naming the member unless the parameters every Langevin policy
/// shares are valid: warmup >= 1, inner_steps >= 1, step_size in (0, 1e6], temperature and
/// prior_variance in [1e-100, 1e100], and the warm start's Newton options.
template <class Params>
void validate_langevin(const Params& p) {
  detail::require_at_least<Eigen::Index>("warmup (Omega)", p.warmup, 1);
  detail::require_at_least<Eigen::Index>("inner_steps (N)", p.inner_steps, 1);
  detail::require_step_size("step_size (h)", p.step_size);
  detail::require_scale("temperature (tau)", p.temperature);
  detail::require_scale("prior_variance", p.prior_variance);
  p.warm_start.validate("warm_start");
}

/// Omega times the arms of a block: the pulls of a block's warm-up, which its chain starts
/// after. Throws std::invalid_argument naming warmup unless the product is <= 2^31 (it was
/// computed unchecked, a signed overflow, in TS-SGLD's update: a probe's finding).
template <class Params, class Map>
[[nodiscard]] Eigen::Index warm_up_pulls(const Params& p, Eigen::Index num_arms, const Map& map) {
  const Eigen::Index arms = num_arms / map.blocks(num_arms);
  Eigen::Index pulls = 0;
  if (detail::mul_overflow(p.warmup, arms, &pulls) || pulls > bounds::state_doubles)
    detail::throw_invalid("warmup (Omega)", p.warmup, "times the arms of a block must be <= 2^31");
  return pulls;
}

/// Saves or restores the parameters validate_langevin checks (state/persist.hpp).
template <class Params, class Archive>
void persist_langevin(Params& p, Archive& ar) {
  ar("warmup", p.warmup);
  ar("inner_steps", p.inner_steps);
  ar("step_size", p.step_size);
  ar("temperature", p.temperature);
  ar("prior_variance", p.prior_variance);
  ar.nest("warm_start", [&] { p.warm_start.persist(ar); });
}

/// Whether `model` takes `reward` (models/support.hpp): restore's check of saved rewards.
template <class Model>
[[nodiscard]] bool takes_reward(const Model& model, double reward) {
  try {
    detail::require_supported_reward(model, reward);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

/// Rejects the stream (reader::require) unless every reward of `data` is one `model` takes.
template <class Model, class Archive>
void require_rewards(const Model& model, const context_buffer& data, Archive& ar) {
  if constexpr (Archive::reading) {
    for (Eigen::Index j = 0; j < data.size(); ++j)
      ar.require(takes_reward(model, data.reward(j)), "a saved reward is outside the model's support");
  }
}

}  // namespace sabandit::contextual
