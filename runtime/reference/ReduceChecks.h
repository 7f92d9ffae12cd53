//===- ReduceChecks.h - Argument checks of the reductions -----------------===//
//
// The argument checks of amp_reduce, amp_global_avg_pool,
// amp_reduce_max_grad, and of the scans along one axis amp_cumsum,
// amp_argmax and amp_topk, shared by the
// reference and the CUDA backends so that a malformed call fails with the same
// status and message on both. Each returns the checked geometry of the
// reduction.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_REDUCECHECKS_H
#define AMP_RUNTIME_REFERENCE_REDUCECHECKS_H

#include "amp_runtime/host_device.h"
#include "reference/KernelCommon.h"

namespace amp {
namespace runtime {
namespace kernels {

/// A checked reduction of a contiguous x: its shape, which dimensions are
/// reduced, the number of outputs (ny) and of elements per output (count),
/// and the loop nest over x (operand 0) whose operand 1 is the output index
/// (stride 0 along the reduced dimensions, row-major over the kept ones).
struct Reduction {
  int32_t rank = 0;
  int64_t dims[kMaxRank] = {};
  bool reduced[kMaxRank] = {};
  int64_t nx = 0, ny = 1, count = 1;
  StridedLoop<2> loop;
};

/// amp_reduce: the op (*op: its raw value), the dtypes (x a float dtype, y
/// x's or f32), the shape, the axes, a max over no elements, the pointers.
amp_status_t checkReduce(Checker &check, amp_reduce_op_t op, const void *x,
                         const void *y, const int64_t *xDims, int32_t xRank,
                         const int64_t *axes, int32_t nAxes, amp_dtype_t xDtype,
                         amp_dtype_t yDtype, int32_t *rawOp, Reduction *r);

/// amp_global_avg_pool: a mean of x [N, C, H, W] over H and W.
amp_status_t checkGlobalAvgPool(Checker &check, const void *x, const void *y,
                                const int64_t *xDims, amp_dtype_t dtype,
                                Reduction *r);

/// amp_reduce_max_grad: the reduction, the pointers and that dx aliases no
/// input.
amp_status_t checkReduceMaxGrad(Checker &check, const void *dy, const void *x,
                                const void *y, const void *dx,
                                const int64_t *xDims, int32_t xRank,
                                const int64_t *axes, int32_t nAxes,
                                amp_dtype_t xDtype, amp_dtype_t yDtype,
                                Reduction *r);

/// The lines of a contiguous tensor along one axis, which amp_cumsum,
/// amp_argmax and amp_topk scan: `outer * inner` lines of `len` elements,
/// consecutive ones `inner` apart (the axis' stride); n elements in all.
struct Scan {
  int64_t outer = 1, len = 1, inner = 1, n = 0;

  AMP_HOST_DEVICE int64_t lines() const { return outer * inner; }
  /// The offset of the first element of line `line` (outer index * inner
  /// + inner index).
  AMP_HOST_DEVICE int64_t first(int64_t line) const {
    return (line / inner) * len * inner + line % inner;
  }
};

/// amp_cumsum: a float, i32 or i64 dtype, the shape, the axis in [-rank,
/// rank), the pointers.
amp_status_t checkCumsum(Checker &check, const void *x, const void *y,
                         const int64_t *dims, int32_t rank, int64_t axis,
                         amp_dtype_t dtype, Scan *scan);

/// amp_argmax: as checkCumsum, a non-empty axis (unless x is empty), and y
/// (lines() i64 values) overlapping no element of x.
amp_status_t checkArgmax(Checker &check, const void *x, const int64_t *y,
                         const int64_t *dims, int32_t rank, int64_t axis,
                         amp_dtype_t dtype, Scan *scan);

/// amp_topk: as checkCumsum, k in [0, len], and y (lines() * k i64 values)
/// overlapping no element of x.
amp_status_t checkTopk(Checker &check, const void *x, const int64_t *y,
                       const int64_t *dims, int32_t rank, int64_t axis,
                       int64_t k, amp_dtype_t dtype, Scan *scan);

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_REDUCECHECKS_H
