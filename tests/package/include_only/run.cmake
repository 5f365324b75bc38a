# Compiles the consumers with nothing but include paths (sabandit's and Eigen's), then runs
# them: the policies' consumer without -pthread, the simulator's with it, and the consumer of
# the declared instances with the definition of the one it uses (cmake/instances/).
# Invoked as: cmake -DCXX=... -DSOURCE_DIR=... -DEIGEN_DIR=... -DOUT=... -P run.cmake
set(ROUTE "include path only")
include("${CMAKE_CURRENT_LIST_DIR}/../compile_and_run.cmake")
set(include_flags -std=c++20 "-I${SOURCE_DIR}/include" "-I${EIGEN_DIR}")
compile_and_run(consumer "${OUT}_consumer" ${include_flags})
compile_and_run(sim_consumer "${OUT}_sim_consumer" ${include_flags} -pthread)
# The declared instances without CMake: their one definition is a source file of the program.
compile_and_run(instances_consumer "${OUT}_instances_consumer" ${include_flags}
                "${SOURCE_DIR}/cmake/instances/ts_sa_bernoulli.cpp")
