//===- FlatMap.cuh - Vectorized same-shape elementwise kernels ------------===//
//
// y[i] = op(a[i]) or op(a[i], b[i]) (either input possibly one broadcast
// scalar) over n contiguous elements: the kernel of amp_unary, amp_pow,
// amp_clamp, the same-shape gradients and the fast paths of amp_binary.
// Grid-stride; when every non-scalar pointer is 16-byte aligned each thread
// moves kPack<T> elements per 128-bit access (4 floats, 8 halves) and a
// scalar loop does the tail, otherwise a scalar loop does everything. Each
// element is read before the same thread writes it, so y may alias an input
// exactly. `Op` is a functor with a __device__ operator() on f32.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CUDA_FLATMAP_CUH
#define AMP_RUNTIME_CUDA_FLATMAP_CUH

#include "cuda/CudaDevice.cuh"

namespace amp {
namespace runtime {
namespace cuda {

/// How mapKernel reads its inputs.
enum class Operands {
  Unary,     ///< op(a[i]); b is unused
  Same,      ///< op(a[i], b[i])
  LhsScalar, ///< op(a[0], b[i])
  RhsScalar, ///< op(a[i], b[0])
};

template <Operands M, typename T, typename Op>
__global__ void __launch_bounds__(kThreads)
    mapKernel(const T *a, const T *b, T *y, int64_t n, bool vec, Op op) {
  constexpr bool readA = M != Operands::LhsScalar;
  constexpr bool readB = M == Operands::Same || M == Operands::LhsScalar;
  float sa = 0.0f, sb = 0.0f;
  if constexpr (M == Operands::LhsScalar)
    sa = ld(a, 0);
  if constexpr (M == Operands::RhsScalar)
    sb = ld(b, 0);
  auto apply = [&](float va, float vb) {
    if constexpr (M == Operands::Unary)
      return op(va);
    else
      return op(va, vb);
  };
  int64_t done = 0;
  if (vec) {
    constexpr int P = kPack<T>;
    const int64_t packs = n / P;
    const Pack<T> *pa = reinterpret_cast<const Pack<T> *>(a);
    const Pack<T> *pb = reinterpret_cast<const Pack<T> *>(b);
    Pack<T> *py = reinterpret_cast<Pack<T> *>(y);
    AMP_GRID_STRIDE(i, packs) {
      Pack<T> va{}, vb{}, out;
      if constexpr (readA)
        va = pa[i];
      if constexpr (readB)
        vb = pb[i];
#pragma unroll
      for (int k = 0; k < P; ++k)
        out.v[k] = fromFloat<T>(apply(readA ? toFloat(va.v[k]) : sa,
                                      readB ? toFloat(vb.v[k]) : sb));
      py[i] = out;
    }
    done = packs * P;
  }
  AMP_GRID_STRIDE(j, n - done) {
    const int64_t i = done + j;
    st(y, i, apply(readA ? ld(a, i) : sa, readB ? ld(b, i) : sb));
  }
}

/// Queues mapKernel<M, T> on `stream` (n > 0); the caller checks the launch.
template <Operands M, typename T, typename Op>
void launchMap(const void *a, const void *b, void *y, int64_t n, Op op,
               cudaStream_t stream) {
  constexpr bool readA = M != Operands::LhsScalar;
  constexpr bool readB = M == Operands::Same || M == Operands::LhsScalar;
  const bool vec = packAligned(y) && (!readA || packAligned(a)) &&
                   (!readB || packAligned(b));
  mapKernel<M, T, Op><<<gridFor(n, vec ? kPack<T> : 1), kThreads, 0, stream>>>(
      static_cast<const T *>(a), static_cast<const T *>(b), static_cast<T *>(y),
      n, vec, op);
}

} // namespace cuda
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_CUDA_FLATMAP_CUH
