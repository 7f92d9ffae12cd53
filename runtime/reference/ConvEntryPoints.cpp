//===- ConvEntryPoints.cpp - amp_conv2d and its gradients, every backend --===//
//
// The three C entry points of the convolutions, compiled into each backend
// library: the shared checks (ConvChecks.h), nothing to do for an empty
// result, then the backend's convolve() (reference/KernelsConv.cpp,
// cpu/CpuConv.cpp, cuda/KernelsConv.cpp or cuda/KernelsConvNoCudnn.cpp).
//
//===----------------------------------------------------------------------===//

#include "reference/ConvChecks.h"

using namespace amp::runtime::kernels;

namespace {

amp_status_t enter(ConvKind kind, const char *name, const void *a,
                   const void *b, void *out, const int64_t *xDims,
                   const int64_t *wDims, const int64_t *yDims,
                   amp_dtype_t inDtype, amp_dtype_t outDtype,
                   const int64_t *strides, const int64_t *padding,
                   const int64_t *dilation, int64_t groups, void *stream) {
  Checker check(name);
  ConvGeometry g;
  if (amp_status_t s =
          checkConvCall(check, kind, a, b, out, xDims, wDims, yDims, inDtype,
                        outDtype, strides, padding, dilation, groups, &g))
    return s;
  if (convResultSize(kind, g) == 0)
    return AMP_STATUS_OK;
  return convolve(check, kind, g, a, b, out, inDtype, outDtype, stream);
}

} // namespace

extern "C" {

amp_status_t amp_conv2d(const void *x, const void *w, void *y,
                        const int64_t *x_dims, const int64_t *w_dims,
                        const int64_t *y_dims, amp_dtype_t in_dtype,
                        amp_dtype_t out_dtype, const int64_t *strides,
                        const int64_t *padding, const int64_t *dilation,
                        int64_t groups, void *stream) {
  return enter(ConvKind::Forward, "amp_conv2d", x, w, y, x_dims, w_dims, y_dims,
               in_dtype, out_dtype, strides, padding, dilation, groups, stream);
}

amp_status_t amp_conv2d_grad_input(
    const void *dy, const void *w, void *dx, const int64_t *x_dims,
    const int64_t *w_dims, const int64_t *y_dims, amp_dtype_t in_dtype,
    amp_dtype_t out_dtype, const int64_t *strides, const int64_t *padding,
    const int64_t *dilation, int64_t groups, void *stream) {
  return enter(ConvKind::GradInput, "amp_conv2d_grad_input", dy, w, dx, x_dims,
               w_dims, y_dims, in_dtype, out_dtype, strides, padding, dilation,
               groups, stream);
}

amp_status_t amp_conv2d_grad_filter(
    const void *dy, const void *x, void *dw, const int64_t *x_dims,
    const int64_t *w_dims, const int64_t *y_dims, amp_dtype_t in_dtype,
    amp_dtype_t out_dtype, const int64_t *strides, const int64_t *padding,
    const int64_t *dilation, int64_t groups, void *stream) {
  return enter(ConvKind::GradFilter, "amp_conv2d_grad_filter", dy, x, dw,
               x_dims, w_dims, y_dims, in_dtype, out_dtype, strides, padding,
               dilation, groups, stream);
}

} // extern "C"
