#pragma once
// Randomness: the fast engine and its multi-lane block form, independent streams, uniform
// bits, normal fills, and the gamma, beta, Poisson, Bernoulli and exponential samplers.
#include "sabandit/random/bernoulli.hpp"
#include "sabandit/random/beta.hpp"
#include "sabandit/random/bits.hpp"
#include "sabandit/random/exponential.hpp"
#include "sabandit/random/gamma.hpp"
#include "sabandit/random/lanes.hpp"
#include "sabandit/random/lemire32.hpp"
#include "sabandit/random/normal.hpp"
#include "sabandit/random/poisson.hpp"
#include "sabandit/random/streams.hpp"
#include "sabandit/random/xoshiro.hpp"
