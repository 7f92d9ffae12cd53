//===- KernelsPool.cpp - 2-D max and average pooling and their gradients --===//
//
// amp_max_pool2d, amp_max_pool2d_grad, amp_avg_pool2d and
// amp_avg_pool2d_grad on the reference backend, one NCHW plane at a time
// over conv2d's window geometry (Window2d). The forward pools compute each
// output from its window in row-major window order; the gradients scatter
// into an f32 plane in output order and round once.
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"
#include "reference/PoolChecks.h"
#include "reference/PoolMath.h"

#include <algorithm>
#include <limits>
#include <vector>

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {

/// Calls body(p) for every plane; planes are independent, so the cpu
/// backend splits them over its threads (parallelRanges).
template <typename Body> void forEachPlane(const PoolGeometry &g, Body &&body) {
  parallelRanges(g.planes(), g.inputPlane() + g.outputPlane(),
                 [&](int64_t first, int64_t last) {
                   for (int64_t p = first; p < last; ++p)
                     body(p);
                 });
}

template <typename T> void maxPool(const PoolGeometry &g, const T *x, T *y) {
  forEachPlane(g, [&](int64_t p) {
    const T *plane = x + p * g.inputPlane();
    T *out = y + p * g.outputPlane();
    for (int64_t r = 0; r < g.win.oh; ++r)
      for (int64_t q = 0; q < g.win.ow; ++q) {
        const int64_t k =
            windowArgmax(g, r, q, [&](int64_t i) { return toF32(plane[i]); });
        out[r * g.win.ow + q] =
            k < 0 ? fromF32<T>(-std::numeric_limits<float>::infinity())
                  : plane[k];
      }
  });
}

template <typename T>
void avgPool(const PoolGeometry &g, bool countIncludePad, const T *x, T *y) {
  forEachPlane(g, [&](int64_t p) {
    const T *plane = x + p * g.inputPlane();
    T *out = y + p * g.outputPlane();
    for (int64_t r = 0; r < g.win.oh; ++r)
      for (int64_t q = 0; q < g.win.ow; ++q) {
        int64_t count;
        const float sum = windowSum(
            g, r, q, [&](int64_t i) { return toF32(plane[i]); }, &count);
        out[r * g.win.ow + q] =
            fromF32<T>(sum / avgDivisor(g, countIncludePad, count));
      }
  });
}

/// dx = the sum over outputs (in order) of what `route` adds for each into
/// an f32 plane, rounded once. route(acc, plane index, r, q, dy value).
template <typename T, typename Route>
void scatterGrad(const PoolGeometry &g, const T *dy, T *dx, Route &&route) {
  parallelRanges(g.planes(), g.inputPlane() + g.outputPlane(),
                 [&](int64_t first, int64_t last) {
                   std::vector<float> acc(static_cast<size_t>(g.inputPlane()));
                   for (int64_t p = first; p < last; ++p) {
                     std::fill(acc.begin(), acc.end(), 0.0f);
                     const T *d = dy + p * g.outputPlane();
                     for (int64_t r = 0; r < g.win.oh; ++r)
                       for (int64_t q = 0; q < g.win.ow; ++q)
                         route(acc.data(), p, r, q, toF32(d[r * g.win.ow + q]));
                     T *out = dx + p * g.inputPlane();
                     for (int64_t k = 0; k < g.inputPlane(); ++k)
                       out[k] = fromF32<T>(acc[k]);
                   }
                 });
}

} // namespace

extern "C" {

amp_status_t amp_max_pool2d(const void *x, void *y, const int64_t *x_dims,
                            const int64_t *y_dims, amp_dtype_t dtype,
                            const int64_t *kernel, const int64_t *strides,
                            const int64_t *padding, const int64_t *dilation,
                            void * /*stream*/) {
  Checker check("amp_max_pool2d");
  PoolGeometry g;
  if (amp_status_t s = checkPoolForward(check, x, y, x_dims, y_dims, dtype,
                                        kernel, strides, padding, dilation, &g))
    return s;
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    maxPool(g, static_cast<const T *>(x), static_cast<T *>(y));
  });
  return AMP_STATUS_OK;
}

amp_status_t amp_max_pool2d_grad(const void *dy, const void *x, void *dx,
                                 const int64_t *x_dims, const int64_t *y_dims,
                                 amp_dtype_t dtype, const int64_t *kernel,
                                 const int64_t *strides, const int64_t *padding,
                                 const int64_t *dilation, void * /*stream*/) {
  Checker check("amp_max_pool2d_grad");
  PoolGeometry g;
  if (amp_status_t s =
          checkPoolGrad(check, dy, x, dx, x_dims, y_dims, dtype, kernel,
                        strides, padding, dilation, /*hasX=*/true, &g))
    return s;
  const int64_t nx = g.planes() * g.inputPlane();
  if (nx == 0)
    return AMP_STATUS_OK;
  return guarded(check, [&] {
    dispatchFloat(dtype, [&](auto t) {
      using T = decltype(t);
      const T *in = static_cast<const T *>(x);
      scatterGrad(g, static_cast<const T *>(dy), static_cast<T *>(dx),
                  [&](float *acc, int64_t p, int64_t r, int64_t q, float d) {
                    const T *plane = in + p * g.inputPlane();
                    const int64_t k = windowArgmax(
                        g, r, q, [&](int64_t i) { return toF32(plane[i]); });
                    if (k >= 0)
                      acc[k] += d;
                  });
    });
  });
}

amp_status_t amp_avg_pool2d(const void *x, void *y, const int64_t *x_dims,
                            const int64_t *y_dims, amp_dtype_t dtype,
                            const int64_t *kernel, const int64_t *strides,
                            const int64_t *padding, int32_t count_include_pad,
                            void * /*stream*/) {
  Checker check("amp_avg_pool2d");
  PoolGeometry g;
  if (amp_status_t s = checkPoolForward(check, x, y, x_dims, y_dims, dtype,
                                        kernel, strides, padding, nullptr, &g))
    return s;
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    avgPool(g, count_include_pad != 0, static_cast<const T *>(x),
            static_cast<T *>(y));
  });
  return AMP_STATUS_OK;
}

amp_status_t amp_avg_pool2d_grad(const void *dy, void *dx,
                                 const int64_t *x_dims, const int64_t *y_dims,
                                 amp_dtype_t dtype, const int64_t *kernel,
                                 const int64_t *strides, const int64_t *padding,
                                 int32_t count_include_pad, void * /*stream*/) {
  Checker check("amp_avg_pool2d_grad");
  PoolGeometry g;
  if (amp_status_t s =
          checkPoolGrad(check, dy, nullptr, dx, x_dims, y_dims, dtype, kernel,
                        strides, padding, nullptr, /*hasX=*/false, &g))
    return s;
  const int64_t nx = g.planes() * g.inputPlane();
  if (nx == 0)
    return AMP_STATUS_OK;
  const bool includePad = count_include_pad != 0;
  return guarded(check, [&] {
    dispatchFloat(dtype, [&](auto t) {
      using T = decltype(t);
      scatterGrad(g, static_cast<const T *>(dy), static_cast<T *>(dx),
                  [&](float *acc, int64_t, int64_t r, int64_t q, float d) {
                    const float share =
                        d / avgDivisor(g, includePad, windowCount(g, r, q));
                    forEachInWindow(g, r, q,
                                    [&](int64_t k) { acc[k] += share; });
                  });
    });
  });
}

} // extern "C"
