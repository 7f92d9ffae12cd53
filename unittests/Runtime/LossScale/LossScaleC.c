/*===- LossScaleC.c - loss_scale.h compiled as C ---------------------------===
 *
 * Compiles the header's inline state machine and default initializer as C99,
 * so that LossScaleTest.cpp can check that C and C++ callers agree.
 *
 *===----------------------------------------------------------------------===*/

#include "amp_runtime/loss_scale.h"

amp_loss_scale_config_t amp_test_c_default_config(void) {
  amp_loss_scale_config_t config = AMP_LOSS_SCALE_CONFIG_DEFAULT_INIT;
  return config;
}

void amp_test_c_state_update(amp_loss_scale_state_t *state,
                             const amp_loss_scale_config_t *config,
                             int32_t found_inf) {
  amp_loss_scale_state_update(state, config, found_inf);
}
