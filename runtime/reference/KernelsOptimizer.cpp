//===- KernelsOptimizer.cpp - the optimizer updates and clipping ----------===//
//
// amp_lr_schedule, amp_sgd_update, amp_adam_update, amp_radam_update,
// amp_rmsprop_update, amp_adagrad_update, amp_adafactor_update (and their
// _multi forms, a loop over the buffers), amp_clip_grad_norm,
// amp_clip_grad_value and amp_ema_update on the
// reference backend. The checks are OptimizerChecks.h and the scalar and
// per-element math OptimizerMath.h, both shared with the CUDA backend. The
// updates follow the op order of PyTorch's single-tensor torch.optim.SGD /
// AdamW / RMSprop / Adagrad / Adafactor in f32, with the scalar coefficients
// (the scheduled lr among them) formed in f64 and rounded once, and honour
// the found_inf predicate of amp.skip_step_if: a set flag leaves every output
// bitwise equal to its input.
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"
#include "reference/OptimizerChecks.h"
#include "reference/OptimizerMath.h"

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

/// The blocks of a blocked sum: 256 sequential terms each.
constexpr int64_t kSumBlock = 256;

/// The f32 combination, by clipNormAdd<K> from 0, of clipNormTerm<K>(v, p)
/// of the values visit(begin, end, add) passes to add(v) for i in
/// [begin, end) in order: each block of kSumBlock terms combined in order,
/// then the blocks' results in order (for a sum, an error bound of about
/// (256 + n / 256) units of f32 roundoff instead of n). The cpu backend
/// combines the blocks in parallel; the order, and so the result, is the
/// same on every backend and thread count.
template <ClipNormKind K, typename Visit>
float blockedNormTerms(int64_t n, float p, Visit visit) {
  auto block = [&](int64_t begin, int64_t end) {
    float acc = 0.0f;
    visit(begin, end,
          [&](float v) { acc = clipNormAdd<K>(acc, clipNormTerm<K>(v, p)); });
    return acc;
  };
  if (n <= kSumBlock)
    return block(0, n);
  std::vector<float> blocks(static_cast<size_t>((n - 1) / kSumBlock + 1));
  parallelChunks(n, kSumBlock, [&](int64_t begin, int64_t end) {
    blocks[begin / kSumBlock] = block(begin, end);
  });
  float total = 0.0f;
  for (float b : blocks)
    total = clipNormAdd<K>(total, b);
  return total;
}

/// The blocked f32 sum of the squares of the values visit passes.
template <typename Visit> float blockedSumOfSquares(int64_t n, Visit visit) {
  return blockedNormTerms<ClipNormKind::L2>(n, 2.0f, visit);
}

/// blockedNormTerms<K> of the n elements of x.
template <ClipNormKind K, typename T>
float normTerms(const T *x, int64_t n, float p) {
  return blockedNormTerms<K>(n, p, [x](int64_t begin, int64_t end, auto add) {
    for (int64_t i = begin; i < end; ++i)
      add(toF32(x[i]));
  });
}

/// blockedSumOfSquares of the n elements of x.
template <typename T> float sumOfSquares(const T *x, int64_t n) {
  return normTerms<ClipNormKind::L2>(x, n, 2.0f);
}

/// The SGD update of one checked buffer.
void sgdCompute(const void *param, const void *grad, const void *momentum_buf,
                void *new_param, void *new_momentum_buf, int64_t n,
                amp_dtype_t dtype, const SgdCoefs &c, const int8_t *found_inf) {
  if (skipStep(found_inf)) {
    keep(param, new_param, n, dtype);
    if (c.hasMomentum)
      keep(momentum_buf, new_momentum_buf, n, dtype);
    return;
  }
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    const T *p = static_cast<const T *>(param);
    const T *gp = static_cast<const T *>(grad);
    const T *buf = static_cast<const T *>(momentum_buf);
    T *np = static_cast<T *>(new_param);
    T *nbuf = static_cast<T *>(new_momentum_buf);
    // By value: the coefficients stay in registers (parallelFor).
    parallelFor(n, [=](int64_t i) {
      float b = 0.0f;
      const float pv = sgdStep(c, toF32(p[i]), toF32(gp[i]),
                               c.hasMomentum ? toF32(buf[i]) : 0.0f, &b);
      if (c.hasMomentum)
        nbuf[i] = fromF32<T>(b);
      np[i] = fromF32<T>(pv);
    });
  });
}

