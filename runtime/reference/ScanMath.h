//===- ScanMath.h - One line of amp_cumsum, amp_argmax and amp_topk ------===//
//
// The work on one line along the axis of the scans amp_cumsum, amp_argmax
// and amp_topk, as `inline AMP_HOST_DEVICE` functions that the reference
// backend (KernelsScan.cpp) and the CUDA kernels (KernelsScan.cu) both run,
// so that they agree bitwise. cumsum: the float dtypes sum in f32 in scan
// order and round each output once; i32 and i64 sum in the unsigned type
// (two's complement wrapping, as amp_binary's integer ADD). argmax and
// topk: exact comparisons, a NaN above every number.
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

/// The value argmax and topk compare for an element: the exact f32 value of
/// a float, the integer itself.
template <typename T> inline AMP_HOST_DEVICE auto orderValue(T v) {
  if constexpr (std::is_integral<T>::value)
    return v;
  else
    return toF32(v);
}

/// a > b for orderValue's values, a NaN larger than any number.
template <typename V> inline AMP_HOST_DEVICE bool orderGreater(V a, V b) {
  if constexpr (std::is_integral<V>::value)
    return a > b;
  else
    return (a != a && b == b) || a > b;
}

/// a == b for orderValue's values, a NaN equal to another NaN (and -0 to +0).
template <typename V> inline AMP_HOST_DEVICE bool orderEqual(V a, V b) {
  if constexpr (std::is_integral<V>::value)
    return a == b;
  else
    return (a != a && b != b) || a == b;
}

/// The position along the axis of the largest element of line `line` (the
/// first, or the last with selectLast); a NaN is larger than any number and
/// equal to another NaN. The line is not empty.
template <typename T>
inline AMP_HOST_DEVICE int64_t argmaxLine(const T *x, const kernels::Scan &scan,
                                          int64_t line, bool selectLast) {
  const T *p = x + scan.first(line);
  auto best = orderValue(p[0]);
  int64_t at = 0;
  for (int64_t k = 1; k < scan.len; ++k) {
    const auto v = orderValue(p[k * scan.inner]);
    if (orderGreater(v, best) || (selectLast && orderEqual(v, best))) {
      best = v;
      at = k;
    }
  }
  return at;
}

/// Whether element a at position i comes before element b at position j in
/// topk's order: the larger first (the smaller with `smallest`), the lower
/// position first among equals. A strict total order on the line.
template <typename V>
inline AMP_HOST_DEVICE bool topkBefore(V a, int64_t i, V b, int64_t j,
                                       bool smallest) {
  if (orderEqual(a, b))
    return i < j;
  return smallest ? orderGreater(b, a) : orderGreater(a, b);
}

/// The positions of the first k elements of line `line` in topk's order,
/// written along the axis of y (x's shape with the axis k long): pick j is
/// the first element in that order after pick j - 1. O(k * len) with no
/// scratch memory, which suits the few picks of a router (k of 1 or 2 among
/// some experts) on one GPU thread per line.
template <typename T>
inline AMP_HOST_DEVICE void topkLine(const T *x, int64_t *y,
                                     const kernels::Scan &scan, int64_t line,
                                     int64_t k, bool smallest) {
  const T *p = x + scan.first(line);
  int64_t *out = y + (line / scan.inner) * k * scan.inner + line % scan.inner;
  using V = decltype(orderValue(p[0]));
  V prevValue{};
  int64_t prev = -1;
  for (int64_t j = 0; j < k; ++j) {
    V pickValue{};
    int64_t pick = -1;
    for (int64_t i = 0; i < scan.len; ++i) {
      const V v = orderValue(p[i * scan.inner]);
      if (prev >= 0 && !topkBefore(prevValue, prev, v, i, smallest))
        continue;
      if (pick < 0 || topkBefore(v, i, pickValue, pick, smallest)) {
        pick = i;
        pickValue = v;
      }
    }
    out[j * scan.inner] = pick;
    prev = pick;
    prevValue = pickValue;
  }
}

} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_SCANMATH_H
