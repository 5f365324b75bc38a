#pragma once
// TS-SGLD's declared instances (sabandit/instances.hpp explains them): ts_sgld over the Gaussian,
// Bernoulli and Poisson models, declared here; cmake/instances/ defines them.
#include "sabandit/instances/policy_instances.hpp"
#include "sabandit/policies/ts_sgld.hpp"

SABANDIT_MODEL_INSTANCES(extern template, sabandit::ts_sgld)
