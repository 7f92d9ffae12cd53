//===- ConvPadKernels.h - Padding, cropping and widening for cuDNN --------===//
//
// cuDNN's convolutions take one padding per dimension, applied on both
// sides, and one dtype for every operand. The convolution entry points
// (KernelsConv.cpp) bridge the rest with one copy kernel: it pads an image
// batch into a scratch buffer (the part of an asymmetric padding cuDNN
// cannot express), crops a padded gradient back, widens f16/bf16 operands
// to f32 and rounds an f32 result into f16/bf16 where cuDNN computes in f32
// for a narrower result, and realigns.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CUDA_CONVPADKERNELS_H
#define AMP_RUNTIME_CUDA_CONVPADKERNELS_H

#include "amp_runtime/kernels.h"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace amp {
namespace runtime {
namespace cuda {

/// dst[p, r, q] = src[p, r - offH, q - offW] converted to dst's dtype, and
/// zero where that element is outside src, for p < planes, r < dstH,
/// q < dstW. A negative offset crops. The dtypes are equal (a bit copy), or
/// one of them is f32: widening is exact, narrowing rounds once (RNE).
struct ConvWindowCopy {
  const void *src;
  void *dst;
  amp_dtype_t srcDtype, dstDtype;
  int64_t planes;
  int64_t srcH, srcW, dstH, dstW;
  int64_t offH, offW;
};

/// Queues the copy on `stream`; the caller checks the launch (launched()).
void launchConvWindowCopy(const ConvWindowCopy &copy, cudaStream_t stream);

} // namespace cuda
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_CUDA_CONVPADKERNELS_H
