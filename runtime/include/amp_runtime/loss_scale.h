/*===- loss_scale.h - amp runtime: dynamic loss-scale state machine -------===
 *
 * The dynamic loss-scale state machine (PyTorch GradScaler semantics with
 * optional min/max scale and Megatron-style hysteresis), the fused
 * unscale-and-check of gradients, and the non-finite checks it is built on.
 * docs/loss-scaling.md describes the semantics; this header is their single
 * implementation.
 *
 * The state update is an inline function that is `__host__ __device__` under
 * nvcc, so host code and CUDA kernels run exactly the same code. Lowered code
 * calls the flat, scalar-argument symbol amp_loss_scale_update() exported by
 * the amp_runtime_common library.
 *
 * The code relies on IEEE-754 arithmetic: do not build it with -ffast-math or
 * -ffinite-math-only.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AMP_RUNTIME_LOSS_SCALE_H
#define AMP_RUNTIME_LOSS_SCALE_H

#include "amp_runtime/amp_runtime.h"

#include <float.h>
#include <math.h>
#include <stdint.h>

#ifdef __CUDACC__
#define AMP_HOST_DEVICE __host__ __device__
#else
#define AMP_HOST_DEVICE
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* PyTorch GradScaler defaults. */
#define AMP_LOSS_SCALE_DEFAULT_INIT_SCALE 65536.0f
#define AMP_LOSS_SCALE_DEFAULT_GROWTH_FACTOR 2.0
#define AMP_LOSS_SCALE_DEFAULT_BACKOFF_FACTOR 0.5
#define AMP_LOSS_SCALE_DEFAULT_GROWTH_INTERVAL 2000

/* The mutable state, carried from step to step. */
typedef struct amp_loss_scale_state {
  float scale;                /* the current loss scale */
  int32_t growth_tracker;     /* consecutive clean steps since the last
                                 growth or inf, in [0, growth_interval) */
  int32_t hysteresis_tracker; /* infs still tolerated before a backoff, in
                                 [0, hysteresis]; starts at hysteresis */
} amp_loss_scale_state_t;

/* The fixed options. Validate with amp_loss_scale_validate_config(). */
typedef struct amp_loss_scale_config {
  double growth_factor;    /* > 1, finite */
  double backoff_factor;   /* in (0, 1) */
  int32_t growth_interval; /* >= 1 clean steps per growth */
  float min_scale;         /* backoff floor, >= 0 and finite; 0: no floor */
  float max_scale;         /* growth cap, > 0; +inf: no cap */
  int32_t hysteresis;      /* >= 1 infs per backoff; 1: PyTorch */
} amp_loss_scale_config_t;

/* Initializer of an amp_loss_scale_config_t with the PyTorch defaults. */
/* clang-format off */
#define AMP_LOSS_SCALE_CONFIG_DEFAULT_INIT                                     \
  {AMP_LOSS_SCALE_DEFAULT_GROWTH_FACTOR,                                       \
   AMP_LOSS_SCALE_DEFAULT_BACKOFF_FACTOR,                                      \
   AMP_LOSS_SCALE_DEFAULT_GROWTH_INTERVAL,                                     \
   0.0f,                                                                       \
   INFINITY,                                                                   \
   1}
/* clang-format on */

static inline AMP_HOST_DEVICE amp_loss_scale_config_t
amp_loss_scale_config_default(void) {
  amp_loss_scale_config_t config = AMP_LOSS_SCALE_CONFIG_DEFAULT_INIT;
  return config;
}

/* True for finite values. Comparisons rather than bit tests so that the same
 * code runs on the host and on the device; NaN fails both comparisons. */
static inline AMP_HOST_DEVICE int amp_loss_scale_isfinite_(float x) {
  return x >= -FLT_MAX && x <= FLT_MAX;
}

/* `scale * factor` computed in f64 and rounded to f32 once (PyTorch's
 * `_amp_update_scale_`). A product beyond FLT_MAX rounds to +inf (IEEE). */
static inline AMP_HOST_DEVICE float amp_loss_scale_mul_(float scale,
                                                        double factor) {
  return (float)((double)scale * factor);
}

