// The one definition of a declared instance (include/sabandit/instances.hpp): ts_sgld<bernoulli_model>.
#include <sabandit/instances/ts_sgld.hpp>

SABANDIT_POLICY_INSTANCES(template, sabandit::ts_sgld<sabandit::bernoulli_model>)
