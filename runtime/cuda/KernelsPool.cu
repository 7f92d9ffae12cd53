//===- KernelsPool.cu - 2-D max and average pooling on the GPU ------------===//
//
// amp_max_pool2d, amp_max_pool2d_grad, amp_avg_pool2d and
// amp_avg_pool2d_grad on the CUDA backend, with the reference's window
// formulas (PoolMath.h).
//
// The forward pools run one thread per output element (windows are small):
// the first maximum, or the f32 sum in row-major window order over the
// divisor, bitwise the reference's. The gradients are gathers, one thread
// per input element, with no atomics: the thread visits the windows that
// cover its element in output order (the order in which the reference
// scatters) and adds their contributions in f32, so the result is bitwise
// the reference's. The max gradient first stores each window's argmax
// (int32 plane indices, int64 for planes of 2^31 elements or more) in
// scratch memory, so no window is searched twice.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaCommon.h"
#include "cuda/CudaDevice.cuh"
#include "cuda/ReduceCommon.cuh"
#include "reference/PoolChecks.h"
#include "reference/PoolMath.h"

#include <cstdint>

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

constexpr float kNegInf = -__builtin_huge_valf();

template <typename T>
__global__ void __launch_bounds__(kThreads)
    maxPoolKernel(const T *x, T *y, PoolGeometry g) {
  const int64_t outputs = g.planes() * g.outputPlane();
  AMP_GRID_STRIDE(o, outputs) {
    const int64_t p = o / g.outputPlane(), rq = o % g.outputPlane();
    const int64_t r = rq / g.win.ow, q = rq % g.win.ow;
    const T *plane = x + p * g.inputPlane();
    const int64_t k =
        windowArgmax(g, r, q, [&](int64_t i) { return ld(plane, i); });
    y[o] = k < 0 ? fromFloat<T>(kNegInf) : plane[k];
  }
}

template <typename T>
__global__ void __launch_bounds__(kThreads)
    avgPoolKernel(const T *x, T *y, PoolGeometry g, bool countIncludePad) {
  const int64_t outputs = g.planes() * g.outputPlane();
  AMP_GRID_STRIDE(o, outputs) {
    const int64_t p = o / g.outputPlane(), rq = o % g.outputPlane();
    const int64_t r = rq / g.win.ow, q = rq % g.win.ow;
    const T *plane = x + p * g.inputPlane();
    int64_t count;
    const float sum = windowSum(
        g, r, q, [&](int64_t i) { return ld(plane, i); }, &count);
    st(y, o, sum / avgDivisor(g, countIncludePad, count));
  }
}

/// Calls f(r, q) for every output whose window covers input (hh, ww), in
/// output order (r, then q, ascending): window tap i of output r is at
/// r * sh - pt + i * dh, so the taps from the last to the first give
/// ascending r.
template <typename F>
__device__ __forceinline__ void forEachCovering(const PoolGeometry &g,
                                                int64_t hh, int64_t ww, F &&f) {
  const Window2d &win = g.win;
  const int64_t ph = hh + win.pt, pw = ww + win.pl;
  int64_t iHi = ph / win.dh;
  iHi = iHi < win.kh - 1 ? iHi : win.kh - 1;
  int64_t jHi = pw / win.dw;
  jHi = jHi < win.kw - 1 ? jHi : win.kw - 1;
  for (int64_t i = iHi; i >= 0; --i) {
    const int64_t rs = ph - i * win.dh; // >= 0
    if (rs % win.sh)
      continue;
    const int64_t r = rs / win.sh;
    if (r >= win.oh)
      break; // later taps give larger r
    for (int64_t j = jHi; j >= 0; --j) {
      const int64_t qs = pw - j * win.dw;
      if (qs % win.sw)
        continue;
      const int64_t q = qs / win.sw;
      if (q >= win.ow)
        break;
      f(r, q);
    }
  }
}

/// argmax[o] = the plane index of output o's first maximum (-1: none).
template <typename T, typename I>
__global__ void __launch_bounds__(kThreads)
    windowArgmaxKernel(const T *x, I *argmax, PoolGeometry g) {
  const int64_t outputs = g.planes() * g.outputPlane();
  AMP_GRID_STRIDE(o, outputs) {
    const int64_t p = o / g.outputPlane(), rq = o % g.outputPlane();
    const T *plane = x + p * g.inputPlane();
    argmax[o] =
        static_cast<I>(windowArgmax(g, rq / g.win.ow, rq % g.win.ow,
                                    [&](int64_t i) { return ld(plane, i); }));
  }
}

template <typename T, typename I>
__global__ void __launch_bounds__(kThreads)
    maxPoolGradKernel(const T *dy, const I *argmax, T *dx, PoolGeometry g) {
  const int64_t inputs = g.planes() * g.inputPlane();
  AMP_GRID_STRIDE(e, inputs) {
    const int64_t p = e / g.inputPlane(), k = e % g.inputPlane();
    const int64_t base = p * g.outputPlane();
    float acc = 0.0f;
    forEachCovering(g, k / g.w, k % g.w, [&](int64_t r, int64_t q) {
      const int64_t o = base + r * g.win.ow + q;
      if (argmax[o] == k)
        acc += ld(dy, o);
    });
    st(dx, e, acc);
  }
}

