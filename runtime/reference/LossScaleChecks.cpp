//===- LossScaleChecks.cpp - Argument checks of the loss-scaling kernels --===//

#include "reference/LossScaleChecks.h"

using namespace amp::runtime::kernels;

amp_status_t amp::runtime::kernels::checkUnscaleAndCheck(
    Checker &check, int32_t n_buffers, const void *const *grads,
    void *const *unscaled, const int64_t *sizes, const amp_dtype_t *dtypes,
    const float *scale, const int8_t *found_inf) {
  if (amp_status_t s =
          check.bufferList(n_buffers, grads, unscaled, sizes, dtypes))
    return s;
  if (amp_status_t s = check.pointer("scale", scale, 1, AMP_DTYPE_F32))
    return s;
  if (!found_inf)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "found_inf is NULL");
  return AMP_STATUS_OK;
}

amp_status_t amp::runtime::kernels::checkUpdateScale(
    Checker &check, const float *scale, const int32_t *growth_tracker,
    const int32_t *hysteresis_tracker, const int8_t *found_inf,
    const float *new_scale, const int32_t *new_growth_tracker,
    const int32_t *new_hysteresis_tracker, double growth_factor,
    double backoff_factor, int32_t growth_interval, float min_scale,
    float max_scale, int32_t hysteresis, amp_loss_scale_config_t *config) {
  if (!scale || !growth_tracker || !found_inf || !new_scale ||
      !new_growth_tracker)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "scale, growth_tracker, found_inf, new_scale and "
                      "new_growth_tracker must not be NULL");
  if ((hysteresis_tracker == nullptr) != (new_hysteresis_tracker == nullptr))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "hysteresis_tracker and new_hysteresis_tracker must be "
                      "both given or both NULL");
  *config = {growth_factor, backoff_factor, growth_interval,
             min_scale,     max_scale,      hysteresis};
  if (amp_loss_scale_validate_config(config) != AMP_STATUS_OK)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "invalid loss-scale config (see "
                      "amp_loss_scale_validate_config)");
  if (!hysteresis_tracker)
    config->hysteresis = 1;
  return AMP_STATUS_OK;
}
