//===- ReduceInputs.h - Inputs and bounds of the reduction cases ----------===//
//
// What CompareReduce, CompareLoss and ComparePool share: inputs on a coarse
// grid (small multiples of a power of two), whose sums are exact in f32 in
// any order, so that a reduction that is not bitwise the reference's for
// real-valued inputs must be bitwise for these; and the f32 error bound the
// real-valued cases' tolerances come from.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UNITTESTS_RUNTIME_BACKENDCOMPARE_REDUCEINPUTS_H
#define AMP_UNITTESTS_RUNTIME_BACKENDCOMPARE_REDUCEINPUTS_H

#include "Compare.h"

#include <cmath>

namespace amp {
namespace compare {

/// The f32 unit roundoff.
constexpr double kU = 1.0 / (1 << 24);

/// n values k * step with k uniform in [kLo, kHi] (|k| <= 256: exact in
/// every float dtype for a power-of-two step).
inline Host gridHost(std::mt19937_64 &rng, amp_dtype_t dtype, int64_t n,
                     int kLo, int kHi, double step) {
  Host h = zeros(dtype, n);
  std::uniform_int_distribution<int> dist(kLo, kHi);
  for (int64_t i = 0; i < n; ++i)
    h.set(i, dist(rng) * step);
  return h;
}

/// An ulp of `dtype` relative to the value (2^-23, 2^-10, 2^-7): two
/// roundings of nearby f32 values into it differ by at most this much.
inline double ulpRel(amp_dtype_t dtype) {
  return dtype == AMP_DTYPE_F16    ? std::ldexp(1.0, -10)
         : dtype == AMP_DTYPE_BF16 ? std::ldexp(1.0, -7)
                                   : std::ldexp(1.0, -23);
}

/// The spacing of `dtype`'s subnormals (what rounding can lose near 0).
inline double subnormalStep(amp_dtype_t dtype) {
  return dtype == AMP_DTYPE_F16    ? std::ldexp(1.0, -24)
         : dtype == AMP_DTYPE_BF16 ? std::ldexp(1.0, -133)
                                   : std::ldexp(1.0, -149);
}

/// The difference bound of two f32 sums of n terms of total magnitude
/// `absSum`, one sequential ((n - 1) u absSum), one a tree of sequential
/// pieces (at most as large): 2 (n + 1) u absSum.
inline double sumBound(int64_t n, double absSum) {
  return 2.0 * double(n + 1) * kU * absSum;
}

} // namespace compare
} // namespace amp

#endif // AMP_UNITTESTS_RUNTIME_BACKENDCOMPARE_REDUCEINPUTS_H
