// Must not compile: a policy over a shared feature map (a user's function) cannot be saved.
#include <sstream>

#include "sabandit/contextual/linucb.hpp"
#include "sabandit/state/persist.hpp"

int main() {
  namespace ctx = sabandit::contextual;
  const auto phi = [](const sabandit::vector_cref& x, Eigen::Index, sabandit::vector_ref out) {
    out = x;
  };
  ctx::linucb<ctx::shared_features<>> policy(2, ctx::shared_features<>(3, 3, phi));
  std::ostringstream out;
  sabandit::state::save(out, policy);
  return 0;
}
