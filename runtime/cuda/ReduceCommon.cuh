//===- ReduceCommon.cuh - Deterministic reductions of the CUDA kernels ----===//
//
// What the reduction, loss and pool kernels share: the f32 sum and the
// reference's maximum as combinable accumulators (the maximum carries the
// element's index, so that ties, -0 against +0, resolve to the first in
// memory order, as the reference's sequential maxNaN does, whatever the
// tree), warp and group reductions over them in a fixed order (results do
// not depend on scheduling), and scratch memory from the caching allocator.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CUDA_REDUCECOMMON_CUH
#define AMP_RUNTIME_CUDA_REDUCECOMMON_CUH

#include "cuda/CudaDevice.cuh"

#include <cstdint>
#include <string>

namespace amp {
namespace runtime {
namespace cuda {

/// The f32 sum.
struct SumOp {
  using Acc = float;
  static __device__ __forceinline__ Acc identity() { return 0.0f; }
  static __device__ __forceinline__ Acc make(float v, int64_t) { return v; }
  static __device__ __forceinline__ Acc combine(Acc a, Acc b) { return a + b; }
  static __device__ __forceinline__ Acc shuffle(Acc a, int offset) {
    return __shfl_xor_sync(0xffffffffu, a, offset);
  }
  static __device__ __forceinline__ float value(Acc a) { return a; }
};

/// A candidate maximum and its index in the reduced order.
struct MaxAcc {
  float v;
  int64_t i;
};

/// The reference's max: a NaN wins, then the larger value, then (equal
/// values: only ±0 differ) the smaller index. Commutative and associative,
/// so any tree gives the sequential result. The identity is -inf at the
/// largest index, which a -inf element beats on the tie.
struct MaxOp {
  using Acc = MaxAcc;
  static __device__ __forceinline__ Acc identity() {
    return {-__int_as_float(0x7f800000), INT64_MAX};
  }
  static __device__ __forceinline__ Acc make(float v, int64_t i) {
    return {v, i};
  }
  static __device__ __forceinline__ Acc combine(Acc a, Acc b) {
    const bool an = a.v != a.v, bn = b.v != b.v;
    if (an != bn)
      return an ? a : b;
    if (!an && a.v != b.v)
      return a.v > b.v ? a : b;
    return a.i <= b.i ? a : b;
  }
  static __device__ __forceinline__ Acc shuffle(Acc a, int offset) {
    return {__shfl_xor_sync(0xffffffffu, a.v, offset),
            static_cast<int64_t>(__shfl_xor_sync(
                0xffffffffu, static_cast<long long>(a.i), offset))};
  }
  static __device__ __forceinline__ float value(Acc a) { return a.v; }
};

/// An exact count (int64).
struct CountOp {
  using Acc = long long;
  static __device__ __forceinline__ Acc identity() { return 0; }
  static __device__ __forceinline__ Acc combine(Acc a, Acc b) { return a + b; }
  static __device__ __forceinline__ Acc shuffle(Acc a, int offset) {
    return __shfl_xor_sync(0xffffffffu, a, offset);
  }
};

/// The combination of the warp's values, in every lane (a butterfly: every
/// lane combines the same values in the same order, so all get the same
/// bits).
template <typename Op>
__device__ __forceinline__ typename Op::Acc warpReduce(typename Op::Acc a) {
  for (int offset = 16; offset > 0; offset >>= 1)
    a = Op::combine(a, Op::shuffle(a, offset));
  return a;
}

/// The combination over a group of `group` threads: 1 (nothing to do), a
/// warp, or the whole block (blockDim.x a multiple of 32; every thread of
/// the block calls). The result is in every thread of the group. scratch:
/// 32 Accs of shared memory.
template <typename Op>
__device__ __forceinline__ typename Op::Acc
groupReduce(typename Op::Acc a, int group, typename Op::Acc *scratch) {
  if (group == 1)
    return a;
  a = warpReduce<Op>(a);
  if (group == 32)
    return a;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  __syncthreads(); // scratch may still be read by a previous call
  if (lane == 0)
    scratch[warp] = a;
  __syncthreads();
  a = lane < int(blockDim.x / 32) ? scratch[lane] : Op::identity();
  return warpReduce<Op>(a);
}

/// Threads per output of a reduction over `count` elements in blocks of
/// `block` threads: one thread (short rows, read in order), a warp, or the
/// block (1024 elements and more).
inline int groupFor(int64_t count, int block) {
  return count <= 16 ? 1 : count < 1024 ? 32 : block;
}

/// Scratch device memory from the caching allocator (amp_alloc on the
/// caller's stream). Freeing it right after queuing the kernels that use it
/// is correct: the allocator hands blocks out in stream order. amp_free
/// clears the thread's last error, so the scratch must be gone before the
/// entry point calls launched() (which reads the pending launch error).
class Scratch {
public:
  Scratch(void *stream) : stream(stream) {}
  ~Scratch() {
    if (ptr)
      (void)amp_free(ptr, stream);
  }
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;

  /// `bytes` of scratch, or NULL with the failure recorded in `check`.
  void *get(kernels::Checker &check, int64_t bytes) {
    ptr = amp_alloc(bytes, stream);
    if (!ptr) {
      const std::string why = kernels::kernelLastError();
      check.fail(AMP_STATUS_BACKEND_ERROR,
                 "out of device memory for %lld bytes of scratch (%s)",
                 (long long)bytes, why.c_str());
    }
    return ptr;
  }

  void *data() const { return ptr; }

private:
  void *stream;
  void *ptr = nullptr;
};

} // namespace cuda
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_CUDA_REDUCECOMMON_CUH
