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

amp_status_t amp::runtime::kernels::convolve(Checker &check, ConvKind,
                                             const ConvGeometry &, const void *,
                                             const void *, void *, amp_dtype_t,
                                             amp_dtype_t, void *) {
  return check.fail(AMP_STATUS_BACKEND_ERROR,
                    "this CUDA backend was built without cuDNN's headers "
                    "(cudnn.h of cuDNN 9 was not found at configure time: "
                    "set AMP_CUDNN_INCLUDE_DIR)");
}
