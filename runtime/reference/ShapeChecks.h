//===- ShapeChecks.h - Argument checks of the data-movement kernels -------===//
//
// The argument checks of amp_reshape, amp_transpose, amp_broadcast_to,
// amp_concat, amp_slice, amp_slice_grad and amp_pad, shared by the reference
// and the CUDA backend (amp_kernel_core), so that a malformed call fails with
// the same status and message on both. Each returns the geometry the copy
// needs: a simplified loop nest whose operand 0 is the destination and
// operand 1 the source, in elements.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_SHAPECHECKS_H
#define AMP_RUNTIME_REFERENCE_SHAPECHECKS_H

#include "reference/KernelCommon.h"

namespace amp {
namespace runtime {
namespace kernels {

/// A copy dst[base + loop offset 0] = src[loop offset 1].
struct CopyPlan {
  StridedLoop<2> loop;
  int64_t dstBase = 0; // destination element offset of the first element
  int64_t srcBase = 0; // source element offset of the first element
  int64_t count = 0;   // elements copied (0: nothing to do)
};

amp_status_t checkReshape(Checker &check, const void *x, const void *y,
                          int64_t n, amp_dtype_t dtype);

/// y (contiguous, operand 0) = x permuted.
amp_status_t checkTranspose(Checker &check, const void *x, const void *y,
                            const int64_t *xDims, int32_t rank,
                            const int64_t *perm, amp_dtype_t dtype,
                            CopyPlan *plan);

/// y (operand 0) = x broadcast (stride 0 along broadcast dimensions);
/// plan->count is 0 when y is empty or y == x (of the same size).
amp_status_t checkBroadcastTo(Checker &check, const void *x, const void *y,
                              const int64_t *xDims, int32_t xRank,
                              const int64_t *yDims, int32_t yRank,
                              amp_dtype_t dtype, CopyPlan *plan);

/// out is `outer` rows, each the inputs' rows of axis_sizes[i] * inner
/// elements one after another.
struct ConcatGeometry {
  int64_t outer = 0, inner = 0;
  int64_t numel = 0; // out's element count
  int32_t axis = 0;  // normalized
};

amp_status_t checkConcat(Checker &check, int32_t nInputs,
                         const void *const *inputs, const void *out,
                         const int64_t *outDims, int32_t rank,
                         const int64_t *axisSizes, amp_dtype_t dtype,
                         int64_t axis, ConcatGeometry *geometry);

/// amp_slice (grad = false: y = x[offsets + i * strides], operand 0 is y)
/// and amp_slice_grad (grad = true: dx = 0 then dx[...] = dy; operand 0 is
/// dx's strided positions from plan->dstBase, operand 1 dy). x/xDims name
/// dx and y/yDims dy for the gradient. *nx is x's element count.
amp_status_t checkSlice(Checker &check, bool grad, const void *x, const void *y,
                        const int64_t *xDims, const int64_t *yDims,
                        int32_t rank, const int64_t *offsets,
                        const int64_t *strides, amp_dtype_t dtype,
                        CopyPlan *plan, int64_t *nx);

/// y = value everywhere, then y's interior (operand 0 from plan->dstBase) =
/// x (operand 1).
struct PadGeometry {
  int64_t yDims[kMaxRank] = {};
  int64_t nx = 0, ny = 0;
  CopyPlan interior;
};

amp_status_t checkPad(Checker &check, const void *x, const void *y,
                      const int64_t *xDims, int32_t rank, const int64_t *low,
                      const int64_t *high, amp_dtype_t dtype,
                      PadGeometry *geometry);

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_SHAPECHECKS_H
