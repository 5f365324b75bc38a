# Settings for sabandit's own targets (tests, examples, benchmarks); never for consumers.
option(SABANDIT_WERROR "Treat warnings in sabandit's own targets as errors" OFF)

add_library(sabandit_dev_flags INTERFACE)
target_compile_options(sabandit_dev_flags INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion>)
if(SABANDIT_WERROR)
  target_compile_options(sabandit_dev_flags INTERFACE $<$<CXX_COMPILER_ID:GNU,Clang>:-Werror>)
endif()
if(SABANDIT_NATIVE)
  target_compile_options(sabandit_dev_flags INTERFACE -march=native)
endif()

# Every header must compile alone (it includes what it uses): one translation unit per header,
# built with the flags above by `cmake --build --preset dev --target sabandit_header_check`
# (about 2 minutes on one core; not part of `all`, as CMake 3.24's
# all_verify_interface_header_sets, which did this before, was not: that needs file sets
# (3.23), which the package avoids so that older CMake can use it).
file(GLOB_RECURSE _sabandit_every_header CONFIGURE_DEPENDS RELATIVE "${PROJECT_SOURCE_DIR}/include"
     "${PROJECT_SOURCE_DIR}/include/sabandit/*.hpp")
set(_sabandit_header_sources "")
foreach(header IN LISTS _sabandit_every_header)
  string(MAKE_C_IDENTIFIER "${header}" _name)
  set(_source "${PROJECT_BINARY_DIR}/header_check/${_name}.cpp")
  # Quotes, not <>: file(CONFIGURE) of CMake 3.18 rejects "<" in its content.
  file(CONFIGURE OUTPUT "${_source}" CONTENT "#include \"${header}\"\n")  # rewritten only if changed
  list(APPEND _sabandit_header_sources "${_source}")
endforeach()
add_library(sabandit_header_check OBJECT EXCLUDE_FROM_ALL ${_sabandit_header_sources})
target_link_libraries(sabandit_header_check PRIVATE sabandit::sim sabandit_dev_flags)
