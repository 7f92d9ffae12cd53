//===- LossScaleChecks.h - Argument checks of the loss-scaling kernels ----===//
//
// The argument checks of amp_unscale_and_check and amp_update_scale, shared
// by the reference and the CUDA backend (amp_kernel_core) so that a
// malformed call fails with the same status and message on both. They read
// only the arguments, never the values behind the pointers.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_LOSSSCALECHECKS_H
#define AMP_RUNTIME_REFERENCE_LOSSSCALECHECKS_H

#include "amp_runtime/loss_scale.h"
#include "reference/KernelCommon.h"

namespace amp {
namespace runtime {
namespace kernels {

/// amp_unscale_and_check's checks.
amp_status_t checkUnscaleAndCheck(Checker &check, int32_t n_buffers,
                                  const void *const *grads,
                                  void *const *unscaled, const int64_t *sizes,
                                  const amp_dtype_t *dtypes, const float *scale,
                                  const int8_t *found_inf);

/// amp_update_scale's checks; *config: the validated configuration, with
/// hysteresis 1 when there is no hysteresis tracker (as
/// amp_loss_scale_update() runs it).
amp_status_t checkUpdateScale(
    Checker &check, const float *scale, const int32_t *growth_tracker,
    const int32_t *hysteresis_tracker, const int8_t *found_inf,
    const float *new_scale, const int32_t *new_growth_tracker,
    const int32_t *new_hysteresis_tracker, double growth_factor,
    double backoff_factor, int32_t growth_interval, float min_scale,
    float max_scale, int32_t hysteresis, amp_loss_scale_config_t *config);

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_LOSSSCALECHECKS_H
