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

set_tests_properties("package: stage install" "package: find_package consumer"
                     "package: add_subdirectory consumer" "package: include path only"
                     "package: pkg-config consumer, relocated install"
                     PROPERTIES LABELS packaging)
