// Saving a policy needs its model to name itself (docs/state-format.md): the archetype model
// has no state_name(), so this must fail with the message that says what to add. (Using the
// policy without saving it compiles: ts_sa over the archetype is tested in ok_custom_model.)
#include <sstream>

#include "sabandit/policies/ts_sa.hpp"
#include "sabandit/state/persist.hpp"
#include "support/archetypes.hpp"

int main() {
  sabandit::ts_sa<sabandit::test::reward_model_archetype> policy(sabandit::unit_features(2), {});
  std::ostringstream out;
  sabandit::state::save(out, policy);
  return static_cast<int>(out.str().size());
}
