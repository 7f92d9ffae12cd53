//===- KernelsReduce.cpp - Sum, mean and max over axes --------------------===//
//
// amp_reduce on the reference backend: one pass over the input in memory
// order, accumulating into an f32 array shaped like the output, then one
// rounding per output element. Each output's sum is therefore a sequential
// f32 sum in the input's row-major order.
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"

#include <cmath>
#include <limits>
#include <vector>

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {

/// acc = max(acc, v) with NaN winning: once acc is NaN it stays NaN.
inline float maxNaN(float acc, float v) {
  return (v > acc || v != v) ? v : acc;
}

template <typename T, bool IsMax>
void accumulate(const StridedLoop<2> &loop, const void *x, float *acc) {
  const T *in = static_cast<const T *>(x);
  loop.run([&](const int64_t *off, int64_t len, const int64_t *inner) {
    const T *xr = in + off[0];
    float *ar = acc + off[1];
    const int64_t sx = inner[0], sa = inner[1];
    if (sa == 0) {
      float a = ar[0];
      for (int64_t i = 0; i < len; ++i)
        a = IsMax ? maxNaN(a, toF32(xr[i * sx])) : a + toF32(xr[i * sx]);
      ar[0] = a;
    } else if (sx == 1 && sa == 1) {
      for (int64_t i = 0; i < len; ++i)
        ar[i] = IsMax ? maxNaN(ar[i], toF32(xr[i])) : ar[i] + toF32(xr[i]);
    } else {
      for (int64_t i = 0; i < len; ++i)
        ar[i * sa] = IsMax ? maxNaN(ar[i * sa], toF32(xr[i * sx]))
                           : ar[i * sa] + toF32(xr[i * sx]);
    }
  });
}

} // namespace

extern "C" amp_status_t amp_reduce(amp_reduce_op_t op, const void *x, void *y,
                                   const int64_t *x_dims, int32_t x_rank,
                                   const int64_t *axes, int32_t n_axes,
                                   amp_dtype_t x_dtype, amp_dtype_t y_dtype,
                                   void * /*stream*/) {
  Checker check("amp_reduce");
  const int32_t rawOp = rawEnum(op);
  if (rawOp < AMP_REDUCE_SUM || rawOp > AMP_REDUCE_MAX)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "unknown op %d", rawOp);
  if (amp_status_t s = check.dtype("x_dtype", x_dtype, kFloatDtypes))
    return s;
  if (amp_status_t s = check.dtype("y_dtype", y_dtype, kFloatDtypes))
    return s;
  if (amp_status_t s = check.accumulatorDtype("y_dtype", y_dtype, x_dtype))
    return s;
  int64_t nx;
  if (amp_status_t s = check.shape("x", x_dims, x_rank, &nx))
    return s;
  if (n_axes < 0 || n_axes > x_rank)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "n_axes (%d) is not in [0, rank %d]", (int)n_axes,
                      (int)x_rank);
  if (n_axes > 0 && !axes)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "axes is NULL");
  bool reduced[kMaxRank] = {};
  for (int32_t i = 0; i < n_axes; ++i) {
    int32_t a;
    if (amp_status_t s = check.axis("axis", axes[i], x_rank, &a))
      return s;
    if (reduced[a])
      return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                        "axis %lld is reduced more than once",
                        (long long)axes[i]);
    reduced[a] = true;
  }
  int64_t ny = 1, count = 1;
  for (int32_t i = 0; i < x_rank; ++i)
    (reduced[i] ? count : ny) *= x_dims[i];
  if (rawOp == AMP_REDUCE_MAX && count == 0 && ny > 0)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "max over an empty set of elements");
  if (amp_status_t s =
          check.pointers({{"x", x, nx, x_dtype}, {"y", y, ny, y_dtype}}))
    return s;

  // Operand 0: x, contiguous. Operand 1: the accumulator, whose stride is 0
  // along reduced dimensions and row-major over the kept ones.
  StridedLoop<2> loop;
  loop.rank = x_rank;
  contiguousStrides(x_dims, x_rank, loop.strides[0]);
  int64_t stride = 1;
  for (int32_t i = x_rank - 1; i >= 0; --i) {
    loop.dims[i] = x_dims[i];
    loop.strides[1][i] = reduced[i] ? 0 : stride;
    if (!reduced[i])
      stride *= x_dims[i];
  }
  loop.simplify();

  return guarded(check, [&] {
    const bool isMax = rawOp == AMP_REDUCE_MAX;
    std::vector<float> acc(static_cast<size_t>(ny),
                           isMax ? -std::numeric_limits<float>::infinity()
                                 : 0.0f);
    dispatchFloat(x_dtype, [&](auto t) {
      using T = decltype(t);
      if (isMax)
        accumulate<T, true>(loop, x, acc.data());
      else
        accumulate<T, false>(loop, x, acc.data());
    });
    if (rawOp == AMP_REDUCE_MEAN) {
      const float divisor = static_cast<float>(count);
      for (float &a : acc)
        a = a / divisor;
    }
    dispatchFloat(y_dtype, [&](auto t) {
      using Y = decltype(t);
      Y *out = static_cast<Y *>(y);
      for (int64_t i = 0; i < ny; ++i)
        out[i] = fromF32<Y>(acc[i]);
    });
  });
}
