//===- CachingAllocator.h - Size classes and free lists over any memory ---===//
//
// The caching allocator behind amp_alloc / amp_free of the cuda and cpu
// backends, as PyTorch's: a training step frees and allocates the same sizes
// every step, and the memory underneath (cudaMalloc, which synchronizes the
// device; the C heap, whose large blocks are fresh pages that fault on first
// touch) is slow to get. Requests round up to a size class (512 B steps up to
// 1 MiB, then 2 MiB steps); a freed block goes to its class's free list and
// the next request of that class takes it back. When the memory underneath
// runs out, the cache is released and the request retried once.
//
// `Backing` gets and returns the memory:
//   void *allocate(int64_t size, bool *outOfMemory);  NULL on failure
//   void release(void *ptr);
//   void reportFailure(Checker &, int64_t bytes, bool outOfMemory,
//                      const amp_memory_stats_t &);  the message of a failure
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_CACHINGALLOCATOR_H
#define AMP_RUNTIME_REFERENCE_CACHINGALLOCATOR_H

#include "reference/KernelCommon.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace amp {
namespace runtime {

template <typename Backing> class CachingAllocator {
public:
  static constexpr int64_t kSmallStep = 512;
  static constexpr int64_t kSmallLimit = int64_t{1} << 20;
  static constexpr int64_t kLargeStep = int64_t{2} << 20;
  /// The largest request: its size class does not overflow.
  static constexpr int64_t kMaxBytes = INT64_MAX - kLargeStep;

  /// A block of at least `bytes`, or NULL with the failure in `check`.
  void *allocate(kernels::Checker &check, int64_t bytes) {
    if (check.allocation(bytes, kMaxBytes))
      return nullptr;
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
      bool outOfMemory = false;
      ptr = backing.allocate(size, &outOfMemory);
      if (!ptr && outOfMemory && cachedBytes > 0) {
        releaseCacheLocked();
        ptr = backing.allocate(size, &outOfMemory);
      }
      if (!ptr) {
        backing.reportFailure(check, bytes, outOfMemory, stats);
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

  /// Returns a block to its free list.
  amp_status_t release(kernels::Checker &check, void *ptr) {
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

  /// The size class of a request (0 bytes still get a distinct block).
  static int64_t sizeClass(int64_t bytes) {
    const int64_t step = bytes <= kSmallLimit ? kSmallStep : kLargeStep;
    return std::max<int64_t>(1, (bytes + step - 1) / step) * step;
  }

  /// Gives every cached block back to the memory underneath.
  void releaseCacheLocked() {
    for (auto &[size, blocks] : freeBlocks) {
      for (void *ptr : blocks)
        backing.release(ptr);
      stats.reserved_bytes -= size * static_cast<int64_t>(blocks.size());
      blocks.clear();
    }
    cachedBytes = 0;
  }

  Backing backing;
  std::mutex mutex;
  std::map<int64_t, std::vector<void *>> freeBlocks;
  std::unordered_map<void *, Live> live;
  int64_t cachedBytes = 0;
  amp_memory_stats_t stats{};
};

} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_CACHINGALLOCATOR_H
