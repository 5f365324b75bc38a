#pragma once
// Shared pieces of the contextual bindings (contextual.cpp, contextual_simulations.cpp): the
// environment types, which policy plays which environment, and the simulation that
// contextual_simulations.cpp compiles for each pair.
#include <cstdlib>
#include <limits>
#include <sabandit/contextual/classification_env.hpp>
#include <sabandit/contextual/linear_env.hpp>
#include <sabandit/contextual/policies.hpp>
#include <sabandit/contextual/simulate.hpp>
#include <type_traits>

#include "bindings.hpp"

namespace sabandit::python {

using linear_gaussian_env = contextual::linear_env<contextual::gaussian_rewards>;
using logistic_env = contextual::linear_env<contextual::logistic_rewards>;
using contextual::classification_env;

/// Calls `f(env)` with the contextual environment held by `obj`; TypeError if it holds none.
template <class F>
decltype(auto) with_contextual_env(const py::handle& obj, F&& f) {
  if (py::isinstance<linear_gaussian_env>(obj)) return f(obj.cast<const linear_gaussian_env&>());
  if (py::isinstance<logistic_env>(obj)) return f(obj.cast<const logistic_env&>());
  if (py::isinstance<classification_env>(obj)) return f(obj.cast<const classification_env&>());
  throw py::type_error(
      "sabandit.contextual: env must be a LinearGaussianEnv, LogisticEnv or "
      "ClassificationEnv, not " +
      std::string(py::str(py::type::of(obj))));
}

/// Whether the module compiles sabandit.contextual.simulate of P on Env: a policy over outcomes
/// or counts would refuse a Gaussian environment's first negative reward, so that pair is not
/// compiled (it raises TypeError); every other pair is.
template <class P, class Env>
inline constexpr bool contextually_simulated =
    !(std::is_same_v<Env, linear_gaussian_env> &&
      (std::is_same_v<typename policy_model<P>::type, bernoulli_model> ||
       std::is_same_v<typename policy_model<P>::type, poisson_model>));

/// Runs contextual::simulate for copies of `prototype` (the caller's own copy, copy_of) on
/// `env`, with the GIL released and Ctrl-C honoured (simulate_interruptibly).
template <class P, class Env>
contextual::run_result simulate_contextual_copies(const P& prototype, const Env& env,
                                                  const run_config& config) {
  return simulate_interruptibly(
      [&](const run_config& c) {
        return contextual::simulate(
            env, [&](Eigen::Index) { return prototype; }, c);
      },
      config);
}

/// X(P, Env) for each policy contextual.cpp binds and each environment it may play.
#define SABANDIT_PYTHON_CONTEXTUAL_SIMULATIONS(X)                                    \
  SABANDIT_PYTHON_CONTEXTUAL_EVERY_ENV(X, contextual::linucb<>)                      \
  SABANDIT_PYTHON_CONTEXTUAL_EVERY_ENV(X, contextual::linear_ts<>)                   \
  SABANDIT_PYTHON_CONTEXTUAL_EVERY_ENV(X, contextual::epsilon_greedy_ridge<>)        \
  SABANDIT_PYTHON_CONTEXTUAL_EVERY_ENV(X, contextual::uniform_random)                \
  SABANDIT_PYTHON_CONTEXTUAL_EVERY_ENV(X, contextual::ts_sa<gaussian_model>)         \
  SABANDIT_PYTHON_CONTEXTUAL_EVERY_ENV(X, contextual::ts_sgld<gaussian_model>)       \
  SABANDIT_PYTHON_CONTEXTUAL_EVERY_ENV(X, contextual::laplace_ts<gaussian_model>)    \
  SABANDIT_PYTHON_CONTEXTUAL_BINARY_ENVS(X, contextual::ts_sa<bernoulli_model>)      \
  SABANDIT_PYTHON_CONTEXTUAL_BINARY_ENVS(X, contextual::ts_sgld<bernoulli_model>)    \
  SABANDIT_PYTHON_CONTEXTUAL_BINARY_ENVS(X, contextual::laplace_ts<bernoulli_model>) \
  SABANDIT_PYTHON_CONTEXTUAL_BINARY_ENVS(X, contextual::ts_sa<poisson_model>)        \
  SABANDIT_PYTHON_CONTEXTUAL_BINARY_ENVS(X, contextual::ts_sgld<poisson_model>)      \
  SABANDIT_PYTHON_CONTEXTUAL_BINARY_ENVS(X, contextual::laplace_ts<poisson_model>)
#define SABANDIT_PYTHON_CONTEXTUAL_EVERY_ENV(X, P) \
  X(P, linear_gaussian_env) SABANDIT_PYTHON_CONTEXTUAL_BINARY_ENVS(X, P)
#define SABANDIT_PYTHON_CONTEXTUAL_BINARY_ENVS(X, P) X(P, logistic_env) X(P, classification_env)
/// The explicit instantiation of simulate_contextual_copies<P, Env>; `extern` before it
/// declares it.
#define SABANDIT_PYTHON_CONTEXTUAL_SIMULATION(P, Env)                              \
  template contextual::run_result simulate_contextual_copies(const P&, const Env&, \
                                                             const run_config&);   \
  static_assert(contextually_simulated<P, Env>);

}  // namespace sabandit::python
