//===- ReduceMath.h - Per-element formulas of the reductions --------------===//
//
// The formulas of amp_reduce_max_grad that both backends compute, so that
// the reference's unit tests exercise the code the CUDA kernels run.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_REDUCEMATH_H
#define AMP_RUNTIME_REFERENCE_REDUCEMATH_H

#include "amp_runtime/host_device.h"

#include <cmath>
#include <cstdint>

namespace amp {
namespace runtime {
namespace kernels {

/// The share of dy each of the `hits` elements equal to the max gets (f32
/// division, as PyTorch's amax); NaN when none is (a NaN max).
inline AMP_HOST_DEVICE float maxGradShare(float dy, int64_t hits) {
  return hits ? dy / static_cast<float>(hits) : NAN;
}

/// dx of one element: the share where x equals the max, 0 elsewhere, NaN
/// throughout a slice without hits.
inline AMP_HOST_DEVICE float maxGradValue(bool isMax, int64_t hits,
                                          float share) {
  return isMax || !hits ? share : 0.0f;
}

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_REDUCEMATH_H
