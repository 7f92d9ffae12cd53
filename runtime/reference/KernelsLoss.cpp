//===- KernelsLoss.cpp - Cross-entropy, elementwise losses, gradients -----===//
//
// amp_cross_entropy, amp_cross_entropy_grad, amp_elementwise_loss and
// amp_elementwise_loss_grad on the reference backend. Cross-entropy works on
// logits [rows, classes] row by row in f32 with the max-subtraction that
// keeps exp finite; the losses are f32 means. Labels are checked before
// anything is written.
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"
#include "reference/LossChecks.h"
#include "reference/LossMath.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {

/// The row's values widened to f32 in `row`, its max and sum exp(x - max).
template <typename T>
void rowStats(const T *x, int64_t classes, float *row, float *maxOut,
              float *sumOut) {
  float m = toF32(x[0]);
  for (int64_t c = 0; c < classes; ++c) {
    row[c] = toF32(x[c]);
    m = row[c] > m ? row[c] : m;
  }
  float s = 0.0f;
  for (int64_t c = 0; c < classes; ++c)
    s += expf(row[c] - m);
  *maxOut = m;
  *sumOut = s;
}

} // namespace

extern "C" {

amp_status_t amp_cross_entropy(const void *logits, const void *labels,
                               float *loss, int64_t rows, int64_t classes,
                               int64_t ignore_index, float label_smoothing,
                               amp_dtype_t logits_dtype,
                               amp_dtype_t labels_dtype, void * /*stream*/) {
  Checker check("amp_cross_entropy");
  if (amp_status_t s =
          checkCrossEntropy(check, logits, labels, loss, rows, classes,
                            label_smoothing, logits_dtype, labels_dtype))
    return s;
  const LabelSmoothing smoothing = labelSmoothing(label_smoothing, classes);
  int64_t kept = 0;
  if (amp_status_t s = checkLabels(check, labels, labels_dtype, rows, classes,
                                   ignore_index, &kept))
    return s;
  return guarded(check, [&] {
    // No rows, no scratch: [0, classes] logits may have many classes.
    std::vector<float> row(static_cast<size_t>(rows > 0 ? classes : 0));
    float total = 0.0f;
    dispatchFloat(logits_dtype, [&](auto t) {
      using T = decltype(t);
      const T *x = static_cast<const T *>(logits);
      for (int64_t r = 0; r < rows; ++r) {
        const int64_t label = loadIndex(labels, labels_dtype, r);
        if (label == ignore_index)
          continue;
        float m, s;
        rowStats(x + r * classes, classes, row.data(), &m, &s);
        const float ce = crossEntropyRow(s, row[label], m);
        if (label_smoothing == 0.0f) {
          total += ce;
          continue;
        }
        float gaps = 0.0f;
        for (int64_t c = 0; c < classes; ++c)
          gaps += m - row[c];
        total += smoothedCrossEntropyRow(smoothing, ce, s, gaps, classes);
      }
    });
    *loss = total / static_cast<float>(kept);
  });
}

amp_status_t amp_cross_entropy_grad(
    const void *grad_loss, const void *logits, const void *labels,
    void *dlogits, int64_t rows, int64_t classes, int64_t ignore_index,
    float label_smoothing, amp_dtype_t grad_loss_dtype,
    amp_dtype_t logits_dtype, amp_dtype_t labels_dtype, void * /*stream*/) {
  Checker check("amp_cross_entropy_grad");
  if (amp_status_t s = checkCrossEntropyGrad(
          check, grad_loss, logits, labels, dlogits, rows, classes,
          label_smoothing, grad_loss_dtype, logits_dtype, labels_dtype))
    return s;
  const LabelSmoothing smoothing = labelSmoothing(label_smoothing, classes);
  int64_t kept = 0;
  if (amp_status_t s = checkLabels(check, labels, labels_dtype, rows, classes,
                                   ignore_index, &kept))
    return s;
  float g = 0.0f;
  dispatchFloat(grad_loss_dtype, [&](auto t) {
    g = toF32(*static_cast<const decltype(t) *>(grad_loss));
  });
  return guarded(check, [&] {
    const float coef = g / static_cast<float>(kept);
    dispatchFloat(logits_dtype, [&](auto t) {
      using T = decltype(t);
      const T *x = static_cast<const T *>(logits);
      T *dx = static_cast<T *>(dlogits);
      // Rows are independent (the cpu backend splits them over threads).
      parallelRanges(rows, classes, [&](int64_t begin, int64_t end) {
        std::vector<float> row(static_cast<size_t>(classes));
        for (int64_t r = begin; r < end; ++r) {
          const int64_t label = loadIndex(labels, labels_dtype, r);
          T *out = dx + r * classes;
          if (label == ignore_index) {
            std::fill(out, out + classes, fromF32<T>(0.0f));
            continue;
          }
          float m, s;
          rowStats(x + r * classes, classes, row.data(), &m, &s);
          for (int64_t c = 0; c < classes; ++c) {
            out[c] = fromF32<T>(crossEntropyGrad(coef, softmaxOf(row[c], m, s),
                                                 c == label, smoothing));
          }
        }
      });
    });
  });
}

amp_status_t amp_elementwise_loss(amp_elementwise_loss_t op, float param,
                                  const void *pred, const void *target,
                                  float *loss, int64_t n, int64_t divisor,
                                  amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_elementwise_loss");
  if (amp_status_t s = checkElementwiseLoss(check, rawEnum(op), param, pred,
                                            target, loss, n, divisor, dtype))
    return s;
  float sum = 0.0f;
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    const T *p = static_cast<const T *>(pred);
    const T *q = static_cast<const T *>(target);
    for (int64_t i = 0; i < n; ++i)
      sum += elementwiseLoss(op, param, toF32(p[i]), toF32(q[i]));
  });
  *loss = sum / static_cast<float>(divisor);
  return AMP_STATUS_OK;
}

amp_status_t amp_elementwise_loss_grad(amp_elementwise_loss_t op, float param,
                                       const void *grad_loss, const void *pred,
                                       const void *target, void *dpred,
                                       int64_t n, int64_t divisor,
                                       amp_dtype_t grad_loss_dtype,
                                       amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_elementwise_loss_grad");
  if (amp_status_t s = checkElementwiseLossGrad(
          check, rawEnum(op), param, grad_loss, pred, target, dpred, n, divisor,
          grad_loss_dtype, dtype))
    return s;
  if (n == 0)
    return AMP_STATUS_OK;
  float g = 0.0f;
  dispatchFloat(grad_loss_dtype, [&](auto t) {
    g = toF32(*static_cast<const decltype(t) *>(grad_loss));
  });
  const float coef = elementwiseLossCoef(op, divisor);
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    const T *p = static_cast<const T *>(pred);
    const T *q = static_cast<const T *>(target);
    T *out = static_cast<T *>(dpred);
    for (int64_t i = 0; i < n; ++i)
      out[i] = fromF32<T>(
          elementwiseLossGrad(op, param, coef, toF32(p[i]), toF32(q[i]), g));
  });
  return AMP_STATUS_OK;
}

} // extern "C"
