//===- CudaMemory.cpp - Device memory: the caching allocator and copies ---===//
//
// amp_alloc / amp_free on the GPU go through a caching allocator, as
// PyTorch's does: cudaMalloc and cudaFree synchronize the device and cost
// tens of microseconds, while a training step frees and allocates the same
// sizes every step. Requests are rounded up to a size class (512 B steps up
// to 1 MiB, then 2 MiB steps); a freed block goes to its class's free list
// and the next request of that class takes it back without a CUDA call.
// Blocks are handed out and returned in stream order on the backend's one
// stream, so a block freed while kernels that use it are still queued can be
// reused at once by later work on that stream. When cudaMalloc runs out of
// memory, the cache is released (cudaFree of every free block) and the
// request retried once.
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

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using amp::runtime::kernels::Checker;

namespace {

constexpr int64_t kSmallStep = 512;
constexpr int64_t kSmallLimit = int64_t{1} << 20;
constexpr int64_t kLargeStep = int64_t{2} << 20;

/// The size class of a request (0 bytes still get a distinct block).
int64_t sizeClass(int64_t bytes) {
  const int64_t step = bytes <= kSmallLimit ? kSmallStep : kLargeStep;
  return std::max<int64_t>(1, (bytes + step - 1) / step) * step;
}

class CachingAllocator {
public:
  /// A block of at least `bytes`, or NULL with the failure in `check`.
  void *allocate(Checker &check, int64_t bytes) {
    const int64_t size = sizeClass(bytes);
    std::lock_guard<std::mutex> lock(mutex);
    ++stats.alloc_calls;
    void *ptr = nullptr;
    auto it = freeBlocks.find(size);
    if (it != freeBlocks.end() && !it->second.empty()) {
      ptr = it->second.back();
      it->second.pop_back();
      cachedBytes -= size;
      ++stats.cache_hits;
    } else {
      cudaError_t error = cudaMalloc(&ptr, static_cast<size_t>(size));
      if (error == cudaErrorMemoryAllocation && cachedBytes > 0) {
        (void)cudaGetLastError();
        releaseCacheLocked();
        error = cudaMalloc(&ptr, static_cast<size_t>(size));
      }
      if (error != cudaSuccess) {
        (void)cudaGetLastError();
        if (error == cudaErrorMemoryAllocation)
          check.fail(AMP_STATUS_BACKEND_ERROR,
                     "out of device memory allocating %lld bytes (%lld in "
                     "use, %lld reserved)",
                     (long long)bytes, (long long)stats.in_use_bytes,
                     (long long)stats.reserved_bytes);
        else if (error == cudaErrorNoDevice ||
                 error == cudaErrorInsufficientDriver)
          check.fail(AMP_STATUS_BACKEND_ERROR, "no usable CUDA device: %s (%s)",
                     cudaGetErrorName(error), cudaGetErrorString(error));
        else
          cudaFailure(check, "cudaMalloc", error);
        return nullptr;
      }
      stats.reserved_bytes += size;
      stats.peak_reserved_bytes =
          std::max(stats.peak_reserved_bytes, stats.reserved_bytes);
    }
    live.emplace(ptr, Live{size, bytes});
    stats.in_use_bytes += bytes;
    stats.peak_in_use_bytes =
        std::max(stats.peak_in_use_bytes, stats.in_use_bytes);
    return ptr;
  }

  amp_status_t release(Checker &check, void *ptr) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = live.find(ptr);
    if (it == live.end())
      return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                        "%p was not allocated by amp_alloc (or was freed "
                        "already)",
                        ptr);
    freeBlocks[it->second.size].push_back(ptr);
    cachedBytes += it->second.size;
    stats.in_use_bytes -= it->second.requested;
    live.erase(it);
    return AMP_STATUS_OK;
  }

  void getStats(amp_memory_stats_t *out) {
    std::lock_guard<std::mutex> lock(mutex);
    *out = stats;
  }

  void resetPeak() {
    std::lock_guard<std::mutex> lock(mutex);
    stats.peak_in_use_bytes = stats.in_use_bytes;
    stats.peak_reserved_bytes = stats.reserved_bytes;
    stats.alloc_calls = stats.cache_hits = 0;
  }

private:
  struct Live {
    int64_t size;      // the size class
    int64_t requested; // what amp_alloc was asked for
  };

  /// cudaFree of every cached block (cudaFree waits for the device).
  void releaseCacheLocked() {
    for (auto &[size, blocks] : freeBlocks) {
      for (void *ptr : blocks)
        (void)cudaFree(ptr);
      stats.reserved_bytes -= size * static_cast<int64_t>(blocks.size());
      blocks.clear();
    }
    cachedBytes = 0;
  }

  std::mutex mutex;
  std::map<int64_t, std::vector<void *>> freeBlocks;
  std::unordered_map<void *, Live> live;
  int64_t cachedBytes = 0;
  amp_memory_stats_t stats{};
};

CachingAllocator &allocator() {
  // Never destroyed: blocks may be freed by static destructors of callers.
  static CachingAllocator *a = new CachingAllocator;
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
  if (bytes < 0 || bytes > INT64_MAX - kLargeStep) {
    check.fail(AMP_STATUS_INVALID_ARGUMENT, "bytes (%lld) is out of range",
               (long long)bytes);
    return nullptr;
  }
  return allocator().allocate(check, bytes);
}

amp_status_t amp_free(void *ptr, void * /*stream*/) {
  Checker check("amp_free");
  if (!ptr)
    return AMP_STATUS_OK;
  return allocator().release(check, ptr);
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
