//===- LossMath.h - Per-row and per-element formulas of the losses --------===//
//
// The formulas of the cross-entropy and elementwise loss kernels that both
// backends compute, so that the reference's unit tests exercise the code the
// CUDA kernels run. expf and logf are the C library's on the host and CUDA's on
// the device (a few ulps apart).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_LOSSMATH_H
#define AMP_RUNTIME_REFERENCE_LOSSMATH_H

#include "amp_runtime/host_device.h"
#include "amp_runtime/kernels.h"

#include <cmath>
#include <cstdint>

namespace amp {
namespace runtime {
namespace kernels {

/// One row's cross-entropy from its max m, its sum s of exp(x - m) and its
/// label's logit xl: log(s) - (xl - m).
inline AMP_HOST_DEVICE float crossEntropyRow(float s, float xl, float m) {
  return logf(s) - (xl - m);
}

/// Label smoothing e (PyTorch's CrossEntropyLoss(label_smoothing=e)) over
/// C classes, as f32 scalars formed in f64 and rounded once: the weights of
/// a row's loss terms and the smoothed targets of the gradient.
struct LabelSmoothing {
  float keep;        // 1 - e: the weight of -log_softmax[label]
  float spread;      // e / C: the weight of sum_c -log_softmax[c], and the
                     // target of a class that is not the label
  float labelTarget; // 1 - e + e / C: the target of the label
};

inline AMP_HOST_DEVICE LabelSmoothing labelSmoothing(float e, int64_t classes) {
  const double eps = e;
  const double spread = eps / static_cast<double>(classes);
  return {static_cast<float>(1.0 - eps), static_cast<float>(spread),
          static_cast<float>(1.0 - eps + spread)};
}

/// A row's smoothed loss from its cross-entropy `ce` (crossEntropyRow), its
/// sum s of exp(x - m) and `gaps`, the sum of m - x_c over its classes:
/// keep * ce + spread * (C log(s) + gaps), whose terms are all >= 0.
inline AMP_HOST_DEVICE float smoothedCrossEntropyRow(const LabelSmoothing &l,
                                                     float ce, float s,
                                                     float gaps,
                                                     int64_t classes) {
  return l.keep * ce +
         l.spread * (static_cast<float>(classes) * logf(s) + gaps);
}

/// softmax(x) of an element of a row with max m and sum s.
inline AMP_HOST_DEVICE float softmaxOf(float x, float m, float s) {
  return expf(x - m) / s;
}

/// dlogits of an element with softmax p: coef * (p - target), coef = g /
/// rows, the target that of the label or of another class (1 and 0
/// without smoothing: coef * (p - 1) and coef * p, exactly).
inline AMP_HOST_DEVICE float crossEntropyGrad(float coef, float p, bool isLabel,
                                              const LabelSmoothing &l) {
  return coef * (p - (isLabel ? l.labelTarget : l.spread));
}

/// loss(p, t) of one element of an elementwise loss (amp_elementwise_loss):
/// the terms the loss kernels add up.
inline AMP_HOST_DEVICE float elementwiseLoss(amp_elementwise_loss_t op,
                                             float param, float p, float t) {
  const float d = p - t;
  switch (op) {
  case AMP_LOSS_MSE:
    return d * d;
  case AMP_LOSS_L1:
    return fabsf(d);
  case AMP_LOSS_HUBER: {
    const float z = fabsf(d);
    return z < param ? 0.5f * z * z : param * (z - 0.5f * param);
  }
  case AMP_LOSS_BCE_WITH_LOGITS: {
    const float logSigmoid = fminf(p, 0.0f) - log1pf(expf(-fabsf(p)));
    return (1.0f - t) * p - logSigmoid;
  }
  }
  return 0.0f;
}

/// The f32 scalar a loss's gradient scales by, formed in f64 as PyTorch
/// forms it from the reduction's divisor m (n for the mean, 1 for the sum;
/// m > 0): 2 / m for MSE, 1 / m for Huber, m itself for L1 and BCE.
inline float elementwiseLossCoef(amp_elementwise_loss_t op, int64_t divisor) {
  const double count = static_cast<double>(divisor);
  switch (op) {
  case AMP_LOSS_MSE:
    return static_cast<float>(2.0 / count);
  case AMP_LOSS_HUBER:
    return static_cast<float>(1.0 / count);
  case AMP_LOSS_L1:
  case AMP_LOSS_BCE_WITH_LOGITS:
    break;
  }
  return static_cast<float>(count);
}

/// dpred of one element: coef from elementwiseLossCoef, g the loss's
/// gradient (kernels.h gives each formula).
inline AMP_HOST_DEVICE float elementwiseLossGrad(amp_elementwise_loss_t op,
                                                 float param, float coef,
                                                 float p, float t, float g) {
  const float d = p - t;
  switch (op) {
  case AMP_LOSS_MSE:
    return (coef * d) * g;
  case AMP_LOSS_L1:
    // sign(d): 0 at d = 0, NaN at NaN (amp_unary's AMP_UNARY_SIGN).
    return (g / coef) * (d > 0.0f ? 1.0f : d < 0.0f ? -1.0f : d);
  case AMP_LOSS_HUBER:
    if (d <= -param)
      return ((-coef) * g) * param;
    if (d >= param)
      return (coef * g) * param;
    return (coef * d) * g;
  case AMP_LOSS_BCE_WITH_LOGITS:
    return ((1.0f / (1.0f + expf(-p)) - t) * g) / coef;
  }
  return 0.0f;
}

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_LOSSMATH_H
