//===- ElementwiseChecks.h - Argument checks of the elementwise kernels ---===//
//
// The argument checks of amp_unary, amp_pow, amp_clamp, the same-shape
// gradients, amp_dropout, amp_binary, amp_compare, amp_cast, amp_fill and
// amp_scaled_grad_seed, shared by the reference and the CUDA backends
// (amp_kernel_core) so that a malformed call fails with the same status and
// message on both. Each returns AMP_STATUS_OK or the failure recorded in
// `check`, and the geometry the computation needs.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_ELEMENTWISECHECKS_H
#define AMP_RUNTIME_REFERENCE_ELEMENTWISECHECKS_H

#include "reference/KernelCommon.h"

namespace amp {
namespace runtime {
namespace kernels {

/// amp_unary: a known op, n >= 0, a float dtype, x and y valid.
amp_status_t checkUnary(Checker &check, int32_t rawOp, const void *x,
                        const void *y, int64_t n, amp_dtype_t dtype);

/// amp_pow and the y = f(x) part of the others: n, dtype, x, y.
amp_status_t checkFlatUnary(Checker &check, const void *x, const void *y,
                            int64_t n, amp_dtype_t dtype);

/// amp_clamp: min <= max (neither NaN), then checkFlatUnary.
amp_status_t checkClamp(Checker &check, const void *x, const void *y, int64_t n,
                        amp_dtype_t dtype, float min, float max);

/// The same-shape gradients dx = f(dy, v): n, dtype, dy, v (named `vName`,
/// "x" or "y") and dx.
amp_status_t checkFlatGrad(Checker &check, const char *vName, const void *dy,
                           const void *v, const void *dx, int64_t n,
                           amp_dtype_t dtype);

/// amp_clamp_grad: the bounds, then checkFlatGrad.
amp_status_t checkClampGrad(Checker &check, const void *dy, const void *x,
                            const void *dx, int64_t n, amp_dtype_t dtype,
                            float min, float max);

/// amp_dropout: rate in [0, 1), n, dtype, x, y and the i64 seed.
amp_status_t checkDropout(Checker &check, const void *x, const int64_t *seed,
                          const void *y, int64_t n, amp_dtype_t dtype,
                          float rate);

/// amp_binary: a known op, a float dtype (or i32 or i64 for every op but
/// DIV), the three shapes, out the
/// broadcast of lhs and rhs, valid pointers, out aliasing no broadcast
/// operand. Returns the simplified loop nest (operands: out, lhs, rhs) and
/// out's element count.
amp_status_t checkBinary(Checker &check, int32_t rawOp, const void *lhs,
                         const void *rhs, const void *out,
                         const int64_t *lhsDims, int32_t lhsRank,
                         const int64_t *rhsDims, int32_t rhsRank,
                         const int64_t *outDims, int32_t outRank,
                         amp_dtype_t dtype, StridedLoop<3> *loop,
                         int64_t *numel);

/// amp_compare: a known op, any dtype, the three shapes, out (bool) the
/// broadcast of lhs and rhs, valid pointers, out aliasing neither operand.
/// Returns the loop nest (operands: out, lhs, rhs) and out's element count.
amp_status_t checkCompare(Checker &check, int32_t rawOp, const void *lhs,
                          const void *rhs, const void *out,
                          const int64_t *lhsDims, int32_t lhsRank,
                          const int64_t *rhsDims, int32_t rhsRank,
                          const int64_t *outDims, int32_t outRank,
                          amp_dtype_t dtype, StridedLoop<3> *loop,
                          int64_t *numel);

/// amp_cast: n, the two dtypes (any), x and y; y may alias x only when the
/// dtypes are equal.
amp_status_t checkCast(Checker &check, const void *x, const void *y, int64_t n,
                       amp_dtype_t xDtype, amp_dtype_t yDtype);

/// amp_fill: n, any dtype, y, and for i32/i64/bool a value the dtype holds
/// exactly (an integer of magnitude at most 2^24; 0 or 1 for bool).
amp_status_t checkFill(Checker &check, const void *y, int64_t n,
                       amp_dtype_t dtype, float value);

/// amp_scaled_grad_seed: n, a float dtype, y, and the f32 scale.
amp_status_t checkScaledGradSeed(Checker &check, const float *scale,
                                 const void *y, int64_t n, amp_dtype_t dtype);

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_ELEMENTWISECHECKS_H
