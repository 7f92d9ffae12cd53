//===- LossScale.cpp - Loss-scale state machine and gradient checks -------===//
//
// The exported loss-scale symbols of amp_runtime_common: config validation,
// state initialization, the flat update that lowered code calls, and the
// non-finite checks and unscale over host buffers. The state machine itself
// is the inline amp_loss_scale_state_update() in loss_scale.h, shared with
// the CUDA backend.
//
//===----------------------------------------------------------------------===//

#include "amp_runtime/loss_scale.h"

#include <cstring>

namespace {

// Bit tests rather than comparisons, so that the checks hold even if a caller
// inlines them into code built with finite-math assumptions.
constexpr uint32_t kF32ExponentMask = 0x7f800000u;
constexpr uint16_t kF16ExponentMask = 0x7c00u;
constexpr uint16_t kBF16ExponentMask = 0x7f80u;

bool isNonFinite(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return (bits & kF32ExponentMask) == kF32ExponentMask;
}

int32_t anyExponentAllOnes(const uint16_t *bits, int64_t n, uint16_t mask) {
  // No early exit: the loop stays branch-free and vectorizes.
  uint16_t seen = 0;
  for (int64_t i = 0; i < n; ++i)
    seen |= static_cast<uint16_t>((bits[i] & mask) == mask);
  return seen;
}

} // namespace

extern "C" {

amp_status_t
amp_loss_scale_validate_config(const amp_loss_scale_config_t *config) {
  if (!config)
    return AMP_STATUS_INVALID_ARGUMENT;
  // Written so that NaN fails every check.
  bool valid =
      config->growth_factor > 1.0 && config->growth_factor <= DBL_MAX &&
      config->backoff_factor > 0.0 && config->backoff_factor < 1.0 &&
      config->growth_interval >= 1 && config->hysteresis >= 1 &&
      config->min_scale >= 0.0f && config->min_scale <= FLT_MAX &&
      config->max_scale > 0.0f && config->min_scale <= config->max_scale;
  return valid ? AMP_STATUS_OK : AMP_STATUS_INVALID_ARGUMENT;
}

amp_status_t amp_loss_scale_state_init(amp_loss_scale_state_t *state,
                                       float init_scale,
                                       const amp_loss_scale_config_t *config) {
  if (!state || amp_loss_scale_validate_config(config) != AMP_STATUS_OK)
    return AMP_STATUS_INVALID_ARGUMENT;
  if (!(init_scale > 0.0f && init_scale <= FLT_MAX &&
        init_scale >= config->min_scale && init_scale <= config->max_scale))
    return AMP_STATUS_INVALID_ARGUMENT;
  state->scale = init_scale;
  state->growth_tracker = 0;
  state->hysteresis_tracker = config->hysteresis;
  return AMP_STATUS_OK;
}

void amp_loss_scale_update(float *scale, int32_t *growth_tracker,
                           int32_t *hysteresis_tracker, int32_t found_inf,
                           double growth_factor, double backoff_factor,
                           int32_t growth_interval, float min_scale,
                           float max_scale, int32_t hysteresis) {
  amp_loss_scale_config_t config = {growth_factor,   backoff_factor,
                                    growth_interval, min_scale,
                                    max_scale,       hysteresis};
  // Without a hysteresis tracker every inf backs off (hysteresis 1).
  amp_loss_scale_state_t state = {*scale, *growth_tracker,
                                  hysteresis_tracker ? *hysteresis_tracker : 0};
  if (!hysteresis_tracker)
    config.hysteresis = 1;
  amp_loss_scale_state_update(&state, &config, found_inf);
  *scale = state.scale;
  *growth_tracker = state.growth_tracker;
  if (hysteresis_tracker)
    *hysteresis_tracker = state.hysteresis_tracker;
}

int32_t amp_any_nonfinite_f32(const float *values, int64_t n) {
  bool seen = false;
  for (int64_t i = 0; i < n; ++i)
    seen |= isNonFinite(values[i]);
  return seen;
}

int32_t amp_any_nonfinite_f16(const uint16_t *bits, int64_t n) {
  return anyExponentAllOnes(bits, n, kF16ExponentMask);
}

int32_t amp_any_nonfinite_bf16(const uint16_t *bits, int64_t n) {
  return anyExponentAllOnes(bits, n, kBF16ExponentMask);
}

void amp_unscale_and_check_f32(float *grads, int64_t n, float inv_scale,
                               int32_t *found_inf) {
  bool seen = false;
  for (int64_t i = 0; i < n; ++i) {
    seen |= isNonFinite(grads[i]);
    grads[i] *= inv_scale;
  }
  if (seen)
    *found_inf = 1;
}

} // extern "C"
