//===- PoolMath.h - Window geometry and formulas of the 2-D pools ---------===//
//
// The pools' geometry (NCHW planes over conv2d's Window2d) and what both
// backends compute per window: the in-bounds positions in row-major window
// order, the first maximum (the max pool and its gradient select with it),
// the f32 sum and the average's divisor. The load functors widen an element
// of the plane to f32 (the reference's toF32, the device's ld).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_POOLMATH_H
#define AMP_RUNTIME_REFERENCE_POOLMATH_H

#include "amp_runtime/host_device.h"
#include "reference/KernelCommon.h"

#include <cstdint>

namespace amp {
namespace runtime {
namespace kernels {

/// The checked arguments of a pool: x [N, C, H, W], y [N, C, OH, OW].
struct PoolGeometry {
  int64_t n, c, h, w;
  Window2d win;

  AMP_HOST_DEVICE int64_t planes() const { return n * c; }
  AMP_HOST_DEVICE int64_t inputPlane() const { return h * w; }
  AMP_HOST_DEVICE int64_t outputPlane() const { return win.oh * win.ow; }
};

/// Calls f(k) for the plane index k of every in-bounds position of output
/// (r, q)'s window, in row-major window order.
template <typename F>
AMP_HOST_DEVICE void forEachInWindow(const PoolGeometry &g, int64_t r,
                                     int64_t q, F &&f) {
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
/// beats every number), or -1 for a window entirely in the padding.
/// load(k) is the plane's element k in f32.
template <typename Load>
AMP_HOST_DEVICE int64_t windowArgmax(const PoolGeometry &g, int64_t r,
                                     int64_t q, Load &&load) {
  int64_t best = -1;
  float bestValue = 0.0f;
  forEachInWindow(g, r, q, [&](int64_t k) {
    const float v = load(k);
    if (best < 0 || (bestValue == bestValue && (v > bestValue || v != v))) {
      best = k;
      bestValue = v;
    }
  });
  return best;
}

/// The in-bounds sum (f32, row-major window order) of output (r, q)'s
/// window and the number of its in-bounds positions.
template <typename Load>
AMP_HOST_DEVICE float windowSum(const PoolGeometry &g, int64_t r, int64_t q,
                                Load &&load, int64_t *count) {
  float sum = 0.0f;
  int64_t n = 0;
  forEachInWindow(g, r, q, [&](int64_t k) {
    sum += load(k);
    ++n;
  });
  *count = n;
  return sum;
}

/// The number of i in [0, k) with 0 <= start + i * d < extent (d >= 1).
AMP_HOST_DEVICE inline int64_t inBoundsTaps(int64_t start, int64_t k, int64_t d,
                                            int64_t extent) {
  // i >= ceil(-start / d) and i <= floor((extent - 1 - start) / d).
  const int64_t lo = start >= 0 ? 0 : (-start + d - 1) / d;
  if (extent - 1 - start < 0)
    return 0;
  int64_t hi = (extent - 1 - start) / d;
  hi = hi < k - 1 ? hi : k - 1;
  return hi >= lo ? hi - lo + 1 : 0;
}

/// The number of in-bounds positions of output (r, q)'s window.
AMP_HOST_DEVICE inline int64_t windowCount(const PoolGeometry &g, int64_t r,
                                           int64_t q) {
  const Window2d &win = g.win;
  return inBoundsTaps(r * win.sh - win.pt, win.kh, win.dh, g.h) *
         inBoundsTaps(q * win.sw - win.pl, win.kw, win.dw, g.w);
}

/// The f32 divisor of a window with `inBounds` in-bounds positions.
AMP_HOST_DEVICE inline float
avgDivisor(const PoolGeometry &g, bool countIncludePad, int64_t inBounds) {
  return static_cast<float>(countIncludePad ? g.win.kh * g.win.kw : inBounds);
}

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_POOLMATH_H
