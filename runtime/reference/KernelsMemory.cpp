//===- KernelsMemory.cpp - Allocation, copies and synchronization ---------===//
//
// amp_alloc, amp_free, amp_memcpy, amp_memset, amp_synchronize and the
// memory counters on the reference backend: the C heap with 64-byte
// alignment (each block starts with a 64-byte header holding its size, for
// the counters), and synchronous copies (so synchronization is a no-op).
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
  if (bytes < 0 || bytes > INT64_MAX - 2 * kAlignment) {
    check.fail(AMP_STATUS_INVALID_ARGUMENT, "bytes (%lld) is out of range",
               (long long)bytes);
    return nullptr;
  }
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

amp_status_t amp_memcpy(void *dst, const void *src, int64_t bytes,
                        void * /*stream*/) {
  Checker check("amp_memcpy");
  bool nothing;
  if (amp_status_t s = check.copy(dst, src, bytes, &nothing))
    return s;
  if (!nothing)
    std::memcpy(dst, src, static_cast<size_t>(bytes));
  return AMP_STATUS_OK;
}

amp_status_t amp_memset(void *dst, int32_t value, int64_t bytes,
                        void * /*stream*/) {
  Checker check("amp_memset");
  if (amp_status_t s = check.memset(dst, value, bytes))
    return s;
  if (bytes > 0)
    std::memset(dst, value, static_cast<size_t>(bytes));
  return AMP_STATUS_OK;
}

amp_status_t amp_synchronize(void * /*stream*/) {
  Checker check("amp_synchronize");
  return AMP_STATUS_OK;
}

// Graph capture needs a device queue; the reference computes synchronously.
static amp_status_t noGraphs(const char *function) {
  Checker check(function);
  return check.fail(AMP_STATUS_NOT_SUPPORTED,
                    "the reference backend has no graphs (it computes "
                    "synchronously); use the cuda backend");
}

amp_status_t amp_graph_begin_capture(void * /*stream*/) {
  return noGraphs("amp_graph_begin_capture");
}

amp_status_t amp_graph_end_capture(void * /*stream*/, void **graph) {
  if (graph)
    *graph = nullptr;
  return noGraphs("amp_graph_end_capture");
}

amp_status_t amp_graph_launch(void * /*graph*/, void * /*stream*/) {
  return noGraphs("amp_graph_launch");
}

amp_status_t amp_graph_destroy(void *graph) {
  return graph ? noGraphs("amp_graph_destroy") : AMP_STATUS_OK;
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
