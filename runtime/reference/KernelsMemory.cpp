//===- KernelsMemory.cpp - Allocation, copies and synchronization ---------===//
//
// amp_memcpy, amp_memset, amp_synchronize and the graph entry points of the
// host backends (reference, cpu): synchronous copies, so synchronization is
// a no-op, and no graphs. Each backend allocates its own way (the
// reference: HeapMemory.cpp; cpu: cpu/CpuMemory.cpp).
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"

#include "amp_runtime/gemm.h"

#include <cstring>

using namespace amp::runtime::kernels;

extern "C" {

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
