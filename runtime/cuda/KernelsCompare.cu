//===- KernelsCompare.cu - amp_compare with numpy broadcasting ------------===//
//
// amp_compare on the CUDA backend: a grid-stride kernel over the contiguous
// bool result that reads lhs and rhs (any dtype) through the simplified loop
// nest of the argument checks (StridedIndex.cuh; no division for the
// same-shape and scalar cases, which simplify to rank 1). Each element
// compares the reference's compareValue and compareOp
// (reference/ElementwiseMath.h), with floats widened by the hardware
// (exact, and a NaN stays a NaN): exact, as on the reference.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaDevice.cuh"
#include "cuda/StridedIndex.cuh"
#include "reference/CastMath.h"
#include "reference/ElementwiseChecks.h"
#include "reference/ElementwiseMath.h"

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

/// The compared value of element i: floats widened by the hardware, the
/// others as compareValue.
template <typename T>
__device__ __forceinline__ auto loadCompared(const T *p, int64_t i) {
  if constexpr (kIsFloatStorage<T>)
    return toFloat(p[i]);
  else
    return compareValue(p[i]);
}

/// out[i] = lhs op rhs (index operands: lhs, rhs).
template <typename T, int32_t Op, typename I>
__global__ void __launch_bounds__(kThreads)
    compareKernel(const T *lhs, const T *rhs, uint8_t *out, int64_t n,
                  StridedIndex<2, I> index) {
  AMP_GRID_STRIDE(i, n) {
    I off[2];
    index.offsets(static_cast<I>(i), off);
    out[i] =
        compareOp<Op>(loadCompared(lhs, off[0]), loadCompared(rhs, off[1]));
  }
}

template <typename T, int32_t Op>
void launchCompare(const StridedLoop<3> &loop, const void *lhs, const void *rhs,
                   void *out, int64_t n, cudaStream_t stream) {
  dispatchIndex(n, [&](auto i) {
    using I = decltype(i);
    compareKernel<T, Op, I><<<gridFor(n), kThreads, 0, stream>>>(
        static_cast<const T *>(lhs), static_cast<const T *>(rhs),
        static_cast<uint8_t *>(out), n, stridedIndex<I>(loop));
  });
}

template <typename T>
void dispatchCompare(int32_t op, const StridedLoop<3> &loop, const void *lhs,
                     const void *rhs, void *out, int64_t n,
                     cudaStream_t stream) {
  switch (op) {
  case AMP_COMPARE_EQ:
    return launchCompare<T, AMP_COMPARE_EQ>(loop, lhs, rhs, out, n, stream);
  case AMP_COMPARE_NE:
    return launchCompare<T, AMP_COMPARE_NE>(loop, lhs, rhs, out, n, stream);
  case AMP_COMPARE_LT:
    return launchCompare<T, AMP_COMPARE_LT>(loop, lhs, rhs, out, n, stream);
  case AMP_COMPARE_LE:
    return launchCompare<T, AMP_COMPARE_LE>(loop, lhs, rhs, out, n, stream);
  case AMP_COMPARE_GT:
    return launchCompare<T, AMP_COMPARE_GT>(loop, lhs, rhs, out, n, stream);
  default:
    return launchCompare<T, AMP_COMPARE_GE>(loop, lhs, rhs, out, n, stream);
  }
}

} // namespace

extern "C" {

amp_status_t amp_compare(amp_compare_op_t op, const void *lhs, const void *rhs,
                         void *out, const int64_t *lhs_dims, int32_t lhs_rank,
                         const int64_t *rhs_dims, int32_t rhs_rank,
                         const int64_t *out_dims, int32_t out_rank,
                         amp_dtype_t dtype, void *stream) {
  Checker check("amp_compare");
  const int32_t rawOp = rawEnum(op);
  StridedLoop<3> loop;
  int64_t n;
  if (amp_status_t s = checkCompare(check, rawOp, lhs, rhs, out, lhs_dims,
                                    lhs_rank, rhs_dims, rhs_rank, out_dims,
                                    out_rank, dtype, &loop, &n))
    return s;
  if (n == 0)
    return AMP_STATUS_OK;
  dispatchAny(dtype, [&](auto t) {
    dispatchCompare<decltype(t)>(rawOp, loop, lhs, rhs, out, n,
                                 toStream(stream));
  });
  return launched(check, "amp_compare");
}

} // extern "C"
