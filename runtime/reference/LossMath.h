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

/// softmax(x) of an element of a row with max m and sum s.
inline AMP_HOST_DEVICE float softmaxOf(float x, float m, float s) {
  return expf(x - m) / s;
}

/// dlogits of an element with softmax p: coef * (p - onehot), coef = g /
/// rows.
inline AMP_HOST_DEVICE float crossEntropyGrad(float coef, float p,
                                              bool isLabel) {
  return coef * (isLabel ? p - 1.0f : p);
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