/// An update with Adam's moments and step counter (Adam's, RAdam's) of one
/// checked buffer: `coefsOf(step)` the coefficients for the counter before
/// the update, `elementStep(c, p, g, m, v, vmax, &m', &v', &vmax')` one
/// element's step; the maxima (AMSGrad's) only when `maxima`.
template <typename CoefsOf, typename ElementStep>
void momentsCompute(const void *param, const void *grad, const void *exp_avg,
                    const void *exp_avg_sq, const float *step,
                    const void *max_exp_avg_sq, void *new_param,
                    void *new_exp_avg, void *new_exp_avg_sq, float *new_step,
                    void *new_max_exp_avg_sq, int64_t n, amp_dtype_t dtype,
                    bool maxima, const int8_t *found_inf, CoefsOf coefsOf,
                    ElementStep elementStep) {
  const float stepBefore = *step;
  if (skipStep(found_inf)) {
    keep(param, new_param, n, dtype);
    keep(exp_avg, new_exp_avg, n, dtype);
    keep(exp_avg_sq, new_exp_avg_sq, n, dtype);
    if (maxima)
      keep(max_exp_avg_sq, new_max_exp_avg_sq, n, dtype);
    *new_step = stepBefore;
    return;
  }
  const auto c = coefsOf(stepBefore);
  dispatchFloat(dtype, [&](auto tag) {
    using T = decltype(tag);
    const T *p = static_cast<const T *>(param);
    const T *gp = static_cast<const T *>(grad);
    const T *m = static_cast<const T *>(exp_avg);
    const T *v = static_cast<const T *>(exp_avg_sq);
    const T *vmax = static_cast<const T *>(max_exp_avg_sq);
    T *np = static_cast<T *>(new_param);
    T *nm = static_cast<T *>(new_exp_avg);
    T *nv = static_cast<T *>(new_exp_avg_sq);
    T *nvmax = static_cast<T *>(new_max_exp_avg_sq);
    parallelFor(n, [=](int64_t i) {
      float m1, v1, vmax1;
      const float p1 =
          elementStep(c, toF32(p[i]), toF32(gp[i]), toF32(m[i]), toF32(v[i]),
                      maxima ? toF32(vmax[i]) : 0.0f, &m1, &v1, &vmax1);
      nm[i] = fromF32<T>(m1);
      nv[i] = fromF32<T>(v1);
      if (maxima)
        nvmax[i] = fromF32<T>(vmax1);
      np[i] = fromF32<T>(p1);
    });
  });
  *new_step = stepCountAfter(stepBefore);
}

/// The Adam(W) update of one checked buffer; lr is the scheduled one. The
/// scalars are those of torch.optim.Adam(W)'s single-tensor step, which
/// PyTorch computes in Python (f64) and passes to f32 kernels.
void adamCompute(const void *param, const void *grad, const void *exp_avg,
                 const void *exp_avg_sq, const float *step,
                 const void *max_exp_avg_sq, void *new_param, void *new_exp_avg,
                 void *new_exp_avg_sq, float *new_step,
                 void *new_max_exp_avg_sq, int64_t n, amp_dtype_t dtype,
                 float lr, float beta1, float beta2, float eps,
                 float weight_decay, int32_t decoupled_weight_decay,
                 int32_t amsgrad, const int8_t *found_inf) {
  momentsCompute(
      param, grad, exp_avg, exp_avg_sq, step, max_exp_avg_sq, new_param,
      new_exp_avg, new_exp_avg_sq, new_step, new_max_exp_avg_sq, n, dtype,
      amsgrad != 0, found_inf,
      [&](float before) {
        return adamCoefs(before, lr, beta1, beta2, eps, weight_decay,
                         decoupled_weight_decay, amsgrad);
      },
      [](const AdamCoefs &c, float p, float g, float m, float v, float vmax,
         float *m1, float *v1, float *vmax1) {
        return adamStep(c, p, g, m, v, vmax, m1, v1, vmax1);
      });
}

/// The RAdam update of one checked buffer; lr is the scheduled one.
void radamCompute(const void *param, const void *grad, const void *exp_avg,
                  const void *exp_avg_sq, const float *step, void *new_param,
                  void *new_exp_avg, void *new_exp_avg_sq, float *new_step,
                  int64_t n, amp_dtype_t dtype, float lr, float beta1,
                  float beta2, float eps, float weight_decay,
                  int32_t decoupled_weight_decay, const int8_t *found_inf) {
  momentsCompute(
      param, grad, exp_avg, exp_avg_sq, step, nullptr, new_param, new_exp_avg,
      new_exp_avg_sq, new_step, nullptr, n, dtype, false, found_inf,
      [&](float before) {
        return radamCoefs(before, lr, beta1, beta2, eps, weight_decay,
                          decoupled_weight_decay);
      },
      [](const RadamCoefs &c, float p, float g, float m, float v, float,
         float *m1, float *v1,
         float *) { return radamStep(c, p, g, m, v, m1, v1); });
}

