//===- CompareTest.cpp - amp_compare over every dtype and predicate -------===//
//
// amp_compare against an independent oracle (the C++ comparisons of the
// exact values: f64 for the float dtypes, int64_t for the integers, 0/1 for
// bool bytes) in every dtype, for every predicate, with numpy broadcasting
// (same shapes, a scalar operand on either side, rows, columns, two-sided
// and zero-size broadcasts, rank 0). The operands are drawn from small
// pools of values, so that ties are frequent, which hold NaN, +-inf, +-0,
// neighbours that only the exact value tells apart (1 and 1 + ulp; 2^24 and
// 2^24 + 1 in i32, 2^53 and 2^53 + 1 in i64, which f32 and f64 would
// merge), the integer extremes, and bool bytes 2 and 255, which are true.
// Exact: every result byte must be 0 or 1 and equal the oracle's.
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

const amp_compare_op_t kOps[] = {AMP_COMPARE_EQ, AMP_COMPARE_NE,
                                 AMP_COMPARE_LT, AMP_COMPARE_LE,
                                 AMP_COMPARE_GT, AMP_COMPARE_GE};

const char *opName(amp_compare_op_t op) {
  static const char *names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  return names[op];
}

/// A value of a pool: `f` for the float dtypes (rounded to the dtype when
/// stored), `i` for the others (stored as its two's complement bits; for
/// bool, the byte itself).
struct PoolValue {
  double f;
  int64_t i;
};

std::vector<PoolValue> pool(amp_dtype_t dtype) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  switch (dtype) {
  case AMP_DTYPE_I32:
    return {{0, INT32_MIN}, {0, -16777217}, {0, -1},       {0, 0},
            {0, 1},         {0, 16777216},  {0, 16777217}, {0, INT32_MAX}};
  case AMP_DTYPE_I64: {
    const int64_t p53 = int64_t{1} << 53;
    return {{0, INT64_MIN}, {0, -p53 - 1}, {0, -1},      {0, 0},
            {0, 1},         {0, p53},      {0, p53 + 1}, {0, INT32_MAX + 1LL},
            {0, INT64_MAX}};
  }
  case AMP_DTYPE_BOOL:
    return {{0, 0}, {0, 1}, {0, 2}, {0, 255}, {0, 0x80}};
  default: {
    // 1 + the dtype's ulp at 1: distinct from 1 in the dtype.
    const double ulp = dtype == AMP_DTYPE_F32   ? 0x1p-23
                       : dtype == AMP_DTYPE_F16 ? 0x1p-10
                                                : 0x1p-7;
    return {{nan, 0},  {-nan, 0},    {inf, 0},  {-inf, 0}, {0.0, 0},
            {-0.0, 0}, {1.0, 0},     {-1.0, 0}, {0.5, 0},  {1.0 + ulp, 0},
            {-3.0, 0}, {65504.0, 0}, {6e-8, 0}, {-6e-8, 0}};
  }
  }
}

void store(Tensor &t, int64_t i, const PoolValue &v) {
  if (isFloatDtype(t.dtype()))
    t.set(i, v.f);
  else
    t.setBits(i, static_cast<uint64_t>(v.i));
}

/// A tensor of values drawn from the dtype's pool.
Tensor poolTensor(amp_dtype_t dtype, const Shape &shape, std::mt19937 &rng) {
  Tensor t(dtype, shape);
  const std::vector<PoolValue> values = pool(dtype);
  for (int64_t i = 0; i < t.size(); ++i)
    store(t, i, values[rng() % values.size()]);
  return t;
}

/// The oracle: C++'s comparison of the exact values.
template <typename V> bool holds(amp_compare_op_t op, V a, V b) {
  switch (op) {
  case AMP_COMPARE_EQ:
    return a == b;
  case AMP_COMPARE_NE:
    return a != b;
  case AMP_COMPARE_LT:
    return a < b;
  case AMP_COMPARE_LE:
    return a <= b;
  case AMP_COMPARE_GT:
    return a > b;
  case AMP_COMPARE_GE:
    return a >= b;
  }
  return false;
}

bool expected(amp_compare_op_t op, const Tensor &lhs, int64_t i,
              const Tensor &rhs, int64_t j) {
  if (isFloatDtype(lhs.dtype()))
    return holds(op, lhs.get(i), rhs.get(j));
  return holds(op, lhs.intValue(i), rhs.intValue(j));
}

