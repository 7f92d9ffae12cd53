//===- Convert.h - f16/bf16 <-> f32 in blocks on the CPU ------------------===//
//
// Widening and narrowing of contiguous runs of f16 and bf16: amp_cast on the
// host backends, and the cpu backend where oneDNN has no primitive for a
// dtype (f16 GEMMs and convolutions run in f32 on operands widened here).
// f16 uses the CPU's F16C instructions when it has them (chosen once at
// run time), else the bit-exact conversions of float16.h; both round to
// nearest even, keep infinities, and give quiet NaNs with the sign and
// payload kept (widening too, unlike float16.h's exact halfBitsToFloat).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_CONVERT_H
#define AMP_RUNTIME_REFERENCE_CONVERT_H

#include "amp_runtime/amp_runtime.h"

#include <cstdint>

namespace amp {
namespace runtime {
namespace kernels {

/// dst[i] = src[i] widened to f32, for `count` elements of `dtype`.
void widenToF32(amp_dtype_t dtype, const void *src, float *dst, int64_t count);

/// dst[i] = src[i] rounded (RNE) to `dtype`.
void narrowFromF32(amp_dtype_t dtype, const float *src, void *dst,
                   int64_t count);

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_CONVERT_H
