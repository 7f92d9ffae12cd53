# The installed package: `cmake --install build --prefix P` lays out
#
#   P/bin/                     amp-opt, amp-run, amp-grad-check, amp-compile,
#                              amp-exec, amp-import-onnx and amp-export-onnx
#                              (when built)
#   P/include/amp/             the compiler's headers, with the generated .inc
#                              files and the .td files (for ODS that includes
#                              amp's interfaces)
#   P/include/amp_runtime/     the runtime's C ABI headers
#   P/lib/                     the Amp:: libraries and the runtime backends
#   P/lib/cmake/amp/           AmpConfig.cmake, AmpConfigVersion.cmake,
#                              AmpTargets.cmake (compiler libraries, needs
#                              MLIR), AmpRuntimeTargets.cmake (runtime only),
#                              AmpONNXTargets.cmake (the importer, needs ONNX
#                              and protobuf; when built)
#
# docs/embedding.md tells a downstream project how to use it.
include(CMakePackageConfigHelpers)

set(AMP_INSTALL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/amp)

install(DIRECTORY ${AMP_SOURCE_DIR}/include/amp ${AMP_BINARY_DIR}/include/amp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT amp_dev
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def" PATTERN "*.inc"
                 PATTERN "*.td"
  PATTERN "CMakeFiles" EXCLUDE)

install(EXPORT AmpTargets NAMESPACE Amp::
  DESTINATION ${AMP_INSTALL_CMAKE_DIR} COMPONENT amp_dev)
install(EXPORT AmpRuntimeTargets NAMESPACE Amp::
  DESTINATION ${AMP_INSTALL_CMAKE_DIR} COMPONENT amp_run)
if(AMP_HAVE_ONNX)
  install(EXPORT AmpONNXTargets NAMESPACE Amp::
    DESTINATION ${AMP_INSTALL_CMAKE_DIR} COMPONENT amp_dev)
endif()

# What AmpConfig.cmake checks the consumer's MLIR against.
set(AMP_MLIR_VERSION ${MLIR_VERSION})
configure_package_config_file(
  ${AMP_SOURCE_DIR}/cmake/AmpConfig.cmake.in
  ${AMP_BINARY_DIR}/lib/cmake/amp/AmpConfig.cmake
  INSTALL_DESTINATION ${AMP_INSTALL_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR
            CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(
  ${AMP_BINARY_DIR}/lib/cmake/amp/AmpConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  ${AMP_BINARY_DIR}/lib/cmake/amp/AmpConfig.cmake
  ${AMP_BINARY_DIR}/lib/cmake/amp/AmpConfigVersion.cmake
  DESTINATION ${AMP_INSTALL_CMAKE_DIR} COMPONENT amp_dev)
# The runtime alone (`--component amp_run`) is a usable package too.
install(FILES
  ${AMP_BINARY_DIR}/lib/cmake/amp/AmpConfig.cmake
  ${AMP_BINARY_DIR}/lib/cmake/amp/AmpConfigVersion.cmake
  DESTINATION ${AMP_INSTALL_CMAKE_DIR} COMPONENT amp_run)
