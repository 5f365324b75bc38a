#pragma once
// The statistics of a ridge regression per parameter block, shared by LinUCB, linear TS and
// epsilon-greedy ridge (issue 21's parametrisations):
//   A_k = I + sum phi phi^T   (as its Cholesky factor, information_factor.hpp)
//   b_k = sum r phi
//   theta_hat_k = A_k^-1 b_k  (kept up to date, so that a decision costs one dot product and,
//                              for the widths, one triangular solve per arm)
// over the pulls whose arm maps to block k (feature_maps.hpp: block a for disjoint arms).
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/contextual/information_factor.hpp"
#include "sabandit/errors.hpp"

namespace sabandit::contextual {

/// A, b, theta_hat and the pull count of each block (header comment).
class ridge_statistics {
 public:
  /// `blocks` blocks in dimension d, each A = I, b = 0.
  ridge_statistics(Eigen::Index blocks, Eigen::Index dimension)
      : factors_(static_cast<std::size_t>(blocks), information_factor(dimension, 1.0)),
        b_(Eigen::MatrixXd::Zero(dimension, blocks)),
        estimates_(Eigen::MatrixXd::Zero(dimension, blocks)),
        counts_(Eigen::ArrayXd::Zero(blocks)),
        aside_(dimension, 1.0),
        b_aside_(dimension),
        estimate_aside_(dimension) {}

  /// A_k += phi phi^T, b_k += r phi, theta_hat_k = A_k^-1 b_k. Strong guarantee: computed
  /// aside, kept only if finite (std::domain_error naming the block otherwise: a context or
  /// reward so large that the statistics overflow). Allocates only the rank-one
  /// kernel's temporary (information_factor::rank_one_update).
  void add(Eigen::Index block, const vector_cref& phi, double reward) {
    const auto k = static_cast<std::size_t>(block);
    aside_ = factors_[k];
    aside_.rank_one_update(phi);
    b_aside_ = b_.col(block) + reward * phi;
    estimate_aside_ = b_aside_;
    aside_.solve_in_place(estimate_aside_);
    if (!aside_.valid() || !b_aside_.allFinite() || !estimate_aside_.allFinite())
      throw std::domain_error("sabandit: the ridge statistics of block " + std::to_string(block) +
                              " would become non-finite; scale the contexts or rewards down");
    swap(aside_, factors_[k]);
    b_.col(block) = b_aside_;
    estimates_.col(block) = estimate_aside_;
    counts_(block) += 1.0;
  }

  /// <phi, theta_hat_k>: the ridge estimate's prediction.
  [[nodiscard]] double prediction(Eigen::Index block, const vector_cref& phi) const {
    return phi.dot(estimates_.col(block));
  }
  /// phi^T A_k^-1 phi, with `scratch` of size d.
  [[nodiscard]] double inverse_quadratic(Eigen::Index block, const vector_cref& phi,
                                         Eigen::VectorXd& scratch) const {
    return factors_[static_cast<std::size_t>(block)].inverse_quadratic(phi, scratch);
  }

  /// The number of blocks.
  [[nodiscard]] Eigen::Index blocks() const noexcept { return b_.cols(); }
  /// d.
  [[nodiscard]] Eigen::Index dimension() const noexcept { return b_.rows(); }
  /// A_k's Cholesky factor.
  [[nodiscard]] const information_factor& factor(Eigen::Index block) const {
    return factors_[static_cast<std::size_t>(block)];
  }
  /// b (d x blocks).
  [[nodiscard]] const Eigen::MatrixXd& reward_sums() const noexcept { return b_; }
  /// theta_hat = A^-1 b (d x blocks).
  [[nodiscard]] const Eigen::MatrixXd& estimates() const noexcept { return estimates_; }
  /// Pulls per block.
  [[nodiscard]] const Eigen::ArrayXd& counts() const noexcept { return counts_; }

  /// Saves or restores every block's factor, b, theta_hat and count (state/persist.hpp) into
  /// statistics of the saved shape. theta_hat is saved, not re-solved, so that a restored
  /// policy decides on the same bits.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    ar("b", self.b_);
    ar("estimates", self.estimates_);
    ar("counts", self.counts_, 0.0, bounds::restored_count);
    ar.require((self.counts_ == self.counts_.floor()).all(), "counts must be whole numbers");
    for (std::size_t k = 0; k < self.factors_.size(); ++k)
      ar.nest("A" + std::to_string(k), [&] { information_factor::persist(self.factors_[k], ar); });
  }

 private:
  std::vector<information_factor> factors_;
  Eigen::MatrixXd b_, estimates_;
  Eigen::ArrayXd counts_;
  information_factor aside_;  // the update's scratch, allocated once
  Eigen::VectorXd b_aside_, estimate_aside_;
};

}  // namespace sabandit::contextual
