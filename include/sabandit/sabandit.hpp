#pragma once
// sabandit: multi-armed bandit policies around TS-SA (Thompson sampling with stochastic
// approximation). The umbrella header: everything public except the simulator, which needs
// threads and has its own umbrella, sabandit/sim.hpp (CMake target sabandit::sim).
#include "sabandit/concepts.hpp"
#include "sabandit/envs/arms.hpp"
#include "sabandit/envs/bandit_env.hpp"
#include "sabandit/envs/paper.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/kernels/langevin.hpp"
#include "sabandit/kernels/sa_average.hpp"
#include "sabandit/kernels/schedules.hpp"
#include "sabandit/models/gaussian.hpp"
#include "sabandit/policies/epsilon_ts.hpp"
#include "sabandit/policies/gaussian_ts.hpp"
#include "sabandit/policies/ts_sa.hpp"
#include "sabandit/policies/ts_sgld.hpp"
#include "sabandit/policies/ucb.hpp"
#include "sabandit/random.hpp"
#include "sabandit/version.hpp"
