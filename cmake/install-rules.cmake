include(CMakePackageConfigHelpers)

set(SABANDIT_INSTALL_CMAKEDIR "${CMAKE_INSTALL_DATADIR}/cmake/sabandit"
    CACHE STRING "Where sabanditConfig.cmake is installed")

install(TARGETS sabandit EXPORT sabandit-targets FILE_SET HEADERS)
install(EXPORT sabandit-targets NAMESPACE sabandit:: FILE sabanditTargets.cmake
        DESTINATION "${SABANDIT_INSTALL_CMAKEDIR}")

configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/sabanditConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/sabanditConfig.cmake"
  INSTALL_DESTINATION "${SABANDIT_INSTALL_CMAKEDIR}")
# 0.x: minor versions may break the API.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/sabanditConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/sabanditConfig.cmake"
              "${PROJECT_BINARY_DIR}/sabanditConfigVersion.cmake"
        DESTINATION "${SABANDIT_INSTALL_CMAKEDIR}")

configure_file("${PROJECT_SOURCE_DIR}/cmake/sabandit.pc.in"
               "${PROJECT_BINARY_DIR}/sabandit.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/sabandit.pc" DESTINATION "${CMAKE_INSTALL_DATADIR}/pkgconfig")
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/sabandit")
