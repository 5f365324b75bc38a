#pragma once
// The B most recent rewards of every arm (paper, Experiments remark: the gradient window).
// The storage of TS-SA's gradient source (recent_window.hpp).
// A B x K ring buffer with running sums: O(K B) memory, whatever the horizon, and O(1) pushes.
#include <Eigen/Core>

#include "sabandit/detail/vector_ops.hpp"
#include "sabandit/errors.hpp"

namespace sabandit::langevin {

/// The last B rewards of each arm, with running sums (TS-SA's gradient window).
class reward_windows {
 public:
  /// B = `capacity` slots for each of K arms, all empty.
  reward_windows(Eigen::Index capacity, Eigen::Index num_arms)
      : buffer_(Eigen::MatrixXd::Zero(capacity, num_arms)),
        sum_(Eigen::ArrayXd::Zero(num_arms)),
        size_(Eigen::Array<Eigen::Index, Eigen::Dynamic, 1>::Zero(num_arms)),
        head_(Eigen::Array<Eigen::Index, Eigen::Dynamic, 1>::Zero(num_arms)) {}

  /// B.
  [[nodiscard]] Eigen::Index capacity() const noexcept { return buffer_.rows(); }
  /// Rewards held for `arm` (min(pulls, B)).
  [[nodiscard]] Eigen::Index size(Eigen::Index arm) const noexcept { return size_(arm); }
  /// Mean of the rewards held for `arm`, from the running sum: O(1).
  [[nodiscard]] double mean(Eigen::Index arm) const noexcept {
    return sum_(arm) / static_cast<double>(size_(arm));
  }
  /// The window's rewards, oldest first only until it wraps: order does not matter to a mean
  /// log-likelihood gradient, so no copy is made to restore it.
  [[nodiscard]] auto rewards(Eigen::Index arm) const noexcept {
    return buffer_.col(arm).head(size_(arm));
  }
  /// The whole buffer, for tests that assert constant memory.
  [[nodiscard]] const Eigen::MatrixXd& storage() const noexcept { return buffer_; }

  /// What one push changes in one arm's window, so that a failed step can undo it.
  struct undo_record {
    Eigen::Index size;   ///< the window's length before the push
    Eigen::Index head;   ///< its oldest slot before the push
    Eigen::Index slot;   ///< the slot the push writes
    double sum;          ///< the running sum before the push
    double slot_value;   ///< the value the push overwrites
  };
  /// What the next push(arm, x) will change.
  [[nodiscard]] undo_record before_push(Eigen::Index arm) const noexcept {
    const Eigen::Index slot = size_(arm) < capacity() ? size_(arm) : head_(arm);
    return {size_(arm), head_(arm), slot, sum_(arm), buffer_(slot, arm)};
  }
  /// Undoes the push since before_push(arm) (at most one).
  void undo(Eigen::Index arm, const undo_record& saved) noexcept {
    size_(arm) = saved.size;
    head_(arm) = saved.head;
    sum_(arm) = saved.sum;
    buffer_(saved.slot, arm) = saved.slot_value;
  }

  /// Saves or restores the buffer, running sums, lengths and oldest slots (state/persist.hpp).
  /// A restored window is at most B long, its oldest slot is inside it (0 until it fills), and
  /// its rewards are within the reward bound.
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    const Eigen::Index last = self.capacity() - 1;
    ar("buffer", self.buffer_, -bounds::reward, bounds::reward);  // rewards: |x| <= 1e150
    ar("sums", self.sum_);
    ar("sizes", self.size_, Eigen::Index{0}, self.capacity());
    ar("heads", self.head_, Eigen::Index{0}, last);
    ar.require((self.size_ == self.capacity() || self.head_ == 0).all(),
               "a window that is not full starts at slot 0");
  }

  /// Adds a reward, overwriting the oldest once the window is full.
  void push(Eigen::Index arm, double reward) noexcept {
    if (size_(arm) < capacity()) {
      buffer_(size_(arm), arm) = reward;
      ++size_(arm);
      sum_(arm) += reward;
      return;
    }
    const Eigen::Index slot = head_(arm);
    sum_(arm) += reward - buffer_(slot, arm);
    buffer_(slot, arm) = reward;
    head_(arm) = slot + 1 == capacity() ? 0 : slot + 1;
    // Resynchronise the running sum once per full turn, so rounding cannot drift without
    // bound over a long horizon (amortised O(1)).
    if (head_(arm) == 0) sum_(arm) = detail::sum(buffer_.col(arm));
  }

 private:
  Eigen::MatrixXd buffer_;
  Eigen::ArrayXd sum_;
  Eigen::Array<Eigen::Index, Eigen::Dynamic, 1> size_;
  Eigen::Array<Eigen::Index, Eigen::Dynamic, 1> head_;
};

}  // namespace sabandit::langevin