/// The RMSprop update of one checked buffer.
void rmspropCompute(const void *param, const void *grad, const void *square_avg,
                    const void *momentum_buf, const void *grad_avg,
                    void *new_param, void *new_square_avg,
                    void *new_momentum_buf, void *new_grad_avg, int64_t n,
                    amp_dtype_t dtype, const RmspropCoefs &c,
                    const int8_t *found_inf) {
  if (skipStep(found_inf)) {
    keep(param, new_param, n, dtype);
    keep(square_avg, new_square_avg, n, dtype);
    if (c.hasMomentum)
      keep(momentum_buf, new_momentum_buf, n, dtype);
    if (c.centered)
      keep(grad_avg, new_grad_avg, n, dtype);
    return;
  }
  dispatchFloat(dtype, [&](auto tag) {
    using T = decltype(tag);
    const T *p = static_cast<const T *>(param);
    const T *gp = static_cast<const T *>(grad);
    const T *v = static_cast<const T *>(square_avg);
    const T *buf = static_cast<const T *>(momentum_buf);
    const T *a = static_cast<const T *>(grad_avg);
    T *np = static_cast<T *>(new_param);
    T *nv = static_cast<T *>(new_square_avg);
    T *nbuf = static_cast<T *>(new_momentum_buf);
    T *na = static_cast<T *>(new_grad_avg);
    parallelFor(n, [=](int64_t i) {
      float v1 = 0.0f, a1 = 0.0f, b1 = 0.0f;
      const float p1 =
          rmspropStep(c, toF32(p[i]), toF32(gp[i]), toF32(v[i]),
                      c.centered ? toF32(a[i]) : 0.0f,
                      c.hasMomentum ? toF32(buf[i]) : 0.0f, &v1, &a1, &b1);
      nv[i] = fromF32<T>(v1);
      if (c.centered)
        na[i] = fromF32<T>(a1);
      if (c.hasMomentum)
        nbuf[i] = fromF32<T>(b1);
      np[i] = fromF32<T>(p1);
    });
  });
}

/// The Adagrad update of one checked buffer; lr is the scheduled one, and
/// step and new_step are given when lr_decay > 0.
void adagradCompute(const void *param, const void *grad, const void *state_sum,
                    const float *step, void *new_param, void *new_state_sum,
                    float *new_step, int64_t n, amp_dtype_t dtype, float lr,
                    float lr_decay, float eps, float weight_decay,
                    const int8_t *found_inf) {
  const float stepBefore = step ? *step : 0.0f;
  if (skipStep(found_inf)) {
    keep(param, new_param, n, dtype);
    keep(state_sum, new_state_sum, n, dtype);
    if (step)
      *new_step = stepBefore;
    return;
  }
  const AdagradCoefs c =
      adagradCoefs(adagradLr(lr, lr_decay, stepBefore), eps, weight_decay);
  dispatchFloat(dtype, [&](auto tag) {
    using T = decltype(tag);
    const T *p = static_cast<const T *>(param);
    const T *gp = static_cast<const T *>(grad);
    const T *s = static_cast<const T *>(state_sum);
    T *np = static_cast<T *>(new_param);
    T *ns = static_cast<T *>(new_state_sum);
    parallelFor(n, [=](int64_t i) {
      float s1;
      const float p1 =
          adagradStep(c, toF32(p[i]), toF32(gp[i]), toF32(s[i]), &s1);
      ns[i] = fromF32<T>(s1);
      np[i] = fromF32<T>(p1);
    });
  });
  if (step)
    *new_step = stepCountAfter(stepBefore);
}

/// Calls f(i, row, col, b) for the elements i in [begin, end) of a [B,
/// rows, cols] tensor in order, with row = i / cols (its row over all
/// batches: the index into row_var), b = row / rows and col = b * cols +
/// i % cols (the index into col_var), stepped rather than divided per
/// element.
template <typename F>
void forEachFactored(int64_t begin, int64_t end, int64_t rows, int64_t cols,
                     F &&f) {
  int64_t row = begin / cols, k = begin % cols;
  int64_t b = row / rows, rowInBatch = row % rows;
  for (int64_t i = begin; i < end; ++i) {
    f(i, row, b * cols + k, b);
    if (++k == cols) {
      k = 0;
      ++row;
      if (++rowInBatch == rows) {
        rowInBatch = 0;
        ++b;
      }
    }
  }
}

