//===- SelectChecks.h - Argument checks of where and the routing grads ----===//
//
// The argument checks of amp_where, amp_where_grad, amp_maximum_grad and
// amp_minimum_grad, shared by the reference and the CUDA backends
// (amp_kernel_core). Each returns AMP_STATUS_OK or the failure recorded in
// `check`, and the simplified broadcast loop nest over the contiguous
// result (operand 0) with the result's element count.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_SELECTCHECKS_H
#define AMP_RUNTIME_REFERENCE_SELECTCHECKS_H

#include "reference/KernelCommon.h"

namespace amp {
namespace runtime {
namespace kernels {

/// amp_where: any dtype, bool cond; out the broadcast of the three shapes;
/// out aliases neither cond nor a broadcast operand. Loop operands: out,
/// cond, lhs, rhs.
amp_status_t
checkWhere(Checker &check, const void *cond, const void *lhs, const void *rhs,
           const void *out, const int64_t *condDims, int32_t condRank,
           const int64_t *lhsDims, int32_t lhsRank, const int64_t *rhsDims,
           int32_t rhsRank, const int64_t *outDims, int32_t outRank,
           amp_dtype_t dtype, StridedLoop<4> *loop, int64_t *numel);

/// amp_where_grad: a float dtype, cond broadcasting to dy, distinct outputs
/// that alias neither cond nor each other. Loop operands: dy, cond.
amp_status_t checkWhereGrad(Checker &check, const void *dy, const void *cond,
                            const void *dlhs, const void *drhs,
                            const int64_t *dyDims, int32_t dyRank,
                            const int64_t *condDims, int32_t condRank,
                            amp_dtype_t dtype, StridedLoop<2> *loop,
                            int64_t *numel);

/// amp_maximum_grad / amp_minimum_grad: a float dtype, lhs and rhs
/// broadcasting to dy, distinct outputs aliasing no broadcast operand. Loop
/// operands: dy, lhs, rhs.
amp_status_t checkExtremumGrad(Checker &check, const void *dy, const void *lhs,
                               const void *rhs, const void *dlhs,
                               const void *drhs, const int64_t *dyDims,
                               int32_t dyRank, const int64_t *lhsDims,
                               int32_t lhsRank, const int64_t *rhsDims,
                               int32_t rhsRank, amp_dtype_t dtype,
                               StridedLoop<3> *loop, int64_t *numel);

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_SELECTCHECKS_H
