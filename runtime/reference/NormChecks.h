//===- NormChecks.h - Argument checks of softmax and the norms ------------===//
//
// The argument checks of amp_softmax, amp_log_softmax, amp_softmax_grad,
// amp_layer_norm(_grad), amp_batch_norm(_grad) and amp_running_stats_update,
// shared by the reference
// and the CUDA backend (amp_kernel_core) so that a malformed call fails with
// the same status and message on both. Each returns the geometry the
// computation needs.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_NORMCHECKS_H
#define AMP_RUNTIME_REFERENCE_NORMCHECKS_H

#include "reference/KernelCommon.h"

#include <initializer_list>
#include <utility>

namespace amp {
namespace runtime {
namespace kernels {

/// A tensor seen as [outer, len, inner] around one axis: each of the
/// outer * inner rows has `len` elements `inner` apart.
struct AxisView {
  int64_t outer, len, inner;

  /// No element: no row scratch either (a zero-size tensor may have a huge
  /// axis; amp-kernel-args-fuzzer).
  bool empty() const { return outer == 0 || len == 0 || inner == 0; }
};

/// The checks of the softmax kernels (`ptrs`: the tensors, all of x's shape
/// and dtype); sets *view on success.
amp_status_t
checkSoftmax(Checker &check, const int64_t *dims, int32_t rank,
             amp_dtype_t dtype, int64_t axis,
             std::initializer_list<std::pair<const char *, const void *>> ptrs,
             AxisView *view);

/// A layer norm's rows: `rows` rows of `len` contiguous elements.
struct LayerNormView {
  int64_t rows, len;
};

amp_status_t checkLayerNorm(Checker &check, const void *x, const void *scale,
                            const void *bias, const void *y, const float *mean,
                            const float *rstd, const int64_t *dims,
                            int32_t rank, amp_dtype_t xDtype,
                            amp_dtype_t scaleDtype, amp_dtype_t biasDtype,
                            int64_t axis, float epsilon, LayerNormView *view);

amp_status_t checkLayerNormGrad(Checker &check, const void *dy, const void *x,
                                const float *mean, const float *rstd,
                                const void *scale, const void *dx,
                                const void *dscale, const void *dbias,
                                const int64_t *dims, int32_t rank,
                                amp_dtype_t xDtype, amp_dtype_t scaleDtype,
                                int64_t axis, LayerNormView *view);

/// A batch norm's [batch, channels, spatial] view of [N, C, d2...].
struct BatchNormView {
  int64_t batch, channels, spatial;
};

amp_status_t checkBatchNorm(Checker &check, const void *x, const void *scale,
                            const void *bias, const void *y, const float *mean,
                            const float *invstd, const int64_t *dims,
                            int32_t rank, amp_dtype_t xDtype,
                            amp_dtype_t scaleDtype, amp_dtype_t biasDtype,
                            float epsilon, BatchNormView *view);

amp_status_t checkBatchNormGrad(Checker &check, const void *dy, const void *x,
                                const float *mean, const float *invstd,
                                const void *scale, const void *dx,
                                const void *dscale, const void *dbias,
                                const int64_t *dims, int32_t rank,
                                amp_dtype_t xDtype, amp_dtype_t scaleDtype,
                                BatchNormView *view);

amp_status_t checkRunningStatsUpdate(Checker &check, const float *runningMean,
                                     const float *runningVar, const float *mean,
                                     const float *invstd, const float *newMean,
                                     const float *newVar, int64_t channels,
                                     float momentum, float epsilon,
                                     float correction);

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_NORMCHECKS_H
