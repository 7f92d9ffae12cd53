//===- KernelsReduce.cpp - Reductions over axes and the max gradient ------===//
//
// amp_reduce (sum, mean, max), amp_global_avg_pool (a mean over H and W)
// and amp_reduce_max_grad on the reference backend. A reduction is one pass
// over the input in memory order, accumulating into an f32 array shaped like
// the output, then one rounding per output element; each output's sum is
// therefore a sequential f32 sum in the input's row-major order. The cpu
// backend splits the pass along a dimension the output keeps
// (parallelSplit), so each output is still summed by one thread in that
// order: bitwise the reference's results at any thread count. A reduction
// to one element stays one sequential pass.
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"
#include "reference/ReduceChecks.h"
#include "reference/ReduceMath.h"

#include <cmath>
#include <limits>
#include <vector>

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {

template <typename T, bool IsMax>
void accumulate(const StridedLoop<2> &loop, const T *in, float *acc) {
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

/// The dimension of `loop` the output varies along with the largest extent
/// (its accumulator stride is non-zero), or -1 when every dimension is
/// reduced.
int keptDimension(const StridedLoop<2> &loop) {
  int best = -1;
  for (int d = 0; d < loop.rank; ++d)
    if (loop.strides[1][d] != 0 &&
        (best < 0 || loop.dims[d] > loop.dims[best]))
      best = d;
  return best;
}

/// y = the reduction of x (checked), rounded once into y_dtype.
amp_status_t reduceInto(Checker &check, int32_t op, const Reduction &r,
                        const void *x, void *y, amp_dtype_t xDtype,
                        amp_dtype_t yDtype) {
  return guarded(check, [&] {
    const bool isMax = op == AMP_REDUCE_MAX;
    std::vector<float> acc(static_cast<size_t>(r.ny),
                           isMax ? -std::numeric_limits<float>::infinity()
                                 : 0.0f);
    dispatchFloat(xDtype, [&](auto t) {
      using T = decltype(t);
      auto pass = [&](const StridedLoop<2> &loop, const int64_t *offsets) {
        const T *in = static_cast<const T *>(x) + offsets[0];
        float *out = acc.data() + offsets[1];
        if (isMax)
          accumulate<T, true>(loop, in, out);
        else
          accumulate<T, false>(loop, in, out);
      };
      const int kept = keptDimension(r.loop);
      if (kept < 0) {
        const int64_t none[2] = {0, 0};
        pass(r.loop, none);
      } else {
        parallelSplit(r.loop, kept, r.nx, pass);
      }
    });
    const float divisor =
        op == AMP_REDUCE_MEAN ? static_cast<float>(r.count) : 1.0f;
    dispatchFloat(yDtype, [&](auto t) {
      using Y = decltype(t);
      Y *out = static_cast<Y *>(y);
      const float *sums = acc.data();
      parallelFor(r.ny, [=](int64_t i) {
        out[i] = fromF32<Y>(divisor == 1.0f ? sums[i] : sums[i] / divisor);
      });
    });
  });
}

/// Reads element i of a float buffer of `dtype` as f32.
inline float loadF32(const void *p, amp_dtype_t dtype, int64_t i) {
  float v = 0.0f;
  dispatchFloat(dtype, [&](auto t) {
    v = toF32(static_cast<const decltype(t) *>(p)[i]);
  });
  return v;
}

} // namespace

extern "C" {

amp_status_t amp_reduce(amp_reduce_op_t op, const void *x, void *y,
                        const int64_t *x_dims, int32_t x_rank,
                        const int64_t *axes, int32_t n_axes,
                        amp_dtype_t x_dtype, amp_dtype_t y_dtype,
                        void * /*stream*/) {
  Checker check("amp_reduce");
  int32_t rawOp;
  Reduction r;
  if (amp_status_t s = checkReduce(check, op, x, y, x_dims, x_rank, axes,
                                   n_axes, x_dtype, y_dtype, &rawOp, &r))
    return s;
  return reduceInto(check, rawOp, r, x, y, x_dtype, y_dtype);
}

amp_status_t amp_global_avg_pool(const void *x, void *y, const int64_t *x_dims,
                                 amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_global_avg_pool");
  Reduction r;
  if (amp_status_t s = checkGlobalAvgPool(check, x, y, x_dims, dtype, &r))
    return s;
  return reduceInto(check, AMP_REDUCE_MEAN, r, x, y, dtype, dtype);
}

amp_status_t amp_reduce_max_grad(const void *dy, const void *x, const void *y,
                                 void *dx, const int64_t *x_dims,
                                 int32_t x_rank, const int64_t *axes,
                                 int32_t n_axes, amp_dtype_t x_dtype,
                                 amp_dtype_t y_dtype, void * /*stream*/) {
  Checker check("amp_reduce_max_grad");
  Reduction r;
  if (amp_status_t s = checkReduceMaxGrad(check, dy, x, y, dx, x_dims, x_rank,
                                          axes, n_axes, x_dtype, y_dtype, &r))
    return s;
  if (r.nx == 0)
    return AMP_STATUS_OK;
  return guarded(check, [&] {
    // Per output: the max, the number of elements equal to it, and the
    // share of dy each of them gets (NaN throughout when none does).
    std::vector<float> max(static_cast<size_t>(r.ny));
    std::vector<float> share(static_cast<size_t>(r.ny));
    std::vector<int64_t> hits(static_cast<size_t>(r.ny), 0);
    for (int64_t o = 0; o < r.ny; ++o)
      max[o] = loadF32(y, y_dtype, o);
    dispatchFloat(x_dtype, [&](auto t) {
      using T = decltype(t);
      const T *in = static_cast<const T *>(x);
      T *out = static_cast<T *>(dx);
      r.loop.run([&](const int64_t *off, int64_t len, const int64_t *inner) {
        for (int64_t i = 0; i < len; ++i) {
          const int64_t o = off[1] + i * inner[1];
          hits[o] += toF32(in[off[0] + i * inner[0]]) == max[o];
        }
      });
      for (int64_t o = 0; o < r.ny; ++o)
        share[o] = maxGradShare(loadF32(dy, y_dtype, o), hits[o]);
      r.loop.run([&](const int64_t *off, int64_t len, const int64_t *inner) {
        for (int64_t i = 0; i < len; ++i) {
          const int64_t xi = off[0] + i * inner[0], o = off[1] + i * inner[1];
          const bool isMax = toF32(in[xi]) == max[o];
          out[xi] = fromF32<T>(maxGradValue(isMax, hits[o], share[o]));
        }
      });
    });
  });
}

} // extern "C"
