# A stand-in for an MLIR 21 install: AmpConfig.cmake must refuse it.
set(MLIR_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")
