# Helpers shared by every amp library target.
#
# add_amp_library(name SOURCES... [NO_INSTALL] [DEPENDS targets...]
#                 [MLIR_LIBS libs...] [LINK_LIBS libs...])
# builds one of our libraries and links the MLIR libraries it uses through
# mlir_target_link_libraries, so that with MLIR_LINK_MLIR_DYLIB=ON the target
# links libMLIR.so instead of the static archives. Unless NO_INSTALL (test
# libraries), it is installed as Amp::<name> (amp_install_library).
function(add_amp_library name)
  cmake_parse_arguments(ARG "NO_INSTALL" "" "DEPENDS;MLIR_LIBS;LINK_LIBS" ${ARGN})
  add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS}
    EXCLUDE_FROM_LIBMLIR
    DISABLE_INSTALL
    DEPENDS ${ARG_DEPENDS}
    LINK_LIBS PUBLIC ${ARG_LINK_LIBS})
  mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  if(NOT ARG_NO_INSTALL)
    amp_install_library(${name})
  endif()
endfunction()

# amp_install_library(name [EXPORT set]): installs a compiler library into
# the AmpTargets export set (lib/cmake/amp/AmpTargets.cmake, imported as
# Amp::<name>), or into `set` (the importer's AmpONNXTargets, which needs
# ONNX and protobuf as well), with the installed headers as its include
# directory. Its MLIR dependencies stay target names (MLIR, i.e.
# libMLIR.so), which AmpConfig.cmake imports with find_package(MLIR) before
# AmpTargets.cmake.
function(amp_install_library name)
  cmake_parse_arguments(ARG "" "EXPORT" "" ${ARGN})
  if(NOT ARG_EXPORT)
    set(ARG_EXPORT AmpTargets)
  endif()
  target_include_directories(${name} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  install(TARGETS ${name} EXPORT ${ARG_EXPORT}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT amp_dev
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT amp_dev)
endfunction()
