#pragma once
/// @file
/// Declared instances: TS-SA and TS-SGLD over the three built-in models, played with
/// sabandit's xoshiro256pp or std::mt19937_64, compiled once per program instead of once per
/// translation unit that uses them.
///
/// Why: a Langevin policy's constructors, select() and update() instantiate the chain
/// kernels, the warm start and the Fisher metric, about three quarters of what a translation
/// unit with one TS-SA costs to compile (docs/performance.md, "Compile cost"). Including this
/// header (or one policy's, sabandit/instances/ts_sa.hpp or ts_sgld.hpp) instead of the policy
/// headers declares those instances `extern template` ([temp.explicit]): the compiler calls
/// them instead of compiling them. Exactly one translation unit of the program defines them:
///
///     #include <sabandit/instances.hpp>
///     SABANDIT_LANGEVIN_INSTANCES(template)
///
/// The CMake target sabandit::instances compiles that file into the target that links it:
/// link it to one target of each program. Another model, schedule, gradient source or engine
/// compiles where it is used, as without this header: only the instances listed are declared.
#include "sabandit/instances/ts_sa.hpp"
#include "sabandit/instances/ts_sgld.hpp"

/// Both policies' instances, declared (KEYWORD `extern template`) or defined (`template`).
#define SABANDIT_LANGEVIN_INSTANCES(KEYWORD)              \
  SABANDIT_MODEL_INSTANCES(KEYWORD, sabandit::ts_sa)      \
  SABANDIT_MODEL_INSTANCES(KEYWORD, sabandit::ts_sgld)
