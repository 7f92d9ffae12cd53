//===- CastTest.cpp - amp_cast between every pair of dtypes ---------------===//
//
// amp_cast over all 36 (x_dtype, y_dtype) pairs against an independent
// oracle of the contract in kernels.h: integers rounded to f32 by integer
// arithmetic (round half to even on the dropped bits), then to f16/bf16 by
// the f64 scaling oracle of KernelTestUtil (roundTo); floats truncated and
// saturated in f64; i64 -> i32 wrapped by modular arithmetic; bool as
// x != 0. Inputs: the edge cases (NaN with payloads and signalling ones,
// +-inf, +-0, the values next to 2^31 and 2^63 and their negatives, halves
// that truncation must not round, 2^24 + 1 and the i32 whose f32 rounding
// makes a bf16 tie (the double rounding PyTorch does), the i64 that wrap,
// bool bytes 2, 128 and 255) and random bit patterns of every dtype; enough
// elements that the cpu backend splits the loop over threads. The float
// pairs' rounding has its own tests (ElementwiseTest.cpp).
//
// Exact: every stored value must equal the oracle's (NaN matches any NaN;
// integer and bool results compared as bits).
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace amp::test;

namespace {

constexpr int64_t kP31 = int64_t{1} << 31;
constexpr double kTwo31 = 2147483648.0;
constexpr double kTwo63 = 9223372036854775808.0;

/// v rounded to f32, round half to even, on the integer's bits.
double roundIntegerToF32(int64_t v) {
  const bool negative = v < 0;
  uint64_t m =
      negative ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  int bits = 0;
  while (bits < 64 && (m >> bits) != 0)
    ++bits;
  if (bits > 24) {
    const int shift = bits - 24;
    uint64_t q = m >> shift;
    const uint64_t rem = m & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    if (rem > half || (rem == half && (q & 1)))
      ++q;
    const double r = std::ldexp(static_cast<double>(q), shift);
    return negative ? -r : r;
  }
  return negative ? -static_cast<double>(m) : static_cast<double>(m);
}

/// f -> i32 or i64 (width 32 or 64): truncated, NaN 0, saturated.
int64_t truncSaturated(double f, int width) {
  if (std::isnan(f))
    return 0;
  const double limit = width == 32 ? kTwo31 : kTwo63;
  if (f >= limit)
    return width == 32 ? INT32_MAX : INT64_MAX;
  if (f < -limit)
    return width == 32 ? INT32_MIN : INT64_MIN;
  return static_cast<int64_t>(std::trunc(f));
}

/// The low 32 bits of v as two's complement, by modular arithmetic.
int64_t wrap32(int64_t v) {
  const int64_t two32 = int64_t{1} << 32;
  int64_t m = v % two32; // in (-2^32, 2^32)
  if (m < 0)
    m += two32;
  return m >= kP31 ? m - two32 : m;
}

/// The oracle of one element: a float result as f64 (NaN for NaN), or an
/// integer / bool result as int64_t.
struct Expected {
  double f = 0;
  int64_t i = 0;
};

Expected oracle(const Tensor &x, int64_t k, amp_dtype_t to) {
  Expected e;
  const amp_dtype_t from = x.dtype();
  if (to == AMP_DTYPE_BOOL) {
    e.i = isFloatDtype(from) ? x.get(k) != 0.0 : x.intValue(k) != 0;
    return e;
  }
  if (isFloatDtype(to)) {
    e.f = isFloatDtype(from) ? roundTo(to, x.get(k))
                             : roundTo(to, roundIntegerToF32(x.intValue(k)));
    return e;
  }
  const int width = to == AMP_DTYPE_I32 ? 32 : 64;
  if (isFloatDtype(from))
    e.i = truncSaturated(x.get(k), width);
  else
    e.i = width == 32 ? wrap32(x.intValue(k)) : x.intValue(k);
  return e;
}

/// Every element of y equals the oracle's for x.
::testing::AssertionResult matchesOracle(const Tensor &x, const Tensor &y) {
  std::vector<double> floats;
  int bad = 0;
  ::testing::AssertionResult r = ::testing::AssertionFailure();
  for (int64_t k = 0; k < x.size(); ++k) {
    const Expected e = oracle(x, k, y.dtype());
    if (isFloatDtype(y.dtype())) {
      floats.push_back(e.f);
      continue;
    }
    // Bool results must be the bytes 0 or 1, integers the exact value.
    const int64_t got = y.dtype() == AMP_DTYPE_BOOL
                            ? static_cast<int64_t>(y.bits(k))
                            : y.intValue(k);
    if (got != e.i && bad++ < 5)
      r << "\n  y[" << k << "] = " << got << ", expected " << e.i
        << " (x bits 0x" << std::hex << x.bits(k) << std::dec << ")";
  }
  if (isFloatDtype(y.dtype()))
    return allEqual(y, floats, "cast");
  if (bad == 0)
    return ::testing::AssertionSuccess();
  return r << "\n  " << bad << " of " << x.size() << " elements differ";
}

/// The edge cases of each dtype, then random bit patterns up to n elements.
Tensor castInputs(amp_dtype_t dtype, int64_t n, std::mt19937_64 &rng) {
  Tensor t(dtype, {n});
  int64_t k = 0;
  if (isFloatDtype(dtype)) {
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double values[] = {0.0,
                             -0.0,
                             0.4,
                             -0.4,
                             0.5,
                             -0.5,
                             0.99999994,
                             1.0,
                             -1.0,
                             1.5,
                             -1.5,
                             2.5,
                             -2.7,
                             127.9,
                             65504.0,
                             -65504.0,
                             16777217.0,
                             kTwo31 - 128,  // the largest f32 below 2^31
                             kTwo31,        // saturates in i32, exact in i64
                             -kTwo31,       // INT32_MIN exactly
                             -kTwo31 - 256, // the f32 below it: saturates
                             3e9,
                             -3e9,
                             kTwo63 - 549755813888.0, // the f32 below 2^63
                             kTwo63,
                             -kTwo63,
                             -kTwo63 - 1099511627776.0,
                             1e30,
                             -1e30,
                             inf,
                             -inf,
                             nan,
                             -nan,
                             1e-40,
                             -1e-40,
                             6e-8};
    for (double v : values)
      t.set(k++, v);
    // NaNs with payloads, a signalling one first.
    const uint64_t nans[3][3] = {{0x7f800001u, 0xffc12345u, 0x7fa00000u},
                                 {0x7c01u, 0xfe3fu, 0x7d00u},
                                 {0x7f81u, 0xffc5u, 0x7fa0u}};
    for (uint64_t bits : nans[dtype])
      t.setBits(k++, bits);
  } else if (dtype == AMP_DTYPE_BOOL) {
    for (uint64_t byte : {0, 1, 2, 255, 0x80, 0x7f})
      t.setBits(k++, byte);
  } else {
    const int64_t p53 = int64_t{1} << 53;
    std::vector<int64_t> values = {
        0,        1,         -1,        2,         -2,       2049,     2051,
        65504,    65519,     65520,     -65520,    16777216, 16777217, 16777219,
        16842753, -16842753, 123456789, INT32_MAX, INT32_MIN};
    if (dtype == AMP_DTYPE_I64)
      values.insert(values.end(),
                    {p53 + 1, -p53 - 1, kP31, -kP31 - 1, (int64_t{1} << 32) + 5,
                     0xffffffffLL, int64_t{1} << 32, INT64_MAX, INT64_MIN,
                     INT64_MAX - 1, -(int64_t{1} << 40) + 7,
                     9223371487098961920LL, 9223371761976868864LL,
                     // 2^62 + 2^38 + 1: just above an f32 tie, which
                     // rounding through f64 would make an exact tie.
                     4611686293305294849LL, -4611686293305294849LL});
    for (int64_t v : values)
      t.setBits(k++, static_cast<uint64_t>(v));
  }
  for (; k < n; ++k) {
    uint64_t bits = rng();
    if (dtype == AMP_DTYPE_BOOL)
      bits &= 3; // mostly 0 and 1, some 2 and 3
    t.setBits(k, bits);
  }
  return t;
}

class CastPairTest
    : public ::testing::TestWithParam<std::tuple<amp_dtype_t, amp_dtype_t>> {};

TEST_P(CastPairTest, MatchesTheOracle) {
  const amp_dtype_t from = std::get<0>(GetParam());
  const amp_dtype_t to = std::get<1>(GetParam());
  std::mt19937_64 rng(5 + 7 * from + to);
  // Beyond kParallelGrain (2^15): the cpu backend splits the loop.
  for (int64_t n : {int64_t{80}, int64_t{40000}}) {
    const Tensor x = castInputs(from, n, rng);
    const Tensor before = x;
    Tensor y = sentinelTensor(to, x.shape());
    ASSERT_TRUE(isOk(amp_cast(x.data(), y.data(), n, from, to, nullptr)));
    EXPECT_TRUE(x.sameBits(before)) << "x was written";
    if (from == to)
      EXPECT_TRUE(y.sameBits(x)) << "a same-dtype cast is a bitwise copy";
    else
      EXPECT_TRUE(matchesOracle(x, y))
          << dtypeName(from) << " -> " << dtypeName(to) << " n=" << n;
  }
}

INSTANTIATE_TEST_SUITE_P(AllPairs, CastPairTest,
                         ::testing::Combine(::testing::ValuesIn(allDtypes()),
                                            ::testing::ValuesIn(allDtypes())),
                         [](const auto &info) {
                           return std::string(
                                      dtypeName(std::get<0>(info.param))) +
                                  "_to_" + dtypeName(std::get<1>(info.param));
                         });

/// The contract's cases spelled out, independently of the oracle above.
TEST(Cast, IntegerToFloatRoundsTwice) {
  // 2^24 + 1 is a tie in f32: to even, 2^24. 16842753 = 2^24 + 2^16 + 1
  // rounds to 2^24 + 2^16 in f32, a tie in bf16 that goes to 2^24 (even);
  // rounded once it would be 2^24 + 2^17.
  const int32_t x[] = {16777217, 16842753, -16842753, 65520, 2049, -7};
  std::vector<float> f32(6);
  ASSERT_TRUE(
      isOk(amp_cast(x, f32.data(), 6, AMP_DTYPE_I32, AMP_DTYPE_F32, nullptr)));
  EXPECT_EQ(f32, (std::vector<float>{16777216.0f, 16842752.0f, -16842752.0f,
                                     65520.0f, 2049.0f, -7.0f}));
  Tensor bf16(AMP_DTYPE_BF16, {6}), f16(AMP_DTYPE_F16, {6});
  ASSERT_TRUE(isOk(
      amp_cast(x, bf16.data(), 6, AMP_DTYPE_I32, AMP_DTYPE_BF16, nullptr)));
  EXPECT_EQ(bf16.get(1), 16777216.0);
  EXPECT_EQ(bf16.get(2), -16777216.0);
  ASSERT_TRUE(
      isOk(amp_cast(x, f16.data(), 6, AMP_DTYPE_I32, AMP_DTYPE_F16, nullptr)));
  EXPECT_EQ(f16.get(3), std::numeric_limits<double>::infinity());
  EXPECT_EQ(f16.get(4), 2048.0);
  EXPECT_EQ(f16.get(5), -7.0);
  // i64 rounds to f32 once: 2^62 + 2^38 + 1 is above the tie between
  // 2^62 and 2^62 + 2^39 (through f64 it would become the tie, and 2^62).
  const int64_t big[] = {INT64_MAX, INT64_MIN, 4611686293305294849LL};
  std::vector<float> wide(3);
  ASSERT_TRUE(isOk(
      amp_cast(big, wide.data(), 3, AMP_DTYPE_I64, AMP_DTYPE_F32, nullptr)));
  EXPECT_EQ(wide, (std::vector<float>{0x1p63f, -0x1p63f, 0x1p62f + 0x1p39f}));
}

TEST(Cast, FloatToIntegerTruncatesAndSaturates) {
  const float inf = std::numeric_limits<float>::infinity();
  const float x[] = {2.9f, -2.9f, -0.0f,   NAN,      -NAN,    inf,      -inf,
                     3e9f, -3e9f, 0x1p31f, -0x1p31f, 0x1p63f, -0x1p63f, 1e30f};
  const int n = sizeof(x) / sizeof(x[0]);
  std::vector<int32_t> i32(n);
  ASSERT_TRUE(
      isOk(amp_cast(x, i32.data(), n, AMP_DTYPE_F32, AMP_DTYPE_I32, nullptr)));
  EXPECT_EQ(i32, (std::vector<int32_t>{
                     2, -2, 0, 0, 0, INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN,
                     INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX}));
  std::vector<int64_t> i64(n);
  ASSERT_TRUE(
      isOk(amp_cast(x, i64.data(), n, AMP_DTYPE_F32, AMP_DTYPE_I64, nullptr)));
  EXPECT_EQ(i64, (std::vector<int64_t>{2, -2, 0, 0, 0, INT64_MAX, INT64_MIN,
                                       3000000000LL, -3000000000LL, kP31, -kP31,
                                       INT64_MAX, INT64_MIN, INT64_MAX}));
  // f16 and bf16 through their exact f32 value.
  Tensor h(AMP_DTYPE_F16, {3}), b(AMP_DTYPE_BF16, {3});
  for (int64_t i = 0; i < 3; ++i) {
    h.set(i, std::vector<double>{-65504.0, 1.5, -0.75}[i]);
    b.set(i, std::vector<double>{3e38, -1e10, 25.5}[i]);
  }
  std::vector<int32_t> fromHalf(3), fromBf16(3);
  ASSERT_TRUE(isOk(amp_cast(h.data(), fromHalf.data(), 3, AMP_DTYPE_F16,
                            AMP_DTYPE_I32, nullptr)));
  EXPECT_EQ(fromHalf, (std::vector<int32_t>{-65504, 1, 0}));
  ASSERT_TRUE(isOk(amp_cast(b.data(), fromBf16.data(), 3, AMP_DTYPE_BF16,
                            AMP_DTYPE_I32, nullptr)));
  EXPECT_EQ(fromBf16, (std::vector<int32_t>{INT32_MAX, INT32_MIN, 25}));
}

TEST(Cast, IntegerNarrowingWrapsAndBoolIsZeroOrOne) {
  const int64_t x[] = {kP31,         -kP31 - 1, (int64_t{1} << 32) + 5,
                       0xffffffffLL, INT64_MIN, -3};
  std::vector<int32_t> y(6);
  ASSERT_TRUE(
      isOk(amp_cast(x, y.data(), 6, AMP_DTYPE_I64, AMP_DTYPE_I32, nullptr)));
  EXPECT_EQ(y, (std::vector<int32_t>{INT32_MIN, INT32_MAX, 5, -1, 0, -3}));
  const int32_t back[] = {INT32_MIN, -1};
  std::vector<int64_t> wide(2);
  ASSERT_TRUE(isOk(
      amp_cast(back, wide.data(), 2, AMP_DTYPE_I32, AMP_DTYPE_I64, nullptr)));
  EXPECT_EQ(wide, (std::vector<int64_t>{INT32_MIN, -1}));

  const uint8_t flags[] = {0, 1, 2, 255};
  std::vector<int64_t> ints(4);
  ASSERT_TRUE(isOk(
      amp_cast(flags, ints.data(), 4, AMP_DTYPE_BOOL, AMP_DTYPE_I64, nullptr)));
  EXPECT_EQ(ints, (std::vector<int64_t>{0, 1, 1, 1}));
  std::vector<float> floats(4);
  ASSERT_TRUE(isOk(amp_cast(flags, floats.data(), 4, AMP_DTYPE_BOOL,
                            AMP_DTYPE_F32, nullptr)));
  EXPECT_EQ(floats, (std::vector<float>{0.0f, 1.0f, 1.0f, 1.0f}));

  const float values[] = {-0.0f, 0.0f, NAN, 1e-45f, -2.0f};
  std::vector<uint8_t> bools(5, 7);
  ASSERT_TRUE(isOk(amp_cast(values, bools.data(), 5, AMP_DTYPE_F32,
                            AMP_DTYPE_BOOL, nullptr)));
  EXPECT_EQ(bools, (std::vector<uint8_t>{0, 0, 1, 1, 1}));
  const int64_t zeroOrNot[] = {0, INT64_MIN, int64_t{1} << 32};
  std::vector<uint8_t> flags2(3, 7);
  ASSERT_TRUE(isOk(amp_cast(zeroOrNot, flags2.data(), 3, AMP_DTYPE_I64,
                            AMP_DTYPE_BOOL, nullptr)));
  EXPECT_EQ(flags2, (std::vector<uint8_t>{0, 1, 1}));
}

TEST(Cast, SameDtypeCopiesEveryDtypeInPlaceToo) {
  for (amp_dtype_t dtype : allDtypes()) {
    std::mt19937_64 rng(11);
    Tensor x = castInputs(dtype, 100, rng);
    const Tensor before = x;
    ASSERT_TRUE(isOk(amp_cast(x.data(), x.data(), 100, dtype, dtype, nullptr)));
    EXPECT_TRUE(x.sameBits(before)) << dtypeName(dtype);
  }
  // A bool copy keeps its bytes (2 stays 2): it is a copy, not a conversion.
  const uint8_t flags[] = {0, 2, 255};
  std::vector<uint8_t> out(3);
  ASSERT_TRUE(isOk(
      amp_cast(flags, out.data(), 3, AMP_DTYPE_BOOL, AMP_DTYPE_BOOL, nullptr)));
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 2, 255}));
}

TEST(Cast, ConvertingInPlaceIsRejected) {
  // Same element size, different dtypes: still not allowed.
  int32_t x[4] = {1, 2, 3, 4};
  EXPECT_TRUE(
      failsWith(amp_cast(x, x, 4, AMP_DTYPE_I32, AMP_DTYPE_F32, nullptr),
                AMP_STATUS_INVALID_ARGUMENT,
                "amp_cast: y aliases x but the dtypes differ"));
  EXPECT_EQ(x[3], 4);
}

} // namespace
