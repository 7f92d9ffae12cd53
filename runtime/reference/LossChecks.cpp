//===- LossChecks.cpp - Argument checks of the losses ---------------------===//

#include "reference/LossChecks.h"

#include <cmath>

using namespace amp::runtime::kernels;

namespace {

/// The checks both cross-entropy kernels share (not the labels' values).
amp_status_t checkLogits(Checker &check, const void *logits, const void *labels,
                         int64_t rows, int64_t classes, float labelSmoothing,
                         amp_dtype_t logitsDtype, amp_dtype_t labelsDtype) {
  if (!(labelSmoothing >= 0.0f && labelSmoothing <= 1.0f))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "label_smoothing (%g) must be in [0, 1]",
                      (double)labelSmoothing);
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
  return check.pointers({{"logits", logits, n, logitsDtype},
                         {"labels", labels, rows, labelsDtype}});
}

/// The checks shared by the elementwise loss kernels: a known op (and
/// Huber's delta finite and > 0), n elements of pred and target, a divisor
/// >= 0 and, when there are elements, > 0.
amp_status_t checkElementwise(Checker &check, int32_t rawOp, float param,
                              const void *pred, const void *target, int64_t n,
                              int64_t divisor, amp_dtype_t dtype) {
  switch (rawOp) {
  case AMP_LOSS_MSE:
  case AMP_LOSS_L1:
  case AMP_LOSS_BCE_WITH_LOGITS:
    break;
  case AMP_LOSS_HUBER:
    if (!(param > 0.0f) || std::isinf(param))
      return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                        "Huber's delta (%g) must be finite and > 0",
                        static_cast<double>(param));
    break;
  default:
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "unknown loss %d", rawOp);
  }
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  if (amp_status_t s = check.count("n", n))
    return s;
  if (amp_status_t s = check.count("divisor", divisor))
    return s;
  if (n > 0 && divisor == 0)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "divisor is 0 for %lld elements", (long long)n);
  return check.pointers(
      {{"pred", pred, n, dtype}, {"target", target, n, dtype}});
}

} // namespace

amp_status_t amp::runtime::kernels::checkCrossEntropy(
    Checker &check, const void *logits, const void *labels, const float *loss,
    int64_t rows, int64_t classes, float labelSmoothing,
    amp_dtype_t logitsDtype, amp_dtype_t labelsDtype) {
  if (amp_status_t s = checkLogits(check, logits, labels, rows, classes,
                                   labelSmoothing, logitsDtype, labelsDtype))
    return s;
  return check.pointer("loss", loss, 1, AMP_DTYPE_F32);
}

amp_status_t amp::runtime::kernels::checkLabels(
    Checker &check, const void *labels, amp_dtype_t labelsDtype, int64_t rows,
    int64_t classes, int64_t ignoreIndex, int64_t *kept) {
  return check.indices("label", labels, labelsDtype, rows, classes,
                       ignoreIndex == AMP_IGNORE_NONE
                           ? std::nullopt
                           : std::optional<int64_t>(ignoreIndex),
                       kept);
}

amp_status_t amp::runtime::kernels::checkCrossEntropyGrad(
    Checker &check, const void *gradLoss, const void *logits,
    const void *labels, const void *dlogits, int64_t rows, int64_t classes,
    float labelSmoothing, amp_dtype_t gradLossDtype, amp_dtype_t logitsDtype,
    amp_dtype_t labelsDtype) {
  if (amp_status_t s =
          check.dtype("grad_loss_dtype", gradLossDtype, kFloatDtypes))
    return s;
  if (amp_status_t s = checkLogits(check, logits, labels, rows, classes,
                                   labelSmoothing, logitsDtype, labelsDtype))
    return s;
  return check.pointers({{"grad_loss", gradLoss, 1, gradLossDtype},
                         {"dlogits", dlogits, rows * classes, logitsDtype}});
}

amp_status_t amp::runtime::kernels::checkElementwiseLoss(
    Checker &check, int32_t rawOp, float param, const void *pred,
    const void *target, const float *loss, int64_t n, int64_t divisor,
    amp_dtype_t dtype) {
  if (amp_status_t s = checkElementwise(check, rawOp, param, pred, target, n,
                                        divisor, dtype))
    return s;
  return check.pointer("loss", loss, 1, AMP_DTYPE_F32);
}

amp_status_t amp::runtime::kernels::checkElementwiseLossGrad(
    Checker &check, int32_t rawOp, float param, const void *gradLoss,
    const void *pred, const void *target, const void *dpred, int64_t n,
    int64_t divisor, amp_dtype_t gradLossDtype, amp_dtype_t dtype) {
  if (amp_status_t s =
          check.dtype("grad_loss_dtype", gradLossDtype, kFloatDtypes))
    return s;
  if (amp_status_t s = checkElementwise(check, rawOp, param, pred, target, n,
                                        divisor, dtype))
    return s;
  return check.pointers(
      {{"grad_loss", gradLoss, 1, gradLossDtype}, {"dpred", dpred, n, dtype}});
}
