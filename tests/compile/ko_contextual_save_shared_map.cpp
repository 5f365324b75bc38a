// Must not compile: a policy over a shared feature map (a user's function) cannot be saved.
#include <sstream>

#include "sabandit/contextual/linucb.hpp"

int main() {
  namespace ctx = sabandit::contextual;
  const auto phi = [](const sabandit::vector_cref& x, Eigen::Index, sabandit::vector_ref out) {
    out = x;
  };
  ctx::linucb<ctx::shared_features<>> policy(2, ctx::shared_features<>(3, 3, phi));
  std::ostringstream out;
  policy.save(out);
  return 0;
}
