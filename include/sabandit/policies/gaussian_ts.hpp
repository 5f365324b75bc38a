#pragma once
// Gaussian Thompson sampling, the paper's TS baseline (the paper states no prior; the
// reproduction passes N(0, 10^4), and the default is flat): thompson<> over gaussian_model,
// whose conjugate posterior is normal (policies/thompson.hpp). With unit-variance rewards tau = 1
// is exact Bayesian TS; tau = sigma^2 adapts it to known noise variance sigma^2 (or construct
// it with gaussian_model(sigma^2)).
#include "sabandit/models/gaussian.hpp"
#include "sabandit/policies/thompson.hpp"

namespace sabandit {

/// Gaussian TS, the paper's baseline, under its old name.
using gaussian_ts = thompson<gaussian_model>;

static_assert(Policy<gaussian_ts>);

}  // namespace sabandit
