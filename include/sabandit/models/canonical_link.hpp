#pragma once
// What the built-in reward models share: each is a generalised linear model with its canonical
// link (the paper's Preliminaries),
//   log p(x | theta) = (x eta - b(eta)) / a + c(x),   eta = <phi, theta>,
// so E[x | theta] = b'(eta) and the gradient of the mean log-likelihood of m rewards is
//   (1/m) sum_i grad log p(x_i | theta) = phi (xbar - b'(eta)) / a,
// which sees the rewards only through their mean xbar (the WindowMeanRewardModel refinement of
// concepts.hpp, which lets TS-SA's window and TS-SGLD's mini-batches pass a sum alone). A model
// derives from canonical_link<itself> and supplies b' as `mean_at(eta)` and the dispersion a
// as `dispersion()`; the mean and both gradients are written here once. A model that also has
// the reward variance V(q) = a b''(eta) at mean q (`reward_variance`, as KL-UCB needs) gets the
// Fisher information of one reward about eta, b''(eta) / a = V(mean) / a^2
// (models/information.hpp), which the scale-free TS-SA steps with.
#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/detail/vector_ops.hpp"

namespace sabandit {

/// The mean and the log-likelihood gradients of a canonical-link GLM `Model` (CRTP: `Model`
/// derives from canonical_link<Model> and has `double mean_at(double eta)` and
/// `double dispersion()`).
template <class Model>
class canonical_link {
 public:
  /// E[x | theta] = b'(<phi, theta>).
  [[nodiscard]] double mean(const vector_cref& phi, const vector_cref& theta) const {
    return model().mean_at(detail::dot(phi, theta));
  }

  /// grad (1/m) sum_i log p(x_i | theta) = phi (xbar - b'(eta)) / a.
  void grad_log_likelihood(const vector_cref& rewards, const vector_cref& phi,
                           const vector_cref& theta, vector_ref grad) const {
    grad_log_likelihood_at_mean(detail::mean(rewards), phi, theta, grad);
  }

  /// The same gradient from the rewards' mean alone. A template, so that the Langevin
  /// policies' 1 x 1 fixed-size views (d = 1, policies/langevin/dimension.hpp) get scalar code:
  /// the same operations, in the same order, as for run-time-sized vectors, hence the same
  /// bits. (A dispersion of 1 divides exactly: the Bernoulli and Poisson gradients are
  /// phi (xbar - b'(eta)) to the bit.)
  template <class Phi, class Theta, class Grad>
  void grad_log_likelihood_at_mean(double xbar, const Eigen::MatrixBase<Phi>& phi,
                                   const Eigen::MatrixBase<Theta>& theta,
                                   const Eigen::MatrixBase<Grad>& grad_out) const {
    const double eta = detail::dot(phi, theta);
    auto& grad = const_cast<Eigen::MatrixBase<Grad>&>(grad_out);  // NOLINT: Eigen's idiom
    detail::scaled(grad, (xbar - model().mean_at(eta)) / model().dispersion(), phi);
  }

  /// g'(eta) = b''(eta) = V(b'(eta)) / a, the slope of the mean in eta (models/information.hpp:
  /// the scale-free TS-SA steps in mean coordinates with it). Only for models with
  /// `reward_variance`.
  template <class M = Model>
  [[nodiscard]] double mean_slope(const vector_cref& phi, const vector_cref& theta) const
    requires requires(const M& m, double q) { m.reward_variance(q); }
  {
    return mean_slope_at(detail::dot(phi, theta));
  }
  /// The same at eta: the scale-free TS-SA computes eta once per step and asks in scalars.
  template <class M = Model>
  [[nodiscard]] double mean_slope_at(double eta) const
    requires requires(const M& m, double q) { m.reward_variance(q); }
  {
    return model().reward_variance(model().mean_at(eta)) / model().dispersion();
  }
  /// The canonical link (b')^-1: the eta whose mean is mu; NaN or infinite outside the range
  /// of means. Only for models with `link_at`.
  template <class M = Model>
  [[nodiscard]] double link(double mu) const
    requires requires(double q) { M::link_at(q); }
  {
    return Model::link_at(mu);
  }

  /// The Fisher information of one reward about eta = <phi, theta>: b''(eta) / a =
  /// V(b'(eta)) / a^2 (1 / sigma^2 for the Gaussian, p (1 - p) for Bernoulli, e^eta for
  /// Poisson). Only for models with `reward_variance`.
  template <class M = Model>
  [[nodiscard]] double information(const vector_cref& phi, const vector_cref& theta) const
    requires requires(const M& m, double q) { m.reward_variance(q); }
  {
    return information_at(detail::dot(phi, theta));
  }
  /// The same at eta (see mean_slope_at).
  template <class M = Model>
  [[nodiscard]] double information_at(double eta) const
    requires requires(const M& m, double q) { m.reward_variance(q); }
  {
    const double a = model().dispersion();
    return model().reward_variance(model().mean_at(eta)) / (a * a);
  }

 private:
  [[nodiscard]] const Model& model() const noexcept { return static_cast<const Model&>(*this); }
};

}  // namespace sabandit