/// The Adafactor update of one checked buffer; lr is the scheduled one.
/// Factored (row_var given), the param is [n / (rows * cols), rows, cols].
/// The states are written first and read back, so the estimate uses the
/// stored (rounded) values, as PyTorch's in-place lerp_ does. The update
/// direction u is computed twice (for its norm, then for the update), never
/// stored.
void adafactorCompute(const void *param, const void *grad, const void *row_var,
                      const void *col_var, const void *variance,
                      const float *step, void *new_param, void *new_row_var,
                      void *new_col_var, void *new_variance, float *new_step,
                      int64_t n, amp_dtype_t dtype, int64_t rows, int64_t cols,
                      float lr, float beta2_decay, float eps1, float eps2,
                      float d, float weight_decay, const int8_t *found_inf) {
  const float stepBefore = *step;
  const bool factored = row_var != nullptr;
  const int64_t batch = factored ? n / (rows * cols) : 0;
  if (skipStep(found_inf)) {
    keep(param, new_param, n, dtype);
    if (factored) {
      keep(row_var, new_row_var, batch * rows, dtype);
      keep(col_var, new_col_var, batch * cols, dtype);
    } else {
      keep(variance, new_variance, n, dtype);
    }
    *new_step = stepBefore;
    return;
  }
  const AdafactorCoefs c = adafactorCoefs(stepBefore, lr, beta2_decay, eps1,
                                          eps2, d, weight_decay);
  dispatchFloat(dtype, [&](auto tag) {
    using T = decltype(tag);
    const T *p = static_cast<const T *>(param);
    const T *g = static_cast<const T *>(grad);
    T *np = static_cast<T *>(new_param);
    const float paramNorm = sqrtf(sumOfSquares(p, n));
    // The norm of u, then the update, from walk(begin, end, f), which
    // calls f(i, u_i) for i in [begin, end) in order.
    auto update = [&](auto walk) {
      const float dirNorm = sqrtf(blockedSumOfSquares(
          n, [&](int64_t begin, int64_t end, auto add) {
            walk(begin, end, [&](int64_t, float u) { add(u); });
          }));
      const float negStep = adafactorNegStep(c, paramNorm, dirNorm, n);
      parallelChunks(n, kSumBlock, [&](int64_t begin, int64_t end) {
        walk(begin, end, [&](int64_t i, float u) {
          np[i] = fromF32<T>(adafactorApply(c, toF32(p[i]), negStep, u));
        });
      });
    };
    if (!factored) {
      const T *v = static_cast<const T *>(variance);
      T *nv = static_cast<T *>(new_variance);
      parallelFor(n, [=](int64_t i) {
        const float gv = toF32(g[i]);
        nv[i] = fromF32<T>(adafactorLerp(toF32(v[i]), gv * gv, c.beta));
      });
      update([&](int64_t begin, int64_t end, auto f) {
        for (int64_t i = begin; i < end; ++i)
          f(i, adafactorDirection(c, toF32(nv[i]), toF32(g[i])));
      });
      return;
    }
    const T *rv = static_cast<const T *>(row_var);
    const T *cv = static_cast<const T *>(col_var);
    T *nrv = static_cast<T *>(new_row_var);
    T *ncv = static_cast<T *>(new_col_var);
    // Each row's mean square (its sum in blocks), in parallel over rows.
    parallelRanges(batch * rows, cols, [&](int64_t begin, int64_t end) {
      for (int64_t row = begin; row < end; ++row) {
        const T *gr = g + row * cols;
        const float sum = sumOfSquares(gr, cols);
        nrv[row] = fromF32<T>(adafactorLerp(
            toF32(rv[row]), adafactorMeanSquare(sum, cols), c.beta));
      }
    });
    // Each column's sum over its rows in row order, in parallel over
    // ranges of columns; the mean of each batch's new row_var.
    std::vector<float> rowMeans(static_cast<size_t>(batch));
    for (int64_t b = 0; b < batch; ++b) {
      const T *gb = g + b * rows * cols;
      parallelRanges(cols, rows, [&](int64_t begin, int64_t end) {
        std::vector<float> sums(static_cast<size_t>(end - begin));
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t k = begin; k < end; ++k) {
            const float v = toF32(gb[r * cols + k]);
            sums[k - begin] += v * v;
          }
        for (int64_t k = begin; k < end; ++k) {
          const int64_t at = b * cols + k;
          ncv[at] = fromF32<T>(adafactorLerp(
              toF32(cv[at]), adafactorMeanSquare(sums[k - begin], rows),
              c.beta));
        }
      });
      float rowSum = 0.0f;
      for (int64_t r = 0; r < rows; ++r)
        rowSum += toF32(nrv[b * rows + r]);
      rowMeans[b] = rowSum / static_cast<float>(rows);
    }
    update([&](int64_t begin, int64_t end, auto f) {
      forEachFactored(begin, end, rows, cols,
                      [&](int64_t i, int64_t row, int64_t col, int64_t b) {
                        const float v =
                            adafactorFactored(c, toF32(nrv[row]),
                                              toF32(ncv[col]), rowMeans[b]);
                        f(i, adafactorDirection(c, v, toF32(g[i])));
                      });
    });
  });
  *new_step = c.t;
}

} // namespace

