//===- StridedIndex.cuh - Broadcast operand offsets on the device ---------===//
//
// The broadcasting kernels (amp_binary's general case, amp_where, the
// routing gradients) write a contiguous result and read K operands through
// the simplified loop nest the argument checks computed on the host
// (reference/KernelCommon.h: StridedLoop, broadcastLoop: size-1 dimensions
// dropped, dimensions contiguous for every operand merged). Its dims and
// strides are passed to the kernel by value; a thread maps the flat result
// index to each operand's offset with one division per dimension beyond the
// first (none for the same-shape and scalar cases, which simplify to rank
// 1), in 32-bit arithmetic when the result has fewer than 2^32 elements.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CUDA_STRIDEDINDEX_CUH
#define AMP_RUNTIME_CUDA_STRIDEDINDEX_CUH

#include "reference/KernelCommon.h"

#include <cstdint>

namespace amp {
namespace runtime {
namespace cuda {

/// Offsets of K operands from the flat index of a contiguous result; index
/// type I is uint32_t or int64_t.
template <int K, typename I> struct StridedIndex {
  int rank = 0;
  I dims[kernels::kMaxRank] = {};
  I strides[K][kernels::kMaxRank] = {};

  /// off[k] = operand k's element offset of result element i (< numel).
  __device__ __forceinline__ void offsets(I i, I (&off)[K]) const {
#pragma unroll
    for (int k = 0; k < K; ++k)
      off[k] = 0;
    for (int d = rank - 1; d > 0; --d) {
      const I q = i / dims[d];
      const I r = i - q * dims[d];
#pragma unroll
      for (int k = 0; k < K; ++k)
        off[k] += r * strides[k][d];
      i = q;
    }
    if (rank > 0) {
#pragma unroll
      for (int k = 0; k < K; ++k)
        off[k] += i * strides[k][0];
    }
  }
};

/// The index of operands 1..L-1 of `loop` (operand 0 is the contiguous
/// result, whose offset is the flat index itself).
template <typename I, int L>
StridedIndex<L - 1, I> stridedIndex(const kernels::StridedLoop<L> &loop) {
  StridedIndex<L - 1, I> index;
  index.rank = loop.rank;
  for (int d = 0; d < loop.rank; ++d) {
    index.dims[d] = static_cast<I>(loop.dims[d]);
    for (int k = 1; k < L; ++k)
      index.strides[k - 1][d] = static_cast<I>(loop.strides[k][d]);
  }
  return index;
}

/// Calls f(I{}) with the narrowest index type that holds every offset of a
/// result of n elements (its operands have at most n elements).
template <typename F> inline void dispatchIndex(int64_t n, F &&f) {
  if (n <= int64_t(UINT32_MAX))
    f(uint32_t{});
  else
    f(int64_t{});
}

} // namespace cuda
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_CUDA_STRIDEDINDEX_CUH
