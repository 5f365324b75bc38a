#pragma once
// Per-arm pull counts and reward sums: what every policy keeps, in O(K) memory. Beside them,
// the warm-up's selections still awaiting their rewards, so that a service whose rewards
// arrive late (after a batch, a delay) warms up round-robin instead of playing arm 0 until its
// first reward (common/warm_up.hpp).

#include <Eigen/Core>

#include "sabandit/detail/awaited_selections.hpp"
#include "sabandit/detail/vector_ops.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/models/support.hpp"

namespace sabandit {

/// Per-arm pull counts and reward sums (raw sums: with rewards bounded by 1e150 they cannot overflow).
class arm_statistics {
 public:
  /// K arms, none pulled.
  explicit arm_statistics(Eigen::Index num_arms)
      : count_(detail::filled<Eigen::ArrayXd>(num_arms, 0.0)),
        sum_(detail::filled<Eigen::ArrayXd>(num_arms, 0.0)),
        awaiting_(num_arms) {}

  /// Records one reward of `arm` (unchecked: policies validate first); it answers one of the
  /// arm's awaited warm-up selections, if any await.
  void add(Eigen::Index arm, double reward) noexcept {
    count_(arm) += 1.0;
    sum_(arm) += reward;
    ++total_;
    awaiting_.answered(arm);
  }

  /// Records that the warm-up selected `arm` and awaits its reward (common/warm_up.hpp).
  void expect(Eigen::Index arm) noexcept { awaiting_.expect(arm); }

  /// K.
  [[nodiscard]] Eigen::Index num_arms() const noexcept { return count_.size(); }
  /// Pulls of each arm (as doubles: they enter floating-point formulas directly).
  [[nodiscard]] const Eigen::ArrayXd& counts() const noexcept { return count_; }
  /// Reward sums of each arm.
  [[nodiscard]] const Eigen::ArrayXd& sums() const noexcept { return sum_; }
  /// Pulls of `arm`.
  [[nodiscard]] double count(Eigen::Index arm) const noexcept { return count_(arm); }
  /// Mean reward of `arm` (NaN before its first pull).
  [[nodiscard]] double mean(Eigen::Index arm) const noexcept { return sum_(arm) / count_(arm); }
  /// Total pulls so far: t - 1 at round t.
  [[nodiscard]] long long total() const noexcept { return total_; }
  /// Warm-up selections of `arm` whose rewards have not arrived: only the warm-up's (a reward
  /// of the arm answers one, whenever it comes); 0 when every select() is followed by its
  /// update(), as in simulate() without a batch.
  [[nodiscard]] double awaiting(Eigen::Index arm) const noexcept { return awaiting_.counts()(arm); }
  /// The same for every arm.
  [[nodiscard]] const Eigen::ArrayXd& awaiting() const noexcept { return awaiting_.counts(); }

  /// Saves or restores the counts, sums, total and awaited warm-up selections
  /// (state/persist.hpp). A restored count is a whole number in [0, 2^52]
  /// (bounds::restored_count: the pulls after it still count), the total is their sum, to the
  /// unit, and each sum is within its count times the reward bound (|sum_a| <= 1e150 n_a).
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    ar("counts", self.count_, 0.0, bounds::restored_count);
    ar("sums", self.sum_);
    ar("total", self.total_, 0LL, 1LL << 62);
    ar.require((self.count_ == self.count_.floor()).all(), "counts must be whole numbers");
    detail::awaited_selections::persist(self.awaiting_, ar);  // added after 0.2.0
    // In integers: a sum of doubles rounds beyond 2^53 (1,024 counts of 2^53 summed to 2^63,
    // which a total of 2^63 - 1 matched once converted). Each count converts exactly, and the
    // loop stops past the total (<= 2^62), so the running count cannot overflow.
    long long counted = 0;
    for (Eigen::Index a = 0; a < self.count_.size() && counted <= self.total_; ++a)
      counted += static_cast<long long>(self.count_(a));
    ar.require(counted == self.total_, "total must be the sum of the counts");
    // The numeric contract, |x| <= bounds::reward for every reward, bounds a sum of n rewards
    // by n times that, plus the rounding of its additions (models/support.hpp, sum_in_range).
    // Without the allowance, six rewards of 1e150 summed to more than fl(6 x 1e150) and the
    // state did not restore (a probe's finding).
    require_sums_in(self, ar, {-bounds::reward, bounds::reward});
  }

  /// persist(), then, for a `Model` that declares the interval of its rewards
  /// (RangeDeclaringModel, models/support.hpp), the check that each restored sum is one the
  /// arm's count of such rewards can have: a Bernoulli arm's within [0, n], a Poisson arm's a
  /// whole number, not negative, an exponential arm's positive once it has rewards. What every
  /// policy with a model restores its statistics with.
  template <class Model, class Self, class Archive>
  static void persist_for(Self& self, Archive& ar) {
    static_assert(RangeDeclaringModel<Model> || !requires { &Model::reward_range; },
                  "a model's reward_range() must be static and return sabandit::reward_interval "
                  "(RangeDeclaringModel): as declared, a restore would not check the sums");
    persist(self, ar);
    if constexpr (RangeDeclaringModel<Model>) require_sums_in(self, ar, Model::reward_range());
  }

 private:
  // When reading: every arm's sum is one its count of rewards in `range` can have.
  template <class Self, class Archive>
  static void require_sums_in(const Self& self, Archive& ar, const reward_interval& range) {
    if constexpr (Archive::reading) {
      for (Eigen::Index a = 0; a < self.num_arms(); ++a) {
        if (!detail::sum_in_range(self.sum_(a), self.count_(a), range)) {
          ar.require(false, detail::join({"the reward sum of arm ", std::to_string(a), ", ",
                                          detail::value_text(self.sum_(a)),
                                          ", is not one its ",
                                          detail::value_text(self.count_(a)),
                                          range.whole ? " whole-number rewards in "
                                                      : " rewards in ",
                                          range.lower_excluded ? "(" : "[",
                                          detail::value_text(range.lower), ", ",
                                          detail::value_text(range.upper), "] can have"}));
        }
      }
    }
  }

  Eigen::ArrayXd count_;
  Eigen::ArrayXd sum_;
  detail::awaited_selections awaiting_;
  long long total_ = 0;
};

}  // namespace sabandit
