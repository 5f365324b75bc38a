#pragma once
// Contextual TS-SGLD: Langevin Monte Carlo Thompson sampling (Xu, Zheng, Wang, Zhang, Gu and
// Tan 2022, "Langevin Monte Carlo for contextual bandits"; Mazumdar et al. 2020's TS-SGLD in
// the contextual setting), with a uniform mini-batch of the block's whole history. Per block k
// it keeps theta_k and every (phi, reward) pair it has seen: memory that grows with the pulls,
// n (d + 1) doubles after n (as the paper's Table 1 has TS-SGLD's), against contextual TS-SA's
// constant O(d^2 + B d). Every round, every block's chain takes N moves
//   theta <- theta + h' (g + (1/n) grad log pi) + sqrt(tau / n) sqrt(2 h') xi,
// g the mean log-likelihood gradient over a mini-batch drawn uniformly with replacement from
// the block's n pairs, pi = N(0, v0 I): the tempered posterior exp((n F_n + log pi) / tau) as
// in the library's ts_sgld. The decision is argmax_a <phi(x, a), theta_k>, at the last iterate.
// The move is contextual TS-SA's (langevin_move.hpp) without preconditioner or average.
//
// Step size. On the mean gradient the chain is stable for h below 2 / L, L the curvature of the
// mean log-likelihood, at most i(eta) s with s the mean |phi|^2 (reached when the contexts
// point one way; spread over d directions they have about s / d). So the step is h' = h / s,
// s over the block's pairs: `h` is in units of one reward's curvature at unit information
// whatever the contexts' scale, and h < 2 keeps a chain of unit information stable once the
// prior's share, h / (n v0 s), is small (throw_diverged).
// Before its Omega warm-up pulls a block does not move; at the last one it starts at the MAP of
// its pairs (glm_map.hpp), as contextual TS-SA does.
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/contextual/concepts.hpp"
#include "sabandit/contextual/context_buffer.hpp"
#include "sabandit/contextual/feature_maps.hpp"
#include "sabandit/contextual/glm_map.hpp"
#include "sabandit/contextual/glm_terms.hpp"
#include "sabandit/contextual/information_factor.hpp"
#include "sabandit/contextual/langevin_move.hpp"
#include "sabandit/contextual/policy_core.hpp"
#include "sabandit/contextual/tie_break.hpp"
#include "sabandit/contextual/workspace.hpp"
#include "sabandit/detail/state_fields.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/models/gaussian.hpp"
#include "sabandit/models/support.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit::contextual {

/// Contextual TS-SGLD's parameters.
struct ts_sgld_params {
  Eigen::Index warmup = 1;       ///< Omega >= 1: pulls of each arm before its chain starts
  Eigen::Index batch_size = 32;  ///< >= 1: the mini-batch drawn from the history per move
  Eigen::Index inner_steps = 1;  ///< N >= 1: moves per block per round
  /// h in (0, 1e6], in units of one reward's curvature (header comment): stable below 2 for
  /// unit information; 0.1 as the library's ts_sgld.
  double step_size = 0.1;
  double temperature = 1.0;      ///< tau in [1e-100, 1e100]: the posterior variance factor
  double prior_variance = 1.0;   ///< in [1e-100, 1e100]: the prior N(0, this I)
  newton_options warm_start{};   ///< the warm start's Newton iteration

  /// Saves or restores the members (state/persist.hpp); the policy checks them when rebuilt.
  template <class Archive>
  void persist(Archive& ar) {
    persist_langevin(*this, ar);
    ar("batch_size", batch_size);
  }
  /// Throws std::invalid_argument naming a bad member.
  void validate() const {
    validate_langevin(*this);
    detail::require_at_least<Eigen::Index>("batch_size", batch_size, 1);
  }
};

/// Contextual TS-SGLD over any RewardModel (header comment); models ContextualPolicy. A copy is
/// a checkpoint.
template <RewardModel Model = gaussian_model, FeatureMap Map = disjoint_features>
class ts_sgld : public policy_core<Map, ts_sgld_params> {
  using base = policy_core<Map, ts_sgld_params>;

 public:
  /// The parameters.
  using params = ts_sgld_params;

  /// K arms over any feature map; `policy(K, d, ...)` is disjoint with contexts of size d.
  ts_sgld(Eigen::Index num_arms, Map map, const params& p = {}, Model model = Model{})
      : base(num_arms, std::move(map), p, map.dimension() + 2, 2 * factor_doubles(map.dimension())),
        model_(std::move(model)),
        theta_(Eigen::MatrixXd::Zero(this->dimension(), this->blocks())),
        next_(theta_),
        histories_(static_cast<std::size_t>(this->blocks()), context_buffer(this->dimension(), 0)),
        squared_norms_(Eigen::ArrayXd::Zero(this->blocks())),
        arm_pulls_(Eigen::ArrayXd::Zero(num_arms)),
        warm_up_(num_arms, p.warmup),
        work_(this->dimension()),
        warm_up_pulls_(warm_up_pulls(p, num_arms, this->feature_map())) {}

