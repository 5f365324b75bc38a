// sabandit.simulate for the policies bound in conjugate.cpp (Thompson sampling, epsilon-TS and
// KL-UCB over the built-in models) on each environment type: their simulate_copies, which
// conjugate.cpp declares extern. Compiled from a source of its own with GCC's large-unit
// threshold raised (python/CMakeLists.txt), so that each policy's update() is inlined into the
// simulator's round loop, as in a C++ program that runs one policy.
#include "bindings.hpp"

namespace sabandit::python {

SABANDIT_PYTHON_CONJUGATE_SIMULATIONS(SABANDIT_PYTHON_SIMULATE_COPIES)

}  // namespace sabandit::python
