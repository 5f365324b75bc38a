#pragma once
// Rounds of TS-SA and TS-SGLD (Bernoulli rewards, K arms) played by code compiled in two
// ways: from the policy headers, where select() and update() may be inlined into the loop
// (instances_bench.cpp), and through the declared instances, which the loop calls
// (instances_bench_declared.cpp, sabandit/instances.hpp). The same loop, written once here.
#include <Eigen/Core>

#include "sabandit/random/bernoulli.hpp"
#include "sabandit/random/xoshiro.hpp"

namespace bench {

/// `rounds` rounds of `policy` on K Bernoulli arms of means 0.01 .. 0.05 (click-through rates),
/// from `gen`; returns the pulls of the last arm, so that the work is used.
template <class Policy>
Eigen::Index play_rounds(Policy& policy, sabandit::xoshiro256pp& gen, int rounds) {
  const double step = 0.04 / static_cast<double>(policy.num_arms() - 1);
  Eigen::Index last = 0;
  for (int i = 0; i < rounds; ++i) {
    const Eigen::Index arm = policy.select(gen);
    policy.update(arm, sabandit::bernoulli_variate(0.01 + step * static_cast<double>(arm), gen), gen);
    last += arm == policy.num_arms() - 1 ? 1 : 0;
  }
  return last;
}

}  // namespace bench
