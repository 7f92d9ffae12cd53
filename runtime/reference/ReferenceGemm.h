//===- ReferenceGemm.h - The CPU reference GEMM as a C++ function ---------===//
//
// The arithmetic of the reference backend, callable from C++ without the C
// symbols of libamp_runtime_ref. The CUDA backend's tests and the benchmark
// link it next to libamp_runtime_cuda (whose C symbols have the same names)
// to compare the two backends on the same inputs.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_REFERENCEGEMM_H
#define AMP_RUNTIME_REFERENCE_REFERENCEGEMM_H

#include "amp_runtime/gemm.h"

namespace amp {
namespace runtime {

/// Computes `desc` on host memory: fp32 products and accumulation in
/// ascending k, the epilogue in fp32, one round-to-nearest-even per stored
/// value. `desc` must have passed validateGemm.
void referenceGemm(const amp_gemm_desc_t &desc);

/// validateGemm, then referenceGemm when valid.
amp_status_t runReferenceGemm(const amp_gemm_desc_t *desc);

} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_REFERENCEGEMM_H
