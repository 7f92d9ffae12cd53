# The runtime-only configuration (-DAMP_RUNTIME_ONLY=ON): the runtime
# backends (reference, and CUDA when the toolkit is found), the execution
# half of the runner with amp-exec, the GEMM benchmark, and the runtime
# tests, run by CTest: amp-backend-compare always, and the GEMM unit tests
# (AMPGemmTests, AMPGemmCudaTests) when GoogleTest's sources are given with
# -DAMP_GTEST_SOURCE_DIR=DIR (Debian's googletest package installs them in
# /usr/src/googletest, the default where it exists). It needs a C++
# compiler, CMake and Ninja, plus the CUDA toolkit for the CUDA backend: no
# MLIR, LLVM, installed GoogleTest or network. Included by the top-level
# CMakeLists.txt, which stops after it.
set(AMP_SOURCE_DIR ${PROJECT_SOURCE_DIR})
set(AMP_BINARY_DIR ${PROJECT_BINARY_DIR})
set(AMP_TOOLS_DIR ${CMAKE_BINARY_DIR}/bin)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${AMP_TOOLS_DIR})
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}")

add_compile_options(-Wall -Wextra)
if(AMP_ENABLE_SANITIZERS)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

include(GNUInstallDirs)
include(AmpAddLibrary)
enable_testing()

add_subdirectory(runtime)
add_subdirectory(lib/Runner/Exec ${CMAKE_BINARY_DIR}/lib/Runner/Exec)
if(EXISTS ${AMP_SOURCE_DIR}/tools/amp-exec/CMakeLists.txt)
  add_subdirectory(tools/amp-exec)
endif()
if(TARGET amp_runtime_cuda)
  add_subdirectory(unittests/Runtime/BackendCompare
                   ${CMAKE_BINARY_DIR}/unittests/Runtime/BackendCompare)
endif()
add_subdirectory(bench ${CMAKE_BINARY_DIR}/bench)

if(NOT DEFINED AMP_GTEST_SOURCE_DIR AND EXISTS /usr/src/googletest/CMakeLists.txt)
  set(AMP_GTEST_SOURCE_DIR /usr/src/googletest)
endif()
set(AMP_GTEST_SOURCE_DIR "${AMP_GTEST_SOURCE_DIR}" CACHE PATH
    "GoogleTest's sources, for the GEMM unit tests (empty: not built)")
if(AMP_GTEST_SOURCE_DIR)
  set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  add_subdirectory(${AMP_GTEST_SOURCE_DIR} ${CMAKE_BINARY_DIR}/googletest
                   EXCLUDE_FROM_ALL)
  include(AmpAddUnittest)
  add_subdirectory(unittests/Runtime/Gemm
                   ${CMAKE_BINARY_DIR}/unittests/Runtime/Gemm)
  message(STATUS "amp: GEMM unit tests built with GoogleTest from ${AMP_GTEST_SOURCE_DIR}")
endif()
message(STATUS "amp: runtime-only configuration (no MLIR)")
