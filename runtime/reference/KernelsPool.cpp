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

#include <algorithm>
#include <limits>
#include <vector>

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {

/// The checked arguments of a pool: x [N, C, H, W], y [N, C, OH, OW].
struct PoolGeometry {
  int64_t n, c, h, w;
  Window2d win;

  int64_t planes() const { return n * c; }
  int64_t inputPlane() const { return h * w; }
  int64_t outputPlane() const { return win.oh * win.ow; }
};

amp_status_t checkPool(Checker &check, const int64_t *xDims,
                       const int64_t *yDims, amp_dtype_t dtype,
                       const int64_t *kernel, const int64_t *strides,
                       const int64_t *padding, const int64_t *dilation,
                       PoolGeometry *g) {
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  int64_t unused;
  if (amp_status_t s = check.shape("x_dims", xDims, 4, &unused))
    return s;
  if (amp_status_t s = check.shape("y_dims", yDims, 4, &unused))
    return s;
  if (!kernel)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "kernel is NULL");
  constexpr int64_t kMaxKernel = int64_t{1} << 30;
  if (kernel[0] < 1 || kernel[1] < 1 || kernel[0] > kMaxKernel ||
      kernel[1] > kMaxKernel)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "kernel [%lld, %lld] must be in [1, 2^30]",
                      (long long)kernel[0], (long long)kernel[1]);
  g->n = xDims[0], g->c = xDims[1], g->h = xDims[2], g->w = xDims[3];
  if (amp_status_t s = check.window2d(g->h, g->w, kernel[0], kernel[1], strides,
                                      padding, dilation, &g->win))
    return s;
  if (yDims[0] != g->n || yDims[1] != g->c || yDims[2] != g->win.oh ||
      yDims[3] != g->win.ow)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "y_dims [%lld, %lld, %lld, %lld] do not match the "
                      "pool's output [%lld, %lld, %lld, %lld]",
                      (long long)yDims[0], (long long)yDims[1],
                      (long long)yDims[2], (long long)yDims[3], (long long)g->n,
                      (long long)g->c, (long long)g->win.oh,
                      (long long)g->win.ow);
  return AMP_STATUS_OK;
}

/// checkPool and the pointers of a forward pool.
amp_status_t checkPoolForward(Checker &check, const void *x, const void *y,
                              const int64_t *xDims, const int64_t *yDims,
                              amp_dtype_t dtype, const int64_t *kernel,
                              const int64_t *strides, const int64_t *padding,
                              const int64_t *dilation, PoolGeometry *g) {
  if (amp_status_t s = checkPool(check, xDims, yDims, dtype, kernel, strides,
                                 padding, dilation, g))
    return s;
  return check.pointers({{"x", x, g->planes() * g->inputPlane(), dtype},
                         {"y", y, g->planes() * g->outputPlane(), dtype}});
}

/// Calls f(k) for the plane index k of every in-bounds position of output
/// (r, q)'s window, in row-major window order.
template <typename F>
void forEachInWindow(const PoolGeometry &g, int64_t r, int64_t q, F &&f) {
  const Window2d &win = g.win;
  for (int64_t i = 0; i < win.kh; ++i) {
    const int64_t hh = r * win.sh - win.pt + i * win.dh;
    if (hh < 0 || hh >= g.h)
      continue;
    for (int64_t j = 0; j < win.kw; ++j) {
      const int64_t ww = q * win.sw - win.pl + j * win.dw;
      if (ww >= 0 && ww < g.w)
        f(hh * g.w + ww);
    }
  }
}

/// The plane index of the first maximum of output (r, q)'s window (a NaN
/// beats every number), or -1 for a window entirely in the padding. The
/// forward pool and its gradient both select with it, so they agree.
template <typename T>
int64_t windowArgmax(const PoolGeometry &g, const T *plane, int64_t r,
                     int64_t q) {
  int64_t best = -1;
  float bestValue = 0.0f;
  forEachInWindow(g, r, q, [&](int64_t k) {
    const float v = toF32(plane[k]);
    if (best < 0 || (bestValue == bestValue && (v > bestValue || v != v))) {
      best = k;
      bestValue = v;
    }
  });
  return best;
}

/// The in-bounds sum (f32, row-major) and count of output (r, q)'s window.
template <typename T>
float windowSum(const PoolGeometry &g, const T *plane, int64_t r, int64_t q,
                int64_t *count) {
  float sum = 0.0f;
  *count = 0;
  forEachInWindow(g, r, q, [&](int64_t k) {
    sum += toF32(plane[k]);
    ++*count;
  });
  return sum;
}

