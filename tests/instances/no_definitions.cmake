# The declared instances save compile time only if a translation unit that includes
# sabandit/instances.hpp calls them instead of compiling them. This looks, with nm, for a
# definition of a declared member (the constructors, select, update of ts_sa and ts_sgld) in
# such a unit's object file, and fails naming it: an inline definition (a body moved back into
# the class) would be compiled again there.
# Invoked as: cmake -DNM=<nm> -DOBJECTS=<object files> -P no_definitions.cmake
execute_process(COMMAND "${NM}" -C --defined-only ${OBJECTS} OUTPUT_VARIABLE symbols
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "nm failed on ${OBJECTS}")
endif()
string(REPLACE "\n" ";" symbols "${symbols}")
set(compiled "")
foreach(symbol IN LISTS symbols)
  if(symbol MATCHES "sabandit::(ts_sa|ts_sgld)<[^(]*>::(ts_sa|ts_sgld|select<|update<)")
    list(APPEND compiled "${symbol}")
  endif()
endforeach()
if(compiled)
  string(REPLACE ";" "\n  " compiled "${compiled}")
  message(FATAL_ERROR "the declaring unit compiled declared instances:\n  ${compiled}")
endif()
message(STATUS "no declared instance is defined in ${OBJECTS}")
