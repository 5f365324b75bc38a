#pragma once
// Randomness: the fast engine, independent streams, uniform bits and normal fills.
#include "sabandit/random/bits.hpp"
#include "sabandit/random/normal.hpp"
#include "sabandit/random/poisson.hpp"
#include "sabandit/random/streams.hpp"
#include "sabandit/random/xoshiro.hpp"
