#pragma once
// Contextual TS-SA (issue 21): Algorithm 1 with a context every round, in the scale-free form
// of docs/scale-free-ts-sa.md written in d dimensions. Per parameter block k (one per arm with
// disjoint features) it keeps
//   theta_k                       the SA iterate (d);
//   J_k = lambda0 I + sum_j i(eta_j) phi_j phi_j^T, as its Cholesky factor L_k, updated by rank
//                                 one per pull (eta_j = <phi_j, theta_k> when the pair arrived):
//                                 the Fisher information estimate, the Laplace posterior's;
//   the last B (phi, reward) pairs (line 8's gradient; context_buffer.hpp), and a pull count;
// O(d^2 + B d) doubles per block, whatever the horizon (doubles_per_block()).
//
// Decision (Alg. 1 lines 3-5): theta~_k ~ N(theta_k, tau J_k^-1), so <phi, theta~_k> is the
// scalar normal N(<phi, theta_k>, tau |L_k^-1 phi|^2): one draw per arm.
//
// Update of the played block with n pulls before this one, m = n + 1 (lines 6-11), in the
// scale-free form (the scalar derivation, docs/scale-free-ts-sa.md, with phi phi^T for |phi|^2):
//   J    <- J + i(<phi, theta>) phi phi^T                      (the newest reward's information)
//   g     = the mean log-likelihood gradient over the B most recent pairs, the newest included
//   omega = theta + h P g + sqrt(tau) sqrt(2 h P) xi,  P = m J^-1  (line 8, Fisher-preconditioned,
//                                                                    at line 4's temperature)
//   theta <- theta + gamma_n (omega - theta), gamma_n = 1 / (h (n + 1))   (line 9)
// so the drift is gamma_n h P g = J^-1 g: the stochastic Newton (Fisher scoring) step. For
// Gaussian rewards of variance 1 and B = 1 it is recursive least squares, whose iterate is the
// ridge solution (lambda0 I + sum phi phi^T)^-1 sum r phi exactly (tested); for Bernoulli
// rewards it is the extended Kalman filter of online logistic regression. The SA average keeps a
// Langevin jitter of variance 2 tau / (h m) J^-1 per step, 2 / h of the sampled spread tau J^-1
// summed over the later steps (2 % at h = 100), as in the scalar case.
//
// Why the chain runs at line 4's temperature. The jitter is theta's own, so unlike line 4's
// fresh draw it persists from round to round and moves every later decision the same way. It is
// harmless only while it is small beside line 4's spread. Untempered (noise sqrt(2 h P) xi) it
// is 2 / h of J^-1 whatever tau is: at tau = 1 that is 2 % of the spread, but at the
// temperatures the classification bandits chose on Shuttle and digits (tau = 1e-4 and 1e-3) it
// is 20 to 200 times line 4's spread, so exploration follows the iterate's random walk rather
// than tau, and tuning tau cannot reach the posterior spread it asks for. Scaling line 8's
// noise by sqrt(tau) makes the SA average track the tempered posterior N(., tau J^-1) that line 4
// samples (what TS-SGLD's temperature means), keeps the jitter at 2 / h of that spread for every
// tau, and changes nothing at the default tau = 1. The drift, J^-1 g, is unchanged.
//
// Refits while the block is young (Omega' = refit_per_dimension x d pulls, 2 d by default).
// The stochastic Newton step linearises each reward once, at the iterate of its arrival, and J
// keeps i(eta_j) at that eta_j for good. While a block has fewer than about d pulls its theta is
// not identified by its data (the posterior is the prior in the directions not yet seen), so
// those linearisations are made far from where the iterate ends, and are never revisited: they
// bias the iterate and J (i = 1/4 at eta = 0 over-states the information of rewards the model
// later predicts well) for the rest of the run. Once the posterior has concentrated in every
// direction, a linearisation's error, second order in the iterate's later move, is small. So
// line 1's warm start is repeated at the block's pulls m = 2^j <= Omega' and at m = Omega': theta
// becomes the MAP of all the block's pairs so far and J the Hessian there (Laplace TS's
// posterior), and the chain goes on from it. The window keeps every pair until then (capacity
// >= Omega'): memory stays O(d^2) per block (2 d (d + 1) doubles beside J's d^2), and the refits
// cost sum_j 2^j d^2 <= 2 Omega' d^2 per Newton iteration over the whole run, O(d^2) amortised
// over the block's pulls once it has more than a few Omega'.
//
// Line 1: each arm is played Omega times (round-robin) before the block's chain starts; the
// block then starts at the MAP of its warm-up pairs under the prior N(0, lambda0^-1 I), by
// Newton's method (glm_map.hpp), with J the Hessian there: the warm start of the scalar TS-SA.
// The prior enters nowhere else (line 8's target is a pure likelihood), except through J's
// lambda0 I.
//
// Defaults, from the derivation rather than tuned on data (docs/contextual.md): h = 100 with the
// Newton schedule, tau = 1 (Thompson sampling's own spread), B = 1, Omega = 1, N = 1,
// Omega' = 2 d, and the prior N(0, I), the baselines' (LinUCB's and linear TS's A = I, Laplace
// TS's prior).
#include <algorithm>
#include <cmath>
#include <limits>
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
#include "sabandit/contextual/workspace.hpp"
#include "sabandit/detail/compiler.hpp"
#include "sabandit/detail/state_fields.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/kernels/schedules.hpp"
#include "sabandit/models/gaussian.hpp"
#include "sabandit/models/information.hpp"
#include "sabandit/models/support.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit::contextual {

