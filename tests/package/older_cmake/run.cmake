# The find_package and add_subdirectory consumers again, configured and built by an older
# CMake (OLD_CMAKE, e.g. Debian 11's 3.18: docs/development.md, "Older CMake"), then run.
# Invoked as: cmake -DOLD_CMAKE=... -DCXX=... -DSOURCE_DIR=... -DSTAGE=... -DOUT=... -P run.cmake
execute_process(COMMAND "${OLD_CMAKE}" --version OUTPUT_VARIABLE version
                OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${OLD_CMAKE} --version failed")
endif()
string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" version "${version}")
message(STATUS "older CMake: ${OLD_CMAKE} (${version})")
foreach(route IN ITEMS find_package add_subdirectory)
  set(build "${OUT}/${route}")
  file(REMOVE_RECURSE "${build}")
  if(route STREQUAL "find_package")
    set(options "-DCMAKE_PREFIX_PATH=${STAGE}" "-DSABANDIT_EXPECTED_PREFIX=${STAGE}"
                -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
  else()
    set(options "-DSABANDIT_SOURCE_DIR=${SOURCE_DIR}")
  endif()
  execute_process(COMMAND "${OLD_CMAKE}" -S "${SOURCE_DIR}/tests/package/${route}" -B "${build}"
                          "-DCMAKE_CXX_COMPILER=${CXX}" ${options}
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${route}: CMake ${version} could not configure the consumer")
  endif()
  execute_process(COMMAND "${OLD_CMAKE}" --build "${build}" RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${route}: CMake ${version} could not build the consumer")
  endif()
  foreach(program IN ITEMS consumer sim_consumer instances_consumer)
    execute_process(COMMAND "${build}/${program}" RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "${route}: ${program}, built by CMake ${version}, failed")
    endif()
  endforeach()
  message(STATUS "${route}: configured, built and run with CMake ${version}")
endforeach()
