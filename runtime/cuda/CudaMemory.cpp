//===- CudaMemory.cpp - Device memory: the caching allocator and copies ---===//
//
// amp_alloc / amp_free on the GPU go through the caching allocator of
// reference/CachingAllocator.h, as PyTorch's does: cudaMalloc and cudaFree
// synchronize the device and cost tens of microseconds, while a training
// step frees and allocates the same sizes every step. Blocks are handed out
// and returned in stream order on the backend's one stream, so a block
// freed while kernels that use it are still queued can be reused at once by
// later work on that stream. When cudaMalloc runs out of memory, the cache
// is released (cudaFree of every free block) and the request retried once.
//
// amp_host_alloc is page-locked memory (cudaMallocHost), from which a copy
// to the device is a DMA the stream runs after the call returns.
//
// amp_memcpy and amp_memset are asynchronous on the stream; a copy into
// host memory waits for it, so that the caller can read the bytes. While the
// stream is captured into a graph, a copy from pageable host memory (a
// step's constants) is staged in pinned memory kept for the replays.
// amp_synchronize waits, then reports the failures the kernels recorded on
// the device (CudaCommon.h: takeDeviceError).
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaCommon.h"
#include "reference/CachingAllocator.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using amp::runtime::kernels::Checker;

namespace {

/// Device memory under the caching allocator (reference/CachingAllocator.h).
struct CudaBacking {
  cudaError_t lastError = cudaSuccess;

  void *allocate(int64_t size, bool *outOfMemory) {
    void *ptr = nullptr;
    lastError = cudaMalloc(&ptr, static_cast<size_t>(size));
    if (lastError == cudaSuccess)
      return ptr;
    (void)cudaGetLastError();
    *outOfMemory = lastError == cudaErrorMemoryAllocation;
    return nullptr;
  }

  /// cudaFree waits for the device.
  void release(void *ptr) { (void)cudaFree(ptr); }

  void reportFailure(Checker &check, int64_t bytes, bool outOfMemory,
                     const amp_memory_stats_t &stats) {
    if (outOfMemory)
      check.fail(AMP_STATUS_BACKEND_ERROR,
                 "out of device memory allocating %lld bytes (%lld in use, "
                 "%lld reserved)",
                 (long long)bytes, (long long)stats.in_use_bytes,
                 (long long)stats.reserved_bytes);
    else if (lastError == cudaErrorNoDevice ||
             lastError == cudaErrorInsufficientDriver)
      check.fail(AMP_STATUS_BACKEND_ERROR, "no usable CUDA device: %s (%s)",
                 cudaGetErrorName(lastError), cudaGetErrorString(lastError));
    else
      cudaFailure(check, "cudaMalloc", lastError);
  }
};

CachingAllocator<CudaBacking> &allocator() {
  // Never destroyed: blocks may be freed by static destructors of callers.
  static auto *a = new CachingAllocator<CudaBacking>;
  return *a;
}

/// What CUDA knows of a pointer.
cudaMemoryType memoryType(const void *ptr) {
  cudaPointerAttributes attributes;
  if (cudaPointerGetAttributes(&attributes, ptr) != cudaSuccess) {
    (void)cudaGetLastError();
    return cudaMemoryTypeUnregistered;
  }
  return attributes.type;
}

bool isHost(cudaMemoryType type) {
  return type != cudaMemoryTypeDevice && type != cudaMemoryTypeManaged;
}

/// A copy of `bytes` at `src` (pageable host memory) in pinned memory that
/// lives until exit. A graph cannot record a copy from pageable memory, and
/// the copies a step makes from host memory while it is captured are of
/// its constants, which the replays need unchanged: so they are staged once.
const void *pinnedCopy(Checker &check, const void *src, int64_t bytes) {
  static std::mutex mutex;
  static std::vector<void *> *blocks = new std::vector<void *>;
  void *pinned = nullptr;
  if (cudaError_t e = cudaMallocHost(&pinned, static_cast<size_t>(bytes))) {
    cudaFailure(check, "cudaMallocHost (staging a captured copy)", e);
    return nullptr;
  }
  std::memcpy(pinned, src, static_cast<size_t>(bytes));
  std::lock_guard<std::mutex> lock(mutex);
  blocks->push_back(pinned);
  return pinned;
}

} // namespace