  /// During the warm-up, the first arm of fewest pulls and awaited selections (round-robin;
  /// policy_core.hpp, warm_up_selections); then every started
  /// block's chain moves N times (all or nothing: std::domain_error if one becomes non-finite,
  /// or if a score is NaN, the chains then unchanged) and the argmax_a <phi(x, a), theta_k> is
  /// played (random ties).
  /// Throws std::invalid_argument naming "context" for a bad context.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(const vector_cref& x, URBG& gen) {
    if (const auto arm = this->warm_up_decision(x, arm_pulls_, warm_up_)) return *arm;
    next_ = theta_;
    for (Eigen::Index block = 0; block < this->blocks(); ++block) move(block, gen);
    if (!next_.allFinite()) throw_diverged();
    // The chains' new positions decide, and are kept only if every score is a number.
    const Eigen::Index arm = this->argmax_of(
        x, [&](Eigen::Index, const vector_cref& phi, Eigen::Index block) {
          return phi.dot(next_.col(block));
        },
        gen);
    theta_.swap(next_);
    return arm;
  }

  /// Appends (phi, r) to the block's history; the block's last warm-up pull starts its chain at
  /// the MAP of its pairs. Throws std::invalid_argument naming "context" or "reward",
  /// std::out_of_range for the arm, std::domain_error if the warm start becomes non-finite; the
  /// policy is then unchanged.
  template <uniform_random_bit_generator URBG>
  void update(const vector_cref& x, Eigen::Index arm, double reward, URBG& /*gen*/) {
    const auto [phi, block] = this->checked_pull(x, arm, reward, model_);
    const double norm2 = phi.squaredNorm();  // the step's scale and every gradient term's
    if (!std::isfinite(squared_norms_(block) + norm2) || !std::isfinite(reward * std::sqrt(norm2)))
      throw std::domain_error("sabandit: the context of arm " + std::to_string(arm) +
                              " would make the contextual TS-SGLD gradients overflow; scale the "
                              "contexts or rewards down");
    auto& history = histories_[static_cast<std::size_t>(block)];
    if (history.size() + 1 == warm_up_pulls_) {
      // line 1: the chain starts at the MAP of the warm-up pairs
      work_.push_and_fit(model_, history, phi, reward, Eigen::VectorXd::Zero(this->dimension()),
                         this->parameters().prior_variance, this->parameters().warm_start);
      theta_.col(block) = work_.theta;
    } else {
      history.push(phi, reward);
    }
    squared_norms_(block) += norm2;
    arm_pulls_(arm) += 1.0;
    warm_up_.answered(arm);
  }

  /// theta (d x blocks): each chain's last iterate.
  [[nodiscard]] const Eigen::MatrixXd& parameter_estimates() const noexcept { return theta_; }
  /// A block's history: every (phi, reward) pair it has seen (growing memory).
  [[nodiscard]] const context_buffer& history(Eigen::Index block) const {
    return histories_[static_cast<std::size_t>(block)];
  }
  /// Pulls per arm.
  [[nodiscard]] const Eigen::ArrayXd& pulls() const noexcept { return arm_pulls_; }
  /// Warm-up selections per arm whose rewards have not arrived (docs/delayed-feedback.md).
  [[nodiscard]] const Eigen::ArrayXd& awaiting() const noexcept { return warm_up_.awaiting(); }
  /// The reward model.
  [[nodiscard]] const Model& model() const noexcept { return model_; }

  // --- persistence (state::save and state::restore, state/persist.hpp) --------------------------------------------------------
  /// "contextual_ts_sgld<model>", the type in a saved state's header (disjoint features).
  [[nodiscard]] static std::string state_name() {
    return "contextual_ts_sgld<" + detail::component_name<Model>() + ">";
  }
  /// The saved fields: the model, K, d, the parameters, theta, the arms' pulls and each block's
  /// history (its rewards the model's, its size the block's pulls); the step's scale is
  /// re-summed from the history in the order update() summed it. The next round's gradient
  /// terms (N x batch x d x blocks) are bounded by bounds::round_work.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    base::persist_shape_and_model(
        self, ar, self.model_, [](Eigen::Index, Eigen::Index d, const params&) { return d + 2; },
        [](Eigen::Index k, auto d, const params& p, const Model& model) {  // generic: compiled for reading only
          return ts_sgld(k, d, p, model);
        });
    ar("theta", self.theta_);
    ar("arm_pulls", self.arm_pulls_, 0.0, bounds::restored_count);
    warm_up_selections::persist(self.warm_up_, ar);
    ar.require((self.arm_pulls_ == self.arm_pulls_.floor()).all(), "pull counts must be whole numbers");
    for (std::size_t k = 0; k < self.histories_.size(); ++k) {
      ar.nest("history" + std::to_string(k), [&] { context_buffer::persist(self.histories_[k], ar); });
      if constexpr (Archive::reading) {
        const auto& history = self.histories_[k];
        require_rewards(self.model_, history, ar);
        double norms = 0.0;
        for (Eigen::Index j = 0; j < history.size(); ++j) norms += history.phi(j).squaredNorm();
        ar.require(std::isfinite(norms), "a history's contexts overflow");
        self.squared_norms_(static_cast<Eigen::Index>(k)) = norms;
      }
    }
    if constexpr (Archive::reading) {
      Eigen::ArrayXd held(self.blocks());
      for (std::size_t k = 0; k < self.histories_.size(); ++k)
        held(static_cast<Eigen::Index>(k)) = static_cast<double>(self.histories_[k].size());
      ar.require(held.sum() == self.arm_pulls_.sum(), "the histories do not hold the arms' pulls");
    }
    const params& p = self.parameters();
    ar.require(static_cast<double>(p.inner_steps) * static_cast<double>(p.batch_size) *
                       static_cast<double>(self.dimension()) * static_cast<double>(self.blocks()) <=
                   static_cast<double>(bounds::round_work),
               "the next round would compute more than bounds::round_work = 2^28 gradient "
               "terms (inner_steps x batch_size x d x blocks)");
  }

 private:
  // A chain that became non-finite: name the block, h and what bounds h there. The move's
  // curvature is at most h' (i s + 1 / (n v0)), h' = h / s (header comment), reached when the
  // contexts point one way (their mean phi phi^T has its whole trace s along one direction):
  // one reward's information i (1 / sigma^2 for gaussian_model(sigma^2)) and the prior's
  // 1 / (n v0), which dominates while n is small if v0 is small beside the parameters' squared
  // scale (an independent check: rewards of s.d. 500 with h = 0.1 sigma^2 and v0 = 1 diverged in
  // every trial; docs/contextual.md, "The reward's scale").
  [[noreturn]] void throw_diverged() const {
    Eigen::Index block = 0;
    while (next_.col(block).allFinite()) ++block;
    const params& p = this->parameters();
    const double pulls = static_cast<double>(histories_[static_cast<std::size_t>(block)].size());
    const double prior_term = step_of(block, pulls) / (pulls * p.prior_variance);
    throw std::domain_error(
        "sabandit: the contextual TS-SGLD chain of block " + std::to_string(block) +
        " became non-finite at step_size (h) = " + detail::value_text(p.step_size) +
        "; the chain is stable where h (i + 1 / (n prior_variance s)) < 2, with i one "
        "reward's information about <phi, theta> (1 / sigma^2 for gaussian_model(sigma^2), the "
        "mean count for poisson_model, at most 1/4 for bernoulli_model), n the block's pulls "
        "and s their mean |phi|^2: here n = " + detail::value_text(pulls) +
        " and h / (n prior_variance s) = " + detail::value_text(prior_term) +
        ". Reduce h below 2 / i, or set prior_variance to the parameters' squared scale");
  }

  // The step h' = h / s of a block with `pulls` pairs, s their mean |phi|^2 (header comment);
  // h itself if every phi was 0.
  [[nodiscard]] double step_of(Eigen::Index block, double pulls) const {
    const double mean_norm = squared_norms_(block) / pulls;
    return this->parameters().step_size / (mean_norm > 0.0 ? mean_norm : 1.0);
  }

  // N moves of a started block's chain, in next_.
  template <uniform_random_bit_generator URBG>
  void move(Eigen::Index block, URBG& gen) {
    const auto& history = histories_[static_cast<std::size_t>(block)];
    const Eigen::Index n = history.size();
    if (n < warm_up_pulls_) return;
    const params& p = this->parameters();
    const double pulls = static_cast<double>(n);
    const double step = step_of(block, pulls);
    const double weight = 1.0 / static_cast<double>(p.batch_size);
    work_.theta = next_.col(block);
    for (Eigen::Index s = 0; s < p.inner_steps; ++s) {
      work_.gradient = work_.theta * (-1.0 / (pulls * p.prior_variance));  // (1/n) grad log pi
      for (Eigen::Index j = 0; j < p.batch_size; ++j) {
        const Eigen::Index slot = detail::index_below(n, gen);
        add_gradient_term(model_, history.phi(slot), work_.theta, history.reward(slot), weight,
                          work_.gradient, work_.terms);
      }
      langevin_move(work_.theta, work_.gradient, step, std::sqrt(p.temperature / pulls), 1.0,
                    nullptr, 1.0, work_.moves, gen);
    }
    next_.col(block) = work_.theta;
  }

  Model model_;
  Eigen::MatrixXd theta_, next_;
  std::vector<context_buffer> histories_;
  Eigen::ArrayXd squared_norms_;  // sum |phi|^2 per block (the step's scale)
  Eigen::ArrayXd arm_pulls_;
  warm_up_selections warm_up_;  // the warm-up's selections awaiting their rewards
  workspace work_;
  Eigen::Index warm_up_pulls_;  // Omega x the arms of a block, checked at construction
};

static_assert(ContextualPolicy<ts_sgld<>>);

}  // namespace sabandit::contextual
