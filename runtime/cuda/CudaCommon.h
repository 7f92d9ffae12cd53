//===- CudaCommon.h - Shared host-side pieces of the CUDA kernels ---------===//
//
// What every CUDA entry point of amp_runtime/kernels.h needs on the host:
// the backend's one stream (a NULL `stream` argument means it), CUDA errors
// turned into AMP_STATUS_BACKEND_ERROR with the entry point's name, the
// launch check, and launch geometry. Argument checks are the reference
// backend's (reference/KernelCommon.h, the amp_kernel_core library), so a
// malformed call fails the same way on both backends. Host-only C++; the
// device-side helpers are in CudaDevice.cuh.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CUDA_CUDACOMMON_H
#define AMP_RUNTIME_CUDA_CUDACOMMON_H

#include "amp_runtime/kernels.h"
#include "reference/KernelCommon.h"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace amp {
namespace runtime {
namespace cuda {

/// The stream a kernel runs on: `stream` when the caller passed one, else
/// the backend's own stream (created on first use, non-blocking, so that a
/// step can be captured into a CUDA graph; the legacy NULL stream cannot).
cudaStream_t toStream(void *stream);

/// Records "<function>: <what> failed: <cudaGetErrorName> (<string>)" and
/// returns AMP_STATUS_BACKEND_ERROR. Clears the sticky-free error state
/// (cudaGetLastError) so that the next call starts clean.
amp_status_t cudaFailure(kernels::Checker &check, const char *what,
                         cudaError_t error);

/// After a kernel launch: AMP_STATUS_OK, or the launch error (bad
/// configuration, no device, a kernel image missing for this GPU).
amp_status_t launched(kernels::Checker &check, const char *kernel);

/// Scratch memory of an entry point from the caching allocator: `bytes` of
/// device memory, or NULL with the failure recorded in `check`. Unlike
/// amp_alloc/amp_free, which start a call of their own, these leave the
/// calling entry point's last error alone.
void *allocScratch(kernels::Checker &check, int64_t bytes);

/// Returns scratch to the cache (stream-ordered: kernels queued on the
/// backend's stream may still use it) and passes `status` through, keeping
/// the message `check` recorded for it.
amp_status_t freeScratch(kernels::Checker &check, void *scratch,
                         amp_status_t status);

/// Threads per block of the elementwise kernels.
constexpr int kThreads = 256;

/// Blocks for a grid-stride loop over `n` items at `perThread` items per
/// thread: enough to fill the device, at most 2^31 - 1, at least 1.
unsigned gridFor(int64_t n, int perThread = 1, int threads = kThreads);

/// The number of streaming multiprocessors of the current device (cached).
int multiprocessorCount();

/// Kernel-side failures that need the data (an id or label out of range)
/// are recorded on the device (reportDeviceError of CudaDevice.cuh) and
/// reported by amp_synchronize, so no entry point waits for the device.
/// Codes, one per message.
enum class DeviceError : int32_t {
  None = 0,
  IdOutOfRange = 1,        // amp_embedding
  LabelOutOfRange = 2,     // amp_cross_entropy
  IdOutOfRangeGrad = 3,    // amp_embedding_grad
  LabelOutOfRangeGrad = 4, // amp_cross_entropy_grad
};

/// The first failure recorded since amp_synchronize last read it.
struct DeviceErrorRecord {
  int32_t code;     // a DeviceError; 0: none
  int64_t value;    // the offending id or label
  int64_t position; // its index in the ids or labels
  int64_t bound;    // the exclusive upper bound it broke
};

/// The record in device memory (allocated on first use, zeroed), or NULL
/// with the failure recorded in `check` when it cannot be allocated.
DeviceErrorRecord *deviceErrorRecord(kernels::Checker &check);

/// Reads and clears the device-side error record (waiting for `stream`
/// first); AMP_STATUS_OK when none was recorded.
amp_status_t takeDeviceError(kernels::Checker &check, cudaStream_t stream);

} // namespace cuda
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_CUDA_CUDACOMMON_H
