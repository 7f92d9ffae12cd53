//===- KernelsLossScale.cpp - Unscale-and-check and the scale update ------===//
//
// amp_unscale_and_check (every gradient buffer of a step in one call) and
// amp_update_scale (the loss-scale state machine of loss_scale.h on state in
// memory) on the reference backend. docs/loss-scaling.md defines both. The
// checks (LossScaleChecks.h) and the state update (LossScaleMath.h, on
// amp_loss_scale_state_update() of loss_scale.h) are shared with the CUDA
// backend.
//
//===----------------------------------------------------------------------===//

#include "amp_runtime/loss_scale.h"
#include "reference/KernelCommon.h"
#include "reference/LossScaleChecks.h"
#include "reference/LossScaleMath.h"

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {

/// Exponent field all ones (Inf or NaN) of a stored value.
inline bool isNonFinite(float v) {
  return (floatBits(v) & 0x7f800000u) == 0x7f800000u;
}
inline bool isNonFinite(Half v) { return (v.bits & 0x7c00u) == 0x7c00u; }
inline bool isNonFinite(BFloat16 v) { return (v.bits & 0x7f80u) == 0x7f80u; }

/// out = in * inv in f32 (also for non-finite inputs); returns whether any
/// input was non-finite. Branch-free so that it vectorizes.
template <typename T>
bool unscaleAndCheck(const T *in, T *out, int64_t n, float inv) {
  int seen = 0;
  // The cpu backend (OpenMP) splits the loop like parallelFor; an OR of
  // flags is the same in any order. firstprivate: each thread's own copy
  // of inv stays in a register (shared, it is reloaded per element).
#ifdef _OPENMP
#pragma omp parallel for simd reduction(|                                      \
                                        : seen)                                \
    firstprivate(inv) schedule(static) if (n >= kParallelGrain)
#endif
  for (int64_t i = 0; i < n; ++i) {
    seen |= isNonFinite(in[i]);
    out[i] = fromF32<T>(toF32(in[i]) * inv);
  }
  return seen != 0;
}

} // namespace

extern "C" {

amp_status_t amp_unscale_and_check(int32_t n_buffers, const void *const *grads,
                                   void *const *unscaled, const int64_t *sizes,
                                   const amp_dtype_t *dtypes,
                                   const float *scale, int8_t *found_inf,
                                   void * /*stream*/) {
  Checker check("amp_unscale_and_check");
  if (amp_status_t s = checkUnscaleAndCheck(check, n_buffers, grads, unscaled,
                                            sizes, dtypes, scale, found_inf))
    return s;
  const float inv = amp_loss_scale_inverse(*scale);
  bool seen = false;
  for (int32_t i = 0; i < n_buffers; ++i)
    dispatchFloat(dtypes[i], [&](auto t) {
      using T = decltype(t);
      seen |= unscaleAndCheck(static_cast<const T *>(grads[i]),
                              static_cast<T *>(unscaled[i]), sizes[i], inv);
    });
  // Only ever set, as PyTorch's _amp_foreach_non_finite_check_and_unscale_:
  // calls per gradient group accumulate into one flag.
  if (seen)
    *found_inf = 1;
  return AMP_STATUS_OK;
}

amp_status_t amp_update_scale(const float *scale, const int32_t *growth_tracker,
                              const int32_t *hysteresis_tracker,
                              const int8_t *found_inf, float *new_scale,
                              int32_t *new_growth_tracker,
                              int32_t *new_hysteresis_tracker,
                              double growth_factor, double backoff_factor,
                              int32_t growth_interval, float min_scale,
                              float max_scale, int32_t hysteresis,
                              void * /*stream*/) {
  Checker check("amp_update_scale");
  amp_loss_scale_config_t config;
  if (amp_status_t s = checkUpdateScale(
          check, scale, growth_tracker, hysteresis_tracker, found_inf,
          new_scale, new_growth_tracker, new_hysteresis_tracker, growth_factor,
          backoff_factor, growth_interval, min_scale, max_scale, hysteresis,
          &config))
    return s;
  updateScaleInMemory(config, scale, growth_tracker, hysteresis_tracker,
                      found_inf, new_scale, new_growth_tracker,
                      new_hysteresis_tracker);
  return AMP_STATUS_OK;
}

} // extern "C"
