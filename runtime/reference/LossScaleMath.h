//===- LossScaleMath.h - amp_update_scale's step, host and device ---------===//
//
// One step of the loss-scale state machine (amp_loss_scale_state_update()
// of loss_scale.h) on state in memory, as amp_update_scale defines it: the
// reference backend runs it on host memory, the CUDA backend in one device
// thread on device memory.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_LOSSSCALEMATH_H
#define AMP_RUNTIME_REFERENCE_LOSSSCALEMATH_H

#include "amp_runtime/host_device.h"
#include "amp_runtime/loss_scale.h"

namespace amp {
namespace runtime {
namespace kernels {

/// Reads every input, then writes every output (outputs may equal inputs).
/// `config` comes from checkUpdateScale (hysteresis 1 without a tracker);
/// without a tracker the state's tracker is 0, as amp_loss_scale_update()
/// has it.
inline AMP_HOST_DEVICE void
updateScaleInMemory(const amp_loss_scale_config_t &config, const float *scale,
                    const int32_t *growth_tracker,
                    const int32_t *hysteresis_tracker, const int8_t *found_inf,
                    float *new_scale, int32_t *new_growth_tracker,
                    int32_t *new_hysteresis_tracker) {
  amp_loss_scale_state_t state = {*scale, *growth_tracker,
                                  hysteresis_tracker ? *hysteresis_tracker : 0};
  amp_loss_scale_state_update(&state, &config, *found_inf != 0);
  *new_scale = state.scale;
  *new_growth_tracker = state.growth_tracker;
  if (new_hysteresis_tracker)
    *new_hysteresis_tracker = state.hysteresis_tracker;
}

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_LOSSSCALEMATH_H
