//===- PoolChecks.cpp - Argument checks of the 2-D pools ------------------===//

#include "reference/PoolChecks.h"

using namespace amp::runtime::kernels;

namespace {

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

} // namespace

amp_status_t amp::runtime::kernels::checkPoolForward(
    Checker &check, const void *x, const void *y, const int64_t *xDims,
    const int64_t *yDims, amp_dtype_t dtype, const int64_t *kernel,
    const int64_t *strides, const int64_t *padding, const int64_t *dilation,
    PoolGeometry *g) {
  if (amp_status_t s = checkPool(check, xDims, yDims, dtype, kernel, strides,
                                 padding, dilation, g))
    return s;
  return check.pointers({{"x", x, g->planes() * g->inputPlane(), dtype},
                         {"y", y, g->planes() * g->outputPlane(), dtype}});
}

amp_status_t amp::runtime::kernels::checkPoolGrad(
    Checker &check, const void *dy, const void *x, const void *dx,
    const int64_t *xDims, const int64_t *yDims, amp_dtype_t dtype,
    const int64_t *kernel, const int64_t *strides, const int64_t *padding,
    const int64_t *dilation, bool hasX, PoolGeometry *g) {
  if (amp_status_t s = checkPool(check, xDims, yDims, dtype, kernel, strides,
                                 padding, dilation, g))
    return s;
  const int64_t nx = g->planes() * g->inputPlane();
  const int64_t ny = g->planes() * g->outputPlane();
  if (hasX)
    return check.pointers(
        {{"dy", dy, ny, dtype}, {"x", x, nx, dtype}, {"dx", dx, nx, dtype}});
  return check.pointers({{"dy", dy, ny, dtype}, {"dx", dx, nx, dtype}});
}
