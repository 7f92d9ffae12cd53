//===- KernelsMemory.cpp - Allocation, copies and synchronization ---------===//
//
// amp_host_alloc, amp_memcpy, amp_memset, amp_synchronize and the graph
// entry points of the host backends (reference, cpu): host staging memory
// is the C heap, copies are synchronous, so synchronization is a no-op, and
// there are no graphs. Each backend allocates its amp_alloc memory its own
// way (the reference: HeapMemory.cpp; cpu: cpu/CpuMemory.cpp).
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"

#include "amp_runtime/gemm.h"

#include <cstdlib>
#include <cstring>

using namespace amp::runtime::kernels;

extern "C" {

void *amp_host_alloc(int64_t bytes) {
  Checker check("amp_host_alloc");
  if (check.allocation(bytes))
    return nullptr;
  // aligned_alloc wants a multiple of the alignment, and 0 bytes would
  // give no distinct pointer.
  const uint64_t rounded = (static_cast<uint64_t>(bytes) + 64) & ~uint64_t(63);
  void *ptr = std::aligned_alloc(64, static_cast<size_t>(rounded));
  if (!ptr)
    check.fail(AMP_STATUS_BACKEND_ERROR,
               "out of host memory allocating %lld bytes", (long long)bytes);
  return ptr;
}

amp_status_t amp_host_free(void *ptr) {
  Checker check("amp_host_free");
  std::free(ptr);
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

// Graph capture needs a device queue; the host backends compute
// synchronously.
static amp_status_t noGraphs(const char *function) {
  Checker check(function);
  return check.fail(AMP_STATUS_NOT_SUPPORTED,
                    "the %s backend has no graphs (it computes "
                    "synchronously); use the cuda backend",
                    amp_gemm_backend_name());
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

} // extern "C"
