//===- KernelsConvNoCudnn.cpp - The convolutions without cuDNN's headers --===//
//
// What libamp_runtime_cuda exports for amp_conv2d and its gradients when it
// was configured without cudnn.h (runtime/cuda/CMakeLists.txt): the shared
// argument checks, then AMP_STATUS_BACKEND_ERROR for any call with work to
// do, so that the library still builds, loads and runs everything else.
//
//===----------------------------------------------------------------------===//

#include "reference/ConvChecks.h"

using namespace amp::runtime::kernels;

namespace {

amp_status_t refuse(ConvKind kind, const char *name, const void *a,
                    const void *b, void *out, const int64_t *xDims,
                    const int64_t *wDims, const int64_t *yDims,
                    amp_dtype_t inDtype, amp_dtype_t outDtype,
                    const int64_t *strides, const int64_t *padding,
                    const int64_t *dilation, int64_t groups) {
  Checker check(name);
  ConvGeometry g;
  if (amp_status_t s =
          checkConvCall(check, kind, a, b, out, xDims, wDims, yDims, inDtype,
                        outDtype, strides, padding, dilation, groups, &g))
    return s;
  if (convResultSize(kind, g) == 0)
    return AMP_STATUS_OK;
  return check.fail(AMP_STATUS_BACKEND_ERROR,
                    "this CUDA backend was built without cuDNN's headers "
                    "(cudnn.h of cuDNN 9 was not found at configure time: "
                    "set AMP_CUDNN_INCLUDE_DIR)");
}

} // namespace

extern "C" {

amp_status_t amp_conv2d(const void *x, const void *w, void *y,
                        const int64_t *x_dims, const int64_t *w_dims,
                        const int64_t *y_dims, amp_dtype_t in_dtype,
                        amp_dtype_t out_dtype, const int64_t *strides,
                        const int64_t *padding, const int64_t *dilation,
                        int64_t groups, void * /*stream*/) {
  return refuse(ConvKind::Forward, "amp_conv2d", x, w, y, x_dims, w_dims,
                y_dims, in_dtype, out_dtype, strides, padding, dilation,
                groups);
}

amp_status_t amp_conv2d_grad_input(
    const void *dy, const void *w, void *dx, const int64_t *x_dims,
    const int64_t *w_dims, const int64_t *y_dims, amp_dtype_t in_dtype,
    amp_dtype_t out_dtype, const int64_t *strides, const int64_t *padding,
    const int64_t *dilation, int64_t groups, void * /*stream*/) {
  return refuse(ConvKind::GradInput, "amp_conv2d_grad_input", dy, w, dx, x_dims,
                w_dims, y_dims, in_dtype, out_dtype, strides, padding, dilation,
                groups);
}

amp_status_t amp_conv2d_grad_filter(
    const void *dy, const void *x, void *dw, const int64_t *x_dims,
    const int64_t *w_dims, const int64_t *y_dims, amp_dtype_t in_dtype,
    amp_dtype_t out_dtype, const int64_t *strides, const int64_t *padding,
    const int64_t *dilation, int64_t groups, void * /*stream*/) {
  return refuse(ConvKind::GradFilter, "amp_conv2d_grad_filter", dy, x, dw,
                x_dims, w_dims, y_dims, in_dtype, out_dtype, strides, padding,
                dilation, groups);
}

} // extern "C"
