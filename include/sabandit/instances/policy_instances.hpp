#pragma once
// The explicit instantiations that make a policy template's built-in-model instances declared
// instances (sabandit/instances.hpp): for each of the Gaussian, Bernoulli and Poisson models,
// the class itself (constructors, parameters, state name) and its select() and update() with
// each of the two engines a program most likely plays with, sabandit's xoshiro256pp and
// std::mt19937_64. Written once, for every declared policy.
#include <random>

#include <Eigen/Core>

#include "sabandit/models/bernoulli.hpp"
#include "sabandit/models/gaussian.hpp"
#include "sabandit/models/poisson.hpp"
#include "sabandit/random/xoshiro.hpp"

/// One engine's select() and update() of POLICY. KEYWORD: `extern template` declares them,
/// `template` defines them.
#define SABANDIT_ENGINE_INSTANCES(KEYWORD, POLICY, ENGINE)                                   \
  KEYWORD Eigen::Index POLICY::select<ENGINE>(ENGINE&);                                      \
  KEYWORD void POLICY::update<ENGINE>(Eigen::Index, double, ENGINE&);

/// POLICY (a class template specialization, written without a leading ::) with both engines.
#define SABANDIT_POLICY_INSTANCES(KEYWORD, POLICY)                                          \
  KEYWORD class POLICY;                                                                      \
  SABANDIT_ENGINE_INSTANCES(KEYWORD, POLICY, sabandit::xoshiro256pp)                         \
  SABANDIT_ENGINE_INSTANCES(KEYWORD, POLICY, std::mt19937_64)

/// TEMPLATE (a policy template, e.g. sabandit::ts_sa) over the Gaussian, Bernoulli and Poisson models, its other
/// template parameters at their defaults.
#define SABANDIT_MODEL_INSTANCES(KEYWORD, TEMPLATE)                                         \
  SABANDIT_POLICY_INSTANCES(KEYWORD, TEMPLATE<sabandit::gaussian_model>)                    \
  SABANDIT_POLICY_INSTANCES(KEYWORD, TEMPLATE<sabandit::bernoulli_model>)                   \
  SABANDIT_POLICY_INSTANCES(KEYWORD, TEMPLATE<sabandit::poisson_model>)
