# ctest label "packaging": the ways to consume sabandit (find_package, add_subdirectory,
# include path only, pkg-config), each building a policies-only and a simulator consumer.
set(_pkg_bin "${CMAKE_CURRENT_BINARY_DIR}/package")
set(_stage "${_pkg_bin}/stage")

add_test(NAME "package: stage install"
         COMMAND "${CMAKE_COMMAND}" --install "${PROJECT_BINARY_DIR}" --prefix "${_stage}")
set_tests_properties("package: stage install" PROPERTIES FIXTURES_SETUP sabandit_staged)

add_test(NAME "package: find_package consumer"
         COMMAND "${CMAKE_CTEST_COMMAND}" --build-and-test
                 "${CMAKE_CURRENT_SOURCE_DIR}/package/find_package" "${_pkg_bin}/find_package"
                 --build-generator "${CMAKE_GENERATOR}"
                 --build-options "-DCMAKE_PREFIX_PATH=${_stage}" "-DSABANDIT_EXPECTED_PREFIX=${_stage}"
                                 "-DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}"
                                 -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
                 --test-command "${CMAKE_CTEST_COMMAND}" --output-on-failure)
set_tests_properties("package: find_package consumer" PROPERTIES FIXTURES_REQUIRED sabandit_staged)

add_test(NAME "package: add_subdirectory consumer"
         COMMAND "${CMAKE_CTEST_COMMAND}" --build-and-test
                 "${CMAKE_CURRENT_SOURCE_DIR}/package/add_subdirectory" "${_pkg_bin}/add_subdirectory"
                 --build-generator "${CMAKE_GENERATOR}"
                 --build-options "-DSABANDIT_SOURCE_DIR=${PROJECT_SOURCE_DIR}"
                                 "-DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}"
                 --test-command "${CMAKE_CTEST_COMMAND}" --output-on-failure)

get_target_property(_eigen_dirs Eigen3::Eigen INTERFACE_INCLUDE_DIRECTORIES)
list(GET _eigen_dirs 0 _eigen_dir)
add_test(NAME "package: include path only"
         COMMAND "${CMAKE_COMMAND}" "-DCXX=${CMAKE_CXX_COMPILER}" "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}"
                 "-DEIGEN_DIR=${_eigen_dir}" "-DOUT=${_pkg_bin}/include_only_consumer"
                 -P "${CMAKE_CURRENT_SOURCE_DIR}/package/include_only/run.cmake")

find_program(SABANDIT_PKG_CONFIG NAMES pkg-config pkgconf REQUIRED)
add_test(NAME "package: pkg-config consumer, relocated install"
         COMMAND "${CMAKE_COMMAND}" "-DCXX=${CMAKE_CXX_COMPILER}" "-DPKG_CONFIG=${SABANDIT_PKG_CONFIG}"
                 "-DSTAGE=${_stage}" "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}" "-DOUT=${_pkg_bin}/pkg_config"
                 -P "${CMAKE_CURRENT_SOURCE_DIR}/package/pkg_config/run.cmake")
set_tests_properties("package: pkg-config consumer, relocated install" PROPERTIES
                     FIXTURES_REQUIRED sabandit_staged)

# The package's CMake code needs nothing newer than its minimum (CMakeLists.txt).
add_test(NAME "package: no CMake feature newer than the minimum"
         COMMAND "${CMAKE_COMMAND}" "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}" "-DSTAGE=${_stage}"
                 -P "${CMAKE_CURRENT_SOURCE_DIR}/package/cmake_features.cmake")
set_tests_properties("package: no CMake feature newer than the minimum" PROPERTIES
                     FIXTURES_REQUIRED sabandit_staged FAIL_REGULAR_EXPRESSION "CMake Error")

# With an older CMake at hand (Debian 12 ships only 3.25), the CMake consumers once more, built
# by it: docs/development.md, "Older CMake", says how to get Debian 11's 3.18 without
# installing it.
set(SABANDIT_OLDER_CMAKE "" CACHE FILEPATH
    "An older cmake executable to build the find_package and add_subdirectory consumers with too")
set(_package_tests "package: stage install" "package: find_package consumer"
                   "package: add_subdirectory consumer" "package: include path only"
                   "package: pkg-config consumer, relocated install"
                   "package: no CMake feature newer than the minimum")
if(SABANDIT_OLDER_CMAKE)
  add_test(NAME "package: consumers built by an older CMake"
           COMMAND "${CMAKE_COMMAND}" "-DOLD_CMAKE=${SABANDIT_OLDER_CMAKE}"
                   "-DCXX=${CMAKE_CXX_COMPILER}" "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}"
                   "-DSTAGE=${_stage}" "-DOUT=${_pkg_bin}/older_cmake"
                   -P "${CMAKE_CURRENT_SOURCE_DIR}/package/older_cmake/run.cmake")
  set_tests_properties("package: consumers built by an older CMake" PROPERTIES
                       FIXTURES_REQUIRED sabandit_staged)
  list(APPEND _package_tests "package: consumers built by an older CMake")
endif()
set_tests_properties(${_package_tests} PROPERTIES LABELS packaging)
