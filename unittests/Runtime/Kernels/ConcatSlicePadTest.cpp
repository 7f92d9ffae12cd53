//===- ConcatSlicePadTest.cpp - concat, slice, slice_grad and pad ---------===//
//
// amp_concat, amp_slice, amp_slice_grad (every dtype) and amp_pad (float
// dtypes) against the naive index mapping: negative axes and strides, size-0
// inputs and dimensions, rank 0, the slice gradient against finite
// differences of amp_slice, and the argument checks.
//
// Tolerances: all exact (bit patterns are moved; pad rounds its f32 value
// once). Finite differences of the linear amp_slice are exact up to the
// f32 steps: 1e-6.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <random>

using namespace amp::test;

namespace {

std::vector<amp_dtype_t> allDtypes() {
  return {AMP_DTYPE_F32, AMP_DTYPE_F16, AMP_DTYPE_BF16,
          AMP_DTYPE_I32, AMP_DTYPE_I64, AMP_DTYPE_BOOL};
}

/// Distinct values that every dtype holds exactly (bool: 0/1).
Tensor iotaTensor(amp_dtype_t dtype, const Shape &shape, int64_t start) {
  Tensor t(dtype, shape);
  for (int64_t i = 0; i < t.size(); ++i)
    t.set(i, dtype == AMP_DTYPE_BOOL ? (start + i) % 2 : start + i);
  return t;
}

//===----------------------------------------------------------------------===//
// concat
//===----------------------------------------------------------------------===//

struct ConcatCase {
  std::vector<Shape> inputs;
  int64_t axis;
  Shape out;
};

std::vector<ConcatCase> concatCases() {
  return {{{{3}, {4}, {0}, {2}}, 0, {9}},
          {{{2, 3, 4}, {2, 1, 4}, {2, 5, 4}}, 1, {2, 9, 4}},
          {{{2, 3, 1}, {2, 3, 4}}, -1, {2, 3, 5}},
          {{{1, 3}, {4, 3}}, -2, {5, 3}},
          {{{3, 2, 2}}, 2, {3, 2, 2}},
          {{{0, 2}, {0, 3}}, 1, {0, 5}}};
}

class ConcatTest
    : public ::testing::TestWithParam<std::tuple<amp_dtype_t, int>> {};

TEST_P(ConcatTest, MatchesTheIndexMapping) {
  const amp_dtype_t dtype = std::get<0>(GetParam());
  const ConcatCase c = concatCases()[std::get<1>(GetParam())];
  const int rank = static_cast<int>(c.out.size());
  const int axis = static_cast<int>(c.axis < 0 ? c.axis + rank : c.axis);
  std::vector<Tensor> inputs;
  std::vector<const void *> pointers;
  std::vector<int64_t> sizes;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    inputs.push_back(iotaTensor(dtype, c.inputs[i], 1000 * (i + 1)));
    sizes.push_back(c.inputs[i][axis]);
  }
  for (const Tensor &t : inputs)
    pointers.push_back(t.data());
  Tensor out = sentinelTensor(dtype, c.out);
  ASSERT_TRUE(isOk(amp_concat(static_cast<int32_t>(inputs.size()),
                              pointers.data(), out.data(), out.dims(), rank,
                              sizes.data(), dtype, c.axis, nullptr)));
  std::vector<double> ref;
  for (int64_t i = 0; i < out.size(); ++i) {
    Shape index = unravel(i, c.out);
    size_t k = 0;
    while (index[axis] >= sizes[k])
      index[axis] -= sizes[k++];
    ref.push_back(inputs[k].get(ravel(index, c.inputs[k])));
  }
  EXPECT_TRUE(allEqual(out, ref, "concat " + shapeName(c.out)));
}

INSTANTIATE_TEST_SUITE_P(Cases, ConcatTest,
                         ::testing::Combine(::testing::ValuesIn(allDtypes()),
                                            ::testing::Range(0, 6)),
                         [](const auto &info) {
                           return std::string(
                                      dtypeName(std::get<0>(info.param))) +
                                  "_case" +
                                  std::to_string(std::get<1>(info.param));
                         });

