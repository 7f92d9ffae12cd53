//===- dropout.h - amp runtime: the dropout mask of every backend ---------===//
//
// keep(seed, i) of nn.dropout, whose formula kernels.h (amp_dropout) gives:
// a pure function of the seed and the flat element index, so that the
// reference and device backends drop exactly the same elements. C++ only,
// header-only; the functions are `__host__ __device__` under nvcc.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_DROPOUT_H
#define AMP_RUNTIME_DROPOUT_H

#include "amp_runtime/host_device.h"

#include <cstdint>

namespace amp {
namespace runtime {

/// The f32 threshold of keep(): 2^24 * (1 - rate), both operations in f32.
inline AMP_HOST_DEVICE float dropoutThreshold(float rate) {
  return 16777216.0f * (1.0f - rate);
}

/// Whether element i is kept: the top 24 bits of the splitmix64 finalizer
/// of seed + i * 0x9E3779B97F4A7C15 (mod 2^64), compared in f32 (exact:
/// they are below 2^24) with dropoutThreshold(rate).
inline AMP_HOST_DEVICE bool dropoutKeep(uint64_t seed, uint64_t i,
                                        float threshold) {
  uint64_t z = seed + i * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31; // leaves the top bits as they are; kept to match splitmix64
  return static_cast<float>(z >> 40) < threshold;
}

} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_DROPOUT_H
