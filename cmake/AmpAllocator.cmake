# The memory allocator of the compiler tools. They build and rewrite MLIR
# modules of millions of small objects (a 10k-op step lowers to ~135k ops,
# each with operands, attributes and uses), and glibc's malloc was a
# quarter of their time: with mimalloc (Debian's libmimalloc-dev, installed
# by scripts/setup-deps.sh) the amp-opt flow of bench/README.md took 0.70x
# the time at 10k forward ops and 0.73x at 100k, with the same peak memory.
#
# amp_link_allocator(TARGET) links an executable with it, so that its malloc
# replaces glibc's in the whole process (libMLIR and libLLVM included). The
# libraries are left alone: an embedding program chooses its own allocator.
# Sanitizer and fuzzer builds keep glibc's, which ASan intercepts.
option(AMP_USE_MIMALLOC
  "Link the compiler tools with mimalloc when libmimalloc-dev is found" ON)

set(AMP_HAVE_MIMALLOC OFF)
if(AMP_USE_MIMALLOC AND NOT AMP_ENABLE_SANITIZERS AND NOT AMP_ENABLE_FUZZERS)
  find_package(mimalloc CONFIG QUIET)
  if(TARGET mimalloc)
    set(AMP_HAVE_MIMALLOC ON)
  endif()
endif()
if(AMP_HAVE_MIMALLOC)
  message(STATUS "amp tools' allocator: mimalloc")
else()
  message(STATUS "amp tools' allocator: glibc's malloc")
endif()

function(amp_link_allocator target)
  if(AMP_HAVE_MIMALLOC)
    # Needed even though nothing names its symbols: its malloc and free
    # interpose glibc's because it comes before libc in the executable's
    # DT_NEEDED list.
    target_link_libraries(${target} PRIVATE
      -Wl,--push-state,--no-as-needed mimalloc -Wl,--pop-state)
    # Its settings (tools/AllocatorOptions.cpp): freed pages are kept.
    target_sources(${target} PRIVATE
      ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../tools/AllocatorOptions.cpp)
  endif()
endfunction()
