#pragma once
// Reward distributions for one arm. Each is a small value with `mean()` and `operator()(gen)`;
// any type with those two members can be an arm of a bandit_env (see envs/bandit_env.hpp).
#include <cmath>
#include <string>
#include <vector>

#include "sabandit/errors.hpp"
#include "sabandit/random/bits.hpp"
#include "sabandit/random/engine.hpp"
#include "sabandit/random/exponential.hpp"
#include "sabandit/random/normal.hpp"
#include "sabandit/random/poisson.hpp"

namespace sabandit {

/// N(mean, variance).
class normal_arm {
 public:
  /// Throws std::invalid_argument unless `mean` is finite and `variance` > 0: a zero variance
  /// would make every policy's comparison of arms trivially exact.
  normal_arm(double mean, double variance) : mean_(mean), stddev_(std::sqrt(variance)) {
    detail::require_finite("mean", mean);
    detail::require_positive("variance", variance);
  }
  /// The expected reward, from which regret is computed (pseudo-regret needs no draws).
  [[nodiscard]] double mean() const noexcept { return mean_; }
  /// The noise variance, as given (the standard deviation is what is stored, for the draws).
  [[nodiscard]] double variance() const noexcept { return stddev_ * stddev_; }
  /// One reward: mean + sd * z with sabandit's own normal sampler, so that rewards do not
  /// depend on the standard library's implementation.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double operator()(URBG& gen) const {
    return mean_ + stddev_ * standard_normal(gen);
  }

 private:
  double mean_;
  double stddev_;
};

/// A finite mixture of normals, sum_i w_i N(mu_i, sigma_i^2), weights summing to 1.
class normal_mixture_arm {
 public:
  /// One normal of the mixture and its probability.
  struct component {
    double weight;    ///< probability of this component, > 0; the weights sum to 1
    double mean;      ///< its mean, finite
    double variance;  ///< its variance, > 0
  };

  /// Validates every component (naming it, e.g. "components[1].weight") and that the weights
  /// sum to 1 within 1e-12; throws std::invalid_argument otherwise.
  explicit normal_mixture_arm(std::vector<component> components)
      : components_(std::move(components)) {
    if (components_.empty()) detail::throw_invalid("components.size()", 0, "must be >= 1");
    double total = 0.0;
    for (std::size_t i = 0; i < components_.size(); ++i) {
      const auto& c = components_[i];
      const std::string index = "components[" + std::to_string(i) + "]";
      detail::require_positive(index + ".weight", c.weight);
      detail::require_finite(index + ".mean", c.mean);
      detail::require_positive(index + ".variance", c.variance);
      total += c.weight;
      mean_ += c.weight * c.mean;
    }
    if (std::abs(total - 1.0) > 1e-12) detail::throw_invalid("sum of weights", total, "must be 1");
  }

  /// sum_i w_i mu_i, computed once at construction.
  [[nodiscard]] double mean() const noexcept { return mean_; }
  /// The components as given, for reporting and for writing the setting out.
  [[nodiscard]] const std::vector<component>& components() const noexcept { return components_; }

  /// One uniform picks the component, one normal draws from it.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double operator()(URBG& gen) const {
    const double u = uniform01(gen);
    double cumulative = 0.0;
    const component* chosen = &components_.back();  // guards against rounding in the sum
    for (const auto& c : components_) {
      cumulative += c.weight;
      if (u < cumulative) {
        chosen = &c;
        break;
      }
    }
    return chosen->mean + std::sqrt(chosen->variance) * standard_normal(gen);
  }

 private:
  std::vector<component> components_;
  double mean_ = 0.0;
};

/// Bernoulli(p) rewards in {0, 1}.
class bernoulli_arm {
 public:
  /// Throws std::invalid_argument unless p is in [0, 1] (a NaN is rejected too).
  explicit bernoulli_arm(double p) : p_(p) {
    if (!(p >= 0.0 && p <= 1.0)) detail::throw_invalid("p", p, "must be in [0, 1]");
  }
  /// p: the probability of a reward of 1.
  [[nodiscard]] double mean() const noexcept { return p_; }
  /// 1 with probability p, else 0, from one uniform draw.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double operator()(URBG& gen) const {
    return uniform01(gen) < p_ ? 1.0 : 0.0;
  }

 private:
  double p_;
};

/// Poisson(mean) counts in {0, 1, 2, ...}.
class poisson_arm {
 public:
  /// mean in [0, 1e15]; throws std::invalid_argument otherwise.
  explicit poisson_arm(double mean) : mean_(mean) {
    if (!(mean >= 0.0 && mean <= 1e15))  // beyond 2^53 / 8 counts stop being exact doubles
      detail::throw_invalid("mean", mean, "must be in [0, 1e15]");
  }
  /// The expected count.
  [[nodiscard]] double mean() const noexcept { return mean_; }
  /// One count, exact (random/poisson.hpp).
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double operator()(URBG& gen) const {
    return poisson_variate(mean_, gen);
  }

 private:
  double mean_;
};

/// Exponential(mean) durations, always > 0 (random/exponential.hpp).
class exponential_arm {
 public:
  /// mean in [1e-100, 1e100]; throws std::invalid_argument otherwise.
  explicit exponential_arm(double mean) : mean_((detail::require_scale("mean", mean), mean)) {}
  /// The expected duration.
  [[nodiscard]] double mean() const noexcept { return mean_; }
  /// One duration, by inversion.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double operator()(URBG& gen) const {
    return exponential_variate(mean_, gen);
  }

 private:
  double mean_;
};

}  // namespace sabandit
