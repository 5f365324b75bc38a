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

template <SaSchedule Schedule>
class sa_averaging {
 public:
  explicit sa_averaging(Schedule schedule) : schedule_(std::move(schedule)) {}

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
  void average(Eigen::VectorXd& theta, const Eigen::VectorXd& omega, double gamma) const {
    sa_average(theta, omega, gamma);  // line 9
  }

 private:
  Schedule schedule_;
};

class last_iterate {
 public:
  void validate(Eigen::Index /*first_update*/) const noexcept {}
  [[nodiscard]] double weight(Eigen::Index /*n*/) const noexcept { return 1.0; }
  [[nodiscard]] Eigen::Index iterations(Eigen::Index /*n*/, Eigen::Index fixed) const noexcept {
    return fixed;
  }
  void average(Eigen::VectorXd& theta, const Eigen::VectorXd& omega, double /*gamma*/) const {
    theta = omega;
  }
};

}  // namespace sabandit::langevin