/// Every byte of out is exactly the oracle's 0 or 1.
::testing::AssertionResult matchesOracle(amp_compare_op_t op, const Tensor &lhs,
                                         const Tensor &rhs, const Tensor &out) {
  int bad = 0;
  ::testing::AssertionResult r = ::testing::AssertionFailure();
  for (int64_t k = 0; k < out.size(); ++k) {
    const int64_t i = broadcastSource(k, out.shape(), lhs.shape());
    const int64_t j = broadcastSource(k, out.shape(), rhs.shape());
    const uint64_t want = expected(op, lhs, i, rhs, j) ? 1 : 0;
    if (out.bits(k) != want && bad++ < 5)
      r << "\n  out[" << k << "] = " << out.bits(k) << ", expected " << want
        << " for lhs[" << i << "] (bits 0x" << std::hex << lhs.bits(i)
        << ") and rhs[" << std::dec << j << "] (bits 0x" << std::hex
        << rhs.bits(j) << std::dec << ")";
  }
  if (bad == 0)
    return ::testing::AssertionSuccess();
  return r << "\n  " << bad << " of " << out.size() << " elements differ";
}

struct CompareShapes {
  Shape lhs, rhs, out;
};

std::vector<CompareShapes> compareCases() {
  return {{{9, 13}, {9, 13}, {9, 13}},    // same shapes
          {{9, 13}, {}, {9, 13}},         // scalar rhs
          {{}, {9, 13}, {9, 13}},         // scalar lhs
          {{9, 13}, {13}, {9, 13}},       // a row
          {{9, 13}, {9, 1}, {9, 13}},     // a column
          {{1, 13}, {9, 1}, {9, 13}},     // row against column
          {{3, 1, 5}, {4, 1}, {3, 4, 5}}, // two-sided, rank 3
          {{2, 3, 4, 5}, {3, 1, 5}, {2, 3, 4, 5}},
          {{}, {}, {}},                 // rank 0
          {{0, 3}, {3}, {0, 3}},        // no elements
          {{70000}, {70000}, {70000}}}; // the cpu backend's threads
}

class CompareTest
    : public ::testing::TestWithParam<std::tuple<amp_dtype_t, int>> {};

TEST_P(CompareTest, EveryPredicateMatchesTheOracle) {
  const amp_dtype_t dtype = std::get<0>(GetParam());
  const CompareShapes c = compareCases()[std::get<1>(GetParam())];
  std::mt19937 rng(31 + std::get<1>(GetParam()));
  const Tensor lhs = poolTensor(dtype, c.lhs, rng);
  const Tensor rhs = poolTensor(dtype, c.rhs, rng);
  for (amp_compare_op_t op : kOps) {
    Tensor out = sentinelTensor(AMP_DTYPE_BOOL, c.out);
    ASSERT_TRUE(isOk(amp_compare(op, lhs.data(), rhs.data(), out.data(),
                                 lhs.dims(), lhs.rank(), rhs.dims(), rhs.rank(),
                                 out.dims(), out.rank(), dtype, nullptr)));
    EXPECT_TRUE(matchesOracle(op, lhs, rhs, out))
        << opName(op) << " " << shapeName(c.lhs) << " vs " << shapeName(c.rhs);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, CompareTest,
                         ::testing::Combine(::testing::ValuesIn(allDtypes()),
                                            ::testing::Range(0, 11)),
                         [](const auto &info) {
                           return std::string(
                                      dtypeName(std::get<0>(info.param))) +
                                  "_case" +
                                  std::to_string(std::get<1>(info.param));
                         });

/// Every pair of pool values, each predicate: the whole truth table.
TEST(Compare, AllPairsOfSpecialValues) {
  for (amp_dtype_t dtype : allDtypes()) {
    const std::vector<PoolValue> values = pool(dtype);
    const int64_t m = static_cast<int64_t>(values.size());
    Tensor lhs(dtype, {m, 1}), rhs(dtype, {m});
    for (int64_t i = 0; i < m; ++i) {
      store(lhs, i, values[i]);
      store(rhs, i, values[i]);
    }
    for (amp_compare_op_t op : kOps) {
      Tensor out = sentinelTensor(AMP_DTYPE_BOOL, {m, m});
      ASSERT_TRUE(
          isOk(amp_compare(op, lhs.data(), rhs.data(), out.data(), lhs.dims(),
                           2, rhs.dims(), 1, out.dims(), 2, dtype, nullptr)));
      EXPECT_TRUE(matchesOracle(op, lhs, rhs, out))
          << dtypeName(dtype) << " " << opName(op);
    }
  }
}

/// The IEEE cases spelled out: -0 == +0, NaN is unordered (only NE holds,
/// also for NaN against itself), infinities order.
TEST(Compare, IeeeSemantics) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  struct Row {
    double a, b;
    uint8_t eq, ne, lt, le, gt, ge;
  };
  const Row rows[] = {
      {-0.0, 0.0, 1, 0, 0, 1, 0, 1},   {nan, nan, 0, 1, 0, 0, 0, 0},
      {nan, 1.0, 0, 1, 0, 0, 0, 0},    {-inf, nan, 0, 1, 0, 0, 0, 0},
      {-inf, inf, 0, 1, 1, 1, 0, 0},   {inf, inf, 1, 0, 0, 1, 0, 1},
      {65504.0, inf, 0, 1, 1, 1, 0, 0}};
  const int64_t n = sizeof(rows) / sizeof(rows[0]);
  for (amp_dtype_t dtype : floatDtypes()) {
    Tensor lhs(dtype, {n}), rhs(dtype, {n});
    for (int64_t i = 0; i < n; ++i) {
      lhs.set(i, rows[i].a);
      rhs.set(i, rows[i].b);
    }
    for (amp_compare_op_t op : kOps) {
      Tensor out = sentinelTensor(AMP_DTYPE_BOOL, {n});
      ASSERT_TRUE(
          isOk(amp_compare(op, lhs.data(), rhs.data(), out.data(), lhs.dims(),
                           1, rhs.dims(), 1, out.dims(), 1, dtype, nullptr)));
      for (int64_t i = 0; i < n; ++i) {
        const uint8_t want[] = {rows[i].eq, rows[i].ne, rows[i].lt,
                                rows[i].le, rows[i].gt, rows[i].ge};
        EXPECT_EQ(out.bits(i), want[op])
            << dtypeName(dtype) << " " << opName(op) << " row " << i;
      }
    }
  }
}

