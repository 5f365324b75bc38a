#pragma once
// A buffer of (phi, reward) pairs of one parameter block, stored column by column (phi_j is
// column j of a d x capacity matrix, so a whole buffer is one matrix product away from X^T w):
//  - bounded (capacity B): a ring that keeps the B most recent pairs, contextual TS-SA's window
//    for Alg. 1 line 8's gradient: constant memory, B (d + 1) doubles;
//  - unbounded (capacity 0): the whole history, growing geometrically, for Laplace TS's MAP and
//    TS-SGLD's mini-batches: n (d + 1) doubles after n pulls, as the paper's Table 1 has it.
// The order of the pairs is irrelevant to every user (sums over them), so a ring overwrites its
// oldest slot in place.
#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"

namespace sabandit::contextual {

/// (phi, reward) pairs of one block, bounded or growing (header comment).
class context_buffer {
 public:
  /// `capacity` pairs in dimension d (capacity >= 1), or the whole history (capacity 0).
  /// A ring's unused slots hold zeros, which it saves (persist): never uninitialised memory,
  /// so that the same pairs always save the same text, and restore never reads a NaN.
  context_buffer(Eigen::Index dimension, Eigen::Index capacity)
      : phis_(Eigen::MatrixXd::Zero(dimension, capacity)),
        rewards_(Eigen::VectorXd::Zero(capacity)),
        capacity_(capacity) {}

  /// What one push changes, for undo() (a one-step undo log, not persistence).
  struct push_mark {
    Eigen::Index size;  ///< the pairs held before the push
    Eigen::Index head;  ///< the ring's next slot before the push
  };
  /// The state the next push will change.
  [[nodiscard]] push_mark before_push() const noexcept { return {size_, head_}; }
  /// Undoes the push since before_push(). A ring that was not full gets the zeros of the slot
  /// it filled back, so that the undone push leaves nothing in what persist saves; one that was
  /// full cannot get the overwritten pair back, so callers never undo a push into a full ring.
  void undo(const push_mark& mark) noexcept {
    if (capacity_ != 0 && mark.size < capacity_) {
      phis_.col(mark.head).setZero();
      rewards_(mark.head) = 0.0;
    }
    size_ = mark.size;
    head_ = mark.head;
  }

  /// Appends (phi, reward); a full ring overwrites its oldest pair. A growing buffer doubles
  /// its storage when full (amortised O(d) per push).
  void push(const vector_cref& phi, double reward) {
    if (capacity_ == 0 && size_ == phis_.cols()) {
      const Eigen::Index grown = std::max<Eigen::Index>(4, 2 * size_);
      phis_.conservativeResize(Eigen::NoChange, grown);
      rewards_.conservativeResize(grown);
    }
    const Eigen::Index slot = capacity_ == 0 ? size_ : head_;
    phis_.col(slot) = phi;
    rewards_(slot) = reward;
    if (capacity_ != 0) head_ = (head_ + 1) % capacity_;
    size_ = capacity_ == 0 ? size_ + 1 : std::min(size_ + 1, capacity_);
  }

  /// The number of pairs held.
  [[nodiscard]] Eigen::Index size() const noexcept { return size_; }
  /// B, or 0 for a growing history.
  [[nodiscard]] Eigen::Index capacity() const noexcept { return capacity_; }
  /// The k-th most recent pair's slot (k = 0: the newest), k < size().
  [[nodiscard]] Eigen::Index recent(Eigen::Index k) const noexcept {
    if (capacity_ == 0) return size_ - 1 - k;
    return (head_ + capacity_ - 1 - k) % capacity_;
  }
  /// phi of the pair in slot j (slots 0 .. size() - 1 hold the pairs, in some order).
  [[nodiscard]] auto phi(Eigen::Index slot) const { return phis_.col(slot); }
  /// The reward of the pair in slot j.
  [[nodiscard]] double reward(Eigen::Index slot) const noexcept { return rewards_(slot); }
  /// The held phis as columns (d x size()).
  [[nodiscard]] auto phis() const { return phis_.leftCols(size_); }
  /// The held rewards (size()).
  [[nodiscard]] auto rewards() const { return rewards_.head(size_); }
  /// Doubles allocated (the memory the buffer holds now): d x columns + columns.
  [[nodiscard]] Eigen::Index allocated_doubles() const noexcept {
    return phis_.size() + rewards_.size();
  }

  /// Saves or restores the pairs (state/persist.hpp). A ring (read into a buffer of its
  /// capacity) saves its whole storage with its size and next slot; a history saves the pairs
  /// it holds, whose count the stream decides (at most bounds::state_doubles values).
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    if (self.capacity_ != 0) {
      ar("size", self.size_, Eigen::Index{0}, self.capacity_);
      ar("head", self.head_, Eigen::Index{0}, self.capacity_ - 1);
      ar("phis", self.phis_);
      ar("rewards", self.rewards_);
      if constexpr (Archive::reading) {
        // What push leaves: a ring that is not full holds its pairs in slots 0 to size - 1,
        // its next slot at size, and zeros after them (a probe's forged next slot fed empty
        // pairs to the gradient, and a forged unused slot a reward of 1e100).
        const Eigen::Index unused = self.capacity_ - self.size_;
        ar.require(unused == 0 || self.head_ == self.size_,
                   "a ring that is not full has its next slot at its size");
        ar.require(unused == 0 || ((self.phis_.rightCols(unused).array() == 0.0).all() &&
                                   (self.rewards_.tail(unused).array() == 0.0).all()),
                   "a ring's unused slots hold zeros");
      }
      return;
    }
    Eigen::MatrixXd phis = self.phis();
    std::vector<double> rewards(self.rewards().begin(), self.rewards().end());
    ar.shaped("phis", phis);
    ar("rewards", rewards);
    if constexpr (Archive::reading) {
      ar.require(phis.rows() == self.phis_.rows(), "a history's contexts have another dimension");
      ar.require(static_cast<std::size_t>(phis.cols()) == rewards.size(),
                 "a history has another number of contexts than of rewards");
      self.phis_ = std::move(phis);
      self.rewards_ = Eigen::Map<const Eigen::VectorXd>(rewards.data(), self.phis_.cols());
      self.size_ = self.phis_.cols();
      self.head_ = 0;
    }
  }

 private:
  Eigen::MatrixXd phis_;
  Eigen::VectorXd rewards_;
  Eigen::Index capacity_;
  Eigen::Index size_ = 0, head_ = 0;
};

}  // namespace sabandit::contextual
