# add_amp_unittest(<dir> <name> SOURCES...; LINK_LIBS libs...): a GoogleTest
# binary under ${CMAKE_BINARY_DIR}/unittests/<dir>. In the full build
# test/Unit/lit.cfg.py runs every gtest case as one lit test; in the
# runtime-only configuration (GoogleTest built from AMP_GTEST_SOURCE_DIR)
# CTest runs each binary.
function(add_amp_unittest dir name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE GTest::gtest GTest::gtest_main
                        ${ARG_LINK_LIBS})
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/unittests/${dir})
  set_property(GLOBAL APPEND PROPERTY AMP_UNITTEST_TARGETS ${name})
  if(AMP_RUNTIME_ONLY)
    add_test(NAME ${name} COMMAND ${name})
  endif()
endfunction()
