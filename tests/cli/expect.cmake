# Runs PROGRAM with ARGS (a ;-list) and checks both its exit status (EXIT) and that its
# standard output + error match the regular expression EXPECT. ctest's PASS_REGULAR_EXPRESSION
# alone would ignore the exit status.
#   cmake -DPROGRAM=... "-DARGS=a;b" -DEXIT=2 "-DEXPECT=regex" -P expect.cmake
execute_process(COMMAND "${PROGRAM}" ${ARGS} RESULT_VARIABLE status OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT status STREQUAL EXIT)
  message(FATAL_ERROR "exit status ${status}, expected ${EXIT}\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "output does not match '${EXPECT}'\nstdout: ${out}\nstderr: ${err}")
endif()
message(STATUS "exit ${status}, output matches '${EXPECT}'")
