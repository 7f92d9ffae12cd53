//===- OptimizerMath.h - Per-element optimizer math, host and device ------===//
//
// The per-element updates of amp_sgd_update and amp_adam_update and the
// clipping coefficient of amp_clip_grad_norm, shared by the reference
// backend and the CUDA kernels so that both run the same operations in the
// same order. The reference is built with -ffp-contract=off and the CUDA
// kernels with --fmad=false (sqrtf and '/' correctly rounded on both), so
// the f32 results are bitwise equal; the Adam scalars use f64 pow(), which
// may differ in the last f64 place between glibc and CUDA (docs).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_OPTIMIZERMATH_H
#define AMP_RUNTIME_REFERENCE_OPTIMIZERMATH_H

#include "amp_runtime/host_device.h"

#include <math.h>
#include <stdint.h>

namespace amp {
namespace runtime {
namespace kernels {

/// torch.optim.SGD's scalars, as f32 kernel arguments.
struct SgdCoefs {
  float weightDecay, momentum, dampKeep, negLr;
  bool hasMomentum, nesterov;
};

/// The scalars from the checked attributes; 1 - dampening is formed in
/// f64 and rounded once, as PyTorch forms it from Python floats.
inline AMP_HOST_DEVICE SgdCoefs sgdCoefs(float lr, float momentum,
                                         float dampening, float weight_decay,
                                         int32_t nesterov) {
  SgdCoefs c;
  c.weightDecay = weight_decay;
  c.momentum = momentum;
  c.dampKeep = static_cast<float>(1.0 - static_cast<double>(dampening));
  c.negLr = -lr;
  c.hasMomentum = momentum > 0.0f;
  c.nesterov = nesterov != 0;
  return c;
}

/// One element of the SGD step: returns param'; with momentum, *newBuf is
/// buf' (unrounded, as it feeds param').
inline AMP_HOST_DEVICE float sgdStep(const SgdCoefs &c, float param, float grad,
                                     float buf, float *newBuf) {
  float g = grad;
  if (c.weightDecay != 0.0f)
    g = g + c.weightDecay * param;
  float d = g;
  if (c.hasMomentum) {
    const float b = buf * c.momentum + c.dampKeep * g;
    *newBuf = b;
    d = c.nesterov ? g + c.momentum * b : b;
  }
  return param + c.negLr * d;
}

/// torch.optim.AdamW's scalars for the step counter `step` (before the
/// update): t = step + 1 in f32; the bias corrections and products in f64,
/// rounded to f32 once.
struct AdamCoefs {
  float t, decay, avgWeight, sqKeep, sqWeight, negStepSize, bc2Sqrt, eps;
};

/// The step counter after an update: t = step + 1 in f32.
inline AMP_HOST_DEVICE float adamNextStep(float step) { return step + 1.0f; }

inline AMP_HOST_DEVICE AdamCoefs adamCoefs(float step, float lr, float beta1,
                                           float beta2, float eps,
                                           float weight_decay) {
  AdamCoefs c;
  c.t = adamNextStep(step);
  const double b1 = beta1, b2 = beta2;
  const double biasCorrection1 = 1.0 - pow(b1, static_cast<double>(c.t));
  const double biasCorrection2 = 1.0 - pow(b2, static_cast<double>(c.t));
  c.decay = static_cast<float>(1.0 - double(lr) * weight_decay);
  c.avgWeight = static_cast<float>(1.0 - b1);
  c.sqKeep = beta2;
  c.sqWeight = static_cast<float>(1.0 - b2);
  c.negStepSize = static_cast<float>(-(double(lr) / biasCorrection1));
  c.bc2Sqrt = static_cast<float>(sqrt(biasCorrection2));
  c.eps = eps;
  return c;
}

/// PyTorch's lerp (ATen/native/Lerp.h), in f32.
inline AMP_HOST_DEVICE float lerpF32(float self, float end, float weight) {
  return fabsf(weight) < 0.5f ? self + weight * (end - self)
                              : end - (end - self) * (1.0f - weight);
}

/// One element of the AdamW step: returns param'; *newM and *newV are m'
/// and v' (unrounded, as they feed param').
inline AMP_HOST_DEVICE float adamStep(const AdamCoefs &c, float param,
                                      float grad, float m, float v, float *newM,
                                      float *newV) {
  const float decayed = param * c.decay;
  const float m1 = lerpF32(m, grad, c.avgWeight);
  const float v1 = v * c.sqKeep + c.sqWeight * grad * grad;
  const float denom = sqrtf(v1) / c.bc2Sqrt + c.eps;
  *newM = m1;
  *newV = v1;
  return decayed + c.negStepSize * m1 / denom;
}

/// clip_grad_norm_'s coefficient max_norm / (total + 1e-6) clamped to
/// <= 1 (torch.clamp(max=1): NaN stays NaN).
inline AMP_HOST_DEVICE float clipCoef(float maxNorm, float total) {
  const float coef = maxNorm / (total + 1e-6f);
  return coef > 1.0f ? 1.0f : coef;
}

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_OPTIMIZERMATH_H
