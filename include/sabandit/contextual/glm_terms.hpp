#pragma once
// One reward's terms in a GLM RewardModel, at eta = <phi, theta>: the likelihood sees theta only
// through eta (concepts.hpp), so its gradient in theta is s phi with the slope
// s = d/d eta log p(r | eta), and its information about theta is i(eta) phi phi^T
// (models/information.hpp). Every contextual policy over a reward model builds its sums from
// these two scalars: the Newton MAP (glm_map.hpp), TS-SA's window gradient and information
// estimate, TS-SGLD's mini-batch gradient.
#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/models/information.hpp"

namespace sabandit::contextual {

/// Scratch for the models that are asked through their vector members (two vectors of size d).
struct glm_scratch {
  /// Two vectors of size d.
  explicit glm_scratch(Eigen::Index dimension) : shifted(dimension), grad(dimension) {}
  Eigen::VectorXd shifted;  ///< fisher_information's shifted theta
  Eigen::VectorXd grad;     ///< a gradient in theta
};

/// s = d/d eta log p(r | theta) at eta = <phi, theta>: (r - g(eta)) / a for a canonical-link
/// model, otherwise read off the model's gradient along phi.
template <RewardModel Model>
[[nodiscard]] double glm_slope(const Model& model, const vector_cref& phi, const vector_cref& theta,
                               double eta, double reward, glm_scratch& scratch) {
  if constexpr (requires { model.mean_at(eta); model.dispersion(); }) {
    return (reward - model.mean_at(eta)) / model.dispersion();
  } else {
    if constexpr (WindowMeanRewardModel<Model>) {
      model.grad_log_likelihood_at_mean(reward, phi, theta, scratch.grad);
    } else {
      const Eigen::Matrix<double, 1, 1> one(reward);
      model.grad_log_likelihood(one, phi, theta, scratch.grad);
    }
    const double norm2 = phi.squaredNorm();  // a zero phi: the likelihood does not see theta
    return norm2 > 0.0 ? phi.dot(scratch.grad) / norm2 : 0.0;
  }
}

/// i(eta), the information of one reward about eta (models/information.hpp; 0 if not finite).
template <RewardModel Model>
[[nodiscard]] double glm_information(const Model& model, const vector_cref& phi,
                                     const vector_cref& theta, double eta, glm_scratch& scratch) {
  return sabandit::detail::fisher_information_at(model, phi, theta, eta, scratch.shifted,
                                                 scratch.grad);
}

/// out += weight * grad log p(r | theta) = weight s phi: one reward's term of a window's or a
/// mini-batch's gradient.
template <RewardModel Model, class Phi>
void add_gradient_term(const Model& model, const Phi& phi, const vector_cref& theta, double reward,
                       double weight, Eigen::VectorXd& out, glm_scratch& scratch) {
  const double eta = phi.dot(theta);
  out += (weight * glm_slope(model, phi, theta, eta, reward, scratch)) * phi;
}

}  // namespace sabandit::contextual
