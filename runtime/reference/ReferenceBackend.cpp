//===- ReferenceBackend.cpp - The C ABI of libamp_runtime_ref -------------===//
//
// The exported GEMM symbols of the reference backend: host pointers, the
// calling thread does the work, and the stream argument is ignored. Plans,
// handles and fused epilogues do not exist here, so the corresponding entry
// points only keep the API identical to the CUDA backend's.
//
//===----------------------------------------------------------------------===//

#include "amp_runtime/gemm.h"
#include "reference/GemmCommon.h"
#include "reference/ReferenceGemm.h"

#include <atomic>

using namespace amp::runtime;

namespace {
std::atomic<uint64_t> callCount{0};
// Kept only so that the setter answers like the CUDA backend's does.
std::atomic<int> forceUnfused{0};
} // namespace

extern "C" {

amp_status_t amp_gemm(const amp_gemm_desc_t *desc, void * /*stream*/) {
  amp_status_t status = runReferenceGemm(desc);
  if (status == AMP_STATUS_OK)
    callCount.fetch_add(1, std::memory_order_relaxed);
  return status;
}

const char *amp_gemm_last_error(void) { return lastGemmError(); }

const char *amp_gemm_backend_name(void) { return "reference"; }

void amp_gemm_get_stats(amp_gemm_stats_t *stats) {
  if (!stats)
    return;
  *stats = amp_gemm_stats_t{};
  stats->calls = callCount.load(std::memory_order_relaxed);
}

void amp_gemm_reset_stats(void) { callCount.store(0); }

int amp_gemm_set_force_unfused(int force) {
  return forceUnfused.exchange(force != 0);
}

void amp_gemm_release_resources(void) {}

} // extern "C"
