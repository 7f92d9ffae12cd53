//===- NormMath.h - Per-element formulas of softmax and the norms ---------===//
//
// The per-element and per-statistic formulas of amp_softmax(_grad),
// amp_log_softmax, the layer and batch norms and the running statistics,
// shared by the reference
// backend and the CUDA kernels so that both evaluate the same f32
// operations in the same order (both are compiled without FMA contraction).
// The sums that feed them are each backend's own.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_NORMMATH_H
#define AMP_RUNTIME_REFERENCE_NORMMATH_H

#include "amp_runtime/host_device.h"

#include <cmath>

namespace amp {
namespace runtime {
namespace kernels {

/// softmax = exp(x - m) / s, from e = exp(x - m).
inline AMP_HOST_DEVICE float softmaxValue(float e, float s) { return e / s; }

/// log_softmax = (x - m) - log(s).
inline AMP_HOST_DEVICE float logSoftmaxValue(float x, float m, float logS) {
  return (x - m) - logS;
}

/// softmax_grad: dx = y * (dy - sum(dy * y)).
inline AMP_HOST_DEVICE float softmaxGradValue(float dy, float y, float sumDyY) {
  return y * (dy - sumDyY);
}

/// The mean of `count` values from their f32 sum.
inline AMP_HOST_DEVICE float meanOf(float sum, float count) {
  return sum / count;
}

/// 1 / sqrt(biased variance + eps) from the f32 sum of squared deviations.
inline AMP_HOST_DEVICE float rstdOf(float sumSquares, float count,
                                    float epsilon) {
  return 1.0f / sqrtf(sumSquares / count + epsilon);
}

/// xhat = (x - mean) * rstd.
inline AMP_HOST_DEVICE float normalized(float x, float mean, float rstd) {
  return (x - mean) * rstd;
}

/// The forward norms: y = ((x - mean) * rstd) * scale + bias.
inline AMP_HOST_DEVICE float normAffine(float x, float mean, float rstd,
                                        float scale, float bias) {
  return normalized(x, mean, rstd) * scale + bias;
}

/// layer_norm_grad: dx = rstd * ((g - mean(g)) - xhat * mean(g * xhat)).
inline AMP_HOST_DEVICE float layerNormGradValue(float rstd, float g,
                                                float meanG, float xhat,
                                                float meanGXhat) {
  return rstd * ((g - meanG) - xhat * meanGXhat);
}

/// batch_norm_grad: dx = (scale * invstd) * ((dy - mean(dy)) - xhat *
/// mean(dy * xhat)), k = scale * invstd.
inline AMP_HOST_DEVICE float batchNormGradValue(float k, float dy, float meanDy,
                                                float xhat, float meanDyXhat) {
  return k * ((dy - meanDy) - xhat * meanDyXhat);
}

/// The momentum update of a running statistic: (1 - momentum) * running +
/// momentum * batch.
inline AMP_HOST_DEVICE float runningStat(float running, float batch,
                                         float momentum) {
  return (1.0f - momentum) * running + momentum * batch;
}

/// The batch variance a running variance takes in: the biased variance
/// 1 / invstd^2 - epsilon times `correction` (count / (count - 1) for the
/// unbiased one).
inline AMP_HOST_DEVICE float batchVariance(float invstd, float epsilon,
                                           float correction) {
  return (1.0f / (invstd * invstd) - epsilon) * correction;
}

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_NORMMATH_H