/// Contextual TS-SA's parameters (defaults: ts_sa.hpp's header comment).
struct ts_sa_params {
  Eigen::Index warmup = 1;       ///< Omega >= 1: pulls of each arm before its chain starts
  Eigen::Index window = 1;       ///< B >= 1: the recent pairs in line 8's gradient
  Eigen::Index inner_steps = 1;  ///< N >= 1: Langevin + SA moves per update
  /// h in [1e-100, 1e6]: line 8's step; gamma_n = 1 / (h (n + 1)) keeps the drift a Newton
  /// step, and the average keeps 2 / h of the posterior variance as jitter.
  double step_size = 100.0;
  double temperature = 1.0;      ///< tau in [1e-100, 1e100]: line 4's variance factor
  double prior_variance = 1.0;   ///< in [1e-100, 1e100]: the prior N(0, this I); lambda0 = 1 / this
  newton_options warm_start{};   ///< the warm start's Newton iteration
  /// >= 0: Omega' / d: the block refits its MAP at its pulls 2^j <= Omega' and at Omega'
  /// (header comment; 0: only line 1's warm start).
  Eigen::Index refit_per_dimension = 2;

  /// Saves or restores the members (state/persist.hpp); the policy checks them when rebuilt.
  template <class Archive>
  void persist(Archive& ar) {
    persist_langevin(*this, ar);
    ar("window", window);
    ar("refit_per_dimension", refit_per_dimension);
  }
  /// Throws std::invalid_argument naming a bad member.
  void validate() const {
    // h is also c2 of the schedule gamma_n = 1 / (h (n + 1)): at least 1e-100, named as h (a
    // probe's h = 1e-300 was refused as polynomial_decay.c2, a name the caller never wrote).
    // One range in one message, checked first: h = 0 and h = 1e-320 were refused with two
    // different ranges, (0, 1e6] and [1e-100, 1e100] (another probe's finding).
    if (!(step_size >= bounds::min_scale && step_size <= bounds::step_size))
      detail::throw_invalid("step_size (h)", step_size, "must be in [1e-100, 1e6]");
    validate_langevin(*this);
    detail::require_at_least<Eigen::Index>("window (B)", window, 1);
    detail::require_at_least<Eigen::Index>("refit_per_dimension", refit_per_dimension, 0);
  }
};

