// concepts.hpp alone, compiled with -H by the ctest "layering: concepts.hpp ..." test, which
// fails if it includes a header of a layer above it (DESIGN.md, "Arrows point one way":
// the concepts sit below models, kernels, policies, state and sim).
#include "sabandit/concepts.hpp"
