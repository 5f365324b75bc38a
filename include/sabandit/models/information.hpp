#pragma once
// The Fisher information of one reward about an arm's linear predictor eta = <phi, theta>:
//   i(eta) = E[ (d/d eta log p(x | theta))^2 ] = -E[ d^2/d eta^2 log p(x | theta) ].
// It is the geometry the scale-free TS-SA steps in (policies/langevin/core.hpp, docs/
// scale-free-ts-sa.md): its Langevin step is preconditioned by the inverse information and its
// decision spread (Alg. 1 line 4) is 1 / (posterior information), as the Laplace approximation
// of the posterior has it.
//
// A RewardModel is a GLM: log p(x | theta) depends on theta only through eta, so the
// information about theta is i(eta) phi phi^T, of rank one. With a fixed feature phi_a per arm
// only eta_a is identified, and the whole d x d geometry of an arm collapses to this scalar
// (Sherman-Morrison: phi^T (lambda0 I + J phi phi^T)^-1 phi = |phi|^2 / (lambda0 + J |phi|^2)).
//
// A model may provide it (`m.information(phi, theta)`; the canonical-link models do, from their
// variance function). Otherwise `fisher_information` computes it from the gradient alone:
// - if log p(x | eta) is affine in x (every exponential family whose sufficient statistic is x,
//   with any link: Gaussian, Bernoulli, Poisson, exponential, gamma with known shape), so is
//   its second derivative in eta, and the expectation over x is the value at x = E[x] = mean;
// - so i(eta) = -(d/d eta) of the one-reward gradient at the pseudo-reward x = mean(phi, theta),
//   here by a central difference along phi.
// For a likelihood not affine in x (Student-t, say) this is the information at a typical reward,
// an approximation: check_model compares it with the variance of the gradient.
#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/detail/vector_ops.hpp"

