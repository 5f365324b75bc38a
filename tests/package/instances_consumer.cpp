// A user's program that plays TS-SA through its declared instance (sabandit/instances/ts_sa.hpp):
// this translation unit calls the constructors, select() and update() that the CMake target
// sabandit::instances compiles into the program once. Built by the CMake consumer tests; a
// missing or mismatched definition fails the link.
#include <sabandit/instances/ts_sa.hpp>
#include <sabandit/random/bernoulli.hpp>

#include <cstdio>

int main() {
  sabandit::ts_sa<sabandit::bernoulli_model> policy(2);
  sabandit::xoshiro256pp gen(1);
  for (int t = 0; t < 500; ++t) {
    const auto arm = policy.select(gen);
    policy.update(arm, sabandit::bernoulli_variate(arm == 1 ? 0.8 : 0.2, gen), gen);
  }
  const double share = policy.statistics().count(1) / 500.0;
  std::printf("declared instance: best-arm share %.3f\n", share);
  return share > 0.9 ? 0 : 1;  // TS pulls the worse arm O(log T / KL) ~ 10 times
}
