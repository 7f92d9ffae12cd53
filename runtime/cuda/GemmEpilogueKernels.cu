//===- GemmEpilogueKernels.cu - The CUDA backend's own epilogue kernels ---===//
//
// Simple, memory-bound kernels for the unfused path: they run only when
// cuBLASLt cannot fuse an epilogue, so they favour one code path per dtype
// (three instantiations of the epilogue, nine of the reduction) over speed,
// to keep the CUDA compile short. The activation math is the reference
// backend's (GemmEpilogue.h); conversions are the hardware round-to-nearest-
// even ones.
//
//===----------------------------------------------------------------------===//

#include "cuda/GemmEpilogueKernels.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <type_traits>

using namespace amp::runtime;
using namespace amp::runtime::cuda;

namespace {

__device__ inline float load(const float *p, int64_t i) { return p[i]; }
__device__ inline float load(const __half *p, int64_t i) {
  return __half2float(p[i]);
}
__device__ inline float load(const __nv_bfloat16 *p, int64_t i) {
  return __bfloat162float(p[i]);
}

__device__ inline void store(float *p, int64_t i, float v) { p[i] = v; }
__device__ inline void store(__half *p, int64_t i, float v) {
  p[i] = __float2half_rn(v);
}
__device__ inline void store(__nv_bfloat16 *p, int64_t i, float v) {
  p[i] = __float2bfloat16_rn(v);
}

template <typename T> __global__ void epilogueKernel(EpilogueArgs args) {
  const T *c = static_cast<const T *>(args.c);
  const T *bias = static_cast<const T *>(args.biasIn);
  T *aux = static_cast<T *>(args.aux);
  T *d = static_cast<T *>(args.d);
  const EpilogueInfo info = args.info;
  const int64_t total = args.batch * args.m * args.n;
  for (int64_t idx = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
       idx < total; idx += int64_t(gridDim.x) * blockDim.x) {
    const int64_t j = idx % args.n, row = idx / args.n;
    const int64_t i = row % args.m, b = row / args.m;
    float t = args.acc[idx];
    if (c)
      t += args.beta * load(c, b * args.strideC + i * args.ldc + j);
    if (info.bias == BiasUse::Input)
      t += load(bias, b * args.strideBias + j);
    const int64_t a = b * args.strideAux + i * args.ldAux + j;
    // Read aux before D is written: DRELU may run in place on its aux.
    float auxIn = info.aux == AuxUse::Read ? load(aux, a) : 0.0f;
    if (info.aux == AuxUse::Write)
      store(aux, a, t);
    float out = applyActivation(info.act, t, auxIn);
    if (info.bias == BiasUse::GradOfD)
      args.acc[idx] = out;
    store(d, b * args.strideD + i * args.ldd + j, out);
  }
}

// A 32 x 32 block sums 32 outputs: threadIdx.x picks the output (adjacent
// outputs are adjacent in memory for the column sums), threadIdx.y strides
// over the reduced dimension, and a shared-memory pass adds the 32 partial
// sums in a fixed order, so results do not depend on scheduling.
constexpr int kReduceTile = 32;

template <typename TIn, typename TOut>
__global__ void reduceKernel(ReduceArgs args) {
  __shared__ float partial[kReduceTile][kReduceTile + 1];
  const TIn *in = static_cast<const TIn *>(args.in);
  TOut *out = static_cast<TOut *>(args.out);
  const int64_t o = blockIdx.x * int64_t(kReduceTile) + threadIdx.x;
  for (int64_t b = blockIdx.y; b < args.batch; b += gridDim.y) {
    float sum = 0.0f;
    if (o < args.count) {
      const TIn *base = in + b * args.inBatchStride + o * args.strideOut;
      for (int64_t r = threadIdx.y; r < args.length; r += kReduceTile)
        sum += load(base, r * args.strideRed);
    }
    partial[threadIdx.y][threadIdx.x] = sum;
    __syncthreads();
    if (threadIdx.y == 0 && o < args.count) {
      float total = 0.0f;
      for (int y = 0; y < kReduceTile; ++y)
        total += partial[y][threadIdx.x];
      store(out, b * args.outBatchStride + o, total);
    }
    __syncthreads();
  }
}

/// Calls f with a null pointer of the storage type of `dtype`.
template <typename F> cudaError_t withStorageType(amp_dtype_t dtype, F &&f) {
  switch (dtype) {
  case AMP_DTYPE_F16:
    return f(static_cast<__half *>(nullptr));
  case AMP_DTYPE_BF16:
    return f(static_cast<__nv_bfloat16 *>(nullptr));
  case AMP_DTYPE_F32:
    return f(static_cast<float *>(nullptr));
  default:
    return cudaErrorInvalidValue;
  }
}

} // namespace

cudaError_t amp::runtime::cuda::launchEpilogue(const EpilogueArgs &args,
                                               cudaStream_t stream) {
  const int threads = 256;
  const int64_t total = args.batch * args.m * args.n;
  const unsigned blocks =
      unsigned(std::min<int64_t>((total + threads - 1) / threads, 65535));
  return withStorageType(args.dtype, [&](auto *tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    epilogueKernel<T><<<blocks, threads, 0, stream>>>(args);
    return cudaGetLastError();
  });
}

cudaError_t amp::runtime::cuda::launchReduce(const ReduceArgs &args,
                                             cudaStream_t stream) {
  const dim3 threads(kReduceTile, kReduceTile);
  const dim3 blocks(unsigned((args.count + kReduceTile - 1) / kReduceTile),
                    unsigned(std::min<int64_t>(args.batch, 65535)));
  return withStorageType(args.inDtype, [&](auto *inTag) {
    return withStorageType(args.outDtype, [&](auto *outTag) {
      using TIn = std::remove_pointer_t<decltype(inTag)>;
      using TOut = std::remove_pointer_t<decltype(outTag)>;
      reduceKernel<TIn, TOut><<<blocks, threads, 0, stream>>>(args);
      return cudaGetLastError();
    });
  });
}
