//===- CudaDevice.cuh - Shared device-side pieces of the CUDA kernels -----===//
//
// Loads and stores of the storage types (float, Half, BFloat16 of
// amp_runtime/float16.h, so host code dispatches with the reference
// backend's dispatchFloat and launches a kernel templated on the same type),
// 128-bit packed access, the grid-stride loop, warp and block reductions,
// and the device-side error record read by amp_synchronize.
//
// Conversions are the hardware's round-to-nearest-even ones: bitwise the
// reference's (float16.h) for every number, infinities and subnormals
// included; a NaN stays a NaN of the same sign but its payload becomes the
// canonical one.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CUDA_CUDADEVICE_CUH
#define AMP_RUNTIME_CUDA_CUDADEVICE_CUH

#include "amp_runtime/float16.h"
#include "cuda/CudaCommon.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace amp {
namespace runtime {
namespace cuda {

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

__device__ __forceinline__ float toFloat(float v) { return v; }
__device__ __forceinline__ float toFloat(Half v) {
  return __half2float(__ushort_as_half(v.bits));
}
__device__ __forceinline__ float toFloat(BFloat16 v) {
  return __bfloat162float(__ushort_as_bfloat16(v.bits));
}

template <typename T> __device__ __forceinline__ T fromFloat(float v);
template <> __device__ __forceinline__ float fromFloat<float>(float v) {
  return v;
}
template <> __device__ __forceinline__ Half fromFloat<Half>(float v) {
  return Half{__half_as_ushort(__float2half_rn(v))};
}
template <> __device__ __forceinline__ BFloat16 fromFloat<BFloat16>(float v) {
  return BFloat16{__bfloat16_as_ushort(__float2bfloat16_rn(v))};
}

/// Element i of a T buffer, widened to f32 (exact).
template <typename T>
__device__ __forceinline__ float ld(const T *p, int64_t i) {
  return toFloat(p[i]);
}

/// Stores v rounded once to T at element i.
template <typename T>
__device__ __forceinline__ void st(T *p, int64_t i, float v) {
  p[i] = fromFloat<T>(v);
}

/// Elements of T per 128-bit access (4 floats, 8 halves).
template <typename T> constexpr int kPack = 16 / sizeof(T);

/// kPack<T> elements loaded or stored with one 128-bit access.
template <typename T> struct alignas(16) Pack {
  T v[kPack<T>];
};

/// Whether every pointer is 16-byte aligned (packed access is allowed).
template <typename... P> inline bool packAligned(const P *...ptrs) {
  return ((reinterpret_cast<uintptr_t>(ptrs) % 16 == 0) && ...);
}

/// for (i = global thread index; i < n; i += total threads)
#define AMP_GRID_STRIDE(i, n)                                                  \
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < (n);   \
       i += int64_t(blockDim.x) * gridDim.x)

//===----------------------------------------------------------------------===//
// Reductions (f32)
//===----------------------------------------------------------------------===//

__device__ __forceinline__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

/// max with NaN winning, as the reference's maxNaN.
__device__ __forceinline__ float maxNaNDevice(float acc, float v) {
  return (v > acc || v != v) ? v : acc;
}

__device__ __forceinline__ float warpMax(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v = maxNaNDevice(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

/// The sum over the block of every thread's v, returned to every thread.
/// blockDim.x must be a multiple of 32 and at most 1024; every thread of
/// the block must call it. `scratch` holds 32 floats of shared memory.
__device__ __forceinline__ float blockSum(float v, float *scratch) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warpSum(v);
  __syncthreads(); // scratch may still be read by a previous call
  if (lane == 0)
    scratch[warp] = v;
  __syncthreads();
  const int warps = blockDim.x / 32;
  v = lane < warps ? scratch[lane] : 0.0f;
  return warpSum(v);
}

/// The same for the NaN-propagating maximum (-inf for an empty block).
__device__ __forceinline__ float blockMax(float v, float *scratch) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warpMax(v);
  __syncthreads();
  if (lane == 0)
    scratch[warp] = v;
  __syncthreads();
  const int warps = blockDim.x / 32;
  v = lane < warps ? scratch[lane] : -__int_as_float(0x7f800000);
  return warpMax(v);
}

//===----------------------------------------------------------------------===//
// Device-side errors
//===----------------------------------------------------------------------===//

/// Records a failure in `record` (deviceErrorRecord() of CudaCommon.h,
/// passed to the kernel as an argument: the kernels are compiled without
/// relocatable device code, so they cannot share a __device__ variable)
/// unless one is already recorded: the first one wins.
__device__ __forceinline__ void reportDeviceError(DeviceErrorRecord *record,
                                                  DeviceError code,
                                                  int64_t value,
                                                  int64_t position,
                                                  int64_t bound) {
  if (atomicCAS(&record->code, 0, static_cast<int32_t>(code)) == 0) {
    record->value = value;
    record->position = position;
    record->bound = bound;
  }
}

} // namespace cuda
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_CUDA_CUDADEVICE_CUH
