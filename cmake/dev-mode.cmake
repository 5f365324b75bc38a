# Settings for sabandit's own targets (tests, examples, benchmarks); never for consumers.
option(SABANDIT_WERROR "Treat warnings in sabandit's own targets as errors" OFF)
set(CMAKE_VERIFY_INTERFACE_HEADER_SETS ON)  # every public header must compile alone

add_library(sabandit_dev_flags INTERFACE)
target_compile_options(sabandit_dev_flags INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion>)
if(SABANDIT_WERROR)
  target_compile_options(sabandit_dev_flags INTERFACE $<$<CXX_COMPILER_ID:GNU,Clang>:-Werror>)
endif()
if(SABANDIT_NATIVE)
  target_compile_options(sabandit_dev_flags INTERFACE -march=native)
endif()
