// The one definition of a declared instance (include/sabandit/instances.hpp): ts_sgld<gaussian_model>.
#include <sabandit/instances/ts_sgld.hpp>

SABANDIT_POLICY_INSTANCES(template, sabandit::ts_sgld<sabandit::gaussian_model>)
