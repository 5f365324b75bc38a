#pragma once
// A labelled dataset as a contextual bandit (Riquelme et al. 2018; Bietti et al., "A Contextual
// Bandit Bake-off"): each round shows one example's features, each class is an arm, and the
// reward is 1 when the chosen arm is the example's label, so regret counts the mistakes.
//
// The protocol of issue 21, in prepare_classification_data: every feature standardised over the
// whole dataset (population sd), constant columns only centred, a constant 1 appended. The
// rows come in a random order drawn with the engine the simulator gives next_context (its
// environment stream), so each trial sees its own seeded permutation and every policy of a
// trial sees the same one. Nothing here reads files: the loaders live in the program.
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/random/bits.hpp"
#include "sabandit/random/engine.hpp"

namespace sabandit::contextual {

/// A dataset ready for classification_env: one column per example (so that a context is a
/// contiguous column) and its label.
struct classification_data {
  Eigen::MatrixXd contexts;          ///< d x n: the protocol's features, the constant 1 last
  std::vector<Eigen::Index> labels;  ///< n labels, each in [0, num_classes)
  Eigen::Index num_classes = 0;      ///< K, one arm per class
};

/// Applies the protocol to `features` (n x p, one row per example) and `labels` (n entries in
/// [0, num_classes)):
///  - each column j becomes (x - mean_j) / sd_j with the population sd over all n rows;
///  - a constant column (every entry equal) is only centred, so it becomes 0, not 0/0;
///  - a last coordinate, the constant 1, lets a linear model have an intercept.
/// The result has d = p + 1 rows and n columns. Throws std::invalid_argument naming
/// `features(i, j)` for a non-finite entry, `labels[i]` for a label outside [0, num_classes),
/// and the sizes when they disagree or are empty, before computing anything.
[[nodiscard]] inline classification_data prepare_classification_data(
    const Eigen::MatrixXd& features, const std::vector<Eigen::Index>& labels,
    Eigen::Index num_classes) {
  const Eigen::Index n = features.rows();
  const Eigen::Index p = features.cols();
  detail::require_at_least<Eigen::Index>("num_classes", num_classes, 2);
  detail::require_at_least<Eigen::Index>("features.rows() (examples)", n, 1);
  if (static_cast<Eigen::Index>(labels.size()) != n) {
    detail::throw_invalid("labels.size()", labels.size(),
                          "must equal features.rows() = " + std::to_string(n));
  }
  for (Eigen::Index j = 0; j < p; ++j) {
    for (Eigen::Index i = 0; i < n; ++i) {
      if (!std::isfinite(features(i, j))) {
        detail::throw_invalid("features(" + std::to_string(i) + ", " + std::to_string(j) + ")",
                              features(i, j), "must be finite");
      }
    }
  }
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] < 0 || labels[i] >= num_classes) {
      detail::throw_invalid("labels[" + std::to_string(i) + "]", labels[i],
                            "must be in [0, num_classes = " + std::to_string(num_classes) + ")");
    }
  }
  classification_data data;
  data.num_classes = num_classes;
  data.labels = labels;
  data.contexts.resize(p + 1, n);
  for (Eigen::Index j = 0; j < p; ++j) {
    const auto column = features.col(j).array();
    if (column.minCoeff() == column.maxCoeff()) {
      data.contexts.row(j).setZero();  // centred exactly: x - x, not x - a rounded mean
      continue;
    }
    const double mean = column.mean();
    const double sd = std::sqrt((column - mean).square().mean());  // population sd
    data.contexts.row(j) = ((column - mean) / sd).matrix().transpose();
    // Finite features can still defeat the standardisation in doubles: a spread that
    // underflows (a column {0, 5e-324} gave NaN and inf) or overflows ({1e200, -1e200} was
    // zeroed silently), or a mean that overflows ({1.7e308, 1.7e308, -1.7e308}: NaN).
    if (!std::isfinite(sd) || !(sd >= std::numeric_limits<double>::min()) ||
        !data.contexts.row(j).allFinite())
      detail::throw_invalid("the standard deviation of features.col(" + std::to_string(j) + ")",
                            sd, "must be a finite normal double, as must the column's mean and "
                            "its standardised values: rescale the feature");
  }
  data.contexts.row(p).setOnes();
  return data;
}

