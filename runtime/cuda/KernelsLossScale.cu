//===- KernelsLossScale.cu - Unscale-and-check and the scale update -------===//
//
// amp_unscale_and_check and amp_update_scale on the CUDA backend.
//
// amp_unscale_and_check is one multi-tensor launch over every gradient of
// the call (MultiTensor.cuh: one block per chunk of 16384 elements, the
// buffer table in the kernel parameters, a few hundred to a thousand
// buffers per launch, more launches only beyond that), each block reading
// the scale on the device and setting found_inf on the device: the flag is
// only ever set, so any block that saw a NaN or an inf stores 1.
// amp_update_scale is one device thread running the reference's step
// (reference/LossScaleMath.h on loss_scale.h's state machine).
//
//===----------------------------------------------------------------------===//

#include "cuda/MultiTensor.cuh"
#include "reference/LossScaleChecks.h"
#include "reference/LossScaleMath.h"

#include <memory>

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

// Pointers per buffer: grad, unscaled.
constexpr int kUnscalePtrs = 2;

template <int Cap> struct UnscaleArgs {
  const float *scale;
  int8_t *foundInf;
  TensorTable<kUnscalePtrs, Cap> table;
};
constexpr int kUnscaleCap = tableCap<kUnscalePtrs>(16);
static_assert(sizeof(UnscaleArgs<kUnscaleCap>) <= kParamBytes,
              "kernel parameters");

template <int Cap>
__global__ void __launch_bounds__(kThreads)
    unscaleKernel(const __grid_constant__ UnscaleArgs<Cap> args) {
  const Chunk ch = locateChunk(args.table);
  const float inv = amp_loss_scale_inverse(*args.scale);
  bool seen = false;
  withStorage(args.table.dtype[ch.tensor], [&](auto tag) {
    using T = decltype(tag);
    const T *const in[1] = {
        static_cast<const T *>(args.table.ptr[0][ch.tensor])};
    T *const out[1] = {static_cast<T *>(args.table.ptr[1][ch.tensor])};
    mapChunk<T, 1, 1>(in, out, ch.begin, ch.end, args.table.packed[ch.tensor],
                      [&](const float(&x)[1], float(&y)[1]) {
                        seen |= nonFinite(x[0]);
                        y[0] = x[0] * inv;
                      });
  });
  if (__syncthreads_or(seen) && threadIdx.x == 0)
    *args.foundInf = 1;
}

__global__ void updateScaleKernel(amp_loss_scale_config_t config,
                                  const float *scale,
                                  const int32_t *growth_tracker,
                                  const int32_t *hysteresis_tracker,
                                  const int8_t *found_inf, float *new_scale,
                                  int32_t *new_growth_tracker,
                                  int32_t *new_hysteresis_tracker) {
  updateScaleInMemory(config, scale, growth_tracker, hysteresis_tracker,
                      found_inf, new_scale, new_growth_tracker,
                      new_hysteresis_tracker);
}

} // namespace

extern "C" {

amp_status_t amp_unscale_and_check(int32_t n_buffers, const void *const *grads,
                                   void *const *unscaled, const int64_t *sizes,
                                   const amp_dtype_t *dtypes,
                                   const float *scale, int8_t *found_inf,
                                   void *stream) {
  Checker check("amp_unscale_and_check");
  if (amp_status_t s = checkUnscaleAndCheck(check, n_buffers, grads, unscaled,
                                            sizes, dtypes, scale, found_inf))
    return s;
  const cudaStream_t st = toStream(stream);
  auto args = std::make_unique<UnscaleArgs<kUnscaleCap>>();
  args->scale = scale;
  args->foundInf = found_inf;
  return forEachGroup(
      check, args->table, n_buffers, sizes, dtypes, kUnscalePtrs,
      [&](int32_t i, void *(&p)[kUnscalePtrs]) {
        p[0] = const_cast<void *>(grads[i]);
        p[1] = unscaled[i];
      },
      [&](unsigned chunks, int64_t, int64_t) {
        unscaleKernel<kUnscaleCap><<<chunks, kThreads, 0, st>>>(*args);
        return launched(check, "unscale-and-check");
      });
}

amp_status_t amp_update_scale(const float *scale, const int32_t *growth_tracker,
                              const int32_t *hysteresis_tracker,
                              const int8_t *found_inf, float *new_scale,
                              int32_t *new_growth_tracker,
                              int32_t *new_hysteresis_tracker,
                              double growth_factor, double backoff_factor,
                              int32_t growth_interval, float min_scale,
                              float max_scale, int32_t hysteresis,
                              void *stream) {
  Checker check("amp_update_scale");
  amp_loss_scale_config_t config;
  if (amp_status_t s = checkUpdateScale(
          check, scale, growth_tracker, hysteresis_tracker, found_inf,
          new_scale, new_growth_tracker, new_hysteresis_tracker, growth_factor,
          backoff_factor, growth_interval, min_scale, max_scale, hysteresis,
          &config))
    return s;
  updateScaleKernel<<<1, 1, 0, toStream(stream)>>>(
      config, scale, growth_tracker, hysteresis_tracker, found_inf, new_scale,
      new_growth_tracker, new_hysteresis_tracker);
  return launched(check, "update-scale");
}

} // extern "C"