/// The f32 divisor of output (r, q)'s window.
float avgDivisor(const PoolGeometry &g, bool countIncludePad,
                 int64_t inBounds) {
  return static_cast<float>(countIncludePad ? g.win.kh * g.win.kw : inBounds);
}

template <typename T> void maxPool(const PoolGeometry &g, const T *x, T *y) {
  for (int64_t p = 0; p < g.planes(); ++p) {
    const T *plane = x + p * g.inputPlane();
    T *out = y + p * g.outputPlane();
    for (int64_t r = 0; r < g.win.oh; ++r)
      for (int64_t q = 0; q < g.win.ow; ++q) {
        const int64_t k = windowArgmax(g, plane, r, q);
        out[r * g.win.ow + q] =
            k < 0 ? fromF32<T>(-std::numeric_limits<float>::infinity())
                  : plane[k];
      }
  }
}

template <typename T>
void avgPool(const PoolGeometry &g, bool countIncludePad, const T *x, T *y) {
  for (int64_t p = 0; p < g.planes(); ++p) {
    const T *plane = x + p * g.inputPlane();
    T *out = y + p * g.outputPlane();
    for (int64_t r = 0; r < g.win.oh; ++r)
      for (int64_t q = 0; q < g.win.ow; ++q) {
        int64_t count;
        const float sum = windowSum(g, plane, r, q, &count);
        out[r * g.win.ow + q] =
            fromF32<T>(sum / avgDivisor(g, countIncludePad, count));
      }
  }
}

/// dx = the sum over outputs (in order) of what `route` adds for each into
/// an f32 plane, rounded once. route(acc, plane index, r, q, dy value).
template <typename T, typename Route>
void scatterGrad(const PoolGeometry &g, const T *dy, T *dx, Route &&route) {
  std::vector<float> acc(static_cast<size_t>(g.inputPlane()));
  for (int64_t p = 0; p < g.planes(); ++p) {
    std::fill(acc.begin(), acc.end(), 0.0f);
    const T *d = dy + p * g.outputPlane();
    for (int64_t r = 0; r < g.win.oh; ++r)
      for (int64_t q = 0; q < g.win.ow; ++q)
        route(acc.data(), p, r, q, toF32(d[r * g.win.ow + q]));
    T *out = dx + p * g.inputPlane();
    for (int64_t k = 0; k < g.inputPlane(); ++k)
      out[k] = fromF32<T>(acc[k]);
  }
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
  if (amp_status_t s = checkPool(check, x_dims, y_dims, dtype, kernel, strides,
                                 padding, dilation, &g))
    return s;
  const int64_t nx = g.planes() * g.inputPlane();
  if (amp_status_t s =
          check.pointers({{"dy", dy, g.planes() * g.outputPlane(), dtype},
                          {"x", x, nx, dtype},
                          {"dx", dx, nx, dtype}}))
    return s;
  if (nx == 0)
    return AMP_STATUS_OK;
  return guarded(check, [&] {
    dispatchFloat(dtype, [&](auto t) {
      using T = decltype(t);
      const T *in = static_cast<const T *>(x);
      scatterGrad(g, static_cast<const T *>(dy), static_cast<T *>(dx),
                  [&](float *acc, int64_t p, int64_t r, int64_t q, float d) {
                    const int64_t k =
                        windowArgmax(g, in + p * g.inputPlane(), r, q);
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
  if (amp_status_t s = checkPool(check, x_dims, y_dims, dtype, kernel, strides,
                                 padding, nullptr, &g))
    return s;
  const int64_t nx = g.planes() * g.inputPlane();
  if (amp_status_t s =
          check.pointers({{"dy", dy, g.planes() * g.outputPlane(), dtype},
                          {"dx", dx, nx, dtype}}))
    return s;
  if (nx == 0)
    return AMP_STATUS_OK;
  const bool includePad = count_include_pad != 0;
  return guarded(check, [&] {
    dispatchFloat(dtype, [&](auto t) {
      using T = decltype(t);
      scatterGrad(g, static_cast<const T *>(dy), static_cast<T *>(dx),
                  [&](float *acc, int64_t, int64_t r, int64_t q, float d) {
                    int64_t count = 0;
                    forEachInWindow(g, r, q, [&](int64_t) { ++count; });
                    const float share = d / avgDivisor(g, includePad, count);
                    forEachInWindow(g, r, q,
                                    [&](int64_t k) { acc[k] += share; });
                  });
    });
  });
}

} // extern "C"
