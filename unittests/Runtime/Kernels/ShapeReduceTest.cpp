//===- ShapeReduceTest.cpp - Reshape, transpose, broadcast, reductions ----===//
//
// The data-movement kernels (exact, every dtype, naive index mapping as the
// reference), amp_reduce against f64 and amp_reduce_max_grad against an f64
// count of the maxima and finite differences of amp_reduce's max.
//
// Tolerances: sum: err32 = (n + 1) u sum|x| over the n reduced terms; mean:
// the sum's bound / n plus u|r| for the division; max: exact;
// reduce_max_grad: u|r| (one f32 division dy / k).
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace amp::test;

namespace {

std::vector<amp_dtype_t> allDtypes() {
  return {AMP_DTYPE_F32, AMP_DTYPE_F16, AMP_DTYPE_BF16,
          AMP_DTYPE_I32, AMP_DTYPE_I64, AMP_DTYPE_BOOL};
}

/// Integers in [-1000, 1000] (exact in every dtype), 0 or 1 for bool.
Tensor integerTensor(amp_dtype_t dtype, const Shape &shape, std::mt19937 &rng) {
  Tensor t(dtype, shape);
  std::uniform_int_distribution<int> dist(-1000, 1000);
  for (int64_t i = 0; i < t.size(); ++i)
    t.set(i, dtype == AMP_DTYPE_BOOL
                 ? dist(rng) & 1
                 : dist(rng) / (dtype == AMP_DTYPE_BF16 ? 8 : 1));
  return t;
}

struct TransposeCase {
  Shape shape, perm;
};

TEST(Transpose, MatchesTheIndexMappingInEveryDtype) {
  const TransposeCase cases[] = {{{7}, {0}},
                                 {{5, 3}, {1, 0}},
                                 {{67, 131}, {1, 0}}, // crosses 32x32 tiles
                                 {{3, 5, 7}, {2, 0, 1}},
                                 {{3, 5, 7}, {0, 2, 1}},
                                 {{2, 3, 4, 5}, {3, 1, 2, 0}},
                                 {{2, 1, 4, 1, 3}, {4, 3, 2, 1, 0}},
                                 {{}, {}}};
  std::mt19937 rng(1);
  for (amp_dtype_t dtype : allDtypes())
    for (const TransposeCase &c : cases) {
      Tensor x = integerTensor(dtype, c.shape, rng);
      Shape outShape;
      for (int64_t p : c.perm)
        outShape.push_back(c.shape[p]);
      Tensor y = sentinelTensor(dtype, outShape);
      ASSERT_TRUE(isOk(amp_transpose(x.data(), y.data(), x.dims(), x.rank(),
                                     c.perm.data(), dtype, nullptr)));
      std::vector<double> ref;
      for (int64_t i = 0; i < y.size(); ++i) {
        Shape oi = unravel(i, outShape), xi(c.shape.size());
        for (size_t d = 0; d < c.perm.size(); ++d)
          xi[c.perm[d]] = oi[d];
        ref.push_back(x.get(ravel(xi, c.shape)));
      }
      EXPECT_TRUE(allEqual(y, ref,
                           std::string("transpose ") + shapeName(c.shape) +
                               " " + dtypeName(dtype)));
    }
}

TEST(Transpose, RejectsBadPermutations) {
  Tensor x(AMP_DTYPE_F32, {2, 3}), y(AMP_DTYPE_F32, {3, 2});
  const int64_t dup[] = {0, 0}, out[] = {0, 2};
  EXPECT_TRUE(failsWith(amp_transpose(x.data(), y.data(), x.dims(), 2, dup,
                                      AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "not a permutation"));
  EXPECT_TRUE(failsWith(amp_transpose(x.data(), y.data(), x.dims(), 2, out,
                                      AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "not a permutation"));
  EXPECT_TRUE(failsWith(amp_transpose(x.data(), y.data(), x.dims(), 2, nullptr,
                                      AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "perm is NULL"));
  const int64_t id[] = {0, 1};
  EXPECT_TRUE(failsWith(amp_transpose(x.data(), x.data(), x.dims(), 2, id,
                                      AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "aliases"));
}

TEST(BroadcastTo, MatchesNumpyInEveryDtype) {
  const std::pair<Shape, Shape> cases[] = {
      {{}, {4, 3}},     {{3}, {5, 3}},
      {{5, 1}, {5, 7}}, {{1, 4, 1}, {3, 2, 4, 5}},
      {{2, 3}, {2, 3}}, {{1}, {0, 4}}};
  std::mt19937 rng(2);
  for (amp_dtype_t dtype : allDtypes())
    for (const auto &[from, to] : cases) {
      Tensor x = integerTensor(dtype, from, rng);
      Tensor y = sentinelTensor(dtype, to);
      ASSERT_TRUE(isOk(amp_broadcast_to(x.data(), y.data(), x.dims(), x.rank(),
                                        y.dims(), y.rank(), dtype, nullptr)));
      std::vector<double> ref;
      for (int64_t i = 0; i < y.size(); ++i)
        ref.push_back(x.get(broadcastSource(i, to, from)));
      EXPECT_TRUE(allEqual(
          y, ref, "broadcast_to " + shapeName(from) + "->" + shapeName(to)));
    }
  Tensor x(AMP_DTYPE_F32, {3}), y(AMP_DTYPE_F32, {4, 2});
  EXPECT_TRUE(failsWith(amp_broadcast_to(x.data(), y.data(), x.dims(), 1,
                                         y.dims(), 2, AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "neither 1 nor"));
  EXPECT_TRUE(failsWith(amp_broadcast_to(y.data(), x.data(), y.dims(), 2,
                                         x.dims(), 1, AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "higher rank"));
}

TEST(Reshape, IsACopyOrANoOp) {
  std::mt19937 rng(3);
  for (amp_dtype_t dtype : allDtypes()) {
    Tensor x = integerTensor(dtype, {3, 5}, rng);
    Tensor y = sentinelTensor(dtype, {15});
    ASSERT_TRUE(isOk(amp_reshape(x.data(), y.data(), 15, dtype, nullptr)));
    EXPECT_TRUE(allEqual(y, x.values(), "reshape"));
    ASSERT_TRUE(isOk(amp_reshape(x.data(), x.data(), 15, dtype, nullptr)));
  }
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class ReduceTest : public ::testing::TestWithParam<std::tuple<int, int, int>> {
};

/// A reduction of `in` over `axes` (negative ones count from the end): the
/// kept shape and the output index of each input element.
struct Reduced {
  Shape in, out;
  std::vector<bool> reduced;
  Reduced(const Shape &shape, const Shape &axes)
      : in(shape), reduced(shape.size(), false) {
    const int64_t rank = static_cast<int64_t>(shape.size());
    for (int64_t a : axes)
      reduced[a < 0 ? a + rank : a] = true;
    for (size_t d = 0; d < shape.size(); ++d)
      if (!reduced[d])
        out.push_back(shape[d]);
  }
  int64_t outIndex(int64_t i) const {
    Shape xi = unravel(i, in), yi;
    for (size_t d = 0; d < in.size(); ++d)
      if (!reduced[d])
        yi.push_back(xi[d]);
    return ravel(yi, out);
  }
};

const std::vector<Shape> &reduceAxes() {
  static const std::vector<Shape> axes = {{0},    {1, 3}, {-1}, {0, 1, 2, 3},
                                          {2, 0}, {},     {-3}};
  return axes;
}

std::string reduceCaseName(int op, int pair, int axes) {
  static const char *const ops[] = {"sum", "mean", "max"};
  auto [in, out] = accumulatorPairs()[pair];
  return std::string(ops[op]) + "_" + dtypeName(in) + "_to_" + dtypeName(out) +
         "_axes" + std::to_string(axes);
}

TEST_P(ReduceTest, MatchesF64) {
  const auto op = static_cast<amp_reduce_op_t>(std::get<0>(GetParam()));
  const auto [xDtype, yDtype] = accumulatorPairs()[std::get<1>(GetParam())];
  const Shape axes = reduceAxes()[std::get<2>(GetParam())];
  const Shape shape = {3, 5, 7, 4};
  std::mt19937 rng(7 * std::get<2>(GetParam()) + std::get<1>(GetParam()));
  Tensor x = randomTensor(xDtype, shape, rng, -2, 2);
  const Reduced r(shape, axes);
  Tensor y = sentinelTensor(yDtype, r.out);
  ASSERT_TRUE(isOk(amp_reduce(op, x.data(), y.data(), x.dims(), 4, axes.data(),
                              static_cast<int32_t>(axes.size()), xDtype, yDtype,
                              nullptr)));
  const int64_t ny = y.size(), count = x.size() / ny;
  std::vector<double> sum(ny, 0.0), abs(ny, 0.0),
      mx(ny, -std::numeric_limits<double>::infinity());
  for (int64_t i = 0; i < x.size(); ++i) {
    const int64_t o = r.outIndex(i);
    sum[o] += x.get(i);
    abs[o] += std::fabs(x.get(i));
    mx[o] = std::max(mx[o], x.get(i));
  }
  std::vector<double> ref, tol;
  for (int64_t o = 0; o < ny; ++o) {
    double e = (count + 1) * kU * abs[o];
    if (op == AMP_REDUCE_SUM) {
      ref.push_back(sum[o]);
      tol.push_back(outTol(yDtype, sum[o], e));
    } else if (op == AMP_REDUCE_MEAN) {
      double m = sum[o] / count;
      ref.push_back(m);
      tol.push_back(outTol(yDtype, m, e / count + kU * std::fabs(m)));
    } else {
      ref.push_back(roundTo(yDtype, mx[o]));
    }
  }
  if (op == AMP_REDUCE_MAX)
    EXPECT_TRUE(allEqual(y, ref, "max"));
  else
    EXPECT_TRUE(allClose(y, ref, tol, "sum/mean"));
}

INSTANTIATE_TEST_SUITE_P(AllOps, ReduceTest,
                         ::testing::Combine(::testing::Range(0, 3),
                                            ::testing::Range(0, 5),
                                            ::testing::Range(0, 7)),
                         [](const auto &info) {
                           return reduceCaseName(std::get<0>(info.param),
                                                 std::get<1>(info.param),
                                                 std::get<2>(info.param));
                         });

TEST(Reduce, LongSumStaysAccurateInF32) {
  // 100000 f16 ones summed into f16: exact in f32, 100000 rounds to inf in
  // f16 (beyond 65504), and f32 output keeps it.
  Tensor x(AMP_DTYPE_F16, {100000});
  for (int64_t i = 0; i < x.size(); ++i)
    x.set(i, 1.0);
  const int64_t axis = 0;
  Tensor y32(AMP_DTYPE_F32, {}), y16(AMP_DTYPE_F16, {});
  ASSERT_TRUE(
      isOk(amp_reduce(AMP_REDUCE_SUM, x.data(), y32.data(), x.dims(), 1, &axis,
                      1, AMP_DTYPE_F16, AMP_DTYPE_F32, nullptr)));
  EXPECT_EQ(y32.get(0), 100000.0);
  ASSERT_TRUE(
      isOk(amp_reduce(AMP_REDUCE_SUM, x.data(), y16.data(), x.dims(), 1, &axis,
                      1, AMP_DTYPE_F16, AMP_DTYPE_F16, nullptr)));
  EXPECT_TRUE(std::isinf(y16.get(0)));
  ASSERT_TRUE(
      isOk(amp_reduce(AMP_REDUCE_MEAN, x.data(), y16.data(), x.dims(), 1, &axis,
                      1, AMP_DTYPE_F16, AMP_DTYPE_F16, nullptr)));
  EXPECT_EQ(y16.get(0), 1.0); // no f16 intermediate
}

TEST(Reduce, MaxPropagatesNaNAndEmptyCases) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Tensor x(AMP_DTYPE_F32, {2, 3});
  const double v[] = {1, nan, 3, -1, -2, -0.5};
  for (int i = 0; i < 6; ++i)
    x.set(i, v[i]);
  const int64_t axis = 1;
  Tensor y(AMP_DTYPE_F32, {2});
  ASSERT_TRUE(
      isOk(amp_reduce(AMP_REDUCE_MAX, x.data(), y.data(), x.dims(), 2, &axis, 1,
                      AMP_DTYPE_F32, AMP_DTYPE_F32, nullptr)));
  EXPECT_TRUE(allEqual(y, {nan, -0.5}, "max"));

  Tensor empty(AMP_DTYPE_F32, {2, 0});
  EXPECT_TRUE(
      failsWith(amp_reduce(AMP_REDUCE_MAX, empty.data(), y.data(), empty.dims(),
                           2, &axis, 1, AMP_DTYPE_F32, AMP_DTYPE_F32, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "empty"));
  ASSERT_TRUE(
      isOk(amp_reduce(AMP_REDUCE_SUM, empty.data(), y.data(), empty.dims(), 2,
                      &axis, 1, AMP_DTYPE_F32, AMP_DTYPE_F32, nullptr)));
  EXPECT_TRUE(allEqual(y, {0.0, 0.0}, "empty sum"));
  ASSERT_TRUE(
      isOk(amp_reduce(AMP_REDUCE_MEAN, empty.data(), y.data(), empty.dims(), 2,
                      &axis, 1, AMP_DTYPE_F32, AMP_DTYPE_F32, nullptr)));
  EXPECT_TRUE(allEqual(y, {nan, nan}, "empty mean"));
}

TEST(Reduce, RejectsBadAxesAndDtypes) {
  Tensor x(AMP_DTYPE_F16, {2, 3}), y(AMP_DTYPE_F32, {2});
  const int64_t dup[] = {1, -1}, out[] = {2};
  EXPECT_TRUE(
      failsWith(amp_reduce(AMP_REDUCE_SUM, x.data(), y.data(), x.dims(), 2, dup,
                           2, AMP_DTYPE_F16, AMP_DTYPE_F32, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "more than once"));
  EXPECT_TRUE(
      failsWith(amp_reduce(AMP_REDUCE_SUM, x.data(), y.data(), x.dims(), 2, out,
                           1, AMP_DTYPE_F16, AMP_DTYPE_F32, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "out of range"));
  EXPECT_TRUE(
      failsWith(amp_reduce(AMP_REDUCE_SUM, x.data(), y.data(), x.dims(), 2, dup,
                           1, AMP_DTYPE_F16, AMP_DTYPE_BF16, nullptr),
                AMP_STATUS_NOT_SUPPORTED, "y_dtype is bf16"));
  EXPECT_TRUE(
      failsWith(amp_reduce(AMP_REDUCE_SUM, x.data(), y.data(), x.dims(), 2,
                           nullptr, 1, AMP_DTYPE_F16, AMP_DTYPE_F32, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "axes is NULL"));
}

//===----------------------------------------------------------------------===//
// reduce_max_grad
//===----------------------------------------------------------------------===//

class ReduceMaxGradTest
    : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(ReduceMaxGradTest, SplitsDyAmongTheMaxima) {
  const auto [xDtype, yDtype] = accumulatorPairs()[std::get<0>(GetParam())];
  const Shape axes = reduceAxes()[std::get<1>(GetParam())];
  const Shape shape = {3, 5, 7, 4};
  std::mt19937 rng(13 * std::get<1>(GetParam()) + std::get<0>(GetParam()));
  // Small integers: most slices have several maxima.
  Tensor x(xDtype, shape);
  for (int64_t i = 0; i < x.size(); ++i)
    x.set(i, static_cast<double>(rng() % 4) - 1.0);
  const Reduced reduction(shape, axes);
  const Shape &outShape = reduction.out;
  const int32_t nAxes = static_cast<int32_t>(axes.size());
  Tensor y(yDtype, outShape);
  ASSERT_TRUE(isOk(amp_reduce(AMP_REDUCE_MAX, x.data(), y.data(), x.dims(), 4,
                              axes.data(), nAxes, xDtype, yDtype, nullptr)));
  Tensor dy = randomTensor(yDtype, outShape, rng, -3, 3);
  Tensor dx = sentinelTensor(xDtype, shape);
  ASSERT_TRUE(isOk(amp_reduce_max_grad(dy.data(), x.data(), y.data(), dx.data(),
                                       x.dims(), 4, axes.data(), nAxes, xDtype,
                                       yDtype, nullptr)));
  std::vector<int64_t> hits(static_cast<size_t>(y.size()), 0);
  for (int64_t i = 0; i < x.size(); ++i)
    hits[reduction.outIndex(i)] += x.get(i) == y.get(reduction.outIndex(i));
  std::vector<double> ref, tol;
  for (int64_t i = 0; i < x.size(); ++i) {
    const int64_t o = reduction.outIndex(i);
    const double r = x.get(i) == y.get(o) ? dy.get(o) / hits[o] : 0.0;
    ref.push_back(r);
    tol.push_back(outTol(xDtype, r, kU * std::fabs(r)));
  }
  EXPECT_TRUE(allClose(dx, ref, tol, "reduce_max_grad"));
}

INSTANTIATE_TEST_SUITE_P(AllAxes, ReduceMaxGradTest,
                         ::testing::Combine(::testing::Range(0, 5),
                                            ::testing::Range(0, 7)),
                         [](const auto &info) {
                           const auto dtypes =
                               accumulatorPairs()[std::get<0>(info.param)];
                           return std::string(dtypeName(dtypes.first)) +
                                  "_to_" + dtypeName(dtypes.second) + "_axes" +
                                  std::to_string(std::get<1>(info.param));
                         });

TEST(ReduceMaxGrad, MatchesFiniteDifferencesOfTheMax) {
  std::mt19937 rng(17);
  const Shape shape = {4, 6, 5};
  Tensor x(AMP_DTYPE_F32, shape);
  std::vector<int64_t> order(static_cast<size_t>(x.size()));
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = static_cast<int64_t>(i);
  std::shuffle(order.begin(), order.end(), rng);
  for (int64_t i = 0; i < x.size(); ++i)
    x.set(i, order[i] / 8.0); // distinct: no step changes an argmax
  const int64_t axes[] = {0, 2};
  Tensor y(AMP_DTYPE_F32, {6}), dy = randomTensor(AMP_DTYPE_F32, {6}, rng);
  auto forward = [&](const Tensor &in) {
    Tensor out(AMP_DTYPE_F32, {6});
    EXPECT_TRUE(
        isOk(amp_reduce(AMP_REDUCE_MAX, in.data(), out.data(), in.dims(), 3,
                        axes, 2, AMP_DTYPE_F32, AMP_DTYPE_F32, nullptr)));
    return out.values();
  };
  const std::vector<double> fd =
      finiteDifferenceGrad(x, dy.values(), 1.0 / 64, forward);
  ASSERT_TRUE(isOk(amp_reduce(AMP_REDUCE_MAX, x.data(), y.data(), x.dims(), 3,
                              axes, 2, AMP_DTYPE_F32, AMP_DTYPE_F32, nullptr)));
  Tensor dx(AMP_DTYPE_F32, shape);
  ASSERT_TRUE(isOk(amp_reduce_max_grad(dy.data(), x.data(), y.data(), dx.data(),
                                       x.dims(), 3, axes, 2, AMP_DTYPE_F32,
                                       AMP_DTYPE_F32, nullptr)));
  EXPECT_TRUE(allClose(dx, fd, std::vector<double>(fd.size(), 1e-6),
                       "reduce_max_grad"));
}

TEST(ReduceMaxGrad, NaNSlicesAndEmptyAndErrors) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Tensor x(AMP_DTYPE_F16, {2, 3});
  const double xs[] = {1, nan, 1, 2, -0.0, 0.0};
  for (int i = 0; i < 6; ++i)
    x.set(i, xs[i]);
  const int64_t axis = 1;
  Tensor y(AMP_DTYPE_F16, {2}), dy(AMP_DTYPE_F16, {2}),
      dx(AMP_DTYPE_F16, {2, 3});
  ASSERT_TRUE(
      isOk(amp_reduce(AMP_REDUCE_MAX, x.data(), y.data(), x.dims(), 2, &axis, 1,
                      AMP_DTYPE_F16, AMP_DTYPE_F16, nullptr)));
  dy.set(0, 3.0);
  dy.set(1, 3.0);
  ASSERT_TRUE(isOk(amp_reduce_max_grad(dy.data(), x.data(), y.data(), dx.data(),
                                       x.dims(), 2, &axis, 1, AMP_DTYPE_F16,
                                       AMP_DTYPE_F16, nullptr)));
  // A NaN max equals nothing: NaN throughout, as PyTorch's mask * (dy / 0).
  EXPECT_TRUE(allEqual(dx, {nan, nan, nan, 3.0, 0.0, 0.0}, "reduce_max_grad"));
  // -0 and +0 both equal a max of 0: they split dy.
  x.set(3, -1.0);
  ASSERT_TRUE(
      isOk(amp_reduce(AMP_REDUCE_MAX, x.data(), y.data(), x.dims(), 2, &axis, 1,
                      AMP_DTYPE_F16, AMP_DTYPE_F16, nullptr)));
  ASSERT_TRUE(isOk(amp_reduce_max_grad(dy.data(), x.data(), y.data(), dx.data(),
                                       x.dims(), 2, &axis, 1, AMP_DTYPE_F16,
                                       AMP_DTYPE_F16, nullptr)));
  EXPECT_TRUE(allEqual(dx, {nan, nan, nan, 0.0, 1.5, 1.5}, "signed zeros"));

  const int64_t empty[] = {2, 0};
  EXPECT_TRUE(isOk(amp_reduce_max_grad(dy.data(), nullptr, y.data(), nullptr,
                                       empty, 2, &axis, 1, AMP_DTYPE_F16,
                                       AMP_DTYPE_F16, nullptr)));
  EXPECT_TRUE(failsWith(
      amp_reduce_max_grad(dy.data(), x.data(), y.data(), x.data(), x.dims(), 2,
                          &axis, 1, AMP_DTYPE_F16, AMP_DTYPE_F16, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "amp_reduce_max_grad: dx aliases an input"));
  EXPECT_TRUE(failsWith(
      amp_reduce_max_grad(dy.data(), x.data(), y.data(), dx.data(), x.dims(), 2,
                          &axis, 1, AMP_DTYPE_F16, AMP_DTYPE_BF16, nullptr),
      AMP_STATUS_NOT_SUPPORTED, "y_dtype is bf16"));
  const int64_t twice[] = {1, -1};
  EXPECT_TRUE(failsWith(
      amp_reduce_max_grad(dy.data(), x.data(), y.data(), dx.data(), x.dims(), 2,
                          twice, 2, AMP_DTYPE_F16, AMP_DTYPE_F16, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "more than once"));
  EXPECT_TRUE(failsWith(
      amp_reduce_max_grad(nullptr, x.data(), y.data(), dx.data(), x.dims(), 2,
                          &axis, 1, AMP_DTYPE_F16, AMP_DTYPE_F16, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "dy is NULL"));
}

} // namespace
