//===- CastMath.h - amp_cast's conversion of one element ------------------===//
//
// The conversion of one element between any two runtime dtypes, as
// amp_cast's contract in amp_runtime/kernels.h states it, as `inline
// AMP_HOST_DEVICE` code: the reference backend (KernelsElementwise.cpp) and
// the CUDA kernels (KernelsCast.cu) call the same functions. Every
// conversion is defined C++ for every input (no out-of-range float ->
// integer or signed narrowing casts). The storage types are those of
// dispatchAny (reference/KernelCommon.h): float, Half, BFloat16, int32_t,
// int64_t, and uint8_t for bool.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_CASTMATH_H
#define AMP_RUNTIME_REFERENCE_CASTMATH_H

#include "amp_runtime/float16.h"
#include "amp_runtime/host_device.h"

#include <cstdint>
#include <type_traits>

namespace amp {
namespace runtime {

/// Whether T is the storage type of a float dtype (f32, f16, bf16).
template <typename T>
inline constexpr bool kIsFloatStorage =
    std::is_same_v<T, float> || std::is_same_v<T, Half> ||
    std::is_same_v<T, BFloat16>;

/// f32 -> int32_t / int64_t: truncation toward zero, NaN -> 0, saturated to
/// the type's range (+-inf included). Only in-range values reach the
/// static_cast, whose result is then defined.
template <typename I> inline AMP_HOST_DEVICE I truncSaturate(float v) {
  static_assert(std::is_same_v<I, int32_t> || std::is_same_v<I, int64_t>,
                "an integer dtype's storage type");
  // 2^31 and 2^63 are exact in f32; -2^31 and -2^63 are in range.
  constexpr bool is32 = std::is_same_v<I, int32_t>;
  constexpr float limit = is32 ? 2147483648.0f : 9223372036854775808.0f;
  constexpr I max = static_cast<I>((uint64_t{1} << (8 * sizeof(I) - 1)) - 1);
  constexpr I min = -max - 1;
  if (v != v)
    return 0;
  if (v >= limit)
    return max;
  if (v < -limit)
    return min;
  return static_cast<I>(v);
}

/// The low 32 bits of v as a two's complement int32_t (NumPy's and
/// PyTorch's i64 -> i32), without the implementation-defined conversion of
/// an out-of-range value.
inline AMP_HOST_DEVICE int32_t wrapToI32(int64_t v) {
  const uint32_t u = static_cast<uint32_t>(static_cast<uint64_t>(v));
  return u <= 0x7fffffffu ? static_cast<int32_t>(u)
                          : -static_cast<int32_t>(~u) - 1;
}

/// x (storage type X) converted to the storage type Y by amp_cast's rules.
template <typename Y, typename X> inline AMP_HOST_DEVICE Y castElement(X x) {
  if constexpr (std::is_same_v<X, Y>) {
    return x;
  } else if constexpr (std::is_same_v<Y, uint8_t>) {
    // any -> bool: x != 0 (NaN is nonzero, -0.0 is zero).
    if constexpr (kIsFloatStorage<X>)
      return toF32(x) != 0.0f ? 1 : 0;
    else
      return x != 0 ? 1 : 0;
  } else if constexpr (std::is_same_v<X, uint8_t>) {
    // bool -> any: a nonzero byte is 1.
    if constexpr (kIsFloatStorage<Y>)
      return fromF32<Y>(x != 0 ? 1.0f : 0.0f);
    else
      return static_cast<Y>(x != 0 ? 1 : 0);
  } else if constexpr (kIsFloatStorage<X>) {
    const float v = toF32(x); // exact
    if constexpr (kIsFloatStorage<Y>)
      return fromF32<Y>(v);
    else
      return truncSaturate<Y>(v);
  } else if constexpr (kIsFloatStorage<Y>) {
    // i32 / i64 -> f32 rounds to nearest even (the C conversion in the
    // default rounding mode, cvt.rn on the device), then to Y once more.
    return fromF32<Y>(static_cast<float>(x));
  } else if constexpr (std::is_same_v<Y, int32_t>) {
    return wrapToI32(x); // i64 -> i32
  } else {
    return static_cast<Y>(x); // i32 -> i64
  }
}

} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_CASTMATH_H
