// Control for the contextual ko_ tests: every contextual policy models ContextualPolicy with the
// archetype engine, runs over a shared feature map and over the archetype model, and a disjoint
// one over a persistent model saves.
#include <sstream>

#include "sabandit/contextual/epsilon_greedy_ridge.hpp"
#include "sabandit/contextual/laplace_ts.hpp"
#include "sabandit/contextual/linear_ts.hpp"
#include "sabandit/contextual/linucb.hpp"
#include "sabandit/contextual/ts_sa.hpp"
#include "sabandit/contextual/ts_sgld.hpp"
#include "sabandit/models/gaussian.hpp"
#include "support/archetypes.hpp"

namespace ctx = sabandit::contextual;
using sabandit::test::urbg_archetype;
using model = sabandit::test::reward_model_archetype;

static_assert(ctx::ContextualPolicy<ctx::linucb<>, urbg_archetype>);
static_assert(ctx::ContextualPolicy<ctx::linear_ts<>, urbg_archetype>);
static_assert(ctx::ContextualPolicy<ctx::epsilon_greedy_ridge<>, urbg_archetype>);
static_assert(ctx::ContextualPolicy<ctx::laplace_ts<model>, urbg_archetype>);
static_assert(ctx::ContextualPolicy<ctx::ts_sa<model>, urbg_archetype>);
static_assert(ctx::ContextualPolicy<ctx::ts_sgld<model>, urbg_archetype>);
static_assert(ctx::ContextualPolicy<ctx::ts_sa<model, ctx::shared_features<>>, urbg_archetype>);

int main() {
  const auto phi = [](const sabandit::vector_cref& x, Eigen::Index, sabandit::vector_ref out) {
    out = x;
  };
  ctx::ts_sa<model, ctx::shared_features<>> shared(2, ctx::shared_features<>(3, 3, phi));
  ctx::ts_sa<sabandit::gaussian_model> disjoint(2, 3);
  urbg_archetype gen;
  const Eigen::VectorXd x = Eigen::VectorXd::Ones(3);
  shared.update(x, shared.select(x, gen), 1.0, gen);
  std::ostringstream out;
  disjoint.save(out);
  return static_cast<int>(shared.num_arms() + disjoint.num_arms()) - 4;
}
