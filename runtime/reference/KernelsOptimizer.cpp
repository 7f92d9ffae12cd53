//===- KernelsOptimizer.cpp - SGD, AdamW and gradient-norm clipping -------===//
//
// amp_sgd_update, amp_adam_update and amp_clip_grad_norm on the reference
// backend. The updates follow the op order of PyTorch's single-tensor
// torch.optim.SGD / AdamW in f32, with the scalar coefficients formed in f64
// and rounded once, and honour the found_inf predicate of amp.skip_step_if:
// a set flag leaves every output bitwise equal to its input.
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"

#include <cmath>
#include <cstring>
#include <vector>

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {

/// Whether amp.skip_step_if's predicate says to skip this update.
bool skipStep(const int8_t *foundInf) { return foundInf && *foundInf != 0; }

/// out = in bitwise (nothing to do in place).
void keep(const void *in, void *out, int64_t n, amp_dtype_t dtype) {
  if (n > 0 && in != out)
    std::memmove(out, in, static_cast<size_t>(n * amp_dtype_size(dtype)));
}

/// `value` is finite and >= 0 (NaN fails).
bool nonNegative(float value) {
  return value >= 0.0f && value <= 3.4028234663852886e38f;
}

/// PyTorch's lerp (ATen/native/Lerp.h), in f32.
inline float lerp(float self, float end, float weight) {
  return std::fabs(weight) < 0.5f ? self + weight * (end - self)
                                  : end - (end - self) * (1.0f - weight);
}

/// f32 sum of squares in blocks of 256 sequential terms whose sums are then
/// added in order: an error bound of about (256 + n / 256) units of f32
/// roundoff instead of n, at the cost of nothing.
template <typename T> float sumOfSquares(const T *x, int64_t n) {
  constexpr int64_t kBlock = 256;
  float total = 0.0f;
  for (int64_t b = 0; b < n; b += kBlock) {
    const int64_t e = b + kBlock < n ? b + kBlock : n;
    float block = 0.0f;
    for (int64_t i = b; i < e; ++i) {
      const float v = toF32(x[i]);
      block += v * v;
    }
    total += block;
  }
  return total;
}

} // namespace

extern "C" {

amp_status_t amp_sgd_update(const void *param, const void *grad,
                            const void *momentum_buf, void *new_param,
                            void *new_momentum_buf, int64_t n,
                            amp_dtype_t dtype, float lr, float momentum,
                            float dampening, float weight_decay,
                            int32_t nesterov, const int8_t *found_inf,
                            void * /*stream*/) {
  Checker check("amp_sgd_update");
  if (amp_status_t s = check.count("n", n))
    return s;
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  if (!nonNegative(lr) || !nonNegative(momentum) ||
      !nonNegative(weight_decay) || !(dampening >= 0.0f && dampening <= 1.0f))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "lr (%g), momentum (%g) and weight_decay (%g) must be "
                      "finite and >= 0, dampening (%g) in [0, 1]",
                      (double)lr, (double)momentum, (double)weight_decay,
                      (double)dampening);
  if (nesterov != 0 && nesterov != 1)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "nesterov (%d) must be 0 or 1", (int)nesterov);
  if (nesterov && (momentum == 0.0f || dampening != 0.0f))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "nesterov requires momentum > 0 and dampening = 0");
  const bool hasMomentum = momentum > 0.0f;
  const bool givesBuffer = momentum_buf || new_momentum_buf;
  if (hasMomentum ? n > 0 && (!momentum_buf || !new_momentum_buf) : givesBuffer)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "momentum_buf and new_momentum_buf must be given "
                      "exactly when momentum > 0 (momentum = %g)",
                      (double)momentum);
  if (amp_status_t s = check.pointers({{"param", param, n, dtype},
                                       {"grad", grad, n, dtype},
                                       {"new_param", new_param, n, dtype}}))
    return s;
  if (hasMomentum) {
    if (amp_status_t s =
            check.pointers({{"momentum_buf", momentum_buf, n, dtype},
                            {"new_momentum_buf", new_momentum_buf, n, dtype}}))
      return s;
  }

  if (skipStep(found_inf)) {
    keep(param, new_param, n, dtype);
    if (hasMomentum)
      keep(momentum_buf, new_momentum_buf, n, dtype);
    return AMP_STATUS_OK;
  }
  const float wd = weight_decay, mom = momentum, negLr = -lr;
  const float dampKeep =
      static_cast<float>(1.0 - static_cast<double>(dampening));
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    const T *p = static_cast<const T *>(param);
    const T *gp = static_cast<const T *>(grad);
    const T *buf = static_cast<const T *>(momentum_buf);
    T *np = static_cast<T *>(new_param);
    T *nbuf = static_cast<T *>(new_momentum_buf);
    for (int64_t i = 0; i < n; ++i) {
      const float pv = toF32(p[i]);
      float g = toF32(gp[i]);
      if (wd != 0.0f)
        g = g + wd * pv;
      float d = g;
      if (hasMomentum) {
        const float b = toF32(buf[i]) * mom + dampKeep * g;
        nbuf[i] = fromF32<T>(b);
        d = nesterov ? g + mom * b : b;
      }
      np[i] = fromF32<T>(pv + negLr * d);
    }
  });
  return AMP_STATUS_OK;
}