extern "C" {

amp_status_t amp_lr_schedule(const float *count, float *factor,
                             float *new_count, amp_lr_schedule_t kind,
                             int64_t warmup_steps, float warmup_start_factor,
                             int64_t total_steps, float final_factor,
                             int64_t step_size, float gamma, float power,
                             const int64_t *milestones, int32_t num_milestones,
                             void * /*stream*/) {
  Checker check("amp_lr_schedule");
  LrSchedule schedule;
  if (amp_status_t s = checkLrSchedule(
          check, count, factor, new_count, kind, warmup_steps,
          warmup_start_factor, total_steps, final_factor, step_size, gamma,
          power, milestones, num_milestones, &schedule))
    return s;
  lrScheduleInMemory(schedule, count, factor, new_count);
  return AMP_STATUS_OK;
}

amp_status_t amp_sgd_update(const void *param, const void *grad,
                            const void *momentum_buf, void *new_param,
                            void *new_momentum_buf, int64_t n,
                            amp_dtype_t dtype, float lr, const float *lr_factor,
                            float momentum, float dampening, float weight_decay,
                            int32_t nesterov, const int8_t *found_inf,
                            void * /*stream*/) {
  Checker check("amp_sgd_update");
  bool hasMomentum = false;
  if (amp_status_t s = checkSgdUpdate(
          check, param, grad, momentum_buf, new_param, new_momentum_buf, n,
          dtype, lr, momentum, dampening, weight_decay, nesterov, &hasMomentum))
    return s;
  sgdCompute(param, grad, momentum_buf, new_param, new_momentum_buf, n, dtype,
             sgdCoefs(scheduledLr(lr, lr_factor), momentum, dampening,
                      weight_decay, nesterov),
             found_inf);
  return AMP_STATUS_OK;
}

amp_status_t
amp_sgd_update_multi(int32_t n_buffers, const void *const *params,
                     const void *const *grads, const void *const *momentum_bufs,
                     void *const *new_params, void *const *new_momentum_bufs,
                     const int64_t *sizes, const amp_dtype_t *dtypes, float lr,
                     const float *lr_factor, float momentum, float dampening,
                     float weight_decay, int32_t nesterov,
                     const int8_t *found_inf, void * /*stream*/) {
  Checker check("amp_sgd_update_multi");
  bool hasMomentum = false;
  if (amp_status_t s = checkSgdUpdateMulti(
          check, n_buffers, params, grads, momentum_bufs, new_params,
          new_momentum_bufs, sizes, dtypes, lr, momentum, dampening,
          weight_decay, nesterov, &hasMomentum))
    return s;
  const SgdCoefs c = sgdCoefs(scheduledLr(lr, lr_factor), momentum, dampening,
                              weight_decay, nesterov);
  for (int32_t i = 0; i < n_buffers; ++i)
    sgdCompute(params[i], grads[i], hasMomentum ? momentum_bufs[i] : nullptr,
               new_params[i], hasMomentum ? new_momentum_bufs[i] : nullptr,
               sizes[i], dtypes[i], c, found_inf);
  return AMP_STATUS_OK;
}

amp_status_t
amp_adam_update(const void *param, const void *grad, const void *exp_avg,
                const void *exp_avg_sq, const float *step,
                const void *max_exp_avg_sq, void *new_param, void *new_exp_avg,
                void *new_exp_avg_sq, float *new_step, void *new_max_exp_avg_sq,
                int64_t n, amp_dtype_t dtype, float lr, const float *lr_factor,
                float beta1, float beta2, float eps, float weight_decay,
                int32_t decoupled_weight_decay, int32_t amsgrad,
                const int8_t *found_inf, void * /*stream*/) {
  Checker check("amp_adam_update");
  if (amp_status_t s = checkAdamUpdate(
          check, param, grad, exp_avg, exp_avg_sq, step, max_exp_avg_sq,
          new_param, new_exp_avg, new_exp_avg_sq, new_step, new_max_exp_avg_sq,
          n, dtype, lr, beta1, beta2, eps, weight_decay, decoupled_weight_decay,
          amsgrad))
    return s;
  adamCompute(param, grad, exp_avg, exp_avg_sq, step, max_exp_avg_sq, new_param,
              new_exp_avg, new_exp_avg_sq, new_step, new_max_exp_avg_sq, n,
              dtype, scheduledLr(lr, lr_factor), beta1, beta2, eps,
              weight_decay, decoupled_weight_decay, amsgrad, found_inf);
  return AMP_STATUS_OK;
}

amp_status_t amp_adam_update_multi(
    int32_t n_buffers, const void *const *params, const void *const *grads,
    const void *const *exp_avgs, const void *const *exp_avg_sqs,
    const float *const *steps, const void *const *max_exp_avg_sqs,
    void *const *new_params, void *const *new_exp_avgs,
    void *const *new_exp_avg_sqs, float *const *new_steps,
    void *const *new_max_exp_avg_sqs, const int64_t *sizes,
    const amp_dtype_t *dtypes, float lr, const float *lr_factor, float beta1,
    float beta2, float eps, float weight_decay, int32_t decoupled_weight_decay,
    int32_t amsgrad, const int8_t *found_inf, void * /*stream*/) {
  Checker check("amp_adam_update_multi");
  if (amp_status_t s = checkAdamUpdateMulti(
          check, n_buffers, params, grads, exp_avgs, exp_avg_sqs, steps,
          max_exp_avg_sqs, new_params, new_exp_avgs, new_exp_avg_sqs, new_steps,
          new_max_exp_avg_sqs, sizes, dtypes, lr, beta1, beta2, eps,
          weight_decay, decoupled_weight_decay, amsgrad))
    return s;
  const float scheduled = scheduledLr(lr, lr_factor);
  for (int32_t i = 0; i < n_buffers; ++i)
    adamCompute(params[i], grads[i], exp_avgs[i], exp_avg_sqs[i], steps[i],
                amsgrad ? max_exp_avg_sqs[i] : nullptr, new_params[i],
                new_exp_avgs[i], new_exp_avg_sqs[i], new_steps[i],
                amsgrad ? new_max_exp_avg_sqs[i] : nullptr, sizes[i], dtypes[i],
                scheduled, beta1, beta2, eps, weight_decay,
                decoupled_weight_decay, amsgrad, found_inf);
  return AMP_STATUS_OK;
}

amp_status_t amp_radam_update(const void *param, const void *grad,
                              const void *exp_avg, const void *exp_avg_sq,
                              const float *step, void *new_param,
                              void *new_exp_avg, void *new_exp_avg_sq,
                              float *new_step, int64_t n, amp_dtype_t dtype,
                              float lr, const float *lr_factor, float beta1,
                              float beta2, float eps, float weight_decay,
                              int32_t decoupled_weight_decay,
                              const int8_t *found_inf, void * /*stream*/) {
  Checker check("amp_radam_update");
  if (amp_status_t s = checkAdamUpdate(
          check, param, grad, exp_avg, exp_avg_sq, step, nullptr, new_param,
          new_exp_avg, new_exp_avg_sq, new_step, nullptr, n, dtype, lr, beta1,
          beta2, eps, weight_decay, decoupled_weight_decay, 0))
    return s;
  radamCompute(param, grad, exp_avg, exp_avg_sq, step, new_param, new_exp_avg,
               new_exp_avg_sq, new_step, n, dtype, scheduledLr(lr, lr_factor),
               beta1, beta2, eps, weight_decay, decoupled_weight_decay,
               found_inf);
  return AMP_STATUS_OK;
}

amp_status_t amp_radam_update_multi(
    int32_t n_buffers, const void *const *params, const void *const *grads,
    const void *const *exp_avgs, const void *const *exp_avg_sqs,
    const float *const *steps, void *const *new_params,
    void *const *new_exp_avgs, void *const *new_exp_avg_sqs,
    float *const *new_steps, const int64_t *sizes, const amp_dtype_t *dtypes,
    float lr, const float *lr_factor, float beta1, float beta2, float eps,
    float weight_decay, int32_t decoupled_weight_decay, const int8_t *found_inf,
    void * /*stream*/) {
  Checker check("amp_radam_update_multi");
  if (amp_status_t s = checkAdamUpdateMulti(
          check, n_buffers, params, grads, exp_avgs, exp_avg_sqs, steps,
          nullptr, new_params, new_exp_avgs, new_exp_avg_sqs, new_steps,
          nullptr, sizes, dtypes, lr, beta1, beta2, eps, weight_decay,
          decoupled_weight_decay, 0))
    return s;
  const float scheduled = scheduledLr(lr, lr_factor);
  for (int32_t i = 0; i < n_buffers; ++i)
    radamCompute(params[i], grads[i], exp_avgs[i], exp_avg_sqs[i], steps[i],
                 new_params[i], new_exp_avgs[i], new_exp_avg_sqs[i],
                 new_steps[i], sizes[i], dtypes[i], scheduled, beta1, beta2,
                 eps, weight_decay, decoupled_weight_decay, found_inf);
  return AMP_STATUS_OK;
}

amp_status_t amp_rmsprop_update(
    const void *param, const void *grad, const void *square_avg,
    const void *momentum_buf, const void *grad_avg, void *new_param,
    void *new_square_avg, void *new_momentum_buf, void *new_grad_avg, int64_t n,
    amp_dtype_t dtype, float lr, const float *lr_factor, float alpha, float eps,
    float weight_decay, float momentum, int32_t centered,
    const int8_t *found_inf, void * /*stream*/) {
  Checker check("amp_rmsprop_update");
  if (amp_status_t s = checkRmspropUpdate(
          check, param, grad, square_avg, momentum_buf, grad_avg, new_param,
          new_square_avg, new_momentum_buf, new_grad_avg, n, dtype, lr, alpha,
          eps, weight_decay, momentum, centered))
    return s;
  rmspropCompute(param, grad, square_avg, momentum_buf, grad_avg, new_param,
                 new_square_avg, new_momentum_buf, new_grad_avg, n, dtype,
                 rmspropCoefs(scheduledLr(lr, lr_factor), alpha, eps,
                              weight_decay, momentum, centered),
                 found_inf);
  return AMP_STATUS_OK;
}

amp_status_t amp_rmsprop_update_multi(
    int32_t n_buffers, const void *const *params, const void *const *grads,
    const void *const *square_avgs, const void *const *momentum_bufs,
    const void *const *grad_avgs, void *const *new_params,
    void *const *new_square_avgs, void *const *new_momentum_bufs,
    void *const *new_grad_avgs, const int64_t *sizes, const amp_dtype_t *dtypes,
    float lr, const float *lr_factor, float alpha, float eps,
    float weight_decay, float momentum, int32_t centered,
    const int8_t *found_inf, void * /*stream*/) {
  Checker check("amp_rmsprop_update_multi");
  if (amp_status_t s = checkRmspropUpdateMulti(
          check, n_buffers, params, grads, square_avgs, momentum_bufs,
          grad_avgs, new_params, new_square_avgs, new_momentum_bufs,
          new_grad_avgs, sizes, dtypes, lr, alpha, eps, weight_decay, momentum,
          centered))
    return s;
  const RmspropCoefs c = rmspropCoefs(scheduledLr(lr, lr_factor), alpha, eps,
                                      weight_decay, momentum, centered);
  for (int32_t i = 0; i < n_buffers; ++i)
    rmspropCompute(params[i], grads[i], square_avgs[i],
                   c.hasMomentum ? momentum_bufs[i] : nullptr,
                   c.centered ? grad_avgs[i] : nullptr, new_params[i],
                   new_square_avgs[i],
                   c.hasMomentum ? new_momentum_bufs[i] : nullptr,
                   c.centered ? new_grad_avgs[i] : nullptr, sizes[i], dtypes[i],
                   c, found_inf);
  return AMP_STATUS_OK;
}

amp_status_t amp_adagrad_update(const void *param, const void *grad,
                                const void *state_sum, const float *step,
                                void *new_param, void *new_state_sum,
                                float *new_step, int64_t n, amp_dtype_t dtype,
                                float lr, const float *lr_factor,
                                float lr_decay, float eps, float weight_decay,
                                const int8_t *found_inf, void * /*stream*/) {
  Checker check("amp_adagrad_update");
  if (amp_status_t s = checkAdagradUpdate(
          check, param, grad, state_sum, step, new_param, new_state_sum,
          new_step, n, dtype, lr, lr_decay, eps, weight_decay))
    return s;
  adagradCompute(param, grad, state_sum, step, new_param, new_state_sum,
                 new_step, n, dtype, scheduledLr(lr, lr_factor), lr_decay, eps,
                 weight_decay, found_inf);
  return AMP_STATUS_OK;
}

amp_status_t amp_adagrad_update_multi(
    int32_t n_buffers, const void *const *params, const void *const *grads,
    const void *const *state_sums, const float *const *steps,
    void *const *new_params, void *const *new_state_sums,
    float *const *new_steps, const int64_t *sizes, const amp_dtype_t *dtypes,
    float lr, const float *lr_factor, float lr_decay, float eps,
    float weight_decay, const int8_t *found_inf, void * /*stream*/) {
  Checker check("amp_adagrad_update_multi");
  if (amp_status_t s = checkAdagradUpdateMulti(
          check, n_buffers, params, grads, state_sums, steps, new_params,
          new_state_sums, new_steps, sizes, dtypes, lr, lr_decay, eps,
          weight_decay))
    return s;
  const float scheduled = scheduledLr(lr, lr_factor);
  const bool counted = lr_decay > 0.0f;
  for (int32_t i = 0; i < n_buffers; ++i)
    adagradCompute(
        params[i], grads[i], state_sums[i], counted ? steps[i] : nullptr,
        new_params[i], new_state_sums[i], counted ? new_steps[i] : nullptr,
        sizes[i], dtypes[i], scheduled, lr_decay, eps, weight_decay, found_inf);
  return AMP_STATUS_OK;
}

amp_status_t amp_adafactor_update(
    const void *param, const void *grad, const void *row_var,
    const void *col_var, const void *variance, const float *step,
    void *new_param, void *new_row_var, void *new_col_var, void *new_variance,
    float *new_step, int64_t n, amp_dtype_t dtype, int64_t rows, int64_t cols,
    float lr, const float *lr_factor, float beta2_decay, float eps1, float eps2,
    float d, float weight_decay, const int8_t *found_inf, void * /*stream*/) {
  Checker check("amp_adafactor_update");
  if (amp_status_t s = checkAdafactorUpdate(
          check, param, grad, row_var, col_var, variance, step, new_param,
          new_row_var, new_col_var, new_variance, new_step, n, dtype, rows,
          cols, lr, beta2_decay, eps1, eps2, d, weight_decay))
    return s;
  adafactorCompute(param, grad, row_var, col_var, variance, step, new_param,
                   new_row_var, new_col_var, new_variance, new_step, n, dtype,
                   rows, cols, scheduledLr(lr, lr_factor), beta2_decay, eps1,
                   eps2, d, weight_decay, found_inf);
  return AMP_STATUS_OK;
}

amp_status_t amp_adafactor_update_multi(
    int32_t n_buffers, const void *const *params, const void *const *grads,
    const void *const *row_vars, const void *const *col_vars,
    const void *const *variances, const float *const *steps,
    void *const *new_params, void *const *new_row_vars,
    void *const *new_col_vars, void *const *new_variances,
    float *const *new_steps, const int64_t *sizes, const amp_dtype_t *dtypes,
    const int64_t *rows, const int64_t *cols, float lr, const float *lr_factor,
    float beta2_decay, float eps1, float eps2, float d, float weight_decay,
    const int8_t *found_inf, void * /*stream*/) {
  Checker check("amp_adafactor_update_multi");
  bool factored = false;
  if (amp_status_t s = checkAdafactorUpdateMulti(
          check, n_buffers, params, grads, row_vars, col_vars, variances, steps,
          new_params, new_row_vars, new_col_vars, new_variances, new_steps,
          sizes, dtypes, rows, cols, lr, beta2_decay, eps1, eps2, d,
          weight_decay, &factored))
    return s;
  const float scheduled = scheduledLr(lr, lr_factor);
  for (int32_t i = 0; i < n_buffers; ++i)
    adafactorCompute(
        params[i], grads[i], factored ? row_vars[i] : nullptr,
        factored ? col_vars[i] : nullptr, factored ? nullptr : variances[i],
        steps[i], new_params[i], factored ? new_row_vars[i] : nullptr,
        factored ? new_col_vars[i] : nullptr,
        factored ? nullptr : new_variances[i], new_steps[i], sizes[i],
        dtypes[i], factored ? rows[i] : 0, factored ? cols[i] : 0, scheduled,
        beta2_decay, eps1, eps2, d, weight_decay, found_inf);
  return AMP_STATUS_OK;
}

amp_status_t amp_clip_grad_norm(int32_t n_buffers, const void *const *grads,
                                void *const *clipped, const int64_t *sizes,
                                const amp_dtype_t *dtypes, float max_norm,
                                float norm_type, float *total_norm,
                                void * /*stream*/) {
  Checker check("amp_clip_grad_norm");
  if (amp_status_t s =
          checkClipGradNorm(check, n_buffers, grads, clipped, sizes, dtypes,
                            max_norm, norm_type, total_norm))
    return s;
  // torch.nn.utils.clip_grad_norm_: the norm of the per-gradient norms.
  const float p = norm_type;
  const float total = withClipNorm(p, [&](auto tag) {
    constexpr ClipNormKind K = decltype(tag)::value;
    float acc = 0.0f;
    for (int32_t i = 0; i < n_buffers; ++i) {
      float norm = 0.0f;
      dispatchFloat(dtypes[i], [&](auto t) {
        norm = clipNormRoot<K>(
            normTerms<K>(static_cast<const decltype(t) *>(grads[i]), sizes[i],
                         p),
            p);
      });
      acc = clipNormAdd<K>(acc, clipNormTerm<K>(norm, p));
    }
    return clipNormRoot<K>(acc, p);
  });
  const float coef = clipCoef(max_norm, total);
  for (int32_t i = 0; i < n_buffers; ++i)
    dispatchFloat(dtypes[i], [&](auto t) {
      using T = decltype(t);
      const T *g = static_cast<const T *>(grads[i]);
      T *out = static_cast<T *>(clipped[i]);
      parallelFor(sizes[i],
                  [=](int64_t k) { out[k] = fromF32<T>(toF32(g[k]) * coef); });
    });
  *total_norm = total;
  return AMP_STATUS_OK;
}

amp_status_t amp_ema_update(int32_t n_buffers, const void *const *averages,
                            const void *const *values,
                            void *const *new_averages, const int64_t *sizes,
                            const amp_dtype_t *dtypes, const float *weight,
                            void * /*stream*/) {
  Checker check("amp_ema_update");
  if (amp_status_t s = checkEmaUpdate(check, n_buffers, averages, values,
                                      new_averages, sizes, dtypes, weight))
    return s;
  const float w = *weight;
  for (int32_t i = 0; i < n_buffers; ++i)
    dispatchFloat(dtypes[i], [&](auto t) {
      using T = decltype(t);
      const T *a = static_cast<const T *>(averages[i]);
      const T *v = static_cast<const T *>(values[i]);
      T *out = static_cast<T *>(new_averages[i]);
      parallelFor(sizes[i], [=](int64_t k) {
        out[k] = fromF32<T>(emaStep(toF32(a[k]), toF32(v[k]), w));
      });
    });
  return AMP_STATUS_OK;
}

amp_status_t amp_clip_grad_value(int32_t n_buffers, const void *const *grads,
                                 void *const *clipped, const int64_t *sizes,
                                 const amp_dtype_t *dtypes, float clip_value,
                                 void * /*stream*/) {
  Checker check("amp_clip_grad_value");
  if (amp_status_t s = checkClipGradValue(check, n_buffers, grads, clipped,
                                          sizes, dtypes, clip_value))
    return s;
  // In f32, rounded to the buffer's dtype, as torch.clamp of a half tensor
  // with a Python float bound.
  for (int32_t i = 0; i < n_buffers; ++i)
    dispatchFloat(dtypes[i], [&](auto t) {
      using T = decltype(t);
      const T *g = static_cast<const T *>(grads[i]);
      T *out = static_cast<T *>(clipped[i]);
      parallelFor(sizes[i], [=](int64_t k) {
        out[k] = fromF32<T>(clipValue(toF32(g[k]), clip_value));
      });
    });
  return AMP_STATUS_OK;
}

} // extern "C"
