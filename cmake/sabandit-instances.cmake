# sabandit::instances: the declared instances of include/sabandit/instances.hpp, TS-SA and
# TS-SGLD over the three built-in models, compiled from their definition files (in
# cmake/instances/ here, in share/sabandit/instances/ when installed) into a static library
# of the consumer's own build: compiled with its flags (as Eigen's code must be), once, however
# many of its targets link it, and only if one does (EXCLUDE_FROM_ALL). One file per instance:
# a unit with all of them passes GCC's large-unit threshold and inlines less (slower rounds).
# Included by CMakeLists.txt (add_subdirectory) and by sabanditConfig.cmake (find_package).
function(sabandit_add_instances source_dir)
  if(TARGET sabandit_instances)
    return()
  endif()
  set(sources "")
  foreach(policy IN ITEMS ts_sa ts_sgld)
    foreach(model IN ITEMS gaussian bernoulli poisson)
      list(APPEND sources "${source_dir}/${policy}_${model}.cpp")
    endforeach()
  endforeach()
  add_library(sabandit_instances STATIC EXCLUDE_FROM_ALL ${sources})
  add_library(sabandit::instances ALIAS sabandit_instances)
  target_link_libraries(sabandit_instances PUBLIC sabandit::sabandit)
endfunction()
