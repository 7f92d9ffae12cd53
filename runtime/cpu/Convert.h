//===- Convert.h - f16/bf16 <-> f32 in blocks on the CPU ------------------===//
//
// Widening and narrowing of contiguous runs of f16 and bf16, the block
// conversions the cpu backend uses where oneDNN has no primitive for a
// dtype (f16 GEMMs and convolutions run in f32 on operands widened here).
// f16 uses the CPU's F16C instructions when it has them (chosen once at
// run time), else the bit-exact conversions of float16.h; both round to
// nearest even and keep NaN and infinities.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CPU_CONVERT_H
#define AMP_RUNTIME_CPU_CONVERT_H

#include "amp_runtime/amp_runtime.h"

#include <cstdint>

namespace amp {
namespace runtime {
namespace cpu {

/// dst[i] = src[i] widened to f32, for `count` elements of `dtype`.
void widenToF32(amp_dtype_t dtype, const void *src, float *dst, int64_t count);

/// dst[i] = src[i] rounded (RNE) to `dtype`.
void narrowFromF32(amp_dtype_t dtype, const float *src, void *dst,
                   int64_t count);

/// Widens a strided matrix (rows x cols, leading dimension ld) of `dtype`
/// into a dense row-major f32 one, for `batches` batches `stride` apart.
void widenMatrix(amp_dtype_t dtype, const void *src, int64_t rows,
                 int64_t cols, int64_t ld, int64_t batches, int64_t stride,
                 float *dst);

} // namespace cpu
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_CPU_CONVERT_H
