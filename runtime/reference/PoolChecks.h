//===- PoolChecks.h - Argument checks of the 2-D pools --------------------===//
//
// The argument checks of amp_max_pool2d, amp_max_pool2d_grad,
// amp_avg_pool2d and amp_avg_pool2d_grad, shared by the reference and the
// CUDA backends so that a malformed call fails with the same status and
// message on both. Each returns the pool's geometry (PoolMath.h).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_POOLCHECKS_H
#define AMP_RUNTIME_REFERENCE_POOLCHECKS_H

#include "reference/KernelCommon.h"
#include "reference/PoolMath.h"

namespace amp {
namespace runtime {
namespace kernels {

/// amp_max_pool2d (dilation may be NULL) and amp_avg_pool2d (dilation NULL).
amp_status_t checkPoolForward(Checker &check, const void *x, const void *y,
                              const int64_t *xDims, const int64_t *yDims,
                              amp_dtype_t dtype, const int64_t *kernel,
                              const int64_t *strides, const int64_t *padding,
                              const int64_t *dilation, PoolGeometry *g);

/// amp_max_pool2d_grad (x non-NULL) and amp_avg_pool2d_grad (x NULL, not
/// checked): the geometry and the pointers dy, x, dx.
amp_status_t checkPoolGrad(Checker &check, const void *dy, const void *x,
                           const void *dx, const int64_t *xDims,
                           const int64_t *yDims, amp_dtype_t dtype,
                           const int64_t *kernel, const int64_t *strides,
                           const int64_t *padding, const int64_t *dilation,
                           bool hasX, PoolGeometry *g);

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_POOLCHECKS_H
