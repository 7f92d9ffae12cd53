//===- Float16Test.cpp - Bit-exact f16/bf16 conversions -------------------===//
//
// The conversions of amp_runtime/float16.h: exhaustive round trips over all
// 65536 patterns of each format, every rounding tie of each format, the
// overflow and subnormal boundaries, NaN handling, and a sweep over the f32
// patterns against an independent oracle computed in double.
//
//===----------------------------------------------------------------------===//

#include "amp_runtime/float16.h"

#include "gtest/gtest.h"

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

using namespace amp::runtime;

namespace {

bool isHalfNaN(uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu); }
bool isBf16NaN(uint16_t h) { return (h & 0x7f80u) == 0x7f80u && (h & 0x7fu); }

/// Round-to-nearest-even of `x` into a binary format with `precision`
/// fraction bits, normal exponents down to `minExponent` and largest finite
/// value `maxFinite`, by scaling to an integer in double (exact: every f32
/// fits) and rounding with nearbyint in the default (to-even) mode.
double oracleRound(double x, int precision, int minExponent, double maxFinite) {
  if (std::isnan(x) || std::isinf(x) || x == 0.0)
    return x;
  int e = std::max(std::ilogb(x), minExponent);
  double ulp = std::ldexp(1.0, e - precision);
  double r = std::nearbyint(x / ulp) * ulp;
  if (std::fabs(r) > maxFinite)
    return std::copysign(INFINITY, x);
  return r;
}

TEST(Float16, RoundTripsEveryHalfPattern) {
  for (uint32_t h = 0; h <= 0xffffu; ++h) {
    float f = halfBitsToFloat(static_cast<uint16_t>(h));
    uint16_t back = floatToHalfBits(f);
    if (isHalfNaN(static_cast<uint16_t>(h))) {
      ASSERT_TRUE(std::isnan(f)) << std::hex << h;
      // Sign and payload kept; a signalling NaN comes back quiet.
      ASSERT_EQ(back, h | 0x200u) << std::hex << h;
    } else {
      ASSERT_EQ(back, h) << std::hex << h << " -> " << f;
    }
  }
}

TEST(Float16, WideningIsExact) {
  // Every finite half is k * 2^-24 for an integer k < 2^17 (times sign).
  for (uint32_t h = 0; h < 0x7c00u; ++h) {
    float f = halfBitsToFloat(static_cast<uint16_t>(h));
    uint32_t e = h >> 10, m = h & 0x3ffu;
    double expect = e == 0 ? std::ldexp(double(m), -24)
                           : std::ldexp(double(m | 0x400u), int(e) - 25);
    ASSERT_EQ(double(f), expect) << std::hex << h;
    ASSERT_EQ(halfBitsToFloat(static_cast<uint16_t>(h | 0x8000u)), -f);
  }
}

TEST(Float16, EveryTieRoundsToEven) {
  // Between each pair of neighbouring finite halves (including subnormals
  // and the subnormal/normal boundary) the midpoint is an f32; it rounds to
  // the even one, and one f32 ulp either side rounds to the nearer one.
  for (uint32_t h = 0; h < 0x7bffu; ++h) {
    for (uint32_t sign : {0u, 0x8000u}) {
      uint16_t lo = static_cast<uint16_t>(h | sign);
      uint16_t hi = static_cast<uint16_t>((h + 1) | sign);
      float a = halfBitsToFloat(lo), b = halfBitsToFloat(hi);
      float mid = static_cast<float>((double(a) + double(b)) / 2);
      ASSERT_EQ(double(mid), (double(a) + double(b)) / 2) << "inexact midpoint";
      uint16_t even = (h & 1u) ? hi : lo;
      ASSERT_EQ(floatToHalfBits(mid), even) << std::hex << h;
      ASSERT_EQ(floatToHalfBits(std::nextafter(mid, a)), lo) << std::hex << h;
      ASSERT_EQ(floatToHalfBits(std::nextafter(mid, b)), hi) << std::hex << h;
    }
  }
}

TEST(Float16, OverflowAndInfinity) {
  EXPECT_EQ(floatToHalfBits(65504.0f), 0x7bffu);
  EXPECT_EQ(floatToHalfBits(std::nextafter(65520.0f, 0.0f)), 0x7bffu);
  EXPECT_EQ(floatToHalfBits(65520.0f), 0x7c00u); // tie, odd max -> inf
  EXPECT_EQ(floatToHalfBits(-65520.0f), 0xfc00u);
  EXPECT_EQ(floatToHalfBits(1.0e6f), 0x7c00u);
  EXPECT_EQ(floatToHalfBits(FLT_MAX), 0x7c00u);
  EXPECT_EQ(floatToHalfBits(INFINITY), 0x7c00u);
  EXPECT_EQ(floatToHalfBits(-INFINITY), 0xfc00u);
  EXPECT_TRUE(std::isinf(halfBitsToFloat(0x7c00u)));
}

