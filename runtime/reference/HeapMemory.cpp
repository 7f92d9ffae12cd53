//===- HeapMemory.cpp - amp_alloc on the C heap ---------------------------===//
//
// amp_alloc, amp_free and the memory counters of the reference backend: the
// C heap with 64-byte alignment, each block starting with a 64-byte header
// holding its size, for the counters. No cache, so that a sanitizer sees
// every use after amp_free.
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

using namespace amp::runtime::kernels;

namespace {
constexpr int64_t kAlignment = 64;

/// The counters of amp_memory_stats_t. Relaxed atomics: they are statistics,
/// read while nothing allocates.
struct Counters {
  std::atomic<int64_t> inUse{0}, peak{0}, calls{0};

  void allocated(int64_t bytes) {
    ++calls;
    int64_t now = inUse += bytes;
    int64_t seen = peak.load(std::memory_order_relaxed);
    while (now > seen && !peak.compare_exchange_weak(seen, now))
      ;
  }
};
Counters counters;
} // namespace

extern "C" {

void *amp_alloc(int64_t bytes, void * /*stream*/) {
  Checker check("amp_alloc");
  // aligned_alloc wants a multiple of the alignment; 0 bytes still get a
  // distinct pointer.
  if (check.allocation(bytes, INT64_MAX - 2 * kAlignment))
    return nullptr;
  // The header, then the data rounded up to the alignment.
  const int64_t rounded =
      kAlignment + (bytes + kAlignment - 1) / kAlignment * kAlignment;
  char *block = static_cast<char *>(std::aligned_alloc(
      static_cast<size_t>(kAlignment), static_cast<size_t>(rounded)));
  if (!block) {
    check.fail(AMP_STATUS_BACKEND_ERROR, "out of memory allocating %lld bytes",
               (long long)bytes);
    return nullptr;
  }
  std::memcpy(block, &bytes, sizeof(bytes));
  counters.allocated(bytes);
  return block + kAlignment;
}

amp_status_t amp_free(void *ptr, void * /*stream*/) {
  Checker check("amp_free");
  if (!ptr)
    return AMP_STATUS_OK;
  char *block = static_cast<char *>(ptr) - kAlignment;
  int64_t bytes;
  std::memcpy(&bytes, block, sizeof(bytes));
  counters.inUse -= bytes;
  std::free(block);
  return AMP_STATUS_OK;
}

void amp_memory_get_stats(amp_memory_stats_t *stats) {
  if (!stats)
    return;
  stats->in_use_bytes = stats->reserved_bytes = counters.inUse;
  stats->peak_in_use_bytes = stats->peak_reserved_bytes = counters.peak;
  stats->alloc_calls = counters.calls;
  stats->cache_hits = 0;
}

void amp_memory_reset_peak(void) {
  counters.peak = counters.inUse.load();
  counters.calls = 0;
}

} // extern "C"
