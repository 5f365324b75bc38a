// thompson<Model> needs a conjugate posterior; the archetype model has only a likelihood, so
// this must fail with the message that points to the Langevin policies.
#include "sabandit/policies/thompson.hpp"
#include "support/archetypes.hpp"

int main() {
  sabandit::thompson<sabandit::test::reward_model_archetype> policy(2);
  return static_cast<int>(policy.num_arms());
}
