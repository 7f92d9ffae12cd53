//===- GemmEntryPoints.cpp - amp_gemm_with_pointers, every backend --------===//
//
// The GEMM entry point of compiled steps, compiled into each backend
// library: a copy of the constant descriptor with the call's buffer
// pointers, then the backend's amp_gemm (reference/ReferenceBackend.cpp,
// cpu/CpuGemm.cpp, cuda/CudaGemm.cpp), which checks the whole request.
//
//===----------------------------------------------------------------------===//

#include "amp_runtime/gemm.h"

#include <cstring>

extern "C" amp_status_t amp_gemm_with_pointers(const amp_gemm_desc_t *shape,
                                               const void *a, const void *b,
                                               const void *c, void *d,
                                               void *bias, void *aux,
                                               void *stream) {
  if (!shape)
    return amp_gemm(nullptr, stream); // amp_gemm's error for a null request
  amp_gemm_desc_t desc;
  std::memcpy(&desc, shape, sizeof(desc));
  desc.a = a;
  desc.b = b;
  desc.c = c;
  desc.d = d;
  desc.bias = bias;
  desc.aux = aux;
  return amp_gemm(&desc, stream);
}
