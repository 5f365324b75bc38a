#pragma once
// Thompson sampling with a Laplace approximation (issue 21's logistic baseline; Chapelle and
// Li 2011 use its diagonal form), disjoint by default, exactly:
//   prior N(0, I); after each update, Newton's method to the MAP m_a over the arm's whole
//   data (glm_map.hpp); theta_a ~ N(m_a, v^2 H_a^-1), H_a the Hessian of the negative
//   log-posterior at m_a; play argmax_a x^T theta_a.
// As for linear TS, x^T theta_a ~ N(x^T m_a, v^2 x^T H_a^-1 x): one scalar normal per arm.
// The model is a parameter (Bernoulli by default, so the logistic link); for any GLM model
// H = I + sum i(eta_j) x_j x_j^T (Fisher scoring; the Hessian itself for canonical links).
// Memory grows with the arm's pulls: the whole history, n (d + 1) doubles, plus H's d x d
// factor. Each update re-solves the MAP from the previous one in O(n d^2) per Newton step: the
// milliseconds per round at d = 65 that contextual TS-SA's O(d^2 + B d) is measured against.
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/contextual/concepts.hpp"
#include "sabandit/contextual/context_buffer.hpp"
#include "sabandit/contextual/feature_maps.hpp"
#include "sabandit/contextual/glm_map.hpp"
#include "sabandit/contextual/information_factor.hpp"
#include "sabandit/contextual/policy_core.hpp"
#include "sabandit/contextual/workspace.hpp"
#include "sabandit/detail/state_fields.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/models/bernoulli.hpp"
#include "sabandit/models/support.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit::contextual {

/// Laplace TS's parameters.
struct laplace_ts_params {
  double v = 1.0;               ///< in [1e-100, 1e100]: theta ~ N(m, v^2 H^-1)
  double prior_variance = 1.0;  ///< in [1e-100, 1e100]: the prior N(0, this I) (issue 21: I)
  newton_options newton{};      ///< when the MAP's Newton iteration stops

  /// Saves or restores the members (state/persist.hpp); the policy checks them when rebuilt.
  template <class Archive>
  void persist(Archive& ar) {
    ar("v", v);
    ar("prior_variance", prior_variance);
    ar.nest("newton", [&] { newton.persist(ar); });
  }
  /// Throws std::invalid_argument naming a bad member.
  void validate() const {
    detail::require_scale("v", v);
    detail::require_scale("prior_variance", prior_variance);
    newton.validate("newton");
  }
};

/// Laplace-approximate Thompson sampling (header comment); models ContextualPolicy. A copy is
/// a checkpoint.
template <RewardModel Model = bernoulli_model, FeatureMap Map = disjoint_features>
class laplace_ts : public policy_core<Map, laplace_ts_params> {
  using base = policy_core<Map, laplace_ts_params>;

 public:
  /// The parameters.
  using params = laplace_ts_params;

  /// K arms over any feature map; `policy(K, d, ...)` is disjoint with contexts of size d.
  laplace_ts(Eigen::Index num_arms, Map map, const params& p = {}, Model model = Model{})
      : base(num_arms, std::move(map), p, factor_doubles(map.dimension()) + map.dimension() + 1,
             factor_doubles(map.dimension()) * 3),
        model_(std::move(model)),
        modes_(Eigen::MatrixXd::Zero(this->dimension(), this->blocks())),
        factors_(static_cast<std::size_t>(this->blocks()),
                 information_factor(this->dimension(), 1.0 / p.prior_variance)),
        histories_(static_cast<std::size_t>(this->blocks()),
                   context_buffer(this->dimension(), 0)),
        work_(this->dimension()) {}

  /// argmax_a of x^T m_a + v sqrt(x^T H_a^-1 x) z_a, z ~ N(0, I_K) in arm order; throws
  /// std::invalid_argument naming "context".
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] Eigen::Index select(const vector_cref& x, URBG& gen) {
    return this->argmax_of(
        x,
        [&](Eigen::Index, const vector_cref& phi, Eigen::Index block) {
          const auto k = static_cast<std::size_t>(block);
          return thompson_score(phi.dot(modes_.col(block)),
                                factors_[k].inverse_quadratic(phi, work_.vector),
                                this->parameters().v, gen);
        },
        gen);
  }

  /// Learns reward r of `arm` at x: appends (x, r) to the arm's history and re-solves its MAP
  /// and H. Throws std::invalid_argument naming "context" or "reward" (outside the model's
  /// support), std::out_of_range for the arm, std::domain_error if Newton's method becomes
  /// non-finite; the policy is then unchanged.
  template <uniform_random_bit_generator URBG>
  void update(const vector_cref& x, Eigen::Index arm, double reward, URBG& /*gen*/) {
    const auto [phi, block] = this->checked_pull(x, arm, reward, model_);
    auto& history = histories_[static_cast<std::size_t>(block)];
    work_.push_and_fit(model_, history, phi, reward, modes_.col(block),
                       this->parameters().prior_variance, this->parameters().newton);
    modes_.col(block) = work_.theta;
    swap(factors_[static_cast<std::size_t>(block)], work_.factor);
  }

  /// The MAP m of each block (d x blocks).
  [[nodiscard]] const Eigen::MatrixXd& modes() const noexcept { return modes_; }
  /// The Cholesky factor of H at the MAP of a block.
  [[nodiscard]] const information_factor& factor(Eigen::Index block) const {
    return factors_[static_cast<std::size_t>(block)];
  }
  /// A block's history of (phi, reward) pairs: memory that grows with its pulls.
  [[nodiscard]] const context_buffer& history(Eigen::Index block) const {
    return histories_[static_cast<std::size_t>(block)];
  }
  /// The reward model.
  [[nodiscard]] const Model& model() const noexcept { return model_; }

  // --- persistence (state::save and state::restore, state/persist.hpp) --------------------------------------------------------
  /// "contextual_laplace_ts<model>", the type in a saved state's header (disjoint features).
  [[nodiscard]] static std::string state_name() {
    return "contextual_laplace_ts<" + detail::component_name<Model>() + ">";
  }
  /// The saved fields: the model, K, d, the parameters, and per block its MAP, H's factor and
  /// its history (whose rewards must be the model's).
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    base::persist_shape_and_model(
        self, ar, self.model_,
        [](Eigen::Index, Eigen::Index d, const params&) { return factor_doubles(d) + d; },
        [](Eigen::Index k, auto d, const params& p, const Model& model) {  // generic: compiled for reading only
          return laplace_ts(k, d, p, model);
        });
    ar("modes", self.modes_);
    for (std::size_t k = 0; k < self.factors_.size(); ++k) {
      ar.nest("block" + std::to_string(k), [&] {
        ar.nest("H", [&] { information_factor::persist(self.factors_[k], ar); });
        ar.nest("history", [&] { context_buffer::persist(self.histories_[k], ar); });
        require_rewards(self.model_, self.histories_[k], ar);
      });
    }
  }

 private:
  Model model_;
  Eigen::MatrixXd modes_;
  std::vector<information_factor> factors_;
  std::vector<context_buffer> histories_;
  workspace work_;
};

static_assert(ContextualPolicy<laplace_ts<>>);

}  // namespace sabandit::contextual
