//===- ScanMath.h - One line of amp_cumsum and amp_argmax -----------------===//
//
// The work on one line along the axis of the scans amp_cumsum and
// amp_argmax, as `inline AMP_HOST_DEVICE` functions that the reference
// backend (KernelsScan.cpp) and the CUDA kernels (KernelsScan.cu) both run,
// so that they agree bitwise. cumsum: the float dtypes sum in f32 in scan
// order and round each output once; i32 and i64 sum in the unsigned type
// (two's complement wrapping, as amp_binary's integer ADD). argmax: exact
// comparisons, a NaN above every number.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_SCANMATH_H
#define AMP_RUNTIME_REFERENCE_SCANMATH_H

#include "amp_runtime/float16.h"
#include "amp_runtime/host_device.h"
#include "reference/ReduceChecks.h"

#include <type_traits>

namespace amp {
namespace runtime {

/// The running sum's type for T: f32 for the float storage types, the
/// unsigned integer type (which wraps) for i32 and i64.
template <typename T, bool = std::is_integral<T>::value> struct ScanSum {
  using type = float;
};
template <typename T> struct ScanSum<T, true> {
  using type = std::make_unsigned_t<T>;
};

/// Scans line `line` of `scan` (line = outer index * inner + inner index)
/// from x into y, which may be x: each element is read before its output
/// is written, and no other line touches it.
template <typename T>
inline AMP_HOST_DEVICE void scanLine(const T *x, T *y,
                                     const kernels::Scan &scan, int64_t line,
                                     bool exclusive, bool reverse) {
  constexpr bool kInteger = std::is_integral<T>::value;
  using Sum = typename ScanSum<T>::type;
  const int64_t base = scan.first(line);
  Sum sum = 0;
  for (int64_t k = 0; k < scan.len; ++k) {
    const int64_t i = base + (reverse ? scan.len - 1 - k : k) * scan.inner;
    Sum v;
    if constexpr (kInteger)
      v = static_cast<Sum>(x[i]);
    else
      v = toF32(x[i]);
    if (!exclusive)
      sum += v;
    if constexpr (kInteger)
      y[i] = static_cast<T>(sum);
    else
      y[i] = fromF32<T>(sum);
    if (exclusive)
      sum += v;
  }
}

/// The value argmax compares for an element: the exact f32 value of a
/// float, the integer itself.
template <typename T> inline AMP_HOST_DEVICE auto argmaxValue(T v) {
  if constexpr (std::is_integral<T>::value)
    return v;
  else
    return toF32(v);
}

/// The position along the axis of the largest element of line `line` (the
/// first, or the last with selectLast); a NaN is larger than any number and
/// equal to another NaN. The line is not empty.
template <typename T>
inline AMP_HOST_DEVICE int64_t argmaxLine(const T *x, const kernels::Scan &scan,
                                          int64_t line, bool selectLast) {
  const T *p = x + scan.first(line);
  auto best = argmaxValue(p[0]);
  int64_t at = 0;
  for (int64_t k = 1; k < scan.len; ++k) {
    const auto v = argmaxValue(p[k * scan.inner]);
    bool greater, equal;
    if constexpr (std::is_integral<T>::value) {
      greater = v > best;
      equal = v == best;
    } else {
      const bool vNaN = v != v, bestNaN = best != best;
      greater = (vNaN && !bestNaN) || v > best;
      equal = (vNaN && bestNaN) || v == best;
    }
    if (greater || (selectLast && equal)) {
      best = v;
      at = k;
    }
  }
  return at;
}

} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_SCANMATH_H
