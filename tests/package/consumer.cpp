// A user's program that runs a policy online: includes the umbrella header, runs TS-SA for a
// few hundred rounds and checks that it found the better arm. Built by every consumer test
// against sabandit::sabandit (or its include path / pkg-config flags) alone: no threads.
#include <sabandit/sabandit.hpp>

#include <cstdio>

static_assert(SABANDIT_VERSION_MAJOR >= 0);
// The policies' umbrella must not pull in the simulator, whose thread pool is why it has a
// target of its own (libstdc++ defines this macro in <thread>).
#ifdef _GLIBCXX_THREAD
#error "sabandit/sabandit.hpp included <thread>: the simulator belongs in sabandit/sim.hpp"
#endif

int main() {
  sabandit::ts_sa<> policy(2, {.warmup = 5, .window = 10});
  sabandit::xoshiro256pp gen(1);
  for (int t = 0; t < 500; ++t) {
    const auto arm = policy.select(gen);
    policy.update(arm, arm == 1 ? 1.0 : 0.0, gen);
  }
  const double share = policy.statistics().count(1) / 500.0;
  std::printf("sabandit %s: best-arm share %.3f\n", SABANDIT_VERSION_STRING, share);
  return share > 0.9 ? 0 : 1;
}
