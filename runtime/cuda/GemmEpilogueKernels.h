//===- GemmEpilogueKernels.h - The CUDA backend's own epilogue kernels ----===//
//
// The kernels the CUDA backend runs when cuBLASLt cannot fuse an epilogue
// (it reports NOT_SUPPORTED, a guard rules the fused form out, or the
// unfused path is forced): the elementwise epilogue over an fp32 GEMM result,
// and a strided sum used for every bias gradient. Host-callable launchers;
// the kernels themselves live in GemmEpilogueKernels.cu.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CUDA_GEMMEPILOGUEKERNELS_H
#define AMP_RUNTIME_CUDA_GEMMEPILOGUEKERNELS_H

#include "amp_runtime/amp_runtime.h"
#include "reference/GemmEpilogue.h"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace amp {
namespace runtime {
namespace cuda {

/// D = epilogue(acc + beta C [+ bias]) over `batch` row-major m x n
/// matrices; `acc` is dense (ld n, batch stride m n) and already holds
/// alpha op(A) op(B). C, bias and aux use `dtype`, like D. When the epilogue
/// reduces D (BiasUse::GradOfD), acc is overwritten with the fp32 values
/// stored to D, which launchReduce then sums.
struct EpilogueArgs {
  float *acc;
  const void *c; // NULL when beta == 0
  int64_t ldc, strideC;
  float beta;
  const void *biasIn; // BiasUse::Input only
  int64_t strideBias;
  void *aux; // read or written according to info.aux
  int64_t ldAux, strideAux;
  void *d;
  int64_t ldd, strideD;
  int64_t m, n, batch;
  amp_dtype_t dtype;
  EpilogueInfo info;
};
cudaError_t launchEpilogue(const EpilogueArgs &args, cudaStream_t stream);

/// out[b * outBatchStride + o] = sum over r < length of
///   in[b * inBatchStride + o * strideOut + r * strideRed]
/// for o < count, b < batch, summed in fp32 and rounded once to outDtype.
/// Covers the column sums of D (DRELU/DGELU_BGRAD) and the sums of op(A)
/// and op(B) over k (BGRADA/BGRADB) in any storage order.
struct ReduceArgs {
  const void *in;
  amp_dtype_t inDtype;
  int64_t count, length, strideOut, strideRed, inBatchStride;
  void *out;
  amp_dtype_t outDtype;
  int64_t outBatchStride;
  int64_t batch;
};
cudaError_t launchReduce(const ReduceArgs &args, cudaStream_t stream);

} // namespace cuda
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_CUDA_GEMMEPILOGUEKERNELS_H
