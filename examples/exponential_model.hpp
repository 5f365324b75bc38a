#pragma once
// A reward model of your own: exponential rewards (waiting times, session lengths) with a log
// link,
//   x ~ Exponential(rate e^-eta),  E[x] = e^eta,  eta = <phi, theta>,
//   log p(x | theta) = -eta - x e^-eta   (concave in theta: the second derivative is -x e^-eta).
// The mean e^eta increases with eta, as the RewardModel concept requires, so the policies'
// argmax of <phi_a, theta_a> is the argmax of expected reward.
// custom_reward_model.cpp runs it. The library's own exponential_model
// (sabandit/models/exponential.hpp) is this likelihood with a conjugate posterior, its Fisher
// information and a flat default prior added: use that one for durations.
#include <cmath>
#include <limits>
#include <random>

#include <sabandit/concepts.hpp>
#include <sabandit/random/bits.hpp>

namespace examples {

struct exponential_model {
  double mean(const sabandit::vector_cref& phi, const sabandit::vector_cref& theta) const {
    return std::exp(phi.dot(theta));
  }
  double log_likelihood(double x, const sabandit::vector_cref& phi,
                        const sabandit::vector_cref& theta) const {
    const double eta = phi.dot(theta);
    return -eta - x * std::exp(-eta);
  }
  /// grad (1/m) sum_i log p(x_i | theta) = phi (mean_i(x_i) e^-eta - 1).
  void grad_log_likelihood(const sabandit::vector_cref& xs, const sabandit::vector_cref& phi,
                           const sabandit::vector_cref& theta, sabandit::vector_ref grad) const {
    grad = phi * (xs.mean() * std::exp(-phi.dot(theta)) - 1.0);
  }

  // Optional: a divergence makes the model usable by KL-UCB (DivergenceRewardModel).
  /// KL(Exp(mean p) || Exp(mean q)) = p/q - 1 - log(p/q), evaluated as y - log1p(y) with
  /// y = (p - q) / q, which keeps its digits when p and q are close (the index's regime).
  double divergence(double p, double q) const {
    if (!(p > 0.0)) return std::numeric_limits<double>::infinity();  // a mean of 0: no such law
    const double y = (p - q) / q;
    return y - std::log1p(y);
  }
  /// Var[x] = mean^2.
  double reward_variance(double q) const { return q * q; }
  static double mean_upper_limit() { return std::numeric_limits<double>::infinity(); }
};
static_assert(sabandit::RewardModel<exponential_model>);
static_assert(sabandit::DivergenceRewardModel<exponential_model>);

/// The environment's arms: Exponential(mean), drawn by inversion.
struct exponential_arm {
  double mean_;
  double mean() const { return mean_; }
  template <std::uniform_random_bit_generator URBG>
  double operator()(URBG& gen) const { return -mean_ * std::log1p(-sabandit::uniform01(gen)); }
};

}  // namespace examples
