//===- ElementwiseMath.h - The f32 math of the elementwise kernels --------===//
//
// The per-element formulas of amp_unary, amp_pow, amp_clamp, the same-shape
// gradients, amp_binary, amp_compare, amp_dropout and the extremum gradients
// of amp_maximum_grad / amp_minimum_grad, as `inline AMP_HOST_DEVICE`
// functions: the reference backend (KernelsElementwise.cpp,
// KernelsSelect.cpp) and the CUDA kernels call the same code. Everything is
// f32 but amp_binary's integer arithmetic (intBinaryOp); the transcendental
// functions are the C library's f32 ones on the host and CUDA's on the
// device (a few ulps apart).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_ELEMENTWISEMATH_H
#define AMP_RUNTIME_REFERENCE_ELEMENTWISEMATH_H

#include "amp_runtime/float16.h"
#include "amp_runtime/host_device.h"
#include "amp_runtime/kernels.h"
#include "reference/GemmEpilogue.h"

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace amp {
namespace runtime {

/// The exact GELU, x * cdf(x) with the standard normal's cdf(x) =
/// 0.5 (1 + erf(x / sqrt 2)), and its derivative cdf(x) + x pdf(x), in f32
/// as PyTorch's CPU kernels compute them.
inline constexpr float kSqrtHalf = 0.70710678118654752440f;   // 1/sqrt(2)
inline constexpr float kInvSqrt2Pi = 0.39894228040143267794f; // 1/sqrt(2 pi)
inline AMP_HOST_DEVICE float geluErf(float x) {
  return x * 0.5f * (1.0f + erff(x * kSqrtHalf));
}
inline AMP_HOST_DEVICE float geluErfDerivative(float x) {
  const float cdf = 0.5f * (1.0f + erff(x * kSqrtHalf));
  const float pdf = expf(-0.5f * x * x) * kInvSqrt2Pi;
  return cdf + x * pdf;
}

/// y = op(x) of amp_unary for the amp_unary_op_t `Op`.
template <int32_t Op> inline AMP_HOST_DEVICE float unaryOp(float v) {
  if constexpr (Op == AMP_UNARY_NEG)
    return -v;
  else if constexpr (Op == AMP_UNARY_EXP)
    return expf(v);
  else if constexpr (Op == AMP_UNARY_LOG)
    return logf(v);
  else if constexpr (Op == AMP_UNARY_SQRT)
    return sqrtf(v);
  else if constexpr (Op == AMP_UNARY_RSQRT)
    return 1.0f / sqrtf(v);
  else if constexpr (Op == AMP_UNARY_TANH)
    return tanhf(v);
  else if constexpr (Op == AMP_UNARY_SIGMOID)
    return 1.0f / (1.0f + expf(-v));
  else if constexpr (Op == AMP_UNARY_RELU)
    return applyActivation(Activation::Relu, v, 0.0f);
  else if constexpr (Op == AMP_UNARY_GELU)
    return gelu(v);
  else if constexpr (Op == AMP_UNARY_GELU_ERF)
    return geluErf(v);
  else if constexpr (Op == AMP_UNARY_SIN)
    return sinf(v);
  else if constexpr (Op == AMP_UNARY_COS)
    return cosf(v);
  else if constexpr (Op == AMP_UNARY_ERF)
    return erff(v);
  else if constexpr (Op == AMP_UNARY_FLOOR)
    return floorf(v);
  else if constexpr (Op == AMP_UNARY_CEIL)
    return ceilf(v);
  else if constexpr (Op == AMP_UNARY_ROUND)
    return rintf(v); // the default rounding mode: to nearest, ties to even
  else if constexpr (Op == AMP_UNARY_SIGN)
    return v > 0.0f ? 1.0f : v < 0.0f ? -1.0f : v;
  else if constexpr (Op == AMP_UNARY_TAN)
    return tanf(v);
  else if constexpr (Op == AMP_UNARY_ASIN)
    return asinf(v);
  else if constexpr (Op == AMP_UNARY_ACOS)
    return acosf(v);
  else if constexpr (Op == AMP_UNARY_ATAN)
    return atanf(v);
  else if constexpr (Op == AMP_UNARY_SINH)
    return sinhf(v);
  else if constexpr (Op == AMP_UNARY_COSH)
    return coshf(v);
  else if constexpr (Op == AMP_UNARY_ASINH)
    return asinhf(v);
  else if constexpr (Op == AMP_UNARY_ACOSH)
    return acoshf(v);
  else if constexpr (Op == AMP_UNARY_ATANH)
    return atanhf(v);
  else
    return fabsf(v);
}

/// Calls F(OP) for every amp_unary_op_t, in ABI order: the backends'
/// dispatch of amp_unary and its check of the op.
#define AMP_FOR_EACH_UNARY_OP(F)                                               \
  F(AMP_UNARY_NEG)                                                             \
  F(AMP_UNARY_EXP)                                                             \
  F(AMP_UNARY_LOG)                                                             \
  F(AMP_UNARY_SQRT)                                                            \
  F(AMP_UNARY_RSQRT)                                                           \
  F(AMP_UNARY_TANH)                                                            \
  F(AMP_UNARY_SIGMOID)                                                         \
  F(AMP_UNARY_RELU)                                                            \
  F(AMP_UNARY_GELU)                                                            \
  F(AMP_UNARY_ABS)                                                             \
  F(AMP_UNARY_GELU_ERF)                                                        \
  F(AMP_UNARY_SIN)                                                             \
  F(AMP_UNARY_COS)                                                             \
  F(AMP_UNARY_ERF)                                                             \
  F(AMP_UNARY_FLOOR)                                                           \
  F(AMP_UNARY_CEIL)                                                            \
  F(AMP_UNARY_ROUND)                                                           \
  F(AMP_UNARY_SIGN)                                                            \
  F(AMP_UNARY_TAN)                                                             \
  F(AMP_UNARY_ASIN)                                                            \
  F(AMP_UNARY_ACOS)                                                            \
  F(AMP_UNARY_ATAN)                                                            \
  F(AMP_UNARY_SINH)                                                            \
  F(AMP_UNARY_COSH)                                                            \
  F(AMP_UNARY_ASINH)                                                           \
  F(AMP_UNARY_ACOSH)                                                           \
  F(AMP_UNARY_ATANH)

/// max(a, b) with NaN winning and a kept on ties (nn.maximum).
inline AMP_HOST_DEVICE float maxPropagateNaN(float a, float b) {
  return (b > a || b != b) ? b : a;
}

/// The same for the minimum.
inline AMP_HOST_DEVICE float minPropagateNaN(float a, float b) {
  return (b < a || b != b) ? b : a;
}

/// lhs op rhs of amp_binary for the amp_binary_op_t `Op`.
template <int32_t Op> inline AMP_HOST_DEVICE float binaryOp(float a, float b) {
  if constexpr (Op == AMP_BINARY_ADD)
    return a + b;
  else if constexpr (Op == AMP_BINARY_SUB)
    return a - b;
  else if constexpr (Op == AMP_BINARY_MUL)
    return a * b;
  else if constexpr (Op == AMP_BINARY_DIV)
    return a / b;
  else if constexpr (Op == AMP_BINARY_MAX)
    return maxPropagateNaN(a, b);
  else if constexpr (Op == AMP_BINARY_MIN)
    return minPropagateNaN(a, b);
  else if constexpr (Op == AMP_BINARY_FMOD)
    return fmodf(a, b);
  else if constexpr (Op == AMP_BINARY_MOD) {
    // fmodf is exact; adding b rounds once, as numpy's mod.
    float r = fmodf(a, b);
    if (r == 0.0f)
      return copysignf(0.0f, b);
    return (r < 0.0f) != (b < 0.0f) ? r + b : r;
  } else
    return powf(a, b);
}

/// Whether amp_binary's op takes float dtypes only.
constexpr bool binaryFloatOnly(int32_t op) { return op == AMP_BINARY_POW; }

/// Calls F(OP) for every amp_binary_op_t, in ABI order: the backends'
/// dispatch of amp_binary and its check of the op.
#define AMP_FOR_EACH_BINARY_OP(F)                                              \
  F(AMP_BINARY_ADD)                                                            \
  F(AMP_BINARY_SUB)                                                            \
  F(AMP_BINARY_MUL)                                                            \
  F(AMP_BINARY_DIV)                                                            \
  F(AMP_BINARY_MAX)                                                            \
  F(AMP_BINARY_MIN)                                                            \
  F(AMP_BINARY_POW)                                                            \
  F(AMP_BINARY_FMOD)                                                           \
  F(AMP_BINARY_MOD)

/// lhs op rhs of amp_binary on i32 or i64 for every op but POW: two's
/// complement that wraps on overflow (the sum, difference or product is
/// taken in the unsigned type, then read back as signed), the signed
/// maximum or minimum, and C's truncating division and remainder, where a
/// zero divisor gives 0 and a divisor of -1 cannot overflow.
template <int32_t Op, typename T>
inline AMP_HOST_DEVICE T intBinaryOp(T a, T b) {
  static_assert(std::is_same<T, int32_t>::value ||
                    std::is_same<T, int64_t>::value,
                "i32 or i64");
  static_assert(Op != AMP_BINARY_POW, "no integer power");
  using U = std::make_unsigned_t<T>;
  if constexpr (Op == AMP_BINARY_DIV) {
    if (b == 0)
      return 0;
    // -a wraps at the minimum, where a / -1 would overflow.
    return b == -1 ? static_cast<T>(U(0) - static_cast<U>(a)) : a / b;
  } else if constexpr (Op == AMP_BINARY_FMOD || Op == AMP_BINARY_MOD) {
    if (b == 0 || b == -1)
      return 0;
    T r = a % b;
    if constexpr (Op == AMP_BINARY_MOD)
      if (r != 0 && (r < 0) != (b < 0))
        r += b;
    return r;
  } else if constexpr (Op == AMP_BINARY_ADD)
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  else if constexpr (Op == AMP_BINARY_SUB)
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  else if constexpr (Op == AMP_BINARY_MUL)
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  else if constexpr (Op == AMP_BINARY_MAX)
    return a < b ? b : a;
  else
    return b < a ? b : a;
}

/// The value amp_compare compares for an element of each storage type: the
/// exact f32 value of a float, the signed integer, and 0 or 1 for a bool
/// byte (any nonzero byte is 1).
inline AMP_HOST_DEVICE float compareValue(float v) { return v; }
inline AMP_HOST_DEVICE float compareValue(Half v) { return toF32(v); }
inline AMP_HOST_DEVICE float compareValue(BFloat16 v) { return toF32(v); }
inline AMP_HOST_DEVICE int32_t compareValue(int32_t v) { return v; }
inline AMP_HOST_DEVICE int64_t compareValue(int64_t v) { return v; }
inline AMP_HOST_DEVICE int32_t compareValue(uint8_t v) { return v != 0; }

/// lhs op rhs of amp_compare for the amp_compare_op_t `Op`, 1 or 0: the C
/// comparisons, so IEEE for floats (-0 == +0; a NaN makes every predicate
/// but NE false).
template <int32_t Op, typename V>
inline AMP_HOST_DEVICE uint8_t compareOp(V a, V b) {
  if constexpr (Op == AMP_COMPARE_EQ)
    return a == b;
  else if constexpr (Op == AMP_COMPARE_NE)
    return a != b;
  else if constexpr (Op == AMP_COMPARE_LT)
    return a < b;
  else if constexpr (Op == AMP_COMPARE_LE)
    return a <= b;
  else if constexpr (Op == AMP_COMPARE_GT)
    return a > b;
  else
    return a >= b;
}

/// amp_pow: powf(x, exponent).
inline AMP_HOST_DEVICE float powValue(float v, float exponent) {
  return powf(v, exponent);
}

/// amp_clamp: NaN compares false both ways and passes through.
inline AMP_HOST_DEVICE float clampValue(float v, float min, float max) {
  return v < min ? min : (v > max ? max : v);
}

/// The gradients dx = f(dy, v), v the forward's input x or output y.
inline AMP_HOST_DEVICE float reluGrad(float g, float x) {
  return applyActivation(Activation::DRelu, g, x);
}
inline AMP_HOST_DEVICE float geluGradOf(float g, float x) {
  return applyActivation(Activation::DGelu, g, x);
}
inline AMP_HOST_DEVICE float geluErfGrad(float g, float x) {
  return g * geluErfDerivative(x);
}
/// nn.erf_grad: (2 / sqrt(pi)) exp(-x^2), then times g, as PyTorch.
inline constexpr float kTwoOverSqrtPi = 1.12837916709551257390f;
inline AMP_HOST_DEVICE float erfGrad(float g, float x) {
  return kTwoOverSqrtPi * expf(-(x * x)) * g;
}
inline AMP_HOST_DEVICE float tanhGrad(float g, float y) {
  return g * (1.0f - y * y);
}
inline AMP_HOST_DEVICE float sigmoidGrad(float g, float y) {
  return (g * y) * (1.0f - y);
}
inline AMP_HOST_DEVICE float sqrtGrad(float g, float y) {
  return g / (2.0f * y);
}
inline AMP_HOST_DEVICE float rsqrtGrad(float g, float y) {
  return (-0.5f * g) * ((y * y) * y);
}
/// dy * sign(x): sign(+-0) = 0, sign(NaN) = NaN.
inline AMP_HOST_DEVICE float absGrad(float g, float x) {
  const float sign = x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : (x == x ? 0.0f : x));
  return g * sign;
}
/// +0 everywhere for exponent 0.
inline AMP_HOST_DEVICE float powGrad(float g, float x, float exponent) {
  if (exponent == 0.0f)
    return 0.0f;
  return g * (exponent * powf(x, exponent - 1.0f));
}
inline AMP_HOST_DEVICE float clampGrad(float g, float x, float min, float max) {
  return min <= x && x <= max ? g : 0.0f;
}

/// A kept element of amp_dropout: x / (1 - rate), an f32 division.
inline AMP_HOST_DEVICE float dropoutScaled(float x, float keepProb) {
  return x / keepProb;
}

/// dlhs and drhs of maximum (IsMax) or minimum for one element: PyTorch's
/// rule, where a NaN operand makes every comparison false and gives dy to
/// both.
template <bool IsMax>
inline AMP_HOST_DEVICE void routeExtremum(float g, float a, float b, float *ga,
                                          float *gb) {
  if (a == b) {
    *ga = *gb = g * 0.5f;
    return;
  }
  const bool aLoses = IsMax ? a < b : a > b;
  const bool bLoses = IsMax ? a > b : a < b;
  *ga = aLoses ? 0.0f : g;
  *gb = bLoses ? 0.0f : g;
}

} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_ELEMENTWISEMATH_H
