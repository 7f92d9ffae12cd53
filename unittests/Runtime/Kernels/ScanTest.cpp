//===- ScanTest.cpp - amp_cumsum, amp_argmax, amp_topk --------------------===//
//
// amp_cumsum against its documented arithmetic, written out independently
// here: floats sum in f32 in scan order and round each output once (so the
// result is compared bitwise with that emulation, and within (n+1) u sum|x|
// of the f64 sum); i32 and i64 wrap (the sums taken in uint64_t and
// truncated). Every dtype, axis, exclusive and reverse; in place; empty
// tensors; the argument errors. amp_argmax against a search in f64 (exact):
// every dtype and axis, ties (first or last), NaN above every number, -0
// equal to +0, the errors. amp_topk against each element's rank in the
// order (the count of elements before it: larger, or equal at a lower
// position), exact: every dtype and axis, largest and smallest, k from 0 to
// the axis' size, ties, NaN, signed zeros, the integer extremes, the errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

using namespace amp::test;

namespace {

/// Where element k of line `line` of a cumsum along `axis` of `shape` lives,
/// and how many lines and elements per line there are.
struct Lines {
  Lines(const Shape &shape, int64_t axis) {
    const int64_t a = axis < 0 ? axis + int64_t(shape.size()) : axis;
    for (int64_t d = 0; d < int64_t(shape.size()); ++d) {
      if (d < a)
        outer *= shape[d];
      else if (d > a)
        inner *= shape[d];
    }
    len = shape[a];
  }
  int64_t at(int64_t line, int64_t k) const {
    return (line / inner) * len * inner + line % inner + k * inner;
  }
  int64_t outer = 1, inner = 1, len = 1;
};

class CumsumTest : public ::testing::TestWithParam<
                       std::tuple<amp_dtype_t, int64_t, bool, bool>> {};

TEST_P(CumsumTest, IsTheRunningSumInScanOrder) {
  const auto [dtype, axis, exclusive, reverse] = GetParam();
  const Shape shape = {3, 17, 5};
  std::mt19937 rng(11 + axis);
  const bool isFloat = isFloatDtype(dtype);
  Tensor x =
      isFloat ? randomTensor(dtype, shape, rng, -2, 2) : Tensor(dtype, shape);
  if (!isFloat) {
    // Around the type's maximum so that the sums wrap.
    const uint64_t big =
        dtype == AMP_DTYPE_I32 ? uint64_t(INT32_MAX) : uint64_t(INT64_MAX);
    for (int64_t i = 0; i < x.size(); ++i)
      x.setBits(i, i % 3 == 0 ? big - uint64_t(i) : uint64_t(i % 7) - 3);
  }
  Tensor y = sentinelTensor(dtype, shape);
  ASSERT_TRUE(isOk(amp_cumsum(x.data(), y.data(), x.dims(), x.rank(), axis,
                              exclusive, reverse, dtype, nullptr)));

  const Lines l(shape, axis);
  std::vector<double> emulated(x.size()), f64(x.size()), tol(x.size());
  std::vector<int64_t> wrapped(x.size());
  for (int64_t line = 0; line < l.outer * l.inner; ++line) {
    float s32 = 0;
    double s64 = 0, abs = 0;
    uint64_t su = 0;
    for (int64_t k = 0; k < l.len; ++k) {
      const int64_t i = l.at(line, reverse ? l.len - 1 - k : k);
      auto put = [&] {
        emulated[i] = roundTo(dtype, s32);
        f64[i] = s64;
        tol[i] = outTol(dtype, s64, (k + 2) * kU * abs);
        wrapped[i] = dtype == AMP_DTYPE_I32 ? int64_t(int32_t(uint32_t(su)))
                                            : int64_t(su);
      };
      if (exclusive)
        put();
      if (isFloat) {
        s32 += float(x.get(i));
        s64 += x.get(i);
        abs += std::fabs(x.get(i));
      } else {
        su += uint64_t(x.intValue(i));
      }
      if (!exclusive)
        put();
    }
  }
  if (isFloat) {
    EXPECT_TRUE(allEqual(y, emulated, "f32 running sum"));
    EXPECT_TRUE(allClose(y, f64, tol, "f64 running sum"));
  } else {
    for (int64_t i = 0; i < y.size(); ++i)
      ASSERT_EQ(y.intValue(i), wrapped[i]) << "element " << i;
  }

  // In place: the same bits.
  Tensor inPlace = x;
  ASSERT_TRUE(
      isOk(amp_cumsum(inPlace.data(), inPlace.data(), x.dims(), x.rank(), axis,
                      exclusive, reverse, dtype, nullptr)));
  EXPECT_TRUE(inPlace.sameBits(y));
}

INSTANTIATE_TEST_SUITE_P(
    AllDtypesAndAxes, CumsumTest,
    ::testing::Combine(::testing::Values(AMP_DTYPE_F32, AMP_DTYPE_F16,
                                         AMP_DTYPE_BF16, AMP_DTYPE_I32,
                                         AMP_DTYPE_I64),
                       ::testing::Values(0, 1, -1), ::testing::Bool(),
                       ::testing::Bool()),
    [](const auto &info) {
      const int64_t axis = std::get<1>(info.param);
      return std::string(dtypeName(std::get<0>(info.param))) + "_axis" +
             (axis < 0 ? "m" + std::to_string(-axis) : std::to_string(axis)) +
             (std::get<2>(info.param) ? "_exclusive" : "") +
             (std::get<3>(info.param) ? "_reverse" : "");
    });

TEST(Cumsum, F16SumsDoNotRoundBetweenSteps) {
  // 2048 + 1 + 1 in f16: rounding each partial sum would stay at 2048 (the
  // spacing there is 2); the f32 accumulator reaches 2050.
  Tensor x(AMP_DTYPE_F16, {3}), y(AMP_DTYPE_F16, {3});
  x.set(0, 2048);
  x.set(1, 1);
  x.set(2, 1);
  const int64_t dims[] = {3};
  ASSERT_TRUE(isOk(amp_cumsum(x.data(), y.data(), dims, 1, 0, 0, 0,
                              AMP_DTYPE_F16, nullptr)));
  EXPECT_TRUE(allEqual(y, {2048, 2048, 2050}, "f16 cumsum"));
}

TEST(Cumsum, EmptyTensorsAreNoOps) {
  Tensor x(AMP_DTYPE_F32, {0, 4}), y(AMP_DTYPE_F32, {0, 4});
  EXPECT_TRUE(isOk(amp_cumsum(x.data(), y.data(), x.dims(), 2, 1, 0, 0,
                              AMP_DTYPE_F32, nullptr)));
  EXPECT_TRUE(isOk(amp_cumsum(nullptr, nullptr, x.dims(), 2, 0, 1, 1,
                              AMP_DTYPE_F32, nullptr)));
}

TEST(Cumsum, RejectsBadArguments) {
  Tensor x(AMP_DTYPE_F32, {2, 3}), y(AMP_DTYPE_F32, {2, 3});
  EXPECT_TRUE(failsWith(amp_cumsum(x.data(), y.data(), x.dims(), 2, 2, 0, 0,
                                   AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "axis 2 is out of range for rank 2"));
  EXPECT_TRUE(failsWith(amp_cumsum(x.data(), y.data(), x.dims(), 2, -3, 0, 0,
                                   AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "out of range"));
  EXPECT_TRUE(failsWith(amp_cumsum(x.data(), y.data(), x.dims(), 0, 0, 0, 0,
                                   AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "axis 0 is out of range for rank 0"));
  Tensor b(AMP_DTYPE_BOOL, {2, 3});
  EXPECT_TRUE(failsWith(amp_cumsum(b.data(), b.data(), b.dims(), 2, 0, 0, 0,
                                   AMP_DTYPE_BOOL, nullptr),
                        AMP_STATUS_NOT_SUPPORTED,
                        "dtype is bool; expected f32, f16, bf16, i32 or i64"));
  EXPECT_TRUE(failsWith(amp_cumsum(nullptr, y.data(), x.dims(), 2, 0, 0, 0,
                                   AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "x is NULL"));
  EXPECT_TRUE(failsWith(amp_cumsum(x.data(), y.data(), nullptr, 2, 0, 0, 0,
                                   AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "dims"));
}

/// Values with many ties: integers in [-3, 3] (exact in every dtype).
Tensor tiedTensor(amp_dtype_t dtype, const Shape &shape, std::mt19937 &rng) {
  Tensor t(dtype, shape);
  std::uniform_int_distribution<int> dist(-3, 3);
  for (int64_t i = 0; i < t.size(); ++i)
    t.set(i, dist(rng));
  return t;
}

/// The cases of the order tests (argmax, topk): every dtype but bool, the
/// axes 0, 1 and -1 of a rank-3 shape, a flag.
const auto kOrderCases = ::testing::Combine(
    ::testing::Values(AMP_DTYPE_F32, AMP_DTYPE_F16, AMP_DTYPE_BF16,
                      AMP_DTYPE_I32, AMP_DTYPE_I64),
    ::testing::Values(0, 1, -1), ::testing::Bool());

/// The name of an order case: dtype, axis, and `set` or `unset` for the
/// flag.
template <typename Info>
std::string orderCaseName(const Info &info, const char *set,
                          const char *unset) {
  const int64_t axis = std::get<1>(info.param);
  return std::string(dtypeName(std::get<0>(info.param))) + "_axis" +
         (axis < 0 ? "m" + std::to_string(-axis) : std::to_string(axis)) +
         (std::get<2>(info.param) ? set : unset);
}

/// A [3, 4] tensor of the order's corner cases, one per row: NaN above
/// +inf; two NaNs; -0, +0 and -0 equal around a -1.
Tensor orderRows(amp_dtype_t dtype) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const double rows[3][4] = {
      {1, inf, nan, 2}, {nan, 3, nan, -inf}, {-0.0, 0.0, -1, -0.0}};
  Tensor x(dtype, {3, 4});
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c)
      x.set(r * 4 + c, rows[r][c]);
  return x;
}

class ArgmaxTest
    : public ::testing::TestWithParam<std::tuple<amp_dtype_t, int64_t, bool>> {
};

TEST_P(ArgmaxTest, IsTheFirstOrLastMaximum) {
  const auto [dtype, axis, selectLast] = GetParam();
  const Shape shape = {3, 17, 5};
  std::mt19937 rng(5 + axis);
  Tensor x = tiedTensor(dtype, shape, rng);
  const Lines l(shape, axis);
  Tensor y = sentinelTensor(AMP_DTYPE_I64, {l.outer * l.inner});
  ASSERT_TRUE(
      isOk(amp_argmax(x.data(), static_cast<int64_t *>(y.data()), x.dims(),
                      x.rank(), axis, selectLast, dtype, nullptr)));
  for (int64_t line = 0; line < l.outer * l.inner; ++line) {
    double best = -INFINITY;
    int64_t at = -1;
    for (int64_t k = 0; k < l.len; ++k) {
      const double v = x.get(l.at(line, k));
      if (v > best || (selectLast && v == best)) {
        best = v;
        at = k;
      }
    }
    ASSERT_EQ(y.intValue(line), at) << "line " << line;
  }
}

INSTANTIATE_TEST_SUITE_P(AllDtypesAndAxes, ArgmaxTest, kOrderCases,
                         [](const auto &info) {
                           return orderCaseName(info, "_last", "_first");
                         });

TEST(Argmax, NaNIsTheLargestAndSignedZerosTie) {
  const int64_t first[] = {2, 0, 0}, last[] = {2, 2, 3};
  for (amp_dtype_t dtype : floatDtypes()) {
    const Tensor x = orderRows(dtype);
    for (int selectLast = 0; selectLast < 2; ++selectLast) {
      int64_t y[3] = {-1, -1, -1};
      ASSERT_TRUE(isOk(
          amp_argmax(x.data(), y, x.dims(), 2, 1, selectLast, dtype, nullptr)));
      for (int r = 0; r < 3; ++r)
        EXPECT_EQ(y[r], selectLast ? last[r] : first[r])
            << dtypeName(dtype) << " row " << r << " select_last "
            << selectLast;
    }
  }
  Tensor big(AMP_DTYPE_I64, {3});
  big.setBits(0, uint64_t(INT64_MIN));
  big.setBits(1, uint64_t(INT64_MAX));
  big.setBits(2, uint64_t(INT64_MAX) - 1);
  int64_t y = -1;
  ASSERT_TRUE(isOk(
      amp_argmax(big.data(), &y, big.dims(), 1, 0, 0, AMP_DTYPE_I64, nullptr)));
  EXPECT_EQ(y, 1);
}

TEST(Argmax, RejectsBadArguments) {
  Tensor x(AMP_DTYPE_F32, {2, 3});
  int64_t y[3];
  EXPECT_TRUE(failsWith(
      amp_argmax(x.data(), y, x.dims(), 2, 2, 0, AMP_DTYPE_F32, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "axis 2 is out of range for rank 2"));
  Tensor empty(AMP_DTYPE_F32, {2, 0});
  EXPECT_TRUE(failsWith(amp_argmax(empty.data(), y, empty.dims(), 2, 1, 0,
                                   AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "argmax along an empty axis"));
  Tensor none(AMP_DTYPE_F32, {0, 3});
  EXPECT_TRUE(isOk(amp_argmax(none.data(), y, none.dims(), 2, 1, 0,
                              AMP_DTYPE_F32, nullptr)));
  Tensor b(AMP_DTYPE_BOOL, {2, 3});
  EXPECT_TRUE(failsWith(
      amp_argmax(b.data(), y, b.dims(), 2, 1, 0, AMP_DTYPE_BOOL, nullptr),
      AMP_STATUS_NOT_SUPPORTED,
      "dtype is bool; expected f32, f16, bf16, i32 or i64"));
  EXPECT_TRUE(failsWith(
      amp_argmax(x.data(), nullptr, x.dims(), 2, 1, 0, AMP_DTYPE_F32, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "y is NULL"));
  Tensor words(AMP_DTYPE_I64, {2, 3});
  EXPECT_TRUE(failsWith(
      amp_argmax(words.data(), static_cast<int64_t *>(words.data()) + 1,
                 words.dims(), 2, 1, 0, AMP_DTYPE_I64, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "y overlaps x"));
}

class TopkTest
    : public ::testing::TestWithParam<std::tuple<amp_dtype_t, int64_t, bool>> {
};

TEST_P(TopkTest, IsEachElementAtItsRank) {
  const auto [dtype, axis, smallest] = GetParam();
  Shape shape = {3, 17, 5};
  std::mt19937 rng(7 + axis);
  Tensor x = tiedTensor(dtype, shape, rng);
  const Lines l(shape, axis);
  for (int64_t k : {int64_t(0), int64_t(1), int64_t(3), l.len}) {
    Shape yShape = shape;
    yShape[axis < 0 ? axis + 3 : axis] = k;
    const Lines ly(yShape, axis);
    Tensor y = sentinelTensor(AMP_DTYPE_I64, yShape);
    ASSERT_TRUE(
        isOk(amp_topk(x.data(), static_cast<int64_t *>(y.data()), x.dims(),
                      x.rank(), axis, k, smallest, dtype, nullptr)));
    for (int64_t line = 0; line < l.outer * l.inner; ++line)
      for (int64_t i = 0; i < l.len; ++i) {
        const double v = x.get(l.at(line, i));
        int64_t rank = 0;
        for (int64_t j = 0; j < l.len; ++j) {
          const double w = x.get(l.at(line, j));
          rank += (smallest ? w < v : w > v) || (w == v && j < i);
        }
        if (rank < k)
          ASSERT_EQ(y.intValue(ly.at(line, rank)), i)
              << "line " << line << " k " << k;
      }
  }
}

INSTANTIATE_TEST_SUITE_P(AllDtypesAndAxes, TopkTest, kOrderCases,
                         [](const auto &info) {
                           return orderCaseName(info, "_smallest", "_largest");
                         });

TEST(Topk, NaNIsTheLargestAndSignedZerosTie) {
  const int64_t largest[3][4] = {{2, 1, 3, 0}, {0, 2, 1, 3}, {0, 1, 3, 2}};
  const int64_t smallest[3][4] = {{0, 3, 1, 2}, {3, 1, 0, 2}, {2, 0, 1, 3}};
  for (amp_dtype_t dtype : floatDtypes()) {
    const Tensor x = orderRows(dtype);
    for (int small = 0; small < 2; ++small) {
      int64_t y[3][4];
      ASSERT_TRUE(isOk(amp_topk(x.data(), &y[0][0], x.dims(), 2, 1, 4, small,
                                dtype, nullptr)));
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c)
          EXPECT_EQ(y[r][c], small ? smallest[r][c] : largest[r][c])
              << dtypeName(dtype) << " row " << r << " pick " << c
              << " smallest " << small;
    }
  }
  // Neighbours that f64 cannot tell apart.
  Tensor big(AMP_DTYPE_I64, {3});
  big.setBits(0, uint64_t(INT64_MIN));
  big.setBits(1, uint64_t(INT64_MAX) - 1);
  big.setBits(2, uint64_t(INT64_MAX));
  int64_t y[3];
  ASSERT_TRUE(isOk(
      amp_topk(big.data(), y, big.dims(), 1, 0, 3, 0, AMP_DTYPE_I64, nullptr)));
  EXPECT_EQ(y[0], 2);
  EXPECT_EQ(y[1], 1);
  EXPECT_EQ(y[2], 0);
  ASSERT_TRUE(isOk(amp_topk(big.data(), y, big.dims(), 1, -1, 2, 1,
                            AMP_DTYPE_I64, nullptr)));
  EXPECT_EQ(y[0], 0);
  EXPECT_EQ(y[1], 1);
}

TEST(Topk, RejectsBadArguments) {
  Tensor x(AMP_DTYPE_F32, {2, 3});
  int64_t y[6];
  EXPECT_TRUE(failsWith(
      amp_topk(x.data(), y, x.dims(), 2, -3, 1, 0, AMP_DTYPE_F32, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "axis -3 is out of range for rank 2"));
  EXPECT_TRUE(failsWith(
      amp_topk(x.data(), y, x.dims(), 2, 1, 4, 0, AMP_DTYPE_F32, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "k = 4 outside [0, 3]"));
  EXPECT_TRUE(failsWith(
      amp_topk(x.data(), y, x.dims(), 2, 0, -1, 0, AMP_DTYPE_F32, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "k = -1 outside [0, 2]"));
  Tensor none(AMP_DTYPE_F32, {0, 3});
  EXPECT_TRUE(isOk(amp_topk(none.data(), y, none.dims(), 2, 1, 2, 0,
                            AMP_DTYPE_F32, nullptr)));
  Tensor b(AMP_DTYPE_BOOL, {2, 3});
  EXPECT_TRUE(failsWith(
      amp_topk(b.data(), y, b.dims(), 2, 1, 1, 0, AMP_DTYPE_BOOL, nullptr),
      AMP_STATUS_NOT_SUPPORTED,
      "dtype is bool; expected f32, f16, bf16, i32 or i64"));
  EXPECT_TRUE(failsWith(
      amp_topk(x.data(), nullptr, x.dims(), 2, 1, 2, 0, AMP_DTYPE_F32, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "y is NULL"));
  Tensor words(AMP_DTYPE_I64, {2, 3});
  EXPECT_TRUE(
      failsWith(amp_topk(words.data(), static_cast<int64_t *>(words.data()) + 5,
                         words.dims(), 2, 1, 2, 1, AMP_DTYPE_I64, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "y overlaps x"));
}

} // namespace
