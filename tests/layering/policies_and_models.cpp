// Every policy and model header, and the concepts: compiled with -H by the ctest "layering:"
// tests (tests/CMakeLists.txt), which fail if any of them reaches state/ or sim/ (DESIGN.md:
// "A program that never saves or simulates pays nothing, at compile time either, for state/
// or sim/").
#include "sabandit/concepts.hpp"
#include "sabandit/models/bernoulli.hpp"
#include "sabandit/models/gaussian.hpp"
#include "sabandit/models/poisson.hpp"
#include "sabandit/policies/epsilon_ts.hpp"
#include "sabandit/policies/gaussian_ts.hpp"
#include "sabandit/policies/kl_ucb.hpp"
#include "sabandit/policies/thompson.hpp"
#include "sabandit/policies/ts_sa.hpp"
#include "sabandit/policies/ts_sgld.hpp"
#include "sabandit/policies/ucb.hpp"
