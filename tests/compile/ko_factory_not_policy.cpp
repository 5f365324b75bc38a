// Must not compile: simulate() requires a factory returning a Policy.
#include "sabandit/sim.hpp"

int main() {
  const auto env = sabandit::make_sgr({});
  const auto curve = sabandit::simulate(env, [](Eigen::Index) { return 42; }, {});
  return static_cast<int>(curve.trials);
}
