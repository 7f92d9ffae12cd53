//===- KernelsBinary.cu - amp_binary with numpy broadcasting --------------===//
//
// amp_binary on the CUDA backend. The argument checks compute the
// simplified loop nest (operands: out, lhs, rhs); when it is one dimension
// in which each operand is contiguous or a broadcast scalar (same shapes, a
// tensor and a scalar), the vectorized mapKernel of FlatMap.cuh runs;
// otherwise a grid-stride kernel maps each output index to the operands'
// offsets (StridedIndex.cuh). One f32 operation per element
// (reference/ElementwiseMath.h), compiled with --fmad=false: bitwise the
// reference's. i32 and i64 always take the strided kernel with the
// reference's intBinaryOp (they are ids and positions, not hot paths).
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaDevice.cuh"
#include "cuda/FlatMap.cuh"
#include "cuda/StridedIndex.cuh"
#include "reference/CastMath.h"
#include "reference/ElementwiseChecks.h"
#include "reference/ElementwiseMath.h"

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

template <int32_t Op> struct BinaryFn {
  __device__ float operator()(float a, float b) const {
    return binaryOp<Op>(a, b);
  }
};

template <typename T, typename I, typename Op>
__global__ void __launch_bounds__(kThreads)
    binaryStridedKernel(const T *a, const T *b, T *y, int64_t n,
                        StridedIndex<2, I> index, Op op) {
  AMP_GRID_STRIDE(i, n) {
    I off[2];
    index.offsets(static_cast<I>(i), off);
    st(y, i, op(ld(a, off[0]), ld(b, off[1])));
  }
}

template <typename T, int32_t Op, typename I>
__global__ void __launch_bounds__(kThreads)
    intBinaryKernel(const T *a, const T *b, T *y, int64_t n,
                    StridedIndex<2, I> index) {
  AMP_GRID_STRIDE(i, n) {
    I off[2];
    index.offsets(static_cast<I>(i), off);
    y[i] = intBinaryOp<Op>(a[off[0]], b[off[1]]);
  }
}

/// out = lhs op rhs over `loop` (n > 0 elements).
template <typename T, int32_t Op>
void launchBinary(const StridedLoop<3> &loop, const void *lhs, const void *rhs,
                  void *out, int64_t n, cudaStream_t stream) {
  if constexpr (!kIsFloatStorage<T>) {
    dispatchIndex(n, [&](auto i) {
      using I = decltype(i);
      intBinaryKernel<T, Op, I><<<gridFor(n), kThreads, 0, stream>>>(
          static_cast<const T *>(lhs), static_cast<const T *>(rhs),
          static_cast<T *>(out), n, stridedIndex<I>(loop));
    });
  } else {
    const BinaryFn<Op> op;
    if (loop.rank == 0)
      return launchMap<Operands::Same, T>(lhs, rhs, out, n, op, stream);
    if (loop.rank == 1) {
      const int64_t sa = loop.strides[1][0], sb = loop.strides[2][0];
      if (sa == 1 && sb == 1)
        return launchMap<Operands::Same, T>(lhs, rhs, out, n, op, stream);
      if (sa == 0 && sb == 1)
        return launchMap<Operands::LhsScalar, T>(lhs, rhs, out, n, op, stream);
      if (sa == 1 && sb == 0)
        return launchMap<Operands::RhsScalar, T>(lhs, rhs, out, n, op, stream);
    }
    dispatchIndex(n, [&](auto i) {
      using I = decltype(i);
      binaryStridedKernel<T, I><<<gridFor(n), kThreads, 0, stream>>>(
          static_cast<const T *>(lhs), static_cast<const T *>(rhs),
          static_cast<T *>(out), n, stridedIndex<I>(loop), op);
    });
  }
}

template <typename T>
void dispatchBinary(int32_t op, const StridedLoop<3> &loop, const void *lhs,
                    const void *rhs, void *out, int64_t n,
                    cudaStream_t stream) {
  switch (op) {
#define AMP_BINARY_CASE(OP)                                                    \
  case OP:                                                                     \
    if constexpr (kIsFloatStorage<T> || !binaryFloatOnly(OP))                  \
      launchBinary<T, OP>(loop, lhs, rhs, out, n, stream);                     \
    return;
    AMP_FOR_EACH_BINARY_OP(AMP_BINARY_CASE)
#undef AMP_BINARY_CASE
  }
}

} // namespace

extern "C" {

amp_status_t amp_binary(amp_binary_op_t op, const void *lhs, const void *rhs,
                        void *out, const int64_t *lhs_dims, int32_t lhs_rank,
                        const int64_t *rhs_dims, int32_t rhs_rank,
                        const int64_t *out_dims, int32_t out_rank,
                        amp_dtype_t dtype, void *stream) {
  Checker check("amp_binary");
  const int32_t rawOp = rawEnum(op);
  StridedLoop<3> loop;
  int64_t n;
  if (amp_status_t s =
          checkBinary(check, rawOp, lhs, rhs, out, lhs_dims, lhs_rank, rhs_dims,
                      rhs_rank, out_dims, out_rank, dtype, &loop, &n))
    return s;
  if (n == 0)
    return AMP_STATUS_OK;
  dispatchNumeric(dtype, [&](auto t) {
    dispatchBinary<decltype(t)>(rawOp, loop, lhs, rhs, out, n,
                                toStream(stream));
  });
  return launched(check, "amp_binary");
}

} // extern "C"
