//===- CpuMemory.cpp - amp_alloc of the cpu backend: a caching allocator --===//
//
// amp_alloc, amp_free and the memory counters of libamp_runtime_cpu: the
// caching allocator of reference/CachingAllocator.h over the C heap (64-byte
// aligned blocks). A training step frees and allocates the same sizes every
// step; from the heap, large blocks are fresh pages that fault on first
// touch each time, from the cache they are warm. Copies, synchronization
// and the graph entry points are the reference's (KernelsMemory.cpp).
//
//===----------------------------------------------------------------------===//

#include "reference/CachingAllocator.h"

#include <cstdlib>

using namespace amp::runtime;
using amp::runtime::kernels::Checker;

namespace {

struct HeapBacking {
  void *allocate(int64_t size, bool *outOfMemory) {
    // Size classes are multiples of 512 bytes, as aligned_alloc wants.
    void *ptr = std::aligned_alloc(64, static_cast<size_t>(size));
    *outOfMemory = ptr == nullptr;
    return ptr;
  }

  void release(void *ptr) { std::free(ptr); }

  void reportFailure(Checker &check, int64_t bytes, bool /*outOfMemory*/,
                     const amp_memory_stats_t &stats) {
    check.fail(AMP_STATUS_BACKEND_ERROR,
               "out of memory allocating %lld bytes (%lld in use, %lld "
               "reserved)",
               (long long)bytes, (long long)stats.in_use_bytes,
               (long long)stats.reserved_bytes);
  }
};

CachingAllocator<HeapBacking> &allocator() {
  // Never destroyed: blocks may be freed by static destructors of callers.
  static auto *a = new CachingAllocator<HeapBacking>;
  return *a;
}

} // namespace

extern "C" {

void *amp_alloc(int64_t bytes, void * /*stream*/) {
  Checker check("amp_alloc");
  return allocator().allocate(check, bytes);
}

amp_status_t amp_free(void *ptr, void * /*stream*/) {
  Checker check("amp_free");
  if (!ptr)
    return AMP_STATUS_OK;
  return allocator().release(check, ptr);
}

void amp_memory_get_stats(amp_memory_stats_t *stats) {
  if (stats)
    allocator().getStats(stats);
}

void amp_memory_reset_peak(void) { allocator().resetPeak(); }

} // extern "C"