TEST(Concat, RejectsBadArguments) {
  Tensor a(AMP_DTYPE_F32, {2, 3}), b(AMP_DTYPE_F32, {2, 2}),
      out(AMP_DTYPE_F32, {2, 5});
  const void *inputs[] = {a.data(), b.data()};
  const void *withNull[] = {a.data(), nullptr};
  const void *aliased[] = {out.data(), b.data()};
  const int64_t sizes[] = {3, 2}, wrong[] = {3, 3}, negative[] = {-1, 6};
  auto run = [&](int32_t n, const void *const *in, const int64_t *s,
                 int64_t axis) {
    return amp_concat(n, in, out.data(), out.dims(), 2, s, AMP_DTYPE_F32, axis,
                      nullptr);
  };
  ASSERT_TRUE(isOk(run(2, inputs, sizes, 1)));
  EXPECT_TRUE(failsWith(run(0, inputs, sizes, 1), AMP_STATUS_INVALID_ARGUMENT,
                        "amp_concat: n_inputs (0) is < 1"));
  EXPECT_TRUE(failsWith(run(2, inputs, sizes, 2), AMP_STATUS_INVALID_ARGUMENT,
                        "axis 2 is out of range for rank 2"));
  EXPECT_TRUE(failsWith(run(2, inputs, wrong, 1), AMP_STATUS_INVALID_ARGUMENT,
                        "the axis sizes sum to 6, not out's dimension 1 (5)"));
  EXPECT_TRUE(failsWith(run(2, inputs, negative, 1),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "dimension 1 of input 0 is negative"));
  EXPECT_TRUE(failsWith(run(2, withNull, sizes, 1), AMP_STATUS_INVALID_ARGUMENT,
                        "input 1 is NULL"));
  EXPECT_TRUE(failsWith(run(2, aliased, sizes, 1), AMP_STATUS_INVALID_ARGUMENT,
                        "out aliases input 0"));
  EXPECT_TRUE(failsWith(run(2, nullptr, sizes, 1), AMP_STATUS_INVALID_ARGUMENT,
                        "must not be NULL"));
  // Empty inputs [0, 2^62]: no elements, but strides beyond the 2^60 limit.
  const int64_t huge[] = {int64_t{1} << 62, int64_t{1} << 62, int64_t{1} << 62,
                          int64_t{1} << 62};
  Tensor empty(AMP_DTYPE_F32, {0, 5});
  const void *none[16] = {};
  EXPECT_TRUE(failsWith(amp_concat(4, none, empty.data(), empty.dims(), 2, huge,
                                   AMP_DTYPE_F32, 1, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "input 0 has too many elements"));
  // Sizes within the limit whose sum overflows int64_t: 16 x (2^60 - 1).
  int64_t large[16];
  std::fill(std::begin(large), std::end(large), (int64_t{1} << 60) - 1);
  EXPECT_TRUE(failsWith(amp_concat(16, none, empty.data(), empty.dims(), 2,
                                   large, AMP_DTYPE_F32, 1, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "sum to"));
}

//===----------------------------------------------------------------------===//
// slice, slice_grad
//===----------------------------------------------------------------------===//

struct SliceCase {
  Shape x, offsets, strides, y; // strides empty: NULL (all 1)
};

std::vector<SliceCase> sliceCases() {
  return {{{10}, {2}, {3}, {3}},
          {{10}, {9}, {-2}, {5}},
          {{4, 6}, {3, 5}, {-1, -2}, {4, 3}},
          {{3, 5, 7}, {1, 0, 6}, {1, 2, -3}, {2, 3, 3}},
          {{5, 5}, {1, 0}, {}, {2, 5}},
          {{4, 6}, {0, 100}, {1, 7}, {4, 0}}, // a size-0 dim: no range check
          {{}, {}, {}, {}},
          {{8, 2}, {7, 1}, {1000000, -1}, {1, 2}},
          {{2, 3, 4, 5}, {1, 2, 0, 4}, {-1, -1, 2, -2}, {2, 3, 2, 3}}};
}

class SliceTest
    : public ::testing::TestWithParam<std::tuple<amp_dtype_t, int>> {};

TEST_P(SliceTest, GathersAndScattersTheSamePositions) {
  const amp_dtype_t dtype = std::get<0>(GetParam());
  const SliceCase c = sliceCases()[std::get<1>(GetParam())];
  const int32_t rank = static_cast<int32_t>(c.x.size());
  const int64_t *strides = c.strides.empty() ? nullptr : c.strides.data();
  auto stride = [&](size_t d) { return c.strides.empty() ? 1 : c.strides[d]; };
  Tensor x = iotaTensor(dtype, c.x, 1);
  Tensor y = sentinelTensor(dtype, c.y);
  ASSERT_TRUE(isOk(amp_slice(x.data(), y.data(), c.x.data(), c.y.data(), rank,
                             c.offsets.data(), strides, dtype, nullptr)));
  // The x position of each y element, and the scatter of dy.
  std::vector<double> ref, gradRef(static_cast<size_t>(x.size()), 0.0);
  Tensor dy = iotaTensor(dtype, c.y, 7);
  for (int64_t i = 0; i < y.size(); ++i) {
    Shape index = unravel(i, c.y);
    for (size_t d = 0; d < index.size(); ++d)
      index[d] = c.offsets[d] + index[d] * stride(d);
    const int64_t xi = ravel(index, c.x);
    ref.push_back(x.get(xi));
    gradRef[xi] = dy.get(i);
  }
  EXPECT_TRUE(allEqual(y, ref, "slice " + shapeName(c.y)));
  Tensor dx = sentinelTensor(dtype, c.x);
  ASSERT_TRUE(
      isOk(amp_slice_grad(dy.data(), dx.data(), c.x.data(), c.y.data(), rank,
                          c.offsets.data(), strides, dtype, nullptr)));
  EXPECT_TRUE(allEqual(dx, gradRef, "slice_grad " + shapeName(c.x)));
}

INSTANTIATE_TEST_SUITE_P(Cases, SliceTest,
                         ::testing::Combine(::testing::ValuesIn(allDtypes()),
                                            ::testing::Range(0, 9)),
                         [](const auto &info) {
                           return std::string(
                                      dtypeName(std::get<0>(info.param))) +
                                  "_case" +
                                  std::to_string(std::get<1>(info.param));
                         });

TEST(Slice, GradMatchesFiniteDifferences) {
  std::mt19937 rng(3);
  const Shape xShape = {5, 6}, yShape = {3, 2};
  const int64_t offsets[] = {4, 1}, strides[] = {-2, 3};
  Tensor x = randomTensor(AMP_DTYPE_F32, xShape, rng);
  Tensor dy = randomTensor(AMP_DTYPE_F32, yShape, rng);
  const std::vector<double> fd =
      finiteDifferenceGrad(x, dy.values(), 1.0 / 1024, [&](const Tensor &in) {
        Tensor out(AMP_DTYPE_F32, yShape);
        EXPECT_TRUE(
            isOk(amp_slice(in.data(), out.data(), xShape.data(), yShape.data(),
                           2, offsets, strides, AMP_DTYPE_F32, nullptr)));
        return out.values();
      });
  Tensor dx(AMP_DTYPE_F32, xShape);
  ASSERT_TRUE(
      isOk(amp_slice_grad(dy.data(), dx.data(), xShape.data(), yShape.data(), 2,
                          offsets, strides, AMP_DTYPE_F32, nullptr)));
  EXPECT_TRUE(
      allClose(dx, fd, std::vector<double>(fd.size(), 1e-6), "slice_grad"));
}

TEST(Slice, RejectsBadArguments) {
  Tensor x(AMP_DTYPE_F32, {4, 6}), y(AMP_DTYPE_F32, {2, 3});
  const int64_t off[] = {1, 0}, ones[] = {1, 1};
  auto run = [&](const int64_t *o, const int64_t *s, void *out) {
    return amp_slice(x.data(), out, x.dims(), y.dims(), 2, o, s, AMP_DTYPE_F32,
                     nullptr);
  };
  ASSERT_TRUE(isOk(run(off, ones, y.data())));
  const int64_t zero[] = {1, 0}, back[] = {1, -1}, far[] = {3, 2},
                negOff[] = {-1, 0}, huge[] = {1, int64_t{1} << 62};
  EXPECT_TRUE(failsWith(run(off, zero, y.data()), AMP_STATUS_INVALID_ARGUMENT,
                        "amp_slice: stride 1 is 0"));
  EXPECT_TRUE(failsWith(run(off, back, y.data()), AMP_STATUS_INVALID_ARGUMENT,
                        "dimension 1: offset 0 with stride -1 reads 3 "
                        "elements outside [0, 6)"));
  EXPECT_TRUE(failsWith(run(off, far, y.data()), AMP_STATUS_INVALID_ARGUMENT,
                        "dimension 0: offset 1 with stride 3"));
  EXPECT_TRUE(failsWith(run(negOff, ones, y.data()),
                        AMP_STATUS_INVALID_ARGUMENT, "offset -1"));
  EXPECT_TRUE(failsWith(run(off, huge, y.data()), AMP_STATUS_INVALID_ARGUMENT,
                        "outside"));
  // A huge stride in a dimension whose element stride is 6: rejected before
  // 6 * 2^62 is computed (UBSan; found by amp-kernel-args-fuzzer).
  const int64_t hugeRow[] = {int64_t{1} << 62, 1};
  EXPECT_TRUE(failsWith(run(off, hugeRow, y.data()),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "dimension 0: offset 1 with stride 4611686018427387904"));
  EXPECT_TRUE(failsWith(run(nullptr, ones, y.data()),
                        AMP_STATUS_INVALID_ARGUMENT, "offsets is NULL"));
  EXPECT_TRUE(failsWith(run(off, ones, x.data()), AMP_STATUS_INVALID_ARGUMENT,
                        "y aliases x"));
  EXPECT_TRUE(failsWith(amp_slice_grad(y.data(), nullptr, x.dims(), y.dims(), 2,
                                       off, ones, AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "amp_slice_grad: dx is NULL"));
  EXPECT_TRUE(failsWith(amp_slice_grad(y.data(), x.data(), x.dims(), y.dims(),
                                       2, off, zero, AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "stride 1 is 0"));
}

//===----------------------------------------------------------------------===//
// pad
//===----------------------------------------------------------------------===//

struct PadCase {
  Shape x, low, high;
};

std::vector<PadCase> padCases() {
  return {{{3}, {2}, {1}},
          {{2, 3}, {0, 1}, {2, 0}},
          {{2, 1, 3}, {1, 0, 2}, {0, 3, 1}},
          {{}, {}, {}},
          {{0, 3}, {1, 0}, {0, 1}},
          {{2, 2}, {0, 0}, {0, 0}}};
}

class PadTest : public ::testing::TestWithParam<std::tuple<amp_dtype_t, int>> {
};

TEST_P(PadTest, FillsTheBorderWithTheRoundedValue) {
  const amp_dtype_t dtype = std::get<0>(GetParam());
  const PadCase c = padCases()[std::get<1>(GetParam())];
  Shape yShape;
  for (size_t d = 0; d < c.x.size(); ++d)
    yShape.push_back(c.low[d] + c.x[d] + c.high[d]);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (float value : {0.0f, 0.1f, -70000.0f, NAN}) {
    Tensor x = iotaTensor(dtype, c.x, 1);
    Tensor y = sentinelTensor(dtype, yShape);
    ASSERT_TRUE(
        isOk(amp_pad(x.data(), y.data(), x.dims(), x.rank(), c.low.data(),
                     c.high.data(), dtype, value, nullptr)));
    std::vector<double> ref;
    for (int64_t i = 0; i < y.size(); ++i) {
      Shape index = unravel(i, yShape);
      bool inside = true;
      for (size_t d = 0; d < index.size(); ++d) {
        index[d] -= c.low[d];
        inside = inside && index[d] >= 0 && index[d] < c.x[d];
      }
      ref.push_back(inside              ? x.get(ravel(index, c.x))
                    : std::isnan(value) ? nan
                                        : roundTo(dtype, value));
    }
    EXPECT_TRUE(allEqual(y, ref,
                         "pad " + shapeName(yShape) + " value " +
                             std::to_string(value)));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PadTest,
    ::testing::Combine(::testing::Values(AMP_DTYPE_F32, AMP_DTYPE_F16,
                                         AMP_DTYPE_BF16),
                       ::testing::Range(0, 6)),
    [](const auto &info) {
      return std::string(dtypeName(std::get<0>(info.param))) + "_case" +
             std::to_string(std::get<1>(info.param));
    });

TEST(Pad, RejectsBadArguments) {
  Tensor x(AMP_DTYPE_F32, {2, 3}), y(AMP_DTYPE_F32, {3, 5});
  const int64_t low[] = {1, 1}, high[] = {0, 1};
  ASSERT_TRUE(isOk(amp_pad(x.data(), y.data(), x.dims(), 2, low, high,
                           AMP_DTYPE_F32, 0.0f, nullptr)));
  const int64_t negative[] = {0, -1}, huge[] = {0, int64_t{1} << 60};
  EXPECT_TRUE(failsWith(amp_pad(x.data(), y.data(), x.dims(), 2, negative, high,
                                AMP_DTYPE_F32, 0.0f, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "amp_pad: a low padding (-1) is out of range"));
  EXPECT_TRUE(failsWith(amp_pad(x.data(), y.data(), x.dims(), 2, low, huge,
                                AMP_DTYPE_F32, 0.0f, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "a high padding"));
  const int64_t big[] = {0, (int64_t{1} << 59) + 1};
  EXPECT_TRUE(failsWith(amp_pad(x.data(), y.data(), x.dims(), 2, low, big,
                                AMP_DTYPE_F32, 0.0f, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "y has too many elements"));
  EXPECT_TRUE(failsWith(amp_pad(x.data(), y.data(), x.dims(), 2, nullptr, high,
                                AMP_DTYPE_F32, 0.0f, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "low or high is NULL"));
  EXPECT_TRUE(failsWith(amp_pad(x.data(), x.data(), x.dims(), 2, low, high,
                                AMP_DTYPE_F32, 0.0f, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "y aliases x"));
  EXPECT_TRUE(failsWith(amp_pad(x.data(), y.data(), x.dims(), 2, low, high,
                                AMP_DTYPE_I32, 0.0f, nullptr),
                        AMP_STATUS_NOT_SUPPORTED, "dtype is i32"));
}

} // namespace
