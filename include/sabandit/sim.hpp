#pragma once
/// @file
/// The simulator's umbrella header: Monte-Carlo trials of a policy on an environment, run on
/// a thread pool, reduced to regret curves, written as CSV. Kept apart from sabandit.hpp
/// because it needs threads (link the CMake target sabandit::sim, or pass -pthread), which a
/// program that only runs a policy online does not.
#include "sabandit/sabandit.hpp"
#include "sabandit/sim/csv.hpp"
#include "sabandit/sim/lai_robbins.hpp"
#include "sabandit/sim/parallel.hpp"
#include "sabandit/sim/progress.hpp"
#include "sabandit/sim/simulate.hpp"
