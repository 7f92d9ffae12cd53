//===- OptimizerMath.h - Per-element optimizer math, host and device ------===//
//
// The per-element updates of amp_sgd_update, amp_adam_update,
// amp_radam_update,
// amp_rmsprop_update, amp_adagrad_update and amp_adafactor_update, the
// scheduled learning rate and the schedule factor of amp_lr_schedule, and
// the norms and clipping coefficient of amp_clip_grad_norm, the clamp of
// amp_clip_grad_value and the step of amp_ema_update, shared by the reference
// backend and the CUDA kernels so that both run the same operations in the
// same order. The reference is built with -ffp-contract=off and the CUDA
// kernels with --fmad=false (sqrtf and '/' correctly rounded on both), so
// the f32 results are bitwise equal; the Adam scalars and the schedule
// factors use f64 pow() and cos(), which may differ in the last f64 place
// between glibc and CUDA (docs).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_OPTIMIZERMATH_H
#define AMP_RUNTIME_REFERENCE_OPTIMIZERMATH_H

#include "amp_runtime/host_device.h"
#include "amp_runtime/kernels.h"

#include <math.h>
#include <stdint.h>

namespace amp {
namespace runtime {
namespace kernels {

//===----------------------------------------------------------------------===//
// Learning-rate schedules
//===----------------------------------------------------------------------===//

/// The learning rate of an update under a schedule: lr' = lr * *factor in
/// f64, rounded to f32 once, as PyTorch's schedulers scale a param group's
/// base lr (a Python float); without a factor (NULL), lr itself. The
/// factor is read from memory (device memory on CUDA).
inline AMP_HOST_DEVICE float scheduledLr(float lr, const float *factor) {
  if (!factor)
    return lr;
  return static_cast<float>(static_cast<double>(lr) *
                            static_cast<double>(*factor));
}

/// amp_lr_schedule's checked arguments (checkLrSchedule); `kind` is the
/// raw value of a known amp_lr_schedule_t.
struct LrSchedule {
  int32_t kind;
  int64_t warmupSteps, totalSteps, stepSize;
  float warmupStartFactor, finalFactor, gamma, power;
  /// MULTISTEP's milestones, increasing (the first numMilestones).
  int32_t numMilestones;
  int64_t milestones[AMP_LR_SCHEDULE_MAX_MILESTONES];
};

/// The step s of a schedule's counter: the count's value (an integer held
/// in f32), a negative or NaN count taken as 0.
inline AMP_HOST_DEVICE double lrScheduleStep(float count) {
  return count > 0.0f ? static_cast<double>(count) : 0.0;
}

/// The factor of the base lr at step s >= 0, in f64 (the caller rounds it
/// to f32 once): a linear warmup from warmup_start_factor over the first W
/// steps (LinearLR; transformers' warmup with a = 0), then with d = s - W
/// and D = T - W: transformers' get_linear_schedule_with_warmup and
/// get_cosine_schedule_with_warmup (with a floor b, clamped to b past T),
/// StepLR, ExponentialLR, get_polynomial_decay_schedule_with_warmup and
/// PolynomialLR, and MultiStepLR. D is formed only for the kinds that use
/// T, for which the checks ensured T > W >= 0 (no overflow).
inline AMP_HOST_DEVICE double lrScheduleFactor(const LrSchedule &p, double s) {
  const double w = static_cast<double>(p.warmupSteps);
  if (s < w) {
    const double a = p.warmupStartFactor;
    return a + (1.0 - a) * s / w;
  }
  const double d = s - w;
  const double b = p.finalFactor;
  switch (p.kind) {
  case AMP_LR_SCHEDULE_LINEAR: {
    const double total = static_cast<double>(p.totalSteps - p.warmupSteps);
    const double left = total - d;
    return b + (1.0 - b) * (left > 0.0 ? left : 0.0) / total;
  }
  case AMP_LR_SCHEDULE_COSINE: {
    const double total = static_cast<double>(p.totalSteps - p.warmupSteps);
    const double progress = d / total;
    constexpr double kPi = 3.14159265358979323846;
    return b + (1.0 - b) *
                   (1.0 + cos(kPi * (progress < 1.0 ? progress : 1.0))) / 2.0;
  }
  case AMP_LR_SCHEDULE_STEP:
    return pow(static_cast<double>(p.gamma),
               floor(d / static_cast<double>(p.stepSize)));
  case AMP_LR_SCHEDULE_EXPONENTIAL:
    return pow(static_cast<double>(p.gamma), d);
  case AMP_LR_SCHEDULE_POLYNOMIAL: {
    const double total = static_cast<double>(p.totalSteps - p.warmupSteps);
    const double left = total - d;
    return b + (1.0 - b) * pow((left > 0.0 ? left : 0.0) / total,
                               static_cast<double>(p.power));
  }
  case AMP_LR_SCHEDULE_MULTISTEP: {
    int passed = 0;
    for (int32_t i = 0; i < p.numMilestones; ++i)
      passed += static_cast<double>(p.milestones[i]) <= d;
    return pow(static_cast<double>(p.gamma), static_cast<double>(passed));
  }
  default: // AMP_LR_SCHEDULE_CONSTANT
    return 1.0;
  }
}

/// amp_lr_schedule on memory: reads the count first (new_count may equal
/// count), then writes the factor rounded to f32 once and s + 1 in f32 (as
/// Adam's step counter: exact up to 2^24).
inline AMP_HOST_DEVICE void lrScheduleInMemory(const LrSchedule &p,
                                               const float *count,
                                               float *factor, float *newCount) {
  const double s = lrScheduleStep(*count);
  *factor = static_cast<float>(lrScheduleFactor(p, s));
  *newCount = static_cast<float>(s) + 1.0f;
}

//===----------------------------------------------------------------------===//
// SGD, Adam and AdamW
//===----------------------------------------------------------------------===//

/// torch.optim.SGD's scalars, as f32 kernel arguments.
struct SgdCoefs {
  float weightDecay, momentum, dampKeep, negLr;
  bool hasMomentum, nesterov;
};

/// The scalars from the checked attributes, lr the scheduled one
/// (scheduledLr); 1 - dampening is formed in f64 and rounded once, as
/// PyTorch forms it from Python floats.
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

/// torch.optim.AdamW's (decoupled) or torch.optim.Adam's (L2) scalars for
/// the step counter `step` (before the update) and the scheduled lr
/// (scheduledLr): t = step + 1 in f32; the bias corrections and products in
/// f64, rounded to f32 once. Decoupled decay multiplies the param by
/// `decay` (l2 = 0); the L2 penalty adds l2 * param to the gradient
/// (decay = 1, which adamStep skips). AMSGrad divides by the running
/// maximum of v' instead of v'.
struct AdamCoefs {
  float t, decay, l2, avgWeight, sqKeep, sqWeight, negStepSize, bc2Sqrt, eps;
  bool decoupled, amsgrad;
};

/// A step counter (Adam's, Adagrad's) after an update: step + 1 in f32
/// (exact up to 2^24).
inline AMP_HOST_DEVICE float stepCountAfter(float step) { return step + 1.0f; }

inline AMP_HOST_DEVICE AdamCoefs adamCoefs(float step, float lr, float beta1,
                                           float beta2, float eps,
                                           float weight_decay,
                                           int32_t decoupled_weight_decay,
                                           int32_t amsgrad) {
  AdamCoefs c;
  c.t = stepCountAfter(step);
  c.amsgrad = amsgrad != 0;
  const double b1 = beta1, b2 = beta2;
  const double biasCorrection1 = 1.0 - pow(b1, static_cast<double>(c.t));
  const double biasCorrection2 = 1.0 - pow(b2, static_cast<double>(c.t));
  c.decoupled = decoupled_weight_decay != 0;
  c.decay =
      c.decoupled ? static_cast<float>(1.0 - double(lr) * weight_decay) : 1.0f;
  c.l2 = c.decoupled ? 0.0f : weight_decay;
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

/// torch.maximum(a, b) in f32: NaN when either is NaN.
inline AMP_HOST_DEVICE float maximumF32(float a, float b) {
  if (a != a)
    return a;
  if (b != b)
    return b;
  return a < b ? b : a;
}

/// One element of the Adam(W) step: returns param'; *newM and *newV are m'
/// and v', and with AMSGrad *newVmax is max(vmax, v') (all unrounded, as
/// they feed param'; vmax and newVmax are unused without AMSGrad).
inline AMP_HOST_DEVICE float adamStep(const AdamCoefs &c, float param,
                                      float grad, float m, float v, float vmax,
                                      float *newM, float *newV,
                                      float *newVmax) {
  const float decayed = c.decoupled ? param * c.decay : param;
  const float g = c.l2 != 0.0f ? grad + c.l2 * param : grad;
  const float m1 = lerpF32(m, g, c.avgWeight);
  const float v1 = v * c.sqKeep + c.sqWeight * g * g;
  float w = v1;
  if (c.amsgrad) {
    w = maximumF32(vmax, v1);
    *newVmax = w;
  }
  const float denom = sqrtf(w) / c.bc2Sqrt + c.eps;
  *newM = m1;
  *newV = v1;
  return decayed + c.negStepSize * m1 / denom;
}

//===----------------------------------------------------------------------===//
// RAdam
//===----------------------------------------------------------------------===//

/// torch.optim.RAdam's scalars for the step counter `step` (before the
/// update) and the scheduled lr: t, the weight decay and the moment
/// weights as Adam's (adamCoefs); bc1 = f32(1 - beta1^t),
/// bc2Sqrt = f32(sqrt(1 - beta2^t)) and the rectification r (f32), formed
/// in f64 from Python floats in PyTorch; `rectified` when rho_t > 5.
struct RadamCoefs {
  AdamCoefs adam;
  float bc1, lr, bc2Sqrt, rect;
  bool rectified;
};

inline AMP_HOST_DEVICE RadamCoefs radamCoefs(float step, float lr, float beta1,
                                             float beta2, float eps,
                                             float weight_decay,
                                             int32_t decoupled_weight_decay) {
  RadamCoefs c;
  c.adam = adamCoefs(step, lr, beta1, beta2, eps, weight_decay,
                     decoupled_weight_decay, 0);
  const double t = c.adam.t, b1 = beta1, b2 = beta2;
  const double beta2T = pow(b2, t);
  const double biasCorrection2 = 1.0 - beta2T;
  c.bc1 = static_cast<float>(1.0 - pow(b1, t));
  c.lr = lr;
  c.bc2Sqrt = static_cast<float>(sqrt(biasCorrection2));
  const double rhoInf = 2.0 / (1.0 - b2) - 1.0;
  const double rhoT = rhoInf - 2.0 * t * beta2T / biasCorrection2;
  c.rectified = rhoT > 5.0;
  c.rect =
      c.rectified
          ? static_cast<float>(sqrt((rhoT - 4.0) * (rhoT - 2.0) * rhoInf /
                                    ((rhoInf - 4.0) * (rhoInf - 2.0) * rhoT)))
          : 0.0f;
  return c;
}

/// One element of the RAdam step in the op order of PyTorch's single-tensor
/// step (exp_avg / bc1 * lr, times ((1 / (sqrt(v') + eps)) * sqrt(bc2)) and
/// r when rectified; param.add_(x, alpha=-1)): returns param'; *newM and
/// *newV are m' and v', unrounded.
inline AMP_HOST_DEVICE float radamStep(const RadamCoefs &c, float param,
                                       float grad, float m, float v,
                                       float *newM, float *newV) {
  const AdamCoefs &a = c.adam;
  const float decayed = a.decoupled ? param * a.decay : param;
  const float g = a.l2 != 0.0f ? grad + a.l2 * param : grad;
  const float m1 = lerpF32(m, g, a.avgWeight);
  const float v1 = v * a.sqKeep + a.sqWeight * g * g;
  *newM = m1;
  *newV = v1;
  float x = m1 / c.bc1 * c.lr;
  if (c.rectified)
    x = x * (1.0f / (sqrtf(v1) + a.eps) * c.bc2Sqrt) * c.rect;
  return decayed + -1.0f * x;
}

//===----------------------------------------------------------------------===//
// RMSprop
//===----------------------------------------------------------------------===//

/// torch.optim.RMSprop's scalars, as f32 kernel arguments; 1 - alpha is
/// formed in f64 and rounded once, as PyTorch forms it from Python floats.
struct RmspropCoefs {
  float weightDecay, alpha, sqWeight, eps, momentum, negLr;
  bool hasMomentum, centered;
};

/// The scalars from the checked arguments, lr the scheduled one
/// (scheduledLr).
inline AMP_HOST_DEVICE RmspropCoefs rmspropCoefs(float lr, float alpha,
                                                 float eps, float weight_decay,
                                                 float momentum,
                                                 int32_t centered) {
  RmspropCoefs c;
  c.weightDecay = weight_decay;
  c.alpha = alpha;
  c.sqWeight = static_cast<float>(1.0 - static_cast<double>(alpha));
  c.eps = eps;
  c.momentum = momentum;
  c.negLr = -lr;
  c.hasMomentum = momentum > 0.0f;
  c.centered = centered != 0;
  return c;
}

/// One element of the RMSprop step, in the op order of PyTorch's
/// single-tensor step (square_avg.mul_(alpha).addcmul_(g, g, 1 - alpha);
/// grad_avg.lerp_(g, 1 - alpha); addcmul(a, a, -1).sqrt_().add_(eps);
/// buf.mul_(momentum).addcdiv_(g, avg); param.add_(buf, -lr) or
/// param.addcdiv_(g, avg, -lr)): returns param'; *newV is v', and *newA
/// (centered) and *newBuf (momentum) are a' and buf', unrounded.
inline AMP_HOST_DEVICE float rmspropStep(const RmspropCoefs &c, float param,
                                         float grad, float v, float a,
                                         float buf, float *newV, float *newA,
                                         float *newBuf) {
  const float g = c.weightDecay != 0.0f ? grad + c.weightDecay * param : grad;
  const float v1 = v * c.alpha + c.sqWeight * g * g;
  *newV = v1;
  float avg;
  if (c.centered) {
    const float a1 = lerpF32(a, g, c.sqWeight);
    *newA = a1;
    avg = sqrtf(v1 + -1.0f * a1 * a1);
  } else {
    avg = sqrtf(v1);
  }
  avg = avg + c.eps;
  if (c.hasMomentum) {
    const float b = buf * c.momentum + g / avg;
    *newBuf = b;
    return param + c.negLr * b;
  }
  return param + c.negLr * g / avg;
}

//===----------------------------------------------------------------------===//
// Adagrad
//===----------------------------------------------------------------------===//

/// torch.optim.Adagrad's scalars, as f32 kernel arguments; negLr is -clr.
struct AdagradCoefs {
  float weightDecay, eps, negLr;
};

/// PyTorch's clr for the count of earlier steps `step`: lr / (1 + step *
/// lr_decay) in f64 (PyTorch's Python floats), rounded to f32 once; lr
/// itself when lr_decay = 0 (then there is no counter to read).
inline AMP_HOST_DEVICE float adagradLr(float lr, float lr_decay, float step) {
  if (lr_decay == 0.0f)
    return lr;
  return static_cast<float>(
      static_cast<double>(lr) /
      (1.0 + static_cast<double>(step) * static_cast<double>(lr_decay)));
}

/// The scalars from the checked arguments, clr from adagradLr (with the
/// scheduled lr, scheduledLr).
inline AMP_HOST_DEVICE AdagradCoefs adagradCoefs(float clr, float eps,
                                                 float weight_decay) {
  return {weight_decay, eps, -clr};
}

/// One element of the Adagrad step, in the op order of PyTorch's
/// single-tensor step (grad.add(param, alpha=wd);
/// state_sum.addcmul_(grad, grad, value=1); std = state_sum.sqrt().add_(eps);
/// param.addcdiv_(grad, std, value=-clr)): returns param'; *newSum is sum',
/// unrounded.
inline AMP_HOST_DEVICE float adagradStep(const AdagradCoefs &c, float param,
                                         float grad, float sum, float *newSum) {
  const float g = c.weightDecay != 0.0f ? grad + c.weightDecay * param : grad;
  const float s1 = sum + g * g;
  *newSum = s1;
  const float denom = sqrtf(s1) + c.eps;
  return param + c.negLr * g / denom;
}

//===----------------------------------------------------------------------===//
// Adafactor
//===----------------------------------------------------------------------===//

/// torch.optim.Adafactor's scalars for the step counter `step` (before the
/// update) and the scheduled lr (scheduledLr): t = step + 1 in f32, beta =
/// t^beta2_decay (f64 pow, rounded to f32 as lerp_ rounds its weight), rho
/// = min(lr, 1 / sqrt(t)) in f64, decay = 1 - lr * weight_decay rounded to
/// f32 (1 when weight_decay = 0, which the update then skips), eps1Sq =
/// eps1^2 rounded to f32 (the clamp of the variance estimate).
struct AdafactorCoefs {
  float t, beta, decay, eps1, eps1Sq;
  double rho, eps2, d;
};

inline AMP_HOST_DEVICE AdafactorCoefs adafactorCoefs(float step, float lr,
                                                     float beta2_decay,
                                                     float eps1, float eps2,
                                                     float d,
                                                     float weight_decay) {
  AdafactorCoefs c;
  c.t = stepCountAfter(step);
  const double t = c.t;
  c.beta = static_cast<float>(pow(t, static_cast<double>(beta2_decay)));
  const double invSqrt = 1.0 / sqrt(t);
  c.rho = double(lr) < invSqrt ? double(lr) : invSqrt;
  c.decay = weight_decay != 0.0f
                ? static_cast<float>(1.0 - double(lr) * weight_decay)
                : 1.0f;
  c.eps1 = eps1;
  c.eps1Sq = static_cast<float>(double(eps1) * double(eps1));
  c.eps2 = eps2;
  c.d = d;
  return c;
}

/// PyTorch's lerp(a, b, w) in f32: a + w * (b - a) for |w| < 0.5, else
/// b - (b - a) * (1 - w) (exactly b at w = 1, the first step's weight).
inline AMP_HOST_DEVICE float adafactorLerp(float a, float b, float w) {
  return fabsf(w) < 0.5f ? a + w * (b - a) : b - (b - a) * (1.0f - w);
}

/// The mean square of a row or column from its f32 sum of squares, as
/// vector_norm(g, dim).square_().div_(size): the norm rounded, squared,
/// divided.
inline AMP_HOST_DEVICE float adafactorMeanSquare(float sumSquares,
                                                 int64_t size) {
  const float norm = sqrtf(sumSquares);
  return norm * norm / static_cast<float>(size);
}

/// One element of the update direction u = g / sqrt(max(v, eps1^2)) for
/// the variance estimate v (rsqrt as 1 / sqrtf, correctly rounded).
inline AMP_HOST_DEVICE float adafactorDirection(const AdafactorCoefs &c,
                                                float v, float grad) {
  const float clamped = v < c.eps1Sq ? c.eps1Sq : v;
  return 1.0f / sqrtf(clamped) * grad;
}

/// The factored variance estimate of one element: row * col / max(rowMean,
/// eps1) (torch.clamp(min=eps1): a NaN mean stays NaN).
inline AMP_HOST_DEVICE float adafactorFactored(const AdafactorCoefs &c,
                                               float row, float col,
                                               float rowMean) {
  const float mean = rowMean < c.eps1 ? c.eps1 : rowMean;
  return row * col / mean;
}

/// The step of the update direction, f32(-alpha / denom), from the f32
/// norms of the param (before decay) and of the direction over n elements:
/// alpha = max(eps2, ||param|| / sqrt(n)) * rho, denom = max(1, ||u|| /
/// (sqrt(n) * d)), in f64 as PyTorch's .item() arithmetic.
inline AMP_HOST_DEVICE float adafactorNegStep(const AdafactorCoefs &c,
                                              float paramNorm, float dirNorm,
                                              int64_t n) {
  const double sqrtN = sqrt(static_cast<double>(n));
  const double rms = double(paramNorm) / sqrtN;
  const double alpha = (rms > c.eps2 ? rms : c.eps2) * c.rho;
  const double ratio = double(dirNorm) / (sqrtN * c.d);
  const double denom = ratio > 1.0 ? ratio : 1.0;
  return static_cast<float>(-alpha / denom);
}

/// One element of the param update: param * decay (when decaying), then
/// + negStep * u.
inline AMP_HOST_DEVICE float
adafactorApply(const AdafactorCoefs &c, float param, float negStep, float dir) {
  const float p = c.decay != 1.0f ? param * c.decay : param;
  return p + negStep * dir;
}

//===----------------------------------------------------------------------===//
// Gradient-norm clipping
//===----------------------------------------------------------------------===//

/// The norms clip_grad_norm_'s norm_type p names: the sum of squares'
/// root (2), the sum of magnitudes (1), the largest magnitude (inf) and
/// the general p-norm. The kernels run one instantiation per kind.
enum class ClipNormKind : int32_t { L2, L1, Inf, Power };

inline AMP_HOST_DEVICE ClipNormKind clipNormKind(float p) {
  return p == 2.0f   ? ClipNormKind::L2
         : p == 1.0f ? ClipNormKind::L1
         : isinf(p)  ? ClipNormKind::Inf
                     : ClipNormKind::Power;
}

/// What one element (or one buffer's norm) adds to a norm: v^2, |v| or
/// |v|^p.
template <ClipNormKind K>
inline AMP_HOST_DEVICE float clipNormTerm(float v, float p) {
  if (K == ClipNormKind::L2)
    return v * v;
  if (K == ClipNormKind::Power)
    return powf(fabsf(v), p);
  return fabsf(v);
}

/// Two partial norms together: their sum, or for inf the larger (NaN
/// wins, as torch.amax).
template <ClipNormKind K>
inline AMP_HOST_DEVICE float clipNormAdd(float acc, float term) {
  if (K == ClipNormKind::Inf)
    return (term > acc || term != term) ? term : acc;
  return acc + term;
}

/// The norm of the combined terms: sqrtf for 2, powf(acc, 1 / p) for p,
/// the value itself for 1 and inf.
template <ClipNormKind K>
inline AMP_HOST_DEVICE float clipNormRoot(float acc, float p) {
  if (K == ClipNormKind::L2)
    return sqrtf(acc);
  if (K == ClipNormKind::Power)
    return powf(acc, 1.0f / p);
  return acc;
}

/// f(tag) with decltype(tag)::value the kind of p, a constant.
template <ClipNormKind K> struct ClipNormTag {
  static constexpr ClipNormKind value = K;
};
template <typename F> auto withClipNorm(float p, F &&f) {
  switch (clipNormKind(p)) {
  case ClipNormKind::L2:
    return f(ClipNormTag<ClipNormKind::L2>());
  case ClipNormKind::L1:
    return f(ClipNormTag<ClipNormKind::L1>());
  case ClipNormKind::Inf:
    return f(ClipNormTag<ClipNormKind::Inf>());
  case ClipNormKind::Power:
    break;
  }
  return f(ClipNormTag<ClipNormKind::Power>());
}

/// clip_grad_value_'s clamp to [-c, c], NaN kept (torch.clamp).
inline AMP_HOST_DEVICE float clipValue(float v, float c) {
  return v < -c ? -c : (v > c ? c : v);
}

/// torch.lerp's form for a weight below 0.5, each operation rounded to f32:
/// average + w * (value - average).
inline AMP_HOST_DEVICE float emaStep(float average, float value, float w) {
  const float d = value - average;
  const float m = d * w;
  return average + m;
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
