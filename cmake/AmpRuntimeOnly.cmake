# The runtime-only configuration (-DAMP_RUNTIME_ONLY=ON): the runtime
# backends (reference, and CUDA when the toolkit is found), the execution
# half of the runner with amp-exec, and the runtime tests that need no
# GoogleTest (amp-backend-compare, run by CTest). It needs a C++ compiler,
# CMake and Ninja, plus the CUDA toolkit for the CUDA backend: no MLIR,
# LLVM, GoogleTest or network. Included by the top-level CMakeLists.txt,
# which stops after it.
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
message(STATUS "amp: runtime-only configuration (no MLIR)")
