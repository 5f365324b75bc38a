#pragma once
// Stochastic-approximation schedules of TS-SA (Alg. 1 line 9): small values mapping an arm's
// pull count n >= 1 to the SA weight gamma_n. (The Langevin step h is a constant in both
// Langevin policies; see ts_sgld.hpp for why TS-SGLD's needs no decay either.)
#include <cmath>
#include <concepts>
#include <string>

#include <Eigen/Core>

#include "sabandit/detail/checked.hpp"
#include "sabandit/errors.hpp"

namespace sabandit {

/// `s(n)` is the weight gamma_n after n pulls of an arm; optionally `s.inner_steps(n)` says how many
/// inner iterations the n-th update runs (the theory's N(n)); otherwise the policy's fixed N.
template <class S>
concept SaSchedule = std::copy_constructible<S> && requires(const S& s, Eigen::Index n) {
  { s(n) } -> std::convertible_to<double>;
};

/// gamma_n = value for every n: an exponential moving average of the proposals.
class constant_schedule {
 public:
  /// gamma_n = value, finite and > 0 (and <= 1 for an SA weight: TS-SA checks).
  explicit constant_schedule(double value) : value_(value) {
    detail::require_positive("constant_schedule.value", value);
  }
  /// gamma_n, the SA weight of the update after n pulls.
  [[nodiscard]] double operator()(Eigen::Index /*n*/) const noexcept { return value_; }
  /// The constant.
  [[nodiscard]] double value() const noexcept { return value_; }

  /// "constant", the name in a saved policy's type (state/persist.hpp).
  [[nodiscard]] static std::string state_name() { return "constant"; }
  /// Saves or restores the value; restoring re-runs the constructor's check.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    double value = self.value_;
    ar("value", value);
    if constexpr (Archive::reading) self = constant_schedule(value);
  }

 private:
  double value_;
};

/// gamma_n = c1 / (c2 n^alpha + c3): the SA schedule of the appendix ("Ablation Studies").
/// 1/n is {1, 1, 0, 1}. Requires c1 in [1e-100, 1e100], c2 and c3 each 0 or in [1e-100, 1e100]
/// with c2 + c3 > 0, and alpha in (0, 1] (the Robbins–Monro condition sum gamma_n = infinity
/// needs alpha <= 1).
class polynomial_decay {
 public:
  /// gamma_n = c1 / (c2 n^alpha + c3); throws std::invalid_argument naming a bad coefficient.
  polynomial_decay(double c1, double c2, double c3, double alpha)
      : c1_(c1), c2_(c2), c3_(c3), alpha_(alpha) {
    // Scale bounds as for every scale parameter (errors.hpp): c2 n^alpha + c3 and the
    // quotient stay finite and non-zero for every n a policy can reach.
    detail::require_scale("polynomial_decay.c1", c1);
    detail::require_zero_or_scale("polynomial_decay.c2", c2);
    detail::require_zero_or_scale("polynomial_decay.c3", c3);
    if (!(c2 + c3 > 0.0)) detail::throw_invalid("polynomial_decay.c2 + c3", c2 + c3, "must be > 0");
    if (!(alpha > 0.0 && alpha <= 1.0))
      detail::throw_invalid("polynomial_decay.alpha", alpha, "must be in (0, 1]");
  }

  /// The appendix's ablation default: c1 = 144.07, c2 = 677.88, c3 = 40.02, alpha = 0.999.
  [[nodiscard]] static polynomial_decay paper_default() {
    return {144.07, 677.88, 40.02, 0.999};
  }
  /// gamma_n = 1/n: SA becomes the running mean.
  [[nodiscard]] static polynomial_decay harmonic() { return {1.0, 1.0, 0.0, 1.0}; }

  /// gamma_n, the SA weight of the update after n pulls.
  [[nodiscard]] double operator()(Eigen::Index n) const noexcept {
    // n^alpha as exp(alpha ln n): about half the cost of glibc's correctly rounded pow (which
    // was a fifth of a TS-SA round, measured with perf), within a few ulps of it.
    const double nd = static_cast<double>(n);
    const double power = alpha_ == 1.0 ? nd : std::exp(alpha_ * std::log(nd));
    return c1_ / (c2_ * power + c3_);
  }

  /// The numerator c1.
  [[nodiscard]] double c1() const noexcept { return c1_; }
  /// The coefficient c2 of n^alpha.
  [[nodiscard]] double c2() const noexcept { return c2_; }
  /// The offset c3.
  [[nodiscard]] double c3() const noexcept { return c3_; }
  /// The exponent alpha.
  [[nodiscard]] double alpha() const noexcept { return alpha_; }

  /// "polynomial_decay", the name in a saved policy's type (state/persist.hpp).
  [[nodiscard]] static std::string state_name() { return "polynomial_decay"; }
  /// Saves or restores c1, c2, c3 and alpha; restoring re-runs the constructor's checks.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    double c1 = self.c1_, c2 = self.c2_, c3 = self.c3_, alpha = self.alpha_;
    ar("c1", c1);
    ar("c2", c2);
    ar("c3", c3);
    ar("alpha", alpha);
    if constexpr (Archive::reading) self = polynomial_decay(c1, c2, c3, alpha);
  }

 private:
  double c1_, c2_, c3_, alpha_;
};

/// The analysis' schedule (Lemma "Convergence of TS-SA"): gamma = 1/T for a known horizon T,
/// with N(n) = ceil(T / n) inner iterations at the n-th update, so that the n-th update moves
/// the chain by about one unit of Langevin time whatever n is.
class horizon_schedule {
 public:
  /// The analysis' schedule for a known horizon T >= 1.
  explicit horizon_schedule(Eigen::Index horizon) : horizon_(horizon) {
    detail::require_at_least<Eigen::Index>("horizon_schedule.horizon", horizon, 1);
  }
  /// gamma_n, the SA weight of the update after n pulls.
  [[nodiscard]] double operator()(Eigen::Index /*n*/) const noexcept {
    return 1.0 / static_cast<double>(horizon_);
  }
  /// N(n) = ceil(T / n) for n >= 1, computed without overflow (T + n - 1 overflowed near
  /// the largest Eigen::Index).
  [[nodiscard]] Eigen::Index inner_steps(Eigen::Index n) const noexcept {
    return detail::ceil_div(horizon_, n);
  }

  /// "horizon", the name in a saved policy's type (state/persist.hpp).
  [[nodiscard]] static std::string state_name() { return "horizon"; }
  /// Saves or restores T; restoring re-runs the constructor's check.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    Eigen::Index horizon = self.horizon_;
    ar("horizon", horizon);
    if constexpr (Archive::reading) self = horizon_schedule(horizon);
  }

 private:
  Eigen::Index horizon_;
};

/// Inner iterations for the n-th update: the schedule's own N(n) if it has one, else `fixed`.
template <SaSchedule S>
[[nodiscard]] Eigen::Index inner_steps(const S& schedule, Eigen::Index n, Eigen::Index fixed) {
  if constexpr (requires { { schedule.inner_steps(n) } -> std::convertible_to<Eigen::Index>; }) {
    return schedule.inner_steps(n);
  } else {
    return fixed;
  }
}

}  // namespace sabandit
