//===- CudaCommon.cpp - The CUDA backend's stream, errors and geometry ----===//

#include "cuda/CudaCommon.h"

#include <algorithm>
#include <mutex>

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using amp::runtime::kernels::Checker;

namespace {

struct Shared {
  std::once_flag streamOnce;
  cudaStream_t stream = nullptr;
  cudaError_t streamError = cudaSuccess;

  std::mutex mutex;
  DeviceErrorRecord *record = nullptr;
  int multiprocessors = 0;
};

Shared &shared() {
  static Shared *s = new Shared; // never destroyed: used until exit
  return *s;
}

} // namespace

cudaStream_t amp::runtime::cuda::toStream(void *stream) {
  if (stream)
    return static_cast<cudaStream_t>(stream);
  Shared &s = shared();
  std::call_once(s.streamOnce, [&] {
    s.streamError = cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking);
    if (s.streamError != cudaSuccess)
      s.stream = nullptr; // the legacy stream: its calls report the error
  });
  return s.stream;
}

amp_status_t amp::runtime::cuda::cudaFailure(Checker &check, const char *what,
                                             cudaError_t error) {
  (void)cudaGetLastError();
  return check.fail(AMP_STATUS_BACKEND_ERROR, "%s failed: %s (%s)", what,
                    cudaGetErrorName(error), cudaGetErrorString(error));
}

amp_status_t amp::runtime::cuda::launched(Checker &check, const char *kernel) {
  cudaError_t error = cudaGetLastError();
  if (error == cudaSuccess)
    return AMP_STATUS_OK;
  return check.fail(AMP_STATUS_BACKEND_ERROR, "launching %s failed: %s (%s)",
                    kernel, cudaGetErrorName(error), cudaGetErrorString(error));
}

int amp::runtime::cuda::multiprocessorCount() {
  Shared &s = shared();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.multiprocessors == 0) {
    int device = 0, count = 0;
    if (cudaGetDevice(&device) == cudaSuccess &&
        cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount,
                               device) == cudaSuccess &&
        count > 0)
      s.multiprocessors = count;
    else
      return 1; // the launch itself will report the failure
  }
  return s.multiprocessors;
}

unsigned amp::runtime::cuda::gridFor(int64_t n, int perThread, int threads) {
  const int64_t perBlock = int64_t(threads) * std::max(perThread, 1);
  const int64_t needed = (std::max<int64_t>(n, 1) + perBlock - 1) / perBlock;
  // A few waves of blocks fill the device; the grid-stride loop does the
  // rest.
  const int64_t fill = int64_t(multiprocessorCount()) * 32;
  return static_cast<unsigned>(std::max<int64_t>(1, std::min(needed, fill)));
}

DeviceErrorRecord *amp::runtime::cuda::deviceErrorRecord(Checker &check) {
  Shared &s = shared();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.record) {
    void *p = nullptr;
    if (cudaError_t e = cudaMalloc(&p, sizeof(DeviceErrorRecord))) {
      cudaFailure(check, "allocating the device error record", e);
      return nullptr;
    }
    if (cudaError_t e = cudaMemset(p, 0, sizeof(DeviceErrorRecord))) {
      cudaFree(p);
      cudaFailure(check, "clearing the device error record", e);
      return nullptr;
    }
    s.record = static_cast<DeviceErrorRecord *>(p);
  }
  return s.record;
}

amp_status_t amp::runtime::cuda::takeDeviceError(Checker &check,
                                                 cudaStream_t stream) {
  if (cudaError_t e = cudaStreamSynchronize(stream))
    return cudaFailure(check, "cudaStreamSynchronize", e);
  DeviceErrorRecord *record;
  {
    Shared &s = shared();
    std::lock_guard<std::mutex> lock(s.mutex);
    record = s.record;
  }
  if (!record) // no kernel that can record one has run
    return AMP_STATUS_OK;
  DeviceErrorRecord host{};
  if (cudaError_t e = cudaMemcpy(&host, record, sizeof(host),
                                 cudaMemcpyDeviceToHost))
    return cudaFailure(check, "reading the device error record", e);
  if (host.code == 0)
    return AMP_STATUS_OK;
  if (cudaError_t e = cudaMemset(record, 0, sizeof(DeviceErrorRecord)))
    return cudaFailure(check, "clearing the device error record", e);
  // The reference's message (Checker::indices), found on the device.
  const char *what = "a kernel: value";
  switch (static_cast<DeviceError>(host.code)) {
  case DeviceError::IdOutOfRange:
    what = "amp_embedding: id";
    break;
  case DeviceError::LabelOutOfRange:
    what = "amp_cross_entropy: label";
    break;
  case DeviceError::IdOutOfRangeGrad:
    what = "amp_embedding_grad: id";
    break;
  case DeviceError::LabelOutOfRangeGrad:
    what = "amp_cross_entropy_grad: label";
    break;
  case DeviceError::None:
    break;
  }
  return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                    "%s %lld at position %lld is outside [0, %lld)", what,
                    (long long)host.value, (long long)host.position,
                    (long long)host.bound);
}
