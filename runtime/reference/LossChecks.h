//===- LossChecks.h - Argument checks of the losses -----------------------===//
//
// The argument checks of amp_cross_entropy, amp_cross_entropy_grad,
// amp_elementwise_loss and amp_elementwise_loss_grad, shared by the reference
// and the CUDA backends so that a malformed call fails with the same status and
// message on both. The labels' values are data: the reference checks them after
// these (Checker::indices), the CUDA kernels on the device.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_LOSSCHECKS_H
#define AMP_RUNTIME_REFERENCE_LOSSCHECKS_H

#include "reference/KernelCommon.h"

namespace amp {
namespace runtime {
namespace kernels {

/// amp_cross_entropy: dtypes, rows >= 0, classes >= 1, the pointers.
amp_status_t checkCrossEntropy(Checker &check, const void *logits,
                               const void *labels, const float *loss,
                               int64_t rows, int64_t classes,
                               float labelSmoothing, amp_dtype_t logitsDtype,
                               amp_dtype_t labelsDtype);

/// amp_cross_entropy_grad: the same plus grad_loss and dlogits.
amp_status_t checkCrossEntropyGrad(Checker &check, const void *gradLoss,
                                   const void *logits, const void *labels,
                                   const void *dlogits, int64_t rows,
                                   int64_t classes, float labelSmoothing,
                                   amp_dtype_t gradLossDtype,
                                   amp_dtype_t logitsDtype,
                                   amp_dtype_t labelsDtype);

/// The labels of a host-side cross-entropy (reference and cpu backends):
/// each is ignoreIndex (unless AMP_IGNORE_NONE) or in [0, classes); *kept
/// counts the latter.
amp_status_t checkLabels(Checker &check, const void *labels,
                         amp_dtype_t labelsDtype, int64_t rows, int64_t classes,
                         int64_t ignoreIndex, int64_t *kept);

/// amp_elementwise_loss: a known op (the raw enum value) and Huber's delta,
/// the dtype, n >= 0, divisor >= 0 (> 0 for n > 0), the pointers.
amp_status_t checkElementwiseLoss(Checker &check, int32_t rawOp, float param,
                                  const void *pred, const void *target,
                                  const float *loss, int64_t n, int64_t divisor,
                                  amp_dtype_t dtype);

/// amp_elementwise_loss_grad: the same plus grad_loss and dpred.
amp_status_t checkElementwiseLossGrad(
    Checker &check, int32_t rawOp, float param, const void *gradLoss,
    const void *pred, const void *target, const void *dpred, int64_t n,
    int64_t divisor, amp_dtype_t gradLossDtype, amp_dtype_t dtype);

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_LOSSCHECKS_H
