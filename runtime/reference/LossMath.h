//===- LossMath.h - Per-row and per-element formulas of the losses --------===//
//
// The formulas of the cross-entropy and MSE kernels that both backends
// compute, so that the reference's unit tests exercise the code the CUDA
// kernels run. expf and logf are the C library's on the host and CUDA's on
// the device (a few ulps apart).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_LOSSMATH_H
#define AMP_RUNTIME_REFERENCE_LOSSMATH_H

#include "amp_runtime/host_device.h"

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

/// The squared error of one element.
inline AMP_HOST_DEVICE float squaredError(float p, float t) {
  const float d = p - t;
  return d * d;
}

/// dpred of one element: (coef * (p - t)) * g, coef = f32(2 / f64(n)).
inline AMP_HOST_DEVICE float mseGrad(float coef, float p, float t, float g) {
  return (coef * (p - t)) * g;
}

/// The MSE gradient's coefficient, formed in f64 as PyTorch does (n > 0).
inline float mseGradCoef(int64_t n) {
  return static_cast<float>(2.0 / static_cast<double>(n));
}

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_LOSSMATH_H
