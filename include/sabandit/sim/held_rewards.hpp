#pragma once
// The rewards a simulation holds back until its feedback batch ends (run_config::
// feedback_batch): a service that updates its policy every B requests, or whose rewards (a
// click, a conversion) arrive after the next requests were served. Each round's reward is drawn
// when its arm is pulled, as with B = 1, so a run with B > 1 sees the same rewards in the same
// order as one with B = 1 that pulls the same arms; only when the policy learns them changes.
// Chapelle and Li (2011, "An Empirical Evaluation of Thompson Sampling") measured
// Thompson sampling and UCB this way.
#include <algorithm>
#include <cstddef>
#include <vector>

#include <Eigen/Core>

namespace sabandit::detail {

/// Up to B rounds' (round, arm, reward) and, for contextual simulations, their contexts.
class held_rewards {
 public:
  /// Holds at most min(batch, horizon) rounds, each with a context of `context_size` (0: none);
  /// the sizes are checked by the simulator before it makes one.
  held_rewards(Eigen::Index batch, Eigen::Index horizon, Eigen::Index context_size = 0)
      : capacity_(std::min(batch, horizon)),
        contexts_(context_size, context_size > 0 ? capacity_ : 0) {
    held_.reserve(static_cast<std::size_t>(capacity_));
  }

  /// Holds round `round`'s pull (its context, if any, is copied: an environment may reuse
  /// the storage it handed out).
  template <class Context = Eigen::VectorXd>
  void hold(Eigen::Index round, Eigen::Index arm, double reward, const Context& x = {}) {
    if (contexts_.rows() > 0) contexts_.col(static_cast<Eigen::Index>(held_.size())) = x;
    held_.push_back({round, arm, reward});
  }

  /// Hands every held round, in round order, to `learn(round, arm, reward, k)` (k: its place
  /// in the batch, for context(k)), then holds none. A `learn` that throws stops it: the
  /// simulation is over then.
  template <class Learn>
  void release(Learn&& learn) {
    for (std::size_t k = 0; k < held_.size(); ++k)
      learn(held_[k].round, held_[k].arm, held_[k].reward, static_cast<Eigen::Index>(k));
    held_.clear();
  }

  /// release(learn) once the batch is complete or round `round` is the last, `horizon`: what
  /// each round of a simulation ends with, after hold().
  template <class Learn>
  void release_if_due(Eigen::Index round, Eigen::Index horizon, Learn&& learn) {
    if (full() || round == horizon) release(learn);
  }

  /// The context of the batch's k-th held round (a contextual simulation's).
  [[nodiscard]] auto context(Eigen::Index k) const { return contexts_.col(k); }

 private:
  // Whether the batch is complete (min(B, horizon) rounds held).
  [[nodiscard]] bool full() const noexcept {
    return static_cast<Eigen::Index>(held_.size()) == capacity_;
  }

  struct pull {
    Eigen::Index round;
    Eigen::Index arm;
    double reward;
  };

  Eigen::Index capacity_;
  Eigen::MatrixXd contexts_;  // a column per held round (no columns without contexts)
  std::vector<pull> held_;
};

}  // namespace sabandit::detail
