# sabandit::instances: the declared instances of include/sabandit/instances.hpp, TS-SA and
# TS-SGLD over the three built-in models, compiled from their definition files (in
# cmake/instances/ here, in share/sabandit/instances/ when installed) into static libraries
# of the consumer's own build: compiled with its flags (as Eigen's code must be), once, however
# many of its targets link them, and only if one does (EXCLUDE_FROM_ALL).
#
# One library per instance, sabandit::instances::<policy>_<model> (ts_sa_bernoulli, ...), so
# that a program builds only the instances it links (about 3 s each at -O2);
# sabandit::instances links all six. One file per instance also keeps each unit below GCC's
# large-unit threshold, past which it inlines less (slower rounds).
# Included by CMakeLists.txt (add_subdirectory) and by sabanditConfig.cmake (find_package).
# Sets SABANDIT_INSTANCE_TARGETS in the caller's scope: the six libraries' names.
function(sabandit_add_instances source_dir)
  if(TARGET sabandit_instances)
    return()
  endif()
  add_library(sabandit_instances INTERFACE)
  add_library(sabandit::instances ALIAS sabandit_instances)
  set(targets "")
  foreach(policy IN ITEMS ts_sa ts_sgld)
    foreach(model IN ITEMS gaussian bernoulli poisson)
      set(name "sabandit_instances_${policy}_${model}")
      add_library(${name} STATIC EXCLUDE_FROM_ALL "${source_dir}/${policy}_${model}.cpp")
      add_library(sabandit::instances::${policy}_${model} ALIAS ${name})
      target_link_libraries(${name} PUBLIC sabandit::sabandit)
      target_link_libraries(sabandit_instances INTERFACE ${name})
      list(APPEND targets ${name})
    endforeach()
  endforeach()
  set(SABANDIT_INSTANCE_TARGETS "${targets}" PARENT_SCOPE)
endfunction()