template <typename T>
__global__ void __launch_bounds__(kThreads)
    avgPoolGradKernel(const T *dy, T *dx, PoolGeometry g,
                      bool countIncludePad) {
  const int64_t inputs = g.planes() * g.inputPlane();
  AMP_GRID_STRIDE(e, inputs) {
    const int64_t p = e / g.inputPlane(), k = e % g.inputPlane();
    const int64_t base = p * g.outputPlane();
    float acc = 0.0f;
    forEachCovering(g, k / g.w, k % g.w, [&](int64_t r, int64_t q) {
      const float d = ld(dy, base + r * g.win.ow + q);
      acc += d / avgDivisor(g, countIncludePad, windowCount(g, r, q));
    });
    st(dx, e, acc);
  }
}

template <typename T, typename I>
amp_status_t maxPoolGrad(Checker &check, const PoolGeometry &g, const T *dy,
                         const T *x, T *dx, void *stream) {
  cudaStream_t st = toStream(stream);
  const int64_t outputs = g.planes() * g.outputPlane();
  const int64_t inputs = g.planes() * g.inputPlane();
  Scratch scratch(stream);
  I *argmax = static_cast<I *>(
      scratch.get(check, std::max<int64_t>(outputs, 1) * int64_t(sizeof(I))));
  if (!argmax)
    return AMP_STATUS_BACKEND_ERROR;
  if (outputs > 0)
    windowArgmaxKernel<T, I>
        <<<gridFor(outputs), kThreads, 0, st>>>(x, argmax, g);
  maxPoolGradKernel<T, I>
      <<<gridFor(inputs), kThreads, 0, st>>>(dy, argmax, dx, g);
  return AMP_STATUS_OK;
}

} // namespace

extern "C" {

amp_status_t amp_max_pool2d(const void *x, void *y, const int64_t *x_dims,
                            const int64_t *y_dims, amp_dtype_t dtype,
                            const int64_t *kernel, const int64_t *strides,
                            const int64_t *padding, const int64_t *dilation,
                            void *stream) {
  Checker check("amp_max_pool2d");
  PoolGeometry g;
  if (amp_status_t s = checkPoolForward(check, x, y, x_dims, y_dims, dtype,
                                        kernel, strides, padding, dilation, &g))
    return s;
  const int64_t outputs = g.planes() * g.outputPlane();
  if (outputs == 0)
    return AMP_STATUS_OK;
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    maxPoolKernel<T><<<gridFor(outputs), kThreads, 0, toStream(stream)>>>(
        static_cast<const T *>(x), static_cast<T *>(y), g);
  });
  return launched(check, "max-pool2d");
}

amp_status_t amp_max_pool2d_grad(const void *dy, const void *x, void *dx,
                                 const int64_t *x_dims, const int64_t *y_dims,
                                 amp_dtype_t dtype, const int64_t *kernel,
                                 const int64_t *strides, const int64_t *padding,
                                 const int64_t *dilation, void *stream) {
  Checker check("amp_max_pool2d_grad");
  PoolGeometry g;
  if (amp_status_t s =
          checkPoolGrad(check, dy, x, dx, x_dims, y_dims, dtype, kernel,
                        strides, padding, dilation, /*hasX=*/true, &g))
    return s;
  if (g.planes() * g.inputPlane() == 0)
    return AMP_STATUS_OK;
  amp_status_t status = AMP_STATUS_OK;
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    const T *dyp = static_cast<const T *>(dy), *xp = static_cast<const T *>(x);
    T *dxp = static_cast<T *>(dx);
    status = g.inputPlane() <= INT32_MAX
                 ? maxPoolGrad<T, int32_t>(check, g, dyp, xp, dxp, stream)
                 : maxPoolGrad<T, int64_t>(check, g, dyp, xp, dxp, stream);
  });
  if (status)
    return status;
  return launched(check, "max-pool2d-grad");
}

amp_status_t amp_avg_pool2d(const void *x, void *y, const int64_t *x_dims,
                            const int64_t *y_dims, amp_dtype_t dtype,
                            const int64_t *kernel, const int64_t *strides,
                            const int64_t *padding, int32_t count_include_pad,
                            void *stream) {
  Checker check("amp_avg_pool2d");
  PoolGeometry g;
  if (amp_status_t s = checkPoolForward(check, x, y, x_dims, y_dims, dtype,
                                        kernel, strides, padding, nullptr, &g))
    return s;
  const int64_t outputs = g.planes() * g.outputPlane();
  if (outputs == 0)
    return AMP_STATUS_OK;
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    avgPoolKernel<T><<<gridFor(outputs), kThreads, 0, toStream(stream)>>>(
        static_cast<const T *>(x), static_cast<T *>(y), g,
        count_include_pad != 0);
  });
  return launched(check, "avg-pool2d");
}

amp_status_t amp_avg_pool2d_grad(const void *dy, void *dx,
                                 const int64_t *x_dims, const int64_t *y_dims,
                                 amp_dtype_t dtype, const int64_t *kernel,
                                 const int64_t *strides, const int64_t *padding,
                                 int32_t count_include_pad, void *stream) {
  Checker check("amp_avg_pool2d_grad");
  PoolGeometry g;
  if (amp_status_t s =
          checkPoolGrad(check, dy, nullptr, dx, x_dims, y_dims, dtype, kernel,
                        strides, padding, nullptr, /*hasX=*/false, &g))
    return s;
  const int64_t inputs = g.planes() * g.inputPlane();
  if (inputs == 0)
    return AMP_STATUS_OK;
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    avgPoolGradKernel<T><<<gridFor(inputs), kThreads, 0, toStream(stream)>>>(
        static_cast<const T *>(dy), static_cast<T *>(dx), g,
        count_include_pad != 0);
  });
  return launched(check, "avg-pool2d-grad");
}

} // extern "C"
