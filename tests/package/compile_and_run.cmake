# compile_and_run(PROGRAM OUTPUT FLAG...): compiles tests/package/PROGRAM.cpp with ${CXX} and
# the flags (include paths, -pthread, pkg-config's output), runs it, and stops the calling
# script with an error naming the route (ROUTE) when either step fails.
function(compile_and_run program output)
  execute_process(COMMAND "${CXX}" -O1 "${SOURCE_DIR}/tests/package/${program}.cpp" ${ARGN}
                          -o "${output}"
                  RESULT_VARIABLE compiled)
  if(NOT compiled EQUAL 0)
    message(FATAL_ERROR "${ROUTE}: compiling ${program}.cpp failed (flags: ${ARGN})")
  endif()
  execute_process(COMMAND "${output}" RESULT_VARIABLE ran)
  if(NOT ran EQUAL 0)
    message(FATAL_ERROR "${ROUTE}: ${program} failed")
  endif()
endfunction()
