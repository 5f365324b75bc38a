#pragma once
// The straightforward reference the performance issue measures against: Gaussian TS and UCB as
// a careful programmer writes them without sabandit — std::mt19937_64, std::normal_distribution,
// scalar loops over std::vector, one trial at a time.
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

namespace baseline {

/// Counts and sums, "pull each arm once", and a scalar argmax over a per-arm score.
class plain_arms {
 public:
  explicit plain_arms(std::size_t arms) : n_(arms, 0.0), sum_(arms, 0.0) {}
  void update(std::size_t arm, double reward) {
    n_[arm] += 1;
    sum_[arm] += reward;
    t_ += 1;
  }

 protected:
  template <class Score>
  std::size_t argmax(Score score) {
    std::size_t best = 0;
    double best_score = -INFINITY;
    for (std::size_t a = 0; a < n_.size(); ++a) {
      if (n_[a] == 0) return a;
      const double s = score(a);
      if (s > best_score) {
        best_score = s;
        best = a;
      }
    }
    return best;
  }
  std::vector<double> n_, sum_;
  double t_ = 1;
};

class plain_gaussian_ts : public plain_arms {
 public:
  plain_gaussian_ts(std::size_t arms, unsigned long long seed) : plain_arms(arms), gen_(seed) {}
  std::size_t select() {
    return argmax([&](std::size_t a) {
      const double precision = 1e-4 + n_[a];
      return sum_[a] / precision + std::sqrt(1.0 / precision) * normal_(gen_);
    });
  }

 private:
  std::mt19937_64 gen_;
  std::normal_distribution<double> normal_;
};

class plain_ucb : public plain_arms {
 public:
  explicit plain_ucb(std::size_t arms) : plain_arms(arms) {}
  std::size_t select() {
    return argmax([&](std::size_t a) {
      return sum_[a] / n_[a] + std::sqrt(2.0 * std::log(t_) / n_[a]);
    });
  }
};

}  // namespace baseline