/// A classification dataset as a ContextualEnvironment. Copies share the (immutable) data and
/// each has its own order, so the simulator's one copy per trial costs n indices, not the data.
class classification_env {
 public:
  /// Takes prepared data (prepare_classification_data); throws std::invalid_argument when it is
  /// null or its sizes disagree.
  explicit classification_env(std::shared_ptr<const classification_data> data)
      : data_(std::move(data)) {
    if (!data_) detail::throw_invalid("data", "null", "must point to a classification_data");
    const Eigen::Index n = data_->contexts.cols();
    detail::require_at_least<Eigen::Index>("data.contexts.cols() (examples)", n, 1);
    if (static_cast<Eigen::Index>(data_->labels.size()) != n) {
      detail::throw_invalid("data.labels.size()", data_->labels.size(),
                            "must equal data.contexts.cols() = " + std::to_string(n));
    }
    detail::require_at_least<Eigen::Index>("data.num_classes", data_->num_classes, 2);
    // Hand-built data gets the checks prepare_classification_data makes (a label of 5 among 2
    // classes made every mean 0 and the regret silently 0).
    for (std::size_t i = 0; i < data_->labels.size(); ++i)
      if (data_->labels[i] < 0 || data_->labels[i] >= data_->num_classes)
        detail::throw_invalid("data.labels[" + std::to_string(i) + "]", data_->labels[i],
                              "must be in [0, data.num_classes = " +
                                  std::to_string(data_->num_classes) + ")");
    if (!data_->contexts.allFinite())
      detail::throw_invalid("data.contexts", "a non-finite entry", "must be finite");
    order_.resize(static_cast<std::size_t>(n));
    std::iota(order_.begin(), order_.end(), Eigen::Index{0});
  }

  /// K, one arm per class.
  [[nodiscard]] Eigen::Index num_arms() const noexcept { return data_->num_classes; }
  /// d, the features plus the constant 1.
  [[nodiscard]] Eigen::Index context_size() const noexcept { return data_->contexts.rows(); }
  /// n, the number of examples.
  [[nodiscard]] Eigen::Index size() const noexcept { return data_->contexts.cols(); }

  /// The next example of a uniformly random permutation drawn with `gen`, one step of
  /// Fisher–Yates at a time: n calls show every row once. After n calls a new permutation
  /// starts.
  template <uniform_random_bit_generator URBG>
  vector_cref next_context(URBG& gen) {
    if (remaining_ == 0) remaining_ = size();
    const auto pick = static_cast<std::size_t>(uniform_index(gen, static_cast<std::uint64_t>(remaining_)));
    --remaining_;
    std::swap(order_[pick], order_[static_cast<std::size_t>(remaining_)]);
    current_ = order_[static_cast<std::size_t>(remaining_)];
    return data_->contexts.col(current_);
  }

  /// The current example's row in the dataset (as given to prepare_classification_data).
  [[nodiscard]] Eigen::Index row() const {
    require_current();
    return current_;
  }
  /// The current example's label, the only arm with reward 1.
  [[nodiscard]] Eigen::Index label() const {
    require_current();
    return data_->labels[static_cast<std::size_t>(current_)];
  }
  /// 1 when `arm` is the current example's label, else 0. Throws std::out_of_range for an arm
  /// outside [0, K) and std::logic_error before the first next_context.
  [[nodiscard]] double mean(Eigen::Index arm) const {
    detail::require_arm(arm, num_arms());
    return arm == label() ? 1.0 : 0.0;
  }
  /// The reward, deterministic: mean(arm). `gen` is not used.
  template <uniform_random_bit_generator URBG>
  [[nodiscard]] double pull(Eigen::Index arm, URBG& /*gen*/) const {
    return mean(arm);
  }

 private:
  void require_current() const {
    if (current_ < 0) {
      throw std::logic_error("sabandit: classification_env: no current example before the first next_context()");
    }
  }

  std::shared_ptr<const classification_data> data_;
  std::vector<Eigen::Index> order_;  // order_[remaining_, n) is this pass's prefix, reversed
  Eigen::Index remaining_ = 0;
  Eigen::Index current_ = -1;
};

}  // namespace sabandit::contextual
