//===- AttentionMath.h - Per-score formulas of the attention kernels ------===//
//
// The per-score formulas of amp_attention and amp_attention_grad (the
// score, the log-sum-exp, the probability and the score gradient), shared
// by the reference backend and the CUDA kernels so that both evaluate the
// same f32 operations in the same order (both are compiled without FMA
// contraction); the cpu backend uses those it does not fuse into its
// GEMMs and vectorized exp. The dot products and sums that feed them are
// each backend's own.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_ATTENTIONMATH_H
#define AMP_RUNTIME_REFERENCE_ATTENTIONMATH_H

#include "amp_runtime/host_device.h"

#include <cmath>

namespace amp {
namespace runtime {
namespace kernels {

/// s = scale * dot(q, k) + mask (0 without a mask).
inline AMP_HOST_DEVICE float attentionScore(float dot, float scale,
                                            float mask) {
  return scale * dot + mask;
}

/// Whether a score masks its key out: such a key contributes nothing to
/// out, dq, dk or dv, even where v or dout holds an infinity or a NaN.
inline AMP_HOST_DEVICE bool maskedOut(float s) { return s == -INFINITY; }

/// lse = m + log(l), from the row's max score m and l = sum exp(s - m).
inline AMP_HOST_DEVICE float attentionLse(float m, float l) {
  return m + logf(l);
}

/// p = exp(s - lse); 0 for a row without keys (lse = -inf).
inline AMP_HOST_DEVICE float attentionProb(float s, float lse) {
  return lse == -INFINITY ? 0.0f : expf(s - lse);
}

/// ds = p * (dp - delta), dp = dot(dout, v), delta = dot(dout, out).
inline AMP_HOST_DEVICE float attentionScoreGrad(float p, float dp,
                                                float delta) {
  return p * (dp - delta);
}

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_ATTENTIONMATH_H
