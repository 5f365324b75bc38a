# Compiles ../consumer.cpp with nothing but include paths (sabandit's and Eigen's), then runs it.
# Invoked as: cmake -DCXX=... -DSOURCE_DIR=... -DEIGEN_DIR=... -DOUT=... -P run.cmake
execute_process(
  COMMAND "${CXX}" -std=c++20 -O1 "-I${SOURCE_DIR}/include" "-I${EIGEN_DIR}"
          "${SOURCE_DIR}/tests/package/consumer.cpp" -o "${OUT}" -pthread
  RESULT_VARIABLE compiled)
if(NOT compiled EQUAL 0)
  message(FATAL_ERROR "include-only compile failed")
endif()
execute_process(COMMAND "${OUT}" RESULT_VARIABLE ran)
if(NOT ran EQUAL 0)
  message(FATAL_ERROR "include-only consumer failed")
endif()