void *amp::runtime::cuda::allocScratch(Checker &check, int64_t bytes) {
  if (bytes < 0) {
    check.fail(AMP_STATUS_INVALID_ARGUMENT, "scratch of %lld bytes",
               (long long)bytes);
    return nullptr;
  }
  // The allocator records a failure in `check` itself (amp_alloc would
  // start a call of its own and clear the entry point's last error).
  return allocator().allocate(check, bytes);
}

amp_status_t amp::runtime::cuda::freeScratch(Checker &check, void *scratch,
                                             amp_status_t status) {
  // Releasing a block the allocator handed out cannot fail, and on success
  // it leaves the last error as it is.
  if (scratch)
    (void)allocator().release(check, scratch);
  return status;
}

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

void *amp_host_alloc(int64_t bytes) {
  Checker check("amp_host_alloc");
  if (check.allocation(bytes))
    return nullptr;
  // cudaMallocHost of 0 bytes gives no pointer; its blocks are page
  // aligned.
  void *ptr = nullptr;
  if (cudaError_t e = cudaMallocHost(
          &ptr, static_cast<size_t>(std::max<int64_t>(bytes, 1)))) {
    cudaFailure(check, "cudaMallocHost", e);
    return nullptr;
  }
  return ptr;
}

amp_status_t amp_host_free(void *ptr) {
  Checker check("amp_host_free");
  if (!ptr)
    return AMP_STATUS_OK;
  if (cudaError_t e = cudaFreeHost(ptr))
    return cudaFailure(check, "cudaFreeHost", e);
  return AMP_STATUS_OK;
}

amp_status_t amp_memcpy(void *dst, const void *src, int64_t bytes,
                        void *stream) {
  Checker check("amp_memcpy");
  bool nothing;
  if (amp_status_t s = check.copy(dst, src, bytes, &nothing); s || nothing)
    return s;
  cudaStream_t st = toStream(stream);
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaError_t e = cudaStreamIsCapturing(st, &capture))
    return cudaFailure(check, "cudaStreamIsCapturing", e);
  const bool capturing = capture == cudaStreamCaptureStatusActive;
  const bool toHost = isHost(memoryType(dst));
  if (capturing && toHost)
    return check.fail(AMP_STATUS_NOT_SUPPORTED,
                      "a copy into host memory cannot be captured into a "
                      "graph (the host would read it before it runs)");
  if (capturing && memoryType(src) == cudaMemoryTypeUnregistered)
    if (!(src = pinnedCopy(check, src, bytes)))
      return AMP_STATUS_BACKEND_ERROR;
  if (cudaError_t e = cudaMemcpyAsync(dst, src, static_cast<size_t>(bytes),
                                      cudaMemcpyDefault, st))
    return cudaFailure(check, "cudaMemcpyAsync", e);
  if (toHost)
    if (cudaError_t e = cudaStreamSynchronize(st))
      return cudaFailure(check, "cudaStreamSynchronize", e);
  return AMP_STATUS_OK;
}

amp_status_t amp_memset(void *dst, int32_t value, int64_t bytes, void *stream) {
  Checker check("amp_memset");
  if (amp_status_t s = check.memset(dst, value, bytes); s || bytes == 0)
    return s;
  if (cudaError_t e = cudaMemsetAsync(dst, value, static_cast<size_t>(bytes),
                                      toStream(stream)))
    return cudaFailure(check, "cudaMemsetAsync", e);
  return AMP_STATUS_OK;
}

amp_status_t amp_synchronize(void *stream) {
  Checker check("amp_synchronize");
  return takeDeviceError(check, toStream(stream));
}

void amp_memory_get_stats(amp_memory_stats_t *stats) {
  if (stats)
    allocator().getStats(stats);
}

void amp_memory_reset_peak(void) { allocator().resetPeak(); }

} // extern "C"