/* One step of the state machine; `found_inf` is nonzero when any gradient
 * held a NaN or an Inf.
 *   found_inf: growth_tracker = 0; hysteresis_tracker -= 1 (not below 0);
 *              when it is then 0, scale = max(scale * backoff, min_scale).
 *   clean:     growth_tracker += 1; when it reaches growth_interval,
 *              scale = min(scale * growth, max_scale) unless that is inf
 *              (then the scale is kept), and, grown or not,
 *              growth_tracker = 0 and hysteresis_tracker = hysteresis.
 * Only a completed growth interval refills the hysteresis tracker, not a
 * single clean step (Megatron). With hysteresis == 1 this is exactly
 * PyTorch's GradScaler.update(). The state must come from
 * amp_loss_scale_state_init() and this function. */
static inline AMP_HOST_DEVICE void
amp_loss_scale_state_update(amp_loss_scale_state_t *state,
                            const amp_loss_scale_config_t *config,
                            int32_t found_inf) {
  if (found_inf) {
    state->growth_tracker = 0;
    if (state->hysteresis_tracker > 0)
      state->hysteresis_tracker -= 1;
    if (state->hysteresis_tracker <= 0) {
      float backed_off =
          amp_loss_scale_mul_(state->scale, config->backoff_factor);
      state->scale =
          backed_off < config->min_scale ? config->min_scale : backed_off;
    }
    return;
  }
  int32_t clean_steps = state->growth_tracker + 1;
  if (clean_steps < config->growth_interval) {
    state->growth_tracker = clean_steps;
    return;
  }
  float grown = amp_loss_scale_mul_(state->scale, config->growth_factor);
  if (grown > config->max_scale)
    grown = config->max_scale;
  if (amp_loss_scale_isfinite_(grown))
    state->scale = grown;
  state->growth_tracker = 0;
  state->hysteresis_tracker = config->hysteresis;
}

/* Whether the optimizer step must be skipped: always on found_inf, so that
 * params, masters and optimizer state stay bitwise unchanged. */
static inline AMP_HOST_DEVICE int32_t
amp_loss_scale_should_skip(int32_t found_inf) {
  return found_inf != 0;
}

/* The factor that unscales gradients: 1/scale in f64, rounded to f32 once.
 * It is +inf for scale 0 and for scales at or below 2^-128 (1 / 2^-128 =
 * 2^128 overflows f32). */
static inline AMP_HOST_DEVICE float amp_loss_scale_inverse(float scale) {
  return (float)(1.0 / (double)scale);
}

/*===--- Exported by the amp_runtime_common library ----------------------===*/

/* AMP_STATUS_OK when `config` satisfies the ranges documented on
 * amp_loss_scale_config_t and min_scale <= max_scale; otherwise (or for a
 * null pointer) AMP_STATUS_INVALID_ARGUMENT. */
amp_status_t
amp_loss_scale_validate_config(const amp_loss_scale_config_t *config);

/* Validates `config` and an initial scale (finite, > 0, and within
 * [min_scale, max_scale]), then sets `state` to {init_scale, 0, hysteresis}.
 * `state` is left untouched on error. */
amp_status_t amp_loss_scale_state_init(amp_loss_scale_state_t *state,
                                       float init_scale,
                                       const amp_loss_scale_config_t *config);

/* amp_loss_scale_state_update() with flat arguments, for lowered code. The
 * config must have been validated. `hysteresis_tracker` may be null: there is
 * no hysteresis then (every inf backs off, as with hysteresis 1). */
void amp_loss_scale_update(float *scale, int32_t *growth_tracker,
                           int32_t *hysteresis_tracker, int32_t found_inf,
                           double growth_factor, double backoff_factor,
                           int32_t growth_interval, float min_scale,
                           float max_scale, int32_t hysteresis);

/* 1 if any of the `n` values is NaN or +-Inf, else 0. The f16 and bf16
 * variants take raw bit patterns (exponent all ones: Inf or NaN). */
int32_t amp_any_nonfinite_f32(const float *values, int64_t n);
int32_t amp_any_nonfinite_f16(const uint16_t *bits, int64_t n);
int32_t amp_any_nonfinite_bf16(const uint16_t *bits, int64_t n);

/* grads[i] *= inv_scale in f32 for all `n` values, and *found_inf = 1 when
 * any *scaled input* value was NaN or +-Inf. *found_inf is never cleared, so
 * one flag accumulates over several buffers; the caller zeroes it first.
 * `inv_scale` comes from amp_loss_scale_inverse(). */
void amp_unscale_and_check_f32(float *grads, int64_t n, float inv_scale,
                               int32_t *found_inf);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AMP_RUNTIME_LOSS_SCALE_H */
