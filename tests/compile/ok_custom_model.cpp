// Control for the ko_ tests: the same code with a complete model compiles.
#include "sabandit/sabandit.hpp"
#include "support/archetypes.hpp"

int main() {
  sabandit::ts_sa<sabandit::test::reward_model_archetype> policy(sabandit::unit_features(2), {});
  return static_cast<int>(policy.num_arms()) - 2;
}
