//===- AllocatorOptions.cpp - mimalloc's settings for the compiler tools --===//
//
// Linked into each tool that cmake/AmpAllocator.cmake links with mimalloc.
// mimalloc 2.0 gives the pages of freed segments back to the OS
// (allow_decommit); a compiler run that frees and rebuilds a module many
// times its size then faults the same memory in again: the amp-opt flow of
// bench/README.md at 100k forward ops took 510k page faults for a 0.94 GB
// peak, 8% of its time in the kernel. Keeping the pages took it to 297k
// faults and 0.94-0.95x the time at 100k and 200k, for 5-6% more peak
// memory (bench/README.md; amp-compile at 100k: 0.97x, +2%; amp-run, two
// steps: 0.91x, +3.7%). A MIMALLOC_ALLOW_DECOMMIT in
// the environment still decides.
//
//===----------------------------------------------------------------------===//

#include <mimalloc.h>

#include <cstdlib>

namespace {
struct KeepFreedPages {
  KeepFreedPages() {
    if (!std::getenv("MIMALLOC_ALLOW_DECOMMIT"))
      mi_option_disable(mi_option_allow_decommit);
  }
} keepFreedPages;
} // namespace
