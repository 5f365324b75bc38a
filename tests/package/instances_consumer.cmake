# What both CMake consumers (find_package, add_subdirectory) check of the declared instances:
# instances_consumer links the one instance it uses, and only that one is compiled. The other
# five are EXCLUDE_FROM_ALL and unlinked (about 3 s of compilation each). md5sum fails on a
# missing file. Included after enable_testing() and add_executable(instances_consumer).
target_link_libraries(instances_consumer PRIVATE sabandit::instances::ts_sa_bernoulli)
add_test(NAME instances_consumer COMMAND instances_consumer)
add_test(NAME linked_instance_built COMMAND ${CMAKE_COMMAND} -E md5sum
         $<TARGET_FILE:sabandit_instances_ts_sa_bernoulli>)
add_test(NAME unlinked_instance_not_built COMMAND ${CMAKE_COMMAND} -E md5sum
         $<TARGET_FILE:sabandit_instances_ts_sa_gaussian>)
set_tests_properties(unlinked_instance_not_built PROPERTIES WILL_FAIL TRUE)
