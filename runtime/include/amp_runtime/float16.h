//===- float16.h - amp runtime: bit-exact f16/bf16 <-> f32 conversion -----===//
//
// IEEE binary16 (f16) and bfloat16 (bf16) conversions written on the bit
// patterns, so that every backend and every host compiler rounds the same
// way: round-to-nearest-even, with subnormals, infinities and NaN handled
// (NaNs stay NaN with their sign and leading payload bits, and become quiet).
// Widening to f32 is exact. C++ only, header-only; the functions are
// `__host__ __device__` under nvcc.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_FLOAT16_H
#define AMP_RUNTIME_FLOAT16_H

#include "amp_runtime/host_device.h"

#include <cstdint>
#include <cstring>

namespace amp {
namespace runtime {

inline AMP_HOST_DEVICE uint32_t floatBits(float f) {
#ifdef __CUDA_ARCH__
  return __float_as_uint(f);
#else
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
#endif
}

inline AMP_HOST_DEVICE float bitsToFloat(uint32_t u) {
#ifdef __CUDA_ARCH__
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
#endif
}

/// f32 -> f16 bits, round-to-nearest-even.
inline AMP_HOST_DEVICE uint16_t floatToHalfBits(float f) {
  uint32_t x = floatBits(f);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  x &= 0x7fffffffu;
  if (x >= 0x7f800000u) {
    if (x == 0x7f800000u)
      return sign | 0x7c00u;
    // NaN: keep the top 10 payload bits and set the quiet bit, which also
    // keeps a NaN whose payload lives only in the dropped low bits a NaN.
    return sign | 0x7e00u | static_cast<uint16_t>((x >> 13) & 0x3ffu);
  }
  // 65520 = 65504 + half an ulp is the tie between the largest finite half
  // and 2^16; the largest finite half has an odd mantissa, so it goes up.
  if (x >= 0x477ff000u)
    return sign | 0x7c00u;
  if (x >= 0x38800000u) {
    // Normal result: rebias the exponent (127 -> 15) and round the 13
    // dropped mantissa bits; a carry out of the mantissa bumps the exponent,
    // which is exactly the right answer.
    uint32_t odd = (x >> 13) & 1u;
    x += 0xfffu + odd;
    x -= (127u - 15u) << 23;
    return sign | static_cast<uint16_t>(x >> 13);
  }
  // Subnormal (or zero) result: the value is m * 2^(e - 150) and the half
  // unit is 2^-24, so the result is m >> (126 - e) rounded. Up to and
  // including 2^-25 (the tie with zero) everything rounds to zero.
  if (x <= 0x33000000u)
    return sign;
  uint32_t e = x >> 23;
  uint32_t m = (x & 0x7fffffu) | 0x800000u;
  uint32_t shift = 126u - e; // in [14, 24]
  uint32_t q = m >> shift;
  uint32_t rem = m & ((1u << shift) - 1u);
  uint32_t half = 1u << (shift - 1u);
  if (rem > half || (rem == half && (q & 1u)))
    ++q; // may carry into 0x400, the smallest normal: still correct
  return sign | static_cast<uint16_t>(q);
}

/// f16 bits -> f32 (exact).
inline AMP_HOST_DEVICE float halfBitsToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t e = (h >> 10) & 0x1fu;
  uint32_t m = h & 0x3ffu;
  if (e == 0x1fu)
    return bitsToFloat(sign | 0x7f800000u | (m << 13));
  if (e == 0) {
    if (m == 0)
      return bitsToFloat(sign);
    // Subnormal m * 2^-24: shift the leading one up to the implicit bit.
    e = 127u - 14u;
    while (!(m & 0x400u)) {
      m <<= 1;
      --e;
    }
    return bitsToFloat(sign | (e << 23) | ((m & 0x3ffu) << 13));
  }
  return bitsToFloat(sign | ((e + 127u - 15u) << 23) | (m << 13));
}

/// f32 -> bf16 bits, round-to-nearest-even. bf16 is the top half of f32, so
/// rounding the low 16 bits handles subnormals and overflow to inf alike.
inline AMP_HOST_DEVICE uint16_t floatToBFloat16Bits(float f) {
  uint32_t x = floatBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((x >> 16) | 0x0040u); // quiet NaN
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

/// bf16 bits -> f32 (exact).
inline AMP_HOST_DEVICE float bfloat16BitsToFloat(uint16_t h) {
  return bitsToFloat(static_cast<uint32_t>(h) << 16);
}

/// Storage types for runtime tensors: the bits, with explicit conversions.
struct Half {
  uint16_t bits;
  static AMP_HOST_DEVICE Half fromFloat(float f) {
    return Half{floatToHalfBits(f)};
  }
  AMP_HOST_DEVICE float toFloat() const { return halfBitsToFloat(bits); }
};

struct BFloat16 {
  uint16_t bits;
  static AMP_HOST_DEVICE BFloat16 fromFloat(float f) {
    return BFloat16{floatToBFloat16Bits(f)};
  }
  AMP_HOST_DEVICE float toFloat() const { return bfloat16BitsToFloat(bits); }
};

static_assert(sizeof(Half) == 2 && sizeof(BFloat16) == 2,
              "the storage types must be exactly the bits");

/// Storage type -> f32 (exact), for code templated on the storage type.
inline AMP_HOST_DEVICE float toF32(float v) { return v; }
inline AMP_HOST_DEVICE float toF32(Half v) { return v.toFloat(); }
inline AMP_HOST_DEVICE float toF32(BFloat16 v) { return v.toFloat(); }

/// f32 -> storage type, round-to-nearest-even.
template <typename T> inline AMP_HOST_DEVICE T fromF32(float v);
template <> inline AMP_HOST_DEVICE float fromF32<float>(float v) { return v; }
template <> inline AMP_HOST_DEVICE Half fromF32<Half>(float v) {
  return Half::fromFloat(v);
}
template <> inline AMP_HOST_DEVICE BFloat16 fromF32<BFloat16>(float v) {
  return BFloat16::fromFloat(v);
}

} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_FLOAT16_H
