// The one definition of sabandit's declared instances (include/sabandit/instances.hpp):
// the CMake target sabandit::instances compiles this file into the target that links it, with
// that target's own flags, so that the instances match the code that calls them.
#include <sabandit/instances.hpp>

SABANDIT_LANGEVIN_INSTANCES(template)
