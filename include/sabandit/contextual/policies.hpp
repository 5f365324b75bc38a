#pragma once
// Every contextual policy (issue 21; docs/contextual.md): the ridge baselines LinUCB, linear TS
// and epsilon-greedy, logistic Laplace TS, and the Langevin policies contextual TS-SA and
// TS-SGLD, over the disjoint or a shared feature map; and the uniform reference. Eigen only,
// like sabandit.hpp.
#include "sabandit/contextual/concepts.hpp"              // IWYU pragma: export
#include "sabandit/contextual/epsilon_greedy_ridge.hpp"  // IWYU pragma: export
#include "sabandit/contextual/feature_maps.hpp"          // IWYU pragma: export
#include "sabandit/contextual/laplace_ts.hpp"            // IWYU pragma: export
#include "sabandit/contextual/linear_ts.hpp"             // IWYU pragma: export
#include "sabandit/contextual/linucb.hpp"                // IWYU pragma: export
#include "sabandit/contextual/ts_sa.hpp"                 // IWYU pragma: export
#include "sabandit/contextual/ts_sgld.hpp"               // IWYU pragma: export
#include "sabandit/contextual/uniform_random.hpp"        // IWYU pragma: export
