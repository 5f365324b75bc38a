include(CMakePackageConfigHelpers)

set(SABANDIT_INSTALL_CMAKEDIR "${CMAKE_INSTALL_DATADIR}/cmake/sabandit"
    CACHE STRING "Where sabanditConfig.cmake is installed")

install(TARGETS sabandit sabandit_sim EXPORT sabandit-targets)
# The declared instances' sources: sabanditConfig.cmake builds sabandit::instances from them.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/cmake/instances/"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/sabandit/instances" FILES_MATCHING PATTERN "*.cpp")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/sabandit" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        FILES_MATCHING PATTERN "*.hpp")
install(EXPORT sabandit-targets NAMESPACE sabandit:: FILE sabanditTargets.cmake
        DESTINATION "${SABANDIT_INSTALL_CMAKEDIR}")

set(SABANDIT_INSTANCES_DIR "${CMAKE_INSTALL_DATADIR}/sabandit/instances")
configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/sabanditConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/sabanditConfig.cmake"
  INSTALL_DESTINATION "${SABANDIT_INSTALL_CMAKEDIR}"
  PATH_VARS SABANDIT_INSTANCES_DIR)
# 0.x: minor versions may break the API.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/sabanditConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/sabanditConfig.cmake"
              "${PROJECT_BINARY_DIR}/sabanditConfigVersion.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/sabandit-instances.cmake"
        DESTINATION "${SABANDIT_INSTALL_CMAKEDIR}")

# pkg-config files that find their prefix from where they are (${pcfiledir}), so an install
# moved or made with `cmake --install --prefix` still points at its own headers.
set(SABANDIT_INSTALL_PKGCONFIGDIR "${CMAKE_INSTALL_DATADIR}/pkgconfig"
    CACHE STRING "Where sabandit.pc and sabandit-sim.pc are installed")
if(IS_ABSOLUTE "${SABANDIT_INSTALL_PKGCONFIGDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  message(FATAL_ERROR "sabandit's pkg-config files are relocatable only with relative "
                      "SABANDIT_INSTALL_PKGCONFIGDIR and CMAKE_INSTALL_INCLUDEDIR")
endif()
file(RELATIVE_PATH SABANDIT_PC_TO_PREFIX "/prefix/${SABANDIT_INSTALL_PKGCONFIGDIR}" "/prefix")
foreach(pc IN ITEMS sabandit sabandit-sim)
  configure_file("${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in" "${PROJECT_BINARY_DIR}/${pc}.pc" @ONLY)
  install(FILES "${PROJECT_BINARY_DIR}/${pc}.pc" DESTINATION "${SABANDIT_INSTALL_PKGCONFIGDIR}")
endforeach()
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/sabandit")
