#pragma once
/// @file
/// Declared instances: TS-SA and TS-SGLD over the Gaussian, Bernoulli and Poisson models, played with
/// sabandit's xoshiro256pp or std::mt19937_64, compiled once per program instead of once per
/// translation unit that uses them.
///
/// Why: a Langevin policy's constructors, select() and update() instantiate the chain
/// kernels, the warm start and the Fisher metric, about three quarters of what a translation
/// unit with one TS-SA costs to compile (docs/performance.md, "Compile cost"). Including this
/// header (or one policy's, sabandit/instances/ts_sa.hpp or ts_sgld.hpp) instead of the policy
/// headers declares those instances `extern template` ([temp.explicit]): the compiler calls
/// them instead of compiling them, and cannot inline them into the caller's loop. One
/// translation unit of the program defines each instance that the program uses, e.g.
///
///     #include <sabandit/instances/ts_sa.hpp>
///     SABANDIT_POLICY_INSTANCES(template, sabandit::ts_sa<sabandit::bernoulli_model>)
///
/// cmake/instances/ has one such file per instance; the CMake target sabandit::instances is a
/// static library of them, built in the consumer's build. Another model, schedule, gradient
/// source or engine compiles where it is used, as without this header: only the instances
/// listed are declared.
#include "sabandit/instances/ts_sa.hpp"
#include "sabandit/instances/ts_sgld.hpp"