namespace sabandit {

/// A model that knows its Fisher information: `m.information(phi, theta)` is i(eta) >= 0, the
/// information of one reward about eta = <phi, theta>.
template <class M>
concept FisherInformationModel =
    RewardModel<M> && requires(const M& model, const vector_cref& phi, const vector_cref& theta) {
      { model.information(phi, theta) } -> std::convertible_to<double>;
    };

/// A model whose mean can be inverted: `m.link(mu)` is the eta with mean g(eta) = mu (NaN or
/// infinite outside the range of means) and `m.mean_slope(phi, theta)` is g'(eta). With them
/// the scale-free TS-SA takes its Fisher step in mean coordinates (policies/langevin/core.hpp):
/// for a likelihood affine in x (see above) the Fisher step there is exactly
/// (m i / J) (xbar - mu) / m, the posterior-weighted running mean, whereas its linearisation
/// in eta is biased wherever g is curved (a click at a 2 % rate moves the logit by 1 / (m p)).
/// The canonical-link models provide both.
template <class M>
concept InvertibleLinkModel =
    RewardModel<M> && requires(const M& model, double mu, const vector_cref& phi,
                               const vector_cref& theta) {
      { model.link(mu) } -> std::convertible_to<double>;
      { model.mean_slope(phi, theta) } -> std::convertible_to<double>;
    };

/// A model that knows the coordinate in which its posterior is closest to normal:
/// `m.normalizing_coordinate(mu)`, increasing in the mean mu, with derivative proportional to
/// V(mu)^(-2/3) (V the reward variance at mean mu), and `m.normalizing_slope(phi, theta)`, the
/// derivative of normalizing_coordinate(mean(phi, theta)) in eta. It removes the posterior's
/// skewness to first order (DiCiccio 1984; for the Gamma posteriors of Poisson rates it is
/// Wilson and Hilferty's cube root, 1931): a Beta posterior at a 1 % rate is skewed left in the
/// logit, so a normal in the logit over-weights its upper tail and over-explores. The
/// scale-free TS-SA draws line 4's scores in it (policies/langevin/core.hpp); the built-in
/// models provide it (Gaussian: mu itself; Poisson: 3 mu^(1/3); Bernoulli: the incomplete beta
/// integral B(mu; 1/3, 1/3); exponential: -3 mu^(-1/3), the cube root of the rate).
template <class M>
concept NormalizingCoordinateModel =
    RewardModel<M> && requires(const M& model, double mu, const vector_cref& phi,
                               const vector_cref& theta) {
      { model.normalizing_coordinate(mu) } -> std::convertible_to<double>;
      { model.normalizing_slope(phi, theta) } -> std::convertible_to<double>;
    };

namespace detail {
/// The observed information at the pseudo-reward x = mean (see the header comment), from the
/// gradient alone: what fisher_information takes for a model without `information`, and what
/// a model may answer where it knows no better (the Python binding's model, for an object
/// without an information method). `shifted` and `grad` are scratch of size d. Not clamped.
template <RewardModel Model>
[[nodiscard]] double observed_information(const Model& model, const vector_cref& phi,
                                          const vector_cref& theta, Eigen::VectorXd& shifted,
                                          Eigen::VectorXd& grad) {
  const double phi_norm2 = detail::squared_norm(phi);
  const double eta = detail::dot(phi, theta);
  // Central difference: error O(eps^2 f''') against rounding O(u / eps); eps ~ u^(1/3)
  // balances them (u = 2^-52), relative to the scale of eta.
  const double eps = 6.0e-6 * std::max(1.0, std::abs(eta));
  Eigen::Matrix<double, 1, 1> pseudo_reward;
  pseudo_reward(0) = model.mean(phi, theta);
  const auto slope_at = [&](double delta) {  // d/d eta log p(pseudo | theta + delta phi / |phi|^2)
    detail::add_scaled(shifted, theta, delta / phi_norm2, phi);
    model.grad_log_likelihood(pseudo_reward, phi, shifted, grad);
    return detail::dot(phi, grad) / phi_norm2;
  };
  return -(slope_at(eps) - slope_at(-eps)) / (2.0 * eps);
}
}  // namespace detail

/// i(eta) of `model` at theta: the model's own `information` if it has one, else the observed
/// information at the pseudo-reward x = mean (see the header comment). `shifted` and `grad` are
/// scratch of size d, so that a policy's round allocates nothing. Never negative: a difference
/// quotient that rounding makes negative, or a non-finite one, is reported as 0.
template <RewardModel Model>
[[nodiscard]] double fisher_information(const Model& model, const vector_cref& phi,
                                        const vector_cref& theta, Eigen::VectorXd& shifted,
                                        Eigen::VectorXd& grad) {
  double info = 0.0;
  if constexpr (FisherInformationModel<Model>) {
    info = model.information(phi, theta);
  } else {
    info = detail::observed_information(model, phi, theta, shifted, grad);
  }
  return std::isfinite(info) && info > 0.0 ? info : 0.0;
}

/// For a model that does not know its normalizing coordinate: kappa = d/d eta log psi'(eta),
/// the curvature of the coordinate's log-slope at theta, where
///   psi'(eta) = g'(eta)^(-1/3) i(eta)^(2/3)
/// is V(mu)^(-2/3) g'(eta) with V = g'^2 / i (exact for a likelihood affine in x, as above).
/// Line 4 then draws in the coordinate whose log-slope has this curvature throughout,
///   psi(eta) - psi(eta_hat) = psi'(eta_hat) (e^(kappa (eta - eta_hat)) - 1) / kappa,
/// which is exact for every log-link exponential family (Poisson: 1/3, exponential: -1/3) and
/// the identity for the Gaussian (0): policies/langevin/core.hpp. A central difference in eta
/// (g' from the model's mean_slope, else itself a difference of the mean); 0 where the
/// information or the slope vanish or the difference is not finite. `moved`, `shifted` and
/// `grad` are scratch of size d.
template <RewardModel Model>
[[nodiscard]] double normalizing_curvature(const Model& model, const vector_cref& phi,
                                           const vector_cref& theta, Eigen::VectorXd& moved,
                                           Eigen::VectorXd& shifted, Eigen::VectorXd& grad) {
  const double phi_norm2 = detail::squared_norm(phi);
  const double eta = detail::dot(phi, theta);
  const auto log_slope_at = [&](double delta) {  // log psi' at eta + delta
    detail::add_scaled(moved, theta, delta / phi_norm2, phi);
    double mean_slope = 0.0;
    if constexpr (InvertibleLinkModel<Model>) {
      mean_slope = model.mean_slope(phi, moved);
    } else {  // eps ~ u^(1/3), as in fisher_information
      const double eps = 6.0e-6 * std::max(1.0, std::abs(eta + delta));
      detail::add_scaled(shifted, moved, eps / phi_norm2, phi);
      const double up = model.mean(phi, shifted);
      // moved + (-e) phi: the same bits as moved - e phi (negation is exact)
      detail::add_scaled(shifted, moved, -(eps / phi_norm2), phi);
      mean_slope = (up - model.mean(phi, shifted)) / (2.0 * eps);
    }
    const double info = fisher_information(model, phi, moved, shifted, grad);
    return (2.0 * std::log(info) - std::log(mean_slope)) / 3.0;
  };
  // A wider step than the inner differences': their relative error (~1e-10) over 2 delta.
  const double delta = 1.0e-4 * std::max(1.0, std::abs(eta));
  const double kappa = (log_slope_at(delta) - log_slope_at(-delta)) / (2.0 * delta);
  return std::isfinite(kappa) ? kappa : 0.0;
}

/// The model's geometry at a linear predictor eta = <phi, theta> already computed, for the
/// scale-free TS-SA's every step: the canonical-link models write these as functions of eta
/// (`information_at`, `mean_at`, `mean_slope_at`, `normalizing_slope_at`), which are asked in
/// scalars; any other model is asked through its (phi, theta) members, the same values.
/// One dispatch here rather than a branch at every use.
namespace detail {
/// fisher_information at eta (scratch as there).
template <RewardModel Model, class Phi, class Theta>
[[nodiscard]] double fisher_information_at(const Model& model, const Phi& phi, const Theta& theta,
                                           double eta, Eigen::VectorXd& shifted,
                                           Eigen::VectorXd& grad) {
  if constexpr (requires { model.information_at(eta); }) {
    const double info = model.information_at(eta);
    return std::isfinite(info) && info > 0.0 ? info : 0.0;  // as fisher_information reports it
  } else {
    return fisher_information(model, phi, theta, shifted, grad);
  }
}
/// The mean g(eta).
template <RewardModel Model, class Phi, class Theta>
[[nodiscard]] double mean_at(const Model& model, const Phi& phi, const Theta& theta, double eta) {
  if constexpr (requires { model.mean_at(eta); }) {
    return model.mean_at(eta);
  } else {
    return model.mean(phi, theta);
  }
}
/// g'(eta), for an InvertibleLinkModel.
template <InvertibleLinkModel Model, class Phi, class Theta>
[[nodiscard]] double mean_slope_at(const Model& model, const Phi& phi, const Theta& theta,
                                   double eta) {
  if constexpr (requires { model.mean_slope_at(eta); }) {
    return model.mean_slope_at(eta);
  } else {
    return model.mean_slope(phi, theta);
  }
}
/// d psi / d eta, for a NormalizingCoordinateModel.
template <NormalizingCoordinateModel Model, class Phi, class Theta>
[[nodiscard]] double normalizing_slope_at(const Model& model, const Phi& phi, const Theta& theta,
                                          double eta) {
  if constexpr (requires { model.normalizing_slope_at(eta); }) {
    return model.normalizing_slope_at(eta);
  } else {
    return model.normalizing_slope(phi, theta);
  }
}
}  // namespace detail

/// The same with its own scratch (allocates; for check_model and one-off use).
template <RewardModel Model>
[[nodiscard]] double fisher_information(const Model& model, const vector_cref& phi,
                                        const vector_cref& theta) {
  Eigen::VectorXd shifted(phi.size()), grad(phi.size());
  return fisher_information(model, phi, theta, shifted, grad);
}

}  // namespace sabandit
