#pragma once
// The B most recent rewards of every arm (paper, Experiments remark: the gradient window).
// The storage of TS-SA's gradient source (recent_window.hpp).
// A B x K ring buffer with running sums: O(K B) memory, whatever the horizon, and O(1) pushes.
// The lengths and oldest slots are std::vectors, and an arm's rewards a Map of its column: an
// Eigen array of indices, its Zero() and a segment of a column are Eigen types that no other
// part of TS-SA needs, each costing every unit that includes this header about 2 MB of the
// compiler's memory (docs/performance.md, "Compile cost").
#include <algorithm>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <vector>

#include <Eigen/Core>

#include "sabandit/detail/vector_ops.hpp"
#include "sabandit/errors.hpp"

namespace sabandit::langevin {

/// The last B rewards of each arm, with running sums (TS-SA's gradient window).
class reward_windows {
 public:
  /// B = `capacity` slots for each of K arms, all empty.
  reward_windows(Eigen::Index capacity, Eigen::Index num_arms)
      : buffer_(detail::filled<Eigen::MatrixXd>(capacity, num_arms, 0.0)),
        sum_(detail::filled<Eigen::ArrayXd>(num_arms, 0.0)),
        size_(static_cast<std::size_t>(num_arms), 0),
        head_(static_cast<std::size_t>(num_arms), 0) {}

  /// B.
  [[nodiscard]] Eigen::Index capacity() const noexcept { return buffer_.rows(); }
  /// Rewards held for `arm` (min(pulls, B)).
  [[nodiscard]] Eigen::Index size(Eigen::Index arm) const noexcept { return size_[entry(arm)]; }
  /// The running sum of the rewards held for `arm` (push's comment says how it is kept).
  [[nodiscard]] double running_sum(Eigen::Index arm) const noexcept { return sum_(arm); }
  /// Mean of the rewards held for `arm`, from the running sum: O(1).
  [[nodiscard]] double mean(Eigen::Index arm) const noexcept {
    return sum_(arm) / static_cast<double>(size(arm));
  }
  /// The window's rewards, oldest first only until it wraps: order does not matter to a mean
  /// log-likelihood gradient, so no copy is made to restore it.
  [[nodiscard]] Eigen::Map<const Eigen::VectorXd> rewards(Eigen::Index arm) const noexcept {
    return {column(arm), size(arm)};
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
    const Eigen::Index held = size_[entry(arm)], oldest = head_[entry(arm)];
    const Eigen::Index next = held < capacity() ? held : oldest;
    return {held, oldest, next, sum_(arm), buffer_(next, arm)};
  }
  /// Undoes the push since before_push(arm) (at most one).
  void undo(Eigen::Index arm, const undo_record& saved) noexcept {
    size_[entry(arm)] = saved.size;
    head_[entry(arm)] = saved.head;
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
    persist_indices(ar, "sizes", self.size_, self.capacity());
    persist_indices(ar, "heads", self.head_, last);
    bool starts_at_zero = true;
    for (std::size_t a = 0; a < self.size_.size(); ++a)
      starts_at_zero = starts_at_zero && (self.size_[a] == self.capacity() || self.head_[a] == 0);
    ar.require(starts_at_zero, "a window that is not full starts at slot 0");
  }

  /// Adds a reward, overwriting the oldest once the window is full.
  void push(Eigen::Index arm, double reward) noexcept {
    Eigen::Index& held = size_[entry(arm)];
    if (held < capacity()) {
      buffer_(held, arm) = reward;
      ++held;
      sum_(arm) += reward;
      return;
    }
    Eigen::Index& head = head_[entry(arm)];
    const Eigen::Index oldest = head;
    sum_(arm) += reward - buffer_(oldest, arm);
    buffer_(oldest, arm) = reward;
    head = oldest + 1 == capacity() ? 0 : oldest + 1;
    // Resynchronise the running sum once per full turn, so rounding cannot drift without
    // bound over a long horizon (amortised O(1)).
    if (head == 0)
      sum_(arm) = detail::sum(Eigen::Map<const Eigen::VectorXd>(column(arm), capacity()));
  }

 private:
  [[nodiscard]] static std::size_t entry(Eigen::Index arm) noexcept {
    return static_cast<std::size_t>(arm);
  }
  [[nodiscard]] const double* column(Eigen::Index arm) const noexcept {
    return buffer_.data() + arm * buffer_.rows();
  }
  // The lengths or oldest slots as the state format has them, an Eigen vector of K integers
  // (each in [0, highest]); restored into `values` (non-const) once the archive accepts them.
  // The array's type names the template's parameter, so that only a unit that saves or
  // restores compiles it (a type that names none is instantiated where the template is read).
  template <class Archive, class Indices>
  static void persist_indices(Archive& ar, std::string_view name, Indices& values,
                              Eigen::Index highest) {
    using index_array = Eigen::Array<typename Indices::value_type, Eigen::Dynamic, 1>;
    index_array saved = Eigen::Map<const index_array>(values.data(),
                                                      static_cast<Eigen::Index>(values.size()));
    ar(name, saved, Eigen::Index{0}, highest);
    if constexpr (!std::is_const_v<Indices>)
      std::copy(saved.data(), saved.data() + saved.size(), values.begin());
  }

  Eigen::MatrixXd buffer_;
  Eigen::ArrayXd sum_;
  std::vector<Eigen::Index> size_;  // per arm: rewards held, min(pulls, B)
  std::vector<Eigen::Index> head_;  // per arm: the oldest slot once full (0 until then)
};

}  // namespace sabandit::langevin
