//===- StridedCopy.h - Bit-pattern copies over a strided loop nest --------===//
//
// The copy engine of the CUDA data-movement kernels (transpose, broadcast,
// slice, slice_grad, pad's interior): it runs a CopyPlan of
// reference/ShapeChecks.h on the GPU, moving bit patterns of any element
// size, so it is exact.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CUDA_STRIDEDCOPY_H
#define AMP_RUNTIME_CUDA_STRIDEDCOPY_H

#include "cuda/CudaCommon.h"
#include "reference/ShapeChecks.h"

namespace amp {
namespace runtime {
namespace cuda {

/// Queues dst[plan.dstBase + offset 0] = src[plan.srcBase + offset 1] for
/// every element of plan.loop on `stream` (nothing when plan.count is 0),
/// elements of `elementSize` bytes (1, 2, 4 or 8). A transpose of the two
/// fastest-moving dimensions runs through shared-memory tiles, every other
/// nest as a gather (16-byte accesses where the innermost run allows).
/// Returns the launch status.
amp_status_t launchCopy(kernels::Checker &check, const kernels::CopyPlan &plan,
                        const void *src, void *dst, int64_t elementSize,
                        cudaStream_t stream);

} // namespace cuda
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_CUDA_STRIDEDCOPY_H
