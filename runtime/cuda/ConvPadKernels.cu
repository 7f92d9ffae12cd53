//===- ConvPadKernels.cu - Padding, cropping and widening for cuDNN -------===//
//
// One kernel for ConvWindowCopy: a block is tx x ty threads, tx (a power of
// two from 8 to 256) covering a destination row and ty = 256 / tx rows side
// by side, so that narrow images still give full, contiguous warps and the
// only integer divisions are one per row. Rows are a grid-stride loop.
// Same-dtype copies move the bits; widening is the exact f16/bf16 -> f32
// conversion, narrowing the hardware's round-to-nearest-even.
//
//===----------------------------------------------------------------------===//

#include "cuda/ConvPadKernels.h"
#include "cuda/CudaDevice.cuh"

#include <algorithm>
#include <type_traits>

using namespace amp::runtime;
using namespace amp::runtime::cuda;

namespace {

template <typename S, typename D> __device__ __forceinline__ D convert(S v) {
  if constexpr (std::is_same_v<S, D>)
    return v;
  else
    return fromFloat<D>(toFloat(v));
}

template <typename S, typename D>
__global__ void windowCopyKernel(const S *__restrict__ src, D *__restrict__ dst,
                                 ConvWindowCopy c) {
  const int64_t rows = c.planes * c.dstH;
  const int64_t rowStep = int64_t(gridDim.x) * blockDim.y;
  for (int64_t row = int64_t(blockIdx.x) * blockDim.y + threadIdx.y; row < rows;
       row += rowStep) {
    const int64_t p = row / c.dstH;
    const int64_t sr = row - p * c.dstH - c.offH;
    const bool rowInside = sr >= 0 && sr < c.srcH;
    const S *in = src + (p * c.srcH + (rowInside ? sr : 0)) * c.srcW;
    D *out = dst + row * c.dstW;
    for (int64_t q = threadIdx.x; q < c.dstW; q += blockDim.x) {
      const int64_t sq = q - c.offW;
      out[q] =
          rowInside && sq >= 0 && sq < c.srcW ? convert<S, D>(in[sq]) : D{};
    }
  }
}

template <typename S, typename D>
void launchTyped(const ConvWindowCopy &c, cudaStream_t stream) {
  int tx = 8;
  while (tx < 256 && tx < c.dstW)
    tx *= 2;
  const dim3 block(tx, kThreads / tx);
  const dim3 grid(gridFor(c.planes * c.dstH, 1, int(block.y)));
  windowCopyKernel<S, D><<<grid, block, 0, stream>>>(
      static_cast<const S *>(c.src), static_cast<D *>(c.dst), c);
}

} // namespace

void amp::runtime::cuda::launchConvWindowCopy(const ConvWindowCopy &c,
                                              cudaStream_t stream) {
  if (c.srcDtype == AMP_DTYPE_F32 && c.dstDtype != AMP_DTYPE_F32) {
    kernels::dispatchFloat(c.dstDtype, [&](auto d) {
      launchTyped<float, decltype(d)>(c, stream);
    });
    return;
  }
  kernels::dispatchFloat(c.srcDtype, [&](auto s) {
    using S = decltype(s);
    if (c.dstDtype == c.srcDtype)
      launchTyped<S, S>(c, stream);
    else
      launchTyped<S, float>(c, stream);
  });
}
