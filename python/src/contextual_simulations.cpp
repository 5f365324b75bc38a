// sabandit.contextual.simulate for the policies bound in contextual.cpp on each environment
// they may play: their simulate_contextual_copies, which contextual.cpp declares extern, so that
// the two sources compile side by side.
#include "contextual_bindings.hpp"

namespace sabandit::python {

SABANDIT_PYTHON_CONTEXTUAL_SIMULATIONS(SABANDIT_PYTHON_CONTEXTUAL_SIMULATION)

}  // namespace sabandit::python
