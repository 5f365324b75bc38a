# The package's CMake code uses nothing newer than its cmake_minimum_required (3.18), so that
# add_subdirectory and find_package work on Debian 11 (3.18) and Ubuntu 22.04 (3.22). The CMake
# that CI runs (Debian 12's 3.25) accepts newer features under an older minimum, so this script
# looks for them by name: a guard against the features this project used or might reach for,
# not a proof. The proof is a run with an older CMake (tests/package/older_cmake/run.cmake,
# docs/development.md, "Older CMake").
# Invoked as: cmake -DSOURCE_DIR=... -DSTAGE=<staged install> -P cmake_features.cmake
set(minimum 3.18)
# Pairs: a feature's regular expression, then the version that introduced it.
set(features
    "FILE_SET[ \t]+HEADERS|FILE_SET[ \t]+CXX_MODULES|FILE_SETS?[ \t]*\\)?;3.23"
    "PROJECT_IS_TOP_LEVEL|sabandit_IS_TOP_LEVEL;3.21"
    "VERIFY_INTERFACE_HEADER_SETS;3.24"
    "PROPERTIES[^)]*[ \t]SYSTEM[ \t]+(ON|TRUE|1)[ \t)];3.25"
    "cmake_path\\(;3.20"
    "\\$<PATH:|\\$<PATH_EQUAL:|[ \t]PATH_EQUAL[ \t];3.24"
    "\\$<LIST:|\\$<COMPILE_ONLY:;3.27"
    "\\$<LINK_LIBRARY:|\\$<LINK_GROUP:;3.24"
    "(^|[ \t])block\\(|return\\([ \t]*PROPAGATE;3.25"
    "cxx_std_23|CMAKE_CXX_STANDARD[ \t]+23;3.20"
    "file\\([ \t]*(COPY_FILE|REAL_PATH);3.19"
    "string\\([ \t]*JSON;3.19"
    "cmake_language\\([ \t]*DEFER;3.19"
    "IMPORTED_RUNTIME_ARTIFACTS|RUNTIME_DEPENDENCY_SET;3.21")
file(GLOB package_files "${SOURCE_DIR}/CMakeLists.txt" "${SOURCE_DIR}/cmake/*.cmake"
                        "${SOURCE_DIR}/cmake/*.in")
set(problems 0)
foreach(path IN LISTS package_files)
  file(STRINGS "${path}" lines)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "#.*" "" code "${line}")  # comments may name the features
    set(index 0)
    list(LENGTH features count)
    while(index LESS count)
      list(GET features ${index} pattern)
      math(EXPR next "${index} + 1")
      list(GET features ${next} version)
      if(code MATCHES "${pattern}" AND version VERSION_GREATER minimum)
        message(SEND_ERROR "${path}: needs CMake ${version} (> ${minimum}): ${line}")
        math(EXPR problems "${problems} + 1")
      endif()
      math(EXPR index "${index} + 2")
    endwhile()
  endforeach()
  if(path MATCHES "CMakeLists.txt$")
    file(READ "${path}" text)
    if(NOT text MATCHES "cmake_minimum_required\\(VERSION ${minimum}[.)]")
      message(SEND_ERROR "${path}: cmake_minimum_required is not ${minimum}: update this script too")
      math(EXPR problems "${problems} + 1")
    endif()
  endif()
endforeach()
# The installed targets file: CMake writes there the oldest CMake its content can be read by
# ("This file relies on consumers using CMake X or greater", when X is above 2.8).
file(GLOB_RECURSE targets_files "${STAGE}/*/sabanditTargets.cmake")
if(NOT targets_files)
  message(SEND_ERROR "no sabanditTargets.cmake under ${STAGE}")
  math(EXPR problems "${problems} + 1")
endif()
foreach(path IN LISTS targets_files)
  file(READ "${path}" text)
  if(text MATCHES "relies on consumers using CMake ([0-9.]+)")
    if(CMAKE_MATCH_1 VERSION_GREATER minimum)
      message(SEND_ERROR "${path} needs CMake ${CMAKE_MATCH_1} (> ${minimum})")
      math(EXPR problems "${problems} + 1")
    endif()
  endif()
endforeach()
list(LENGTH package_files checked)
message(STATUS "cmake_features: ${checked} package files, ${problems} feature(s) newer than ${minimum}")
