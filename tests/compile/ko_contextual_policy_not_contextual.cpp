// Must not compile: a function that needs a ContextualPolicy rejects a non-contextual one.
#include "sabandit/contextual/concepts.hpp"
#include "support/archetypes.hpp"

template <sabandit::contextual::ContextualPolicy P>
Eigen::Index first_arm(P& policy, const Eigen::VectorXd& x) {
  sabandit::default_engine gen(1);
  return policy.select(x, gen);
}

int main() {
  sabandit::test::policy_archetype policy;
  return static_cast<int>(first_arm(policy, Eigen::VectorXd::Ones(3)));
}