/// Contextual TS-SA over any RewardModel (header comment); models ContextualPolicy. A copy is a
/// checkpoint.
template <RewardModel Model = gaussian_model, FeatureMap Map = disjoint_features>
class ts_sa : public policy_core<Map, ts_sa_params> {
  using base = policy_core<Map, ts_sa_params>;

 public:
  /// The parameters.
  using params = ts_sa_params;

  /// K arms over any feature map; `policy(K, d, ...)` is disjoint with contexts of size d.
  ts_sa(Eigen::Index num_arms, Map map, const params& p = {}, Model model = Model{})
      : base(num_arms, std::move(map), p,
             doubles_per_block(map.dimension(), capacity_for(p, num_arms, map)),
             2 * factor_doubles(map.dimension())),
        model_(std::move(model)),
        schedule_(1.0, p.step_size, p.step_size, 1.0),  // gamma_n = 1 / (h (n + 1))
        theta_(Eigen::MatrixXd::Zero(this->dimension(), this->blocks())),
        factors_(static_cast<std::size_t>(this->blocks()),
                 information_factor(this->dimension(), 1.0 / p.prior_variance)),
        windows_(static_cast<std::size_t>(this->blocks()),
                 context_buffer(this->dimension(), capacity_for(p, num_arms, this->feature_map()))),
        block_pulls_(Eigen::ArrayXd::Zero(this->blocks())),
        arm_pulls_(Eigen::ArrayXd::Zero(num_arms)),
        warm_up_(num_arms, p.warmup),
        work_(this->dimension()),
        warm_up_pulls_(warm_up_pulls(p, num_arms, this->feature_map())) {}

