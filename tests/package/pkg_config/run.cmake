# The pkg-config route, and that it is relocatable: copies the staged install to a new folder
# (as a user's `cmake --install --prefix` or a moved tree would be), then compiles and runs
# the consumers with nothing but `pkg-config --cflags/--libs` from the copy and a language
# standard of the user's choice: C++23 here (-std=c++2b, which GCC 12 and Clang 14 both
# accept), which the .pc files must not override (they set no -std flag).
# Invoked as: cmake -DCXX=... -DPKG_CONFIG=... -DSTAGE=... -DSOURCE_DIR=... -DOUT=... -P run.cmake
set(ROUTE "pkg-config")
include("${CMAKE_CURRENT_LIST_DIR}/../compile_and_run.cmake")
file(REMOVE_RECURSE "${OUT}/moved")
file(COPY "${STAGE}/" DESTINATION "${OUT}/moved")
file(GLOB_RECURSE pc_files "${OUT}/moved/*/sabandit.pc")
list(LENGTH pc_files found)
if(NOT found EQUAL 1)
  message(FATAL_ERROR "expected one sabandit.pc under ${OUT}/moved, found: ${pc_files}")
endif()
get_filename_component(pc_dir "${pc_files}" DIRECTORY)
# Our folder first; Eigen's eigen3.pc still comes from the system's default path.
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
foreach(package IN ITEMS sabandit sabandit-sim)
  execute_process(COMMAND "${PKG_CONFIG}" --cflags --libs ${package}
                  OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "pkg-config --cflags --libs ${package} failed")
  endif()
  message(STATUS "pkg-config ${package}: ${flags}")
  if(NOT flags MATCHES "/moved/")
    message(FATAL_ERROR "${package}.pc does not point into the moved install: ${flags}")
  endif()
  if(flags MATCHES "-std=")
    message(FATAL_ERROR "${package}.pc sets a language standard (${flags}): the user chooses it")
  endif()
  if(package STREQUAL "sabandit" AND flags MATCHES "pthread")
    message(FATAL_ERROR "sabandit.pc asks for threads (${flags}): only sabandit-sim.pc should")
  endif()
  set(program consumer)
  if(package STREQUAL "sabandit-sim")
    set(program sim_consumer)
  endif()
  separate_arguments(flag_list UNIX_COMMAND "${flags}")
  compile_and_run(${program} "${OUT}/${program}" -std=c++2b ${flag_list})
endforeach()
execute_process(COMMAND "${PKG_CONFIG}" --variable=cxx_standard_minimum sabandit
                OUTPUT_VARIABLE minimum OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT minimum STREQUAL "c++20")
  message(FATAL_ERROR "sabandit.pc's cxx_standard_minimum is '${minimum}', not c++20")
endif()
