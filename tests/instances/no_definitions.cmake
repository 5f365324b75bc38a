# The declared instances save compile time only if a translation unit that includes
# sabandit/instances.hpp calls them instead of compiling them. This looks, with nm, for a
# definition in such a unit's object file of a function of the Langevin policies (ts_sa,
# ts_sgld), of their core (langevin::core) or of the Thompson-style decision that select()
# runs (detail::gaussian_scores), destructors excepted, and fails naming it: a constructor,
# select or update whose body is back inside its class is inline, so it (or what it calls)
# would be compiled in every unit again.
# Invoked as: cmake -DNM=<nm> -DOBJECTS=<object files> -P no_definitions.cmake
execute_process(COMMAND "${NM}" -C --defined-only ${OBJECTS} OUTPUT_VARIABLE symbols
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "nm failed on ${OBJECTS}")
endif()
string(REPLACE "\n" ";" symbols "${symbols}")
set(compiled "")
foreach(symbol IN LISTS symbols)
  # The function's own name starts the symbol or follows its return type (a space); inside a
  # template's arguments it would follow '<' or ", ".
  if(symbol MATCHES "(^| )sabandit::(ts_sa<|ts_sgld<|langevin::core<|detail::gaussian_scores::)"
     AND NOT symbol MATCHES "::~")
    list(APPEND compiled "${symbol}")
  endif()
endforeach()
if(compiled)
  string(REPLACE ";" "\n  " compiled "${compiled}")
  message(FATAL_ERROR "the declaring unit compiled declared instances:\n  ${compiled}")
endif()
message(STATUS "no declared instance is defined in ${OBJECTS}")
