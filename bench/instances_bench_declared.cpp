// The declared side of instances_bench: this unit includes sabandit/instances.hpp, so its
// loops call the instances that sabandit::instances compiled, as a user's unit would.
#include "instances_rounds.hpp"
#include "sabandit/instances.hpp"

namespace bench {

/// TS-SA's rounds through its declared instance.
Eigen::Index declared_rounds(sabandit::ts_sa<sabandit::bernoulli_model>& policy,
                             sabandit::xoshiro256pp& gen, int rounds) {
  return play_rounds(policy, gen, rounds);
}
/// TS-SGLD's rounds through its declared instance.
Eigen::Index declared_rounds(sabandit::ts_sgld<sabandit::bernoulli_model>& policy,
                             sabandit::xoshiro256pp& gen, int rounds) {
  return play_rounds(policy, gen, rounds);
}

}  // namespace bench
