// The one definition of a declared instance (include/sabandit/instances.hpp): ts_sa<gaussian_model>.
#include <sabandit/instances/ts_sa.hpp>

SABANDIT_POLICY_INSTANCES(template, sabandit::ts_sa<sabandit::gaussian_model>)