  /// During the warm-up, the first arm of fewest pulls and awaited selections (round-robin,
  /// Alg. 1 line 1; policy_core.hpp, warm_up_selections);
  /// then lines 3-5: argmax_a <phi, theta_k> + sqrt(tau) |L_k^-1 phi| z_a, z ~ N(0, I_K) in arm
  /// order. Throws std::invalid_argument naming "context" for a bad context.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(const vector_cref& x, URBG& gen) {
    if (const auto arm = this->warm_up_decision(x, arm_pulls_, warm_up_)) return *arm;
    const double scale = std::sqrt(this->parameters().temperature);
    return this->argmax_of(
        x,
        [&](Eigen::Index, const vector_cref& phi, Eigen::Index block) {
          return thompson_score(phi.dot(theta_.col(block)),
                                factors_[static_cast<std::size_t>(block)].inverse_quadratic(phi, work_.vector),
                                scale, gen);
        },
        gen);
  }

  /// Learns reward r of `arm` at x (lines 6-11, or the warm-up and its warm start). Throws
  /// std::invalid_argument naming "context" or "reward" (outside the model's support),
  /// std::out_of_range for the arm, std::domain_error if the chain or the warm start become
  /// non-finite; the policy is then unchanged. After the refit phase it allocates only
  /// the rank-one kernel's temporary (information_factor::rank_one_update).
  template <uniform_random_bit_generator URBG>
  void update(const vector_cref& x, Eigen::Index arm, double reward, URBG& gen) {
    const auto [phi, block] = this->checked_pull(x, arm, reward, model_);
    const auto k = static_cast<std::size_t>(block);
    const auto n = static_cast<Eigen::Index>(block_pulls_(block));
    auto& window = windows_[k];
    if (n + 1 < warm_up_pulls_) {  // the warm-up: record only
      window.push(phi, reward);
    } else if (refits_at(n + 1, warm_up_pulls_)) {
      // line 1: the MAP of the block's pairs, J its Hessian (the warm start, then the refits),
      // from the current iterate (0 before the warm start). The window holds every pair so far
      // (its capacity is at least Omega x the block's arms and Omega'), so a failed fit takes
      // nothing out that it had.
      work_.push_and_fit(model_, window, phi, reward, theta_.col(block),
                         this->parameters().prior_variance, this->parameters().warm_start);
      commit(block, phi);
    } else {
      advance(block, phi, reward, n, gen);  // lines 6-10, aside
      commit(block, phi);
      window.push(phi, reward);  // line 11
    }
    block_pulls_(block) += 1.0;
    arm_pulls_(arm) += 1.0;
    warm_up_.answered(arm);
  }

  /// theta (d x blocks): the SA iterates (0 before a block's warm start).
  [[nodiscard]] const Eigen::MatrixXd& parameter_estimates() const noexcept { return theta_; }
  /// The Cholesky factor of a block's information estimate J.
  [[nodiscard]] const information_factor& factor(Eigen::Index block) const {
    return factors_[static_cast<std::size_t>(block)];
  }
  /// A block's window of recent (phi, reward) pairs.
  [[nodiscard]] const context_buffer& window(Eigen::Index block) const {
    return windows_[static_cast<std::size_t>(block)];
  }
  /// Pulls per arm.
  [[nodiscard]] const Eigen::ArrayXd& pulls() const noexcept { return arm_pulls_; }
  /// Warm-up selections per arm whose rewards have not arrived (docs/delayed-feedback.md).
  [[nodiscard]] const Eigen::ArrayXd& awaiting() const noexcept { return warm_up_.awaiting(); }
  /// The reward model.
  [[nodiscard]] const Model& model() const noexcept { return model_; }
  /// The doubles one block holds: theta (d), J's factor (d^2), the window of `capacity` pairs
  /// (capacity (d + 1)) and the count: O(d^2 + B d), whatever the horizon. `capacity` is
  /// max(B, Omega x the arms of a block, Omega'), so that the warm start and the refits see
  /// every pair so far.
  [[nodiscard]] static Eigen::Index doubles_per_block(Eigen::Index dimension,
                                                      Eigen::Index capacity) noexcept {
    // Saturating, like factor_doubles: a size check then reports a huge window as too big.
    Eigen::Index window = 0;
    if (detail::mul_overflow(capacity, dimension + 1, &window) || window > (Eigen::Index{1} << 40))
      window = Eigen::Index{1} << 40;
    return factor_doubles(dimension) + dimension + window + 1;
  }
  /// The same for this policy.
  [[nodiscard]] Eigen::Index doubles_per_block() const noexcept {
    return doubles_per_block(this->dimension(), windows_.front().capacity());
  }

  // --- persistence (state::save and state::restore, state/persist.hpp) --------------------------------------------------------
  /// "contextual_ts_sa<model>", the type in a saved state's header (disjoint features).
  [[nodiscard]] static std::string state_name() {
    return "contextual_ts_sa<" + detail::component_name<Model>() + ">";
  }
  /// The saved fields: the model, K, d, the parameters, theta, the pull counts, and per block
  /// J's factor and the window (whose rewards must be the model's, and which holds
  /// min(pulls, capacity) pairs). The next round's gradient terms are bounded by
  /// bounds::round_work, as for the library's Langevin policies.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    base::persist_shape_and_model(
        self, ar, self.model_,
        [](Eigen::Index, Eigen::Index d, const params& p) {  // the window's capacity, disjoint
          return doubles_per_block(d, std::max({p.window, p.warmup, refit_pulls(p, d)}));
        },
        [](Eigen::Index k, auto d, const params& p, const Model& model) {  // generic: compiled for reading only
          return ts_sa(k, d, p, model);
        });
    ar("theta", self.theta_);
    ar("block_pulls", self.block_pulls_, 0.0, bounds::restored_count);
    ar("arm_pulls", self.arm_pulls_, 0.0, bounds::restored_count);
    warm_up_selections::persist(self.warm_up_, ar);
    ar.require((self.arm_pulls_ == self.arm_pulls_.floor()).all() &&
                   (self.block_pulls_ == self.block_pulls_.floor()).all(),
               "pull counts must be whole numbers");
    ar.require(self.arm_pulls_.sum() == self.block_pulls_.sum(),
               "the blocks' pulls must sum to the arms'");
    for (std::size_t k = 0; k < self.factors_.size(); ++k) {
      ar.nest("block" + std::to_string(k), [&] {
        ar.nest("J", [&] { information_factor::persist(self.factors_[k], ar); });
        ar.nest("window", [&] { context_buffer::persist(self.windows_[k], ar); });
        const auto& window = self.windows_[k];
        ar.require(static_cast<double>(window.size()) ==
                       std::min(self.block_pulls_(static_cast<Eigen::Index>(k)),
                                static_cast<double>(window.capacity())),
                   "a window does not hold the pairs its block's pulls leave in it");
        require_rewards(self.model_, window, ar);
      });
    }
    const params& p = self.parameters();
    ar.require(static_cast<double>(p.inner_steps) * static_cast<double>(p.window) *
                       static_cast<double>(self.dimension()) <=
                   static_cast<double>(bounds::round_work),
               "the next round would compute more than bounds::round_work = 2^28 gradient "
               "terms (inner_steps x window x d)");
  }

 private:
  static Eigen::Index capacity_for(const params& p, Eigen::Index num_arms, const Map& map) {
    p.validate();  // before the sizes are computed from it
    detail::require_at_least<Eigen::Index>("num_arms", num_arms, 1);
    const Eigen::Index warm_up = warm_up_pulls(p, num_arms, map);
    const Eigen::Index refit = refit_pulls(p, map.dimension());
    if (refit > bounds::state_doubles)
      detail::throw_invalid("refit_per_dimension", p.refit_per_dimension,
                            "times the dimension must be <= 2^31");
    return std::max({p.window, warm_up, refit});
  }
  // Whether the block's m-th pull refits (header comment): the warm start (m = Omega x the
  // block's arms), and, up to Omega', the pulls m = 2^j and m = Omega'.
  [[nodiscard]] bool refits_at(Eigen::Index m, Eigen::Index warm_up) const noexcept {
    if (m == warm_up) return true;
    const Eigen::Index last = refit_pulls(this->parameters(), this->dimension());
    return m > warm_up && m <= last && (m == last || (m & (m - 1)) == 0);
  }
  // Omega' = refit_per_dimension x d, saturating (capacity_for reports it too big).
  static Eigen::Index refit_pulls(const params& p, Eigen::Index dimension) noexcept {
    Eigen::Index pulls = 0;
    return detail::mul_overflow(p.refit_per_dimension, dimension, &pulls)
               ? std::numeric_limits<Eigen::Index>::max()
               : pulls;
  }

  // Lines 6-10 for `block` with n pulls before this one, into work_.theta and work_.factor
  // (the policy is not touched).
  template <uniform_random_bit_generator URBG>
  void advance(Eigen::Index block, const vector_cref& phi, double reward, Eigen::Index n,
               URBG& gen) {
    const auto k = static_cast<std::size_t>(block);
    work_.theta = theta_.col(block);
    work_.factor = factors_[k];
    const double eta = phi.dot(work_.theta);
    const double information = glm_information(model_, phi, work_.theta, eta, work_.terms);
    work_.gradient = std::sqrt(information) * phi;
    work_.factor.rank_one_update(work_.gradient);
    const double in_hand = static_cast<double>(n) + 1.0;  // m: the newest reward is in hand
    const double gamma = schedule_(n);
    const context_buffer& window = windows_[k];
    // the newest pair and the B - 1 most recent before it
    const Eigen::Index older = std::min(window.size(), this->parameters().window - 1);
    const double weight = 1.0 / static_cast<double>(older + 1);
    for (Eigen::Index step = 0; step < this->parameters().inner_steps; ++step) {
      work_.gradient.setZero();
      add_gradient_term(model_, phi, work_.theta, reward, weight, work_.gradient, work_.terms);
      for (Eigen::Index j = 0; j < older; ++j) {
        const Eigen::Index slot = window.recent(j);
        add_gradient_term(model_, window.phi(slot), work_.theta, window.reward(slot), weight,
                          work_.gradient, work_.terms);
      }
      bound_drift(phi, gamma * this->parameters().step_size * in_hand);
      // the chain at the decision's temperature (header comment): noise scale sqrt(tau)
      langevin_move(work_.theta, work_.gradient, this->parameters().step_size,
                    std::sqrt(this->parameters().temperature), gamma,
                    &work_.factor, in_hand, work_.moves, gen);
    }
  }

  // The Fisher step's safeguard, the scalar TS-SA's (docs/scale-free-ts-sa.md, "Mean
  // coordinates" and "Safeguard") along the newest context x: the drift `gain` J^-1 g (gain =
  // gamma_n h m, 1 with the Newton schedule) moves x's linear predictor by
  //   linear = gain x^T J^-1 g.
  // Where the model inverts its mean, that move is taken in mean coordinates, mu' = mu +
  // g'(eta) linear and eta' = link(mu'): a confident mistake (p = 1e-4, r = 1, i = 1e-4)
  // moves a logit by up to 1 / i in eta, but only to logit(mu') in mean coordinates, where the
  // step stays between the mean and the reward. Elsewhere, and where mu' leaves the range of
  // means, the move is bounded by 8 posterior standard deviations of eta, 8 sqrt(x^T J^-1 x).
  // The whole drift is scaled by (the move) / linear, so that it keeps its direction. Costs two
  // triangular solves.
  void bound_drift(const vector_cref& phi, double gain) {
    work_.vector = phi;
    work_.factor.whiten_in_place(work_.vector);  // L^-1 x
    work_.direction = work_.gradient;
    work_.factor.whiten_in_place(work_.direction);  // L^-1 g
    const double linear = gain * work_.vector.dot(work_.direction);
    if (!(linear != 0.0) || !std::isfinite(linear)) return;
    const double eta = phi.dot(work_.theta);
    double moved = std::numeric_limits<double>::quiet_NaN();
    if constexpr (InvertibleLinkModel<Model>) {
      const double mean = sabandit::detail::mean_at(model_, phi, work_.theta, eta) +
                          sabandit::detail::mean_slope_at(model_, phi, work_.theta, eta) * linear;
      moved = model_.link(mean) - eta;
    }
    if (!std::isfinite(moved)) {
      const double limit = max_step_sds * std::sqrt(work_.vector.squaredNorm());
      moved = std::clamp(linear, -limit, limit);
    }
    work_.gradient *= moved / linear;
  }
  static constexpr double max_step_sds = 8.0;  // the scalar TS-SA's bound

  // Stores work_.theta and work_.factor as the block's, if finite. Where the update's context
  // is so large that |phi|^2 overflows (past about 1e154), its information term phi phi^T does
  // too, whatever h: the message then names the context (a newcomer's probe: a context entry of
  // 1e160 was told to reduce h).
  void commit(Eigen::Index block, const vector_cref& phi) {
    if (!work_.theta.allFinite() || !work_.factor.valid())
      throw std::domain_error(detail::join(
          {"sabandit: the contextual TS-SA chain of block ", std::to_string(block),
           " became non-finite; ",
           std::isfinite(phi.squaredNorm())
               ? "reduce step_size (h) or check the model"
               : "this context's |phi|^2 overflows a double: scale the contexts down"}));
    theta_.col(block) = work_.theta;
    swap(factors_[static_cast<std::size_t>(block)], work_.factor);
  }

  Model model_;
  polynomial_decay schedule_;
  Eigen::MatrixXd theta_;
  std::vector<information_factor> factors_;
  std::vector<context_buffer> windows_;
  Eigen::ArrayXd block_pulls_, arm_pulls_;
  warm_up_selections warm_up_;  // the warm-up's selections awaiting their rewards
  workspace work_;
  Eigen::Index warm_up_pulls_;  // Omega x the arms of a block, checked at construction
};

static_assert(ContextualPolicy<ts_sa<>>);

}  // namespace sabandit::contextual
