// Must not compile: a reward model without grad_log_likelihood is not a RewardModel, and the
// error names the concept (ts_sa's template parameter is constrained).
#include "sabandit/sabandit.hpp"
#include "support/archetypes.hpp"

int main() {
  sabandit::ts_sa<sabandit::test::model_without_gradient> policy(sabandit::unit_features(2), {});
  return static_cast<int>(policy.num_arms());
}
