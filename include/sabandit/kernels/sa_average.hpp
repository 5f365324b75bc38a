#pragma once
// The stochastic-approximation average of TS-SA (Alg. 1 line 9):
//   theta <- (1 - gamma) theta + gamma omega.
// With gamma_n = 1/n it is exactly the running mean of the proposals omega_1..omega_n.
#include <Eigen/Core>

#include "sabandit/detail/vector_ops.hpp"

namespace sabandit {

/// theta <- theta + gamma (omega - theta), in place (Alg. 1 line 9).
template <class Theta, class Omega>
void sa_average(const Eigen::MatrixBase<Theta>& theta_const, const Eigen::MatrixBase<Omega>& omega,
                double gamma) {
  auto& theta = const_cast<Eigen::MatrixBase<Theta>&>(theta_const);  // NOLINT: Eigen's idiom
  if constexpr (detail::contiguous_vector<Theta> && detail::contiguous_vector<Omega>) {
    // one arm: a loop, the expression's operations in its order, one per statement so that
    // none is fused into an FMA (detail/vector_ops.hpp)
    double* t = detail::coefficients_out(theta);
    const double* w = detail::coefficients(omega);
    for (Eigen::Index i = 0; i < detail::length(theta); ++i) {
      const double step = gamma * (w[i] - t[i]);
      t[i] += step;
    }
  } else {
    theta += gamma * (omega - theta);
  }
}

}  // namespace sabandit
