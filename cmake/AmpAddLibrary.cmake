# Helpers shared by every amp library target.
#
# add_amp_library(name SOURCES... [DEPENDS targets...] [MLIR_LIBS libs...])
# builds one of our libraries and links the MLIR libraries it uses through
# mlir_target_link_libraries, so that with MLIR_LINK_MLIR_DYLIB=ON the target
# links libMLIR.so instead of the static archives.
function(add_amp_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;MLIR_LIBS;LINK_LIBS" ${ARGN})
  add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS}
    EXCLUDE_FROM_LIBMLIR
    DISABLE_INSTALL
    DEPENDS ${ARG_DEPENDS}
    LINK_LIBS PUBLIC ${ARG_LINK_LIBS})
  mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
endfunction()