amp_status_t amp_adam_update(const void *param, const void *grad,
                             const void *exp_avg, const void *exp_avg_sq,
                             const float *step, void *new_param,
                             void *new_exp_avg, void *new_exp_avg_sq,
                             float *new_step, int64_t n, amp_dtype_t dtype,
                             float lr, float beta1, float beta2, float eps,
                             float weight_decay, const int8_t *found_inf,
                             void * /*stream*/) {
  Checker check("amp_adam_update");
  if (amp_status_t s = check.count("n", n))
    return s;
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  if (!nonNegative(lr) || !nonNegative(eps) || !nonNegative(weight_decay) ||
      !(beta1 >= 0.0f && beta1 < 1.0f) || !(beta2 >= 0.0f && beta2 < 1.0f))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "lr (%g), eps (%g) and weight_decay (%g) must be finite "
                      "and >= 0, beta1 (%g) and beta2 (%g) in [0, 1)",
                      (double)lr, (double)eps, (double)weight_decay,
                      (double)beta1, (double)beta2);
  const std::pair<const char *, const void *> tensors[] = {
      {"param", param},
      {"grad", grad},
      {"exp_avg", exp_avg},
      {"exp_avg_sq", exp_avg_sq},
      {"new_param", new_param},
      {"new_exp_avg", new_exp_avg},
      {"new_exp_avg_sq", new_exp_avg_sq}};
  for (const auto &[name, ptr] : tensors)
    if (amp_status_t s =
            check.pointers({{name, ptr, n, dtype},
                            {"step", step, 1, AMP_DTYPE_F32},
                            {"new_step", new_step, 1, AMP_DTYPE_F32}}))
      return s;

  const float stepBefore = *step;
  if (skipStep(found_inf)) {
    keep(param, new_param, n, dtype);
    keep(exp_avg, new_exp_avg, n, dtype);
    keep(exp_avg_sq, new_exp_avg_sq, n, dtype);
    *new_step = stepBefore;
    return AMP_STATUS_OK;
  }
  // The scalars of torch.optim.AdamW's single-tensor step, which PyTorch
  // computes in Python (f64) and passes to f32 kernels.
  const float t = stepBefore + 1.0f;
  const double b1 = beta1, b2 = beta2;
  const double biasCorrection1 = 1.0 - std::pow(b1, static_cast<double>(t));
  const double biasCorrection2 = 1.0 - std::pow(b2, static_cast<double>(t));
  const float decay = static_cast<float>(1.0 - double(lr) * weight_decay);
  const float avgWeight = static_cast<float>(1.0 - b1);
  const float sqKeep = beta2;
  const float sqWeight = static_cast<float>(1.0 - b2);
  const float negStepSize = static_cast<float>(-(double(lr) / biasCorrection1));
  const float bc2Sqrt = static_cast<float>(std::sqrt(biasCorrection2));
  dispatchFloat(dtype, [&](auto tag) {
    using T = decltype(tag);
    const T *p = static_cast<const T *>(param);
    const T *gp = static_cast<const T *>(grad);
    const T *m = static_cast<const T *>(exp_avg);
    const T *v = static_cast<const T *>(exp_avg_sq);
    T *np = static_cast<T *>(new_param);
    T *nm = static_cast<T *>(new_exp_avg);
    T *nv = static_cast<T *>(new_exp_avg_sq);
    for (int64_t i = 0; i < n; ++i) {
      const float g = toF32(gp[i]);
      const float decayed = toF32(p[i]) * decay;
      const float m1 = lerp(toF32(m[i]), g, avgWeight);
      const float v1 = toF32(v[i]) * sqKeep + sqWeight * g * g;
      const float denom = std::sqrt(v1) / bc2Sqrt + eps;
      nm[i] = fromF32<T>(m1);
      nv[i] = fromF32<T>(v1);
      np[i] = fromF32<T>(decayed + negStepSize * m1 / denom);
    }
  });
  *new_step = t;
  return AMP_STATUS_OK;
}

amp_status_t amp_clip_grad_norm(int32_t n_buffers, const void *const *grads,
                                void *const *clipped, const int64_t *sizes,
                                const amp_dtype_t *dtypes, float max_norm,
                                float *total_norm, void * /*stream*/) {
  Checker check("amp_clip_grad_norm");
  if (n_buffers < 1)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "n_buffers (%d) is < 1",
                      (int)n_buffers);
  if (!(max_norm > 0.0f))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "max_norm (%g) must be > 0",
                      (double)max_norm);
  if (amp_status_t s =
          check.pointer("total_norm", total_norm, 1, AMP_DTYPE_F32))
    return s;
  if (amp_status_t s =
          check.bufferList(n_buffers, grads, clipped, sizes, dtypes))
    return s;
  // torch.nn.utils.clip_grad_norm_: the norm of the per-gradient norms.
  float sumNormsSq = 0.0f;
  for (int32_t i = 0; i < n_buffers; ++i) {
    float norm = 0.0f;
    dispatchFloat(dtypes[i], [&](auto t) {
      norm = std::sqrt(
          sumOfSquares(static_cast<const decltype(t) *>(grads[i]), sizes[i]));
    });
    sumNormsSq += norm * norm;
  }
  const float total = std::sqrt(sumNormsSq);
  float coef = max_norm / (total + 1e-6f);
  coef = coef > 1.0f ? 1.0f : coef; // torch.clamp(max=1): NaN stays NaN
  for (int32_t i = 0; i < n_buffers; ++i)
    dispatchFloat(dtypes[i], [&](auto t) {
      using T = decltype(t);
      const T *g = static_cast<const T *>(grads[i]);
      T *out = static_cast<T *>(clipped[i]);
      for (int64_t k = 0; k < sizes[i]; ++k)
        out[k] = fromF32<T>(toF32(g[k]) * coef);
    });
  *total_norm = total;
  return AMP_STATUS_OK;
}

} // extern "C"