/// Integers compare exactly, not through a float: neighbours that f32 (i32)
/// or f64 (i64) would merge stay ordered.
TEST(Compare, IntegersCompareExactly) {
  const int32_t a32[] = {16777217, INT32_MIN, -1};
  const int32_t b32[] = {16777216, INT32_MAX, 0};
  std::vector<uint8_t> out(3, 7);
  const int64_t d3[] = {3};
  ASSERT_TRUE(isOk(amp_compare(AMP_COMPARE_GT, a32, b32, out.data(), d3, 1, d3,
                               1, d3, 1, AMP_DTYPE_I32, nullptr)));
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 0, 0}));
  const int64_t p53 = int64_t{1} << 53;
  const int64_t a64[] = {p53 + 1, INT64_MIN, INT64_MAX};
  const int64_t b64[] = {p53, INT64_MAX, INT64_MAX - 1};
  ASSERT_TRUE(isOk(amp_compare(AMP_COMPARE_NE, a64, b64, out.data(), d3, 1, d3,
                               1, d3, 1, AMP_DTYPE_I64, nullptr)));
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 1, 1}));
  ASSERT_TRUE(isOk(amp_compare(AMP_COMPARE_LT, a64, b64, out.data(), d3, 1, d3,
                               1, d3, 1, AMP_DTYPE_I64, nullptr)));
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 1, 0}));
}

/// Bool operands: any nonzero byte is 1, and 0 < 1.
TEST(Compare, BoolBytesAreFlags) {
  const uint8_t a[] = {2, 255, 0, 1, 0x80};
  const uint8_t b[] = {1, 2, 3, 0, 0};
  const int64_t d5[] = {5};
  std::vector<uint8_t> out(5, 7);
  ASSERT_TRUE(isOk(amp_compare(AMP_COMPARE_EQ, a, b, out.data(), d5, 1, d5, 1,
                               d5, 1, AMP_DTYPE_BOOL, nullptr)));
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 1, 0, 0, 0}));
  ASSERT_TRUE(isOk(amp_compare(AMP_COMPARE_LT, a, b, out.data(), d5, 1, d5, 1,
                               d5, 1, AMP_DTYPE_BOOL, nullptr)));
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 0, 1, 0, 0}));
  ASSERT_TRUE(isOk(amp_compare(AMP_COMPARE_GE, a, b, out.data(), d5, 1, d5, 1,
                               d5, 1, AMP_DTYPE_BOOL, nullptr)));
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 1, 0, 1, 1}));
}

} // namespace
