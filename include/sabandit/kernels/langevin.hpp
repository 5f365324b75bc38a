#pragma once
// One Euler–Maruyama step of Langevin dynamics on an Eigen block: one arm (d x 1) or m chains
// side by side (d x m), one fused expression and one normal fill.
//
//   out = theta + h * grad + noise_scale * sqrt(2 h) * xi,   xi ~ N(0, I)
//
// noise_scale = 1 is the LMC proposal of TS-SA (Alg. 1 line 8); noise_scale = 1/sqrt(n tau')
// is the SGLD update of the Preliminaries (eq. "euler_update"), targeting exp(tau' n F_n).
// Convention: the drift is h * grad (not h/2 * grad) and the noise variance 2h, as in the paper.
#include <cmath>
#include <random>

#include <Eigen/Core>

#include "sabandit/random/normal.hpp"

namespace sabandit {

/// out = theta + h grad + noise_scale sqrt(2h) xi with xi ~ N(0, I) from gen: one fused expression and one normal fill.
template <class Theta, class Grad, class Out, std::uniform_random_bit_generator URBG>
void langevin_step(const Eigen::MatrixBase<Theta>& theta, const Eigen::MatrixBase<Grad>& grad,
                   double step_size, double noise_scale, const Eigen::MatrixBase<Out>& out_const,
                   URBG& gen) {
  auto& out = const_cast<Eigen::MatrixBase<Out>&>(out_const);  // NOLINT: Eigen's idiom
  fill_standard_normal(out, gen);
  out = theta + step_size * grad + (noise_scale * std::sqrt(2.0 * step_size)) * out;
}

}  // namespace sabandit
