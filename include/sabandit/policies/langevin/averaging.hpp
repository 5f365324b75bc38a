#pragma once
// What a Langevin chain does with each proposal omega (the averager of a composition,
// langevin/core.hpp):
//  - sa_averaging: TS-SA's stochastic-approximation filter (Alg. 1 line 9),
//      theta <- (1 - gamma_n) theta + gamma_n omega,
//    with gamma_n from an SA schedule, which may also fix the inner iterations N(n);
//  - last_iterate: no averaging, theta <- omega (TS-SGLD: the decision uses the chain's last
//    sample, Table 1's last row).
#include <Eigen/Core>

#include "sabandit/errors.hpp"
#include "sabandit/kernels/sa_average.hpp"
#include "sabandit/kernels/schedules.hpp"

namespace sabandit::langevin {

/// TS-SA's averager: the SA filter of Alg. 1 line 9 with weights from an SA schedule.
template <SaSchedule Schedule>
class sa_averaging {
 public:
  /// Averages with gamma_n = schedule(n).
  explicit sa_averaging(Schedule schedule) : schedule_(std::move(schedule)) {}

  /// The SA schedule.
  [[nodiscard]] const Schedule& schedule() const noexcept { return schedule_; }

  /// gamma_n is a convex weight: it must lie in (0, 1] from the first update on, n = Omega.
  void validate(Eigen::Index first_update) const {
    const double first_gamma = schedule_(first_update);
    if (!(first_gamma > 0.0 && first_gamma <= 1.0))
      detail::throw_invalid("sa_schedule(warmup)", first_gamma, "must be in (0, 1]");
  }

  /// gamma_n for the update after n pulls, computed once per update.
  [[nodiscard]] double weight(Eigen::Index n) const { return schedule_(n); }
  /// The schedule's own N(n) if it has one (the theory's horizon schedule), else `fixed`.
  [[nodiscard]] Eigen::Index iterations(Eigen::Index n, Eigen::Index fixed) const {
    return inner_steps(schedule_, n, fixed);
  }
  /// theta <- theta + gamma (omega - theta), Alg. 1 line 9's (1 - gamma) theta + gamma omega
  /// (kernels/sa_average.hpp; any Eigen vectors).
  template <class Theta, class Omega>
  void average(Theta& theta, const Omega& omega, double gamma) const {
    sa_average(theta, omega, gamma);  // line 9
  }

 private:
  Schedule schedule_;
};

/// TS-SGLD's averager: none; the chain's last proposal is its state.
class last_iterate {
 public:
  /// Nothing to check.
  void validate(Eigen::Index /*first_update*/) const noexcept {}
  /// Unused by average(); 1 for the record.
  [[nodiscard]] double weight(Eigen::Index /*n*/) const noexcept { return 1.0; }
  /// Always the policy's fixed N.
  [[nodiscard]] Eigen::Index iterations(Eigen::Index /*n*/, Eigen::Index fixed) const noexcept {
    return fixed;
  }
  /// theta <- omega (any Eigen vectors).
  template <class Theta, class Omega>
  void average(Theta& theta, const Omega& omega, double /*gamma*/) const {
    theta = omega;
  }
};

}  // namespace sabandit::langevin
