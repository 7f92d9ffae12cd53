//===- KernelsLoss.cpp - Softmax cross-entropy and its gradient -----------===//
//
// amp_cross_entropy and amp_cross_entropy_grad on the reference backend.
// Both work on logits [rows, classes] row by row in f32 with the
// max-subtraction that keeps exp finite; the loss is an f32 mean. Labels are
// checked before anything is written.
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"

#include <cmath>
#include <vector>

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {

amp_status_t checkCrossEntropy(Checker &check, const void *logits,
                               const void *labels, int64_t rows,
                               int64_t classes, amp_dtype_t logitsDtype,
                               amp_dtype_t labelsDtype) {
  if (amp_status_t s = check.dtype("logits_dtype", logitsDtype, kFloatDtypes))
    return s;
  if (amp_status_t s = check.dtype("labels_dtype", labelsDtype, kIndexDtypes))
    return s;
  if (amp_status_t s = check.count("rows", rows))
    return s;
  if (classes < 1)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "classes (%lld) is < 1",
                      (long long)classes);
  int64_t n;
  const int64_t dims[2] = {rows, classes};
  if (amp_status_t s = check.shape("logits", dims, 2, &n))
    return s;
  if (amp_status_t s = check.pointers({{"logits", logits, n, logitsDtype},
                                       {"labels", labels, rows, labelsDtype}}))
    return s;
  return check.indices("label", labels, labelsDtype, rows, classes);
}

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
    s += std::exp(row[c] - m);
  *maxOut = m;
  *sumOut = s;
}

} // namespace

extern "C" {

amp_status_t amp_cross_entropy(const void *logits, const void *labels,
                               float *loss, int64_t rows, int64_t classes,
                               amp_dtype_t logits_dtype,
                               amp_dtype_t labels_dtype, void * /*stream*/) {
  Checker check("amp_cross_entropy");
  if (amp_status_t s = checkCrossEntropy(check, logits, labels, rows, classes,
                                         logits_dtype, labels_dtype))
    return s;
  if (amp_status_t s = check.pointer("loss", loss, 1, AMP_DTYPE_F32))
    return s;
  return guarded(check, [&] {
    std::vector<float> row(static_cast<size_t>(classes));
    float total = 0.0f;
    dispatchFloat(logits_dtype, [&](auto t) {
      using T = decltype(t);
      const T *x = static_cast<const T *>(logits);
      for (int64_t r = 0; r < rows; ++r) {
        float m, s;
        rowStats(x + r * classes, classes, row.data(), &m, &s);
        const int64_t label = loadIndex(labels, labels_dtype, r);
        total += std::log(s) - (row[label] - m);
      }
    });
    *loss = total / static_cast<float>(rows);
  });
}

amp_status_t amp_cross_entropy_grad(
    const void *grad_loss, const void *logits, const void *labels,
    void *dlogits, int64_t rows, int64_t classes, amp_dtype_t grad_loss_dtype,
    amp_dtype_t logits_dtype, amp_dtype_t labels_dtype, void * /*stream*/) {
  Checker check("amp_cross_entropy_grad");
  if (amp_status_t s =
          check.dtype("grad_loss_dtype", grad_loss_dtype, kFloatDtypes))
    return s;
  if (amp_status_t s = checkCrossEntropy(check, logits, labels, rows, classes,
                                         logits_dtype, labels_dtype))
    return s;
  if (amp_status_t s =
          check.pointers({{"grad_loss", grad_loss, 1, grad_loss_dtype},
                          {"dlogits", dlogits, rows * classes, logits_dtype}}))
    return s;
  float g = 0.0f;
  dispatchFloat(grad_loss_dtype, [&](auto t) {
    g = toF32(*static_cast<const decltype(t) *>(grad_loss));
  });
  return guarded(check, [&] {
    const float coef = g / static_cast<float>(rows);
    std::vector<float> row(static_cast<size_t>(classes));
    dispatchFloat(logits_dtype, [&](auto t) {
      using T = decltype(t);
      const T *x = static_cast<const T *>(logits);
      T *dx = static_cast<T *>(dlogits);
      for (int64_t r = 0; r < rows; ++r) {
        float m, s;
        rowStats(x + r * classes, classes, row.data(), &m, &s);
        const int64_t label = loadIndex(labels, labels_dtype, r);
        T *out = dx + r * classes;
        for (int64_t c = 0; c < classes; ++c) {
          const float p = std::exp(row[c] - m) / s;
          out[c] = fromF32<T>(coef * (c == label ? p - 1.0f : p));
        }
      }
    });
  });
}

} // extern "C"