TEST(Float16, Subnormals) {
  const float tiny = std::ldexp(1.0f, -24); // smallest subnormal half
  EXPECT_EQ(floatToHalfBits(tiny), 0x0001u);
  EXPECT_EQ(floatToHalfBits(tiny / 2), 0x0000u);  // tie with 0: even
  EXPECT_EQ(floatToHalfBits(-tiny / 2), 0x8000u); // signed zero
  EXPECT_EQ(floatToHalfBits(std::nextafter(tiny / 2, 1.0f)), 0x0001u);
  EXPECT_EQ(floatToHalfBits(1.5f * tiny), 0x0002u);    // tie 1|2: even
  EXPECT_EQ(floatToHalfBits(2.5f * tiny), 0x0002u);    // tie 2|3: even
  EXPECT_EQ(floatToHalfBits(1023 * tiny), 0x03ffu);    // largest subnormal
  EXPECT_EQ(floatToHalfBits(1023.5f * tiny), 0x0400u); // tie: to normal
  EXPECT_EQ(floatToHalfBits(FLT_MIN), 0x0000u);
  EXPECT_EQ(floatToHalfBits(std::numeric_limits<float>::denorm_min()), 0u);
  EXPECT_EQ(halfBitsToFloat(0x0001u), tiny);
  EXPECT_EQ(halfBitsToFloat(0x83ffu), -1023 * tiny);
}

TEST(Float16, NaN) {
  EXPECT_TRUE(isHalfNaN(floatToHalfBits(NAN)));
  EXPECT_EQ(floatToHalfBits(NAN) & 0x8000u, 0u);
  EXPECT_EQ(floatToHalfBits(-NAN) & 0x8000u, 0x8000u);
  // A NaN whose payload sits only in the bits that are dropped stays NaN.
  EXPECT_TRUE(isHalfNaN(floatToHalfBits(bitsToFloat(0x7f800001u))));
  EXPECT_TRUE(isHalfNaN(floatToHalfBits(bitsToFloat(0xff800001u))));
}

TEST(BFloat16, RoundTripsEveryPattern) {
  for (uint32_t h = 0; h <= 0xffffu; ++h) {
    float f = bfloat16BitsToFloat(static_cast<uint16_t>(h));
    uint16_t back = floatToBFloat16Bits(f);
    if (isBf16NaN(static_cast<uint16_t>(h))) {
      ASSERT_TRUE(std::isnan(f));
      ASSERT_EQ(back, h | 0x40u) << std::hex << h;
    } else {
      ASSERT_EQ(back, h) << std::hex << h;
    }
  }
}

TEST(BFloat16, EveryTieRoundsToEven) {
  for (uint32_t h = 0; h < 0x7f7fu; ++h) {
    for (uint32_t sign : {0u, 0x8000u}) {
      uint16_t lo = static_cast<uint16_t>(h | sign);
      uint16_t hi = static_cast<uint16_t>((h + 1) | sign);
      // The midpoint of two neighbours is their bits with 0x8000 below.
      float mid = bitsToFloat((uint32_t(lo) << 16) | 0x8000u);
      uint16_t even = (h & 1u) ? hi : lo;
      ASSERT_EQ(floatToBFloat16Bits(mid), even) << std::hex << h;
      ASSERT_EQ(
          floatToBFloat16Bits(bitsToFloat((uint32_t(lo) << 16) | 0x7fffu)), lo);
      ASSERT_EQ(
          floatToBFloat16Bits(bitsToFloat((uint32_t(lo) << 16) | 0x8001u)), hi);
    }
  }
}

TEST(BFloat16, OverflowSubnormalsNaN) {
  EXPECT_EQ(floatToBFloat16Bits(FLT_MAX), 0x7f80u); // above max + ulp/2
  EXPECT_EQ(floatToBFloat16Bits(bitsToFloat(0x7f7f7fffu)), 0x7f7fu);
  EXPECT_EQ(floatToBFloat16Bits(bitsToFloat(0x7f7f8000u)), 0x7f80u); // tie
  EXPECT_EQ(floatToBFloat16Bits(-INFINITY), 0xff80u);
  EXPECT_EQ(floatToBFloat16Bits(std::numeric_limits<float>::denorm_min()),
            0x0000u);
  EXPECT_EQ(floatToBFloat16Bits(bitsToFloat(0x00008000u)), 0x0000u); // tie
  EXPECT_EQ(floatToBFloat16Bits(bitsToFloat(0x00018000u)), 0x0002u); // tie
  EXPECT_EQ(floatToBFloat16Bits(bitsToFloat(0x007fffffu)), 0x0080u);
  EXPECT_TRUE(isBf16NaN(floatToBFloat16Bits(bitsToFloat(0x7f800001u))));
  EXPECT_EQ(floatToBFloat16Bits(bitsToFloat(0xffc00000u)), 0xffc0u);
}

/// A sweep over the f32 bit patterns (a stride coprime to 2^32, so every
/// exponent and many mantissas) against the double-arithmetic oracle.
TEST(Float16, MatchesOracleOnF32Sweep) {
  const double halfMax = 65504.0, bf16Max = 0x1.fep127;
  uint64_t checked = 0;
  for (uint64_t x = 0; x <= 0xffffffffu; x += 4093) {
    float f = bitsToFloat(static_cast<uint32_t>(x));
    if (std::isnan(f))
      continue;
    double h = oracleRound(f, 10, -14, halfMax);
    double b = oracleRound(f, 7, -126, bf16Max);
    ASSERT_EQ(double(halfBitsToFloat(floatToHalfBits(f))), h) << std::hex << x;
    ASSERT_EQ(double(bfloat16BitsToFloat(floatToBFloat16Bits(f))), b)
        << std::hex << x;
    ++checked;
  }
  EXPECT_GT(checked, 1000000u);
}

TEST(Float16, StorageTypes) {
  EXPECT_EQ(Half::fromFloat(1.0f).bits, 0x3c00u);
  EXPECT_EQ(Half{0xc000u}.toFloat(), -2.0f);
  EXPECT_EQ(BFloat16::fromFloat(1.0f).bits, 0x3f80u);
  EXPECT_EQ(BFloat16{0xc000u}.toFloat(), -2.0f);
}

} // namespace
