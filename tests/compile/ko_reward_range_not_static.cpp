// A model's reward_range() must be static and return sabandit::reward_interval
// (RangeDeclaringModel): declared otherwise, a restore would skip the check of the saved sums
// without a word, so saving a policy over it must fail with the message that says what to fix.
#include <sstream>

#include "sabandit/models/bernoulli.hpp"
#include "sabandit/policies/kl_ucb.hpp"
#include "sabandit/state/persist.hpp"

struct rates_model : sabandit::bernoulli_model {
  sabandit::reward_interval reward_range() const noexcept { return {0.0, 1.0}; }  // not static
  static std::string state_name() { return "rates"; }
};

int main() {
  sabandit::kl_ucb<rates_model> policy(2);
  std::ostringstream out;
  sabandit::state::save(out, policy);
  return static_cast<int>(out.str().size());
}
