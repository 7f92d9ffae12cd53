//===- SelectTest.cpp - where and the maximum/minimum/where gradients -----===//
//
// amp_where (every dtype), amp_where_grad, amp_maximum_grad and
// amp_minimum_grad against the naive numpy index mapping, with broadcasting
// of every operand, ties, NaN and +-0, in-place calls and the argument
// checks; the gradients also against central finite differences of the
// forward kernels (amp_where, amp_binary's max and min) in f32.
//
// Tolerances: all exact (every output is dy, 0, a selected operand or the
// f32 product dy * 0.5 rounded once). Finite differences: the kernels are
// piecewise linear and the operands are kept 2h from ties, so the quotient
// is exact up to the f32 rounding of the perturbed outputs: 1e-4 (|dy| +
// |r|).
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

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Tensor randomBool(const Shape &shape, std::mt19937 &rng) {
  Tensor t(AMP_DTYPE_BOOL, shape);
  for (int64_t i = 0; i < t.size(); ++i)
    t.set(i, rng() & 1);
  return t;
}

struct WhereCase {
  Shape cond, lhs, rhs, out;
};

std::vector<WhereCase> whereCases() {
  return {{{5, 7, 3}, {5, 7, 3}, {5, 7, 3}, {5, 7, 3}},
          {{7, 1}, {5, 7, 3}, {3}, {5, 7, 3}},
          {{}, {4, 1}, {1, 6}, {4, 6}},
          {{2, 1, 4}, {1, 3, 1}, {4}, {2, 3, 4}},
          {{3}, {}, {}, {3}},
          {{}, {}, {}, {}},
          {{0, 3}, {3}, {1}, {0, 3}}};
}

class WhereTest
    : public ::testing::TestWithParam<std::tuple<amp_dtype_t, int>> {};

TEST_P(WhereTest, SelectsWithNumpyBroadcasting) {
  const amp_dtype_t dtype = std::get<0>(GetParam());
  const WhereCase c = whereCases()[std::get<1>(GetParam())];
  std::mt19937 rng(7 + std::get<1>(GetParam()));
  Tensor cond = randomBool(c.cond, rng);
  Tensor lhs(dtype, c.lhs), rhs(dtype, c.rhs);
  for (int64_t i = 0; i < lhs.size(); ++i)
    lhs.set(i, dtype == AMP_DTYPE_BOOL ? 1 : 1 + i);
  for (int64_t i = 0; i < rhs.size(); ++i)
    rhs.set(i, dtype == AMP_DTYPE_BOOL ? 0 : -1 - i);
  Tensor out = sentinelTensor(dtype, c.out);
  ASSERT_TRUE(isOk(amp_where(cond.data(), lhs.data(), rhs.data(), out.data(),
                             cond.dims(), cond.rank(), lhs.dims(), lhs.rank(),
                             rhs.dims(), rhs.rank(), out.dims(), out.rank(),
                             dtype, nullptr)));
  std::vector<double> ref;
  for (int64_t i = 0; i < out.size(); ++i)
    ref.push_back(cond.get(broadcastSource(i, c.out, c.cond))
                      ? lhs.get(broadcastSource(i, c.out, c.lhs))
                      : rhs.get(broadcastSource(i, c.out, c.rhs)));
  EXPECT_TRUE(allEqual(out, ref, "where " + shapeName(c.out)));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, WhereTest,
    ::testing::Combine(::testing::Values(AMP_DTYPE_F32, AMP_DTYPE_F16,
                                         AMP_DTYPE_BF16, AMP_DTYPE_I32,
                                         AMP_DTYPE_BOOL),
                       ::testing::Range(0, 7)),
    [](const auto &info) {
      return std::string(dtypeName(std::get<0>(info.param))) + "_case" +
             std::to_string(std::get<1>(info.param));
    });

/// Gradients are float: amp_where_grad rejects the other dtypes.
class WhereGradTest : public WhereTest {};

TEST_P(WhereGradTest, RoutesDyByCond) {
  const amp_dtype_t dtype = std::get<0>(GetParam());
  const WhereCase c = whereCases()[std::get<1>(GetParam())];
  std::mt19937 rng(17 + std::get<1>(GetParam()));
  Tensor cond = randomBool(c.cond, rng);
  Tensor dy = randomTensor(dtype, c.out, rng, -3, 3);
  Tensor dlhs = sentinelTensor(dtype, c.out),
         drhs = sentinelTensor(dtype, c.out);
  ASSERT_TRUE(isOk(amp_where_grad(dy.data(), cond.data(), dlhs.data(),
                                  drhs.data(), dy.dims(), dy.rank(),
                                  cond.dims(), cond.rank(), dtype, nullptr)));
  std::vector<double> refL, refR;
  for (int64_t i = 0; i < dy.size(); ++i) {
    const bool take = cond.get(broadcastSource(i, c.out, c.cond)) != 0;
    refL.push_back(take ? dy.get(i) : 0.0);
    refR.push_back(take ? 0.0 : dy.get(i));
  }
  EXPECT_TRUE(allEqual(dlhs, refL, "where_grad dlhs"));
  EXPECT_TRUE(allEqual(drhs, refR, "where_grad drhs"));
  // In place over dy.
  Tensor inPlace = dy;
  ASSERT_TRUE(isOk(amp_where_grad(inPlace.data(), cond.data(), inPlace.data(),
                                  drhs.data(), dy.dims(), dy.rank(),
                                  cond.dims(), cond.rank(), dtype, nullptr)));
  EXPECT_TRUE(inPlace.sameBits(dlhs));
  EXPECT_TRUE(allEqual(drhs, refR, "where_grad drhs, dlhs in place"));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, WhereGradTest,
    ::testing::Combine(::testing::Values(AMP_DTYPE_F32, AMP_DTYPE_F16,
                                         AMP_DTYPE_BF16),
                       ::testing::Range(0, 7)),
    [](const auto &info) {
      return std::string(dtypeName(std::get<0>(info.param))) + "_case" +
             std::to_string(std::get<1>(info.param));
    });

TEST(Where, NonzeroCondBytesAreTrue) {
  Tensor cond(AMP_DTYPE_BOOL, {3});
  cond.setBits(0, 0);
  cond.setBits(1, 1);
  cond.setBits(2, 0xff);
  Tensor lhs(AMP_DTYPE_F32, {3}), rhs(AMP_DTYPE_F32, {3}),
      out(AMP_DTYPE_F32, {3});
  for (int i = 0; i < 3; ++i) {
    lhs.set(i, 1);
    rhs.set(i, 2);
  }
  ASSERT_TRUE(isOk(amp_where(cond.data(), lhs.data(), rhs.data(), out.data(),
                             cond.dims(), 1, lhs.dims(), 1, rhs.dims(), 1,
                             out.dims(), 1, AMP_DTYPE_F32, nullptr)));
  EXPECT_TRUE(allEqual(out, {2, 1, 1}, "where"));
}

//===----------------------------------------------------------------------===//
// maximum_grad, minimum_grad
//===----------------------------------------------------------------------===//

struct ExtremumCase {
  Shape lhs, rhs, dy;
};

std::vector<ExtremumCase> extremumCases() {
  return {{{4, 5}, {4, 5}, {4, 5}},
          {{5, 1, 3}, {4, 1}, {5, 4, 3}},
          {{}, {6}, {6}},
          {{2, 3}, {}, {2, 3}},
          {{3, 1}, {1, 4}, {2, 3, 4}}, // dy of higher rank than both
          {{0, 2}, {2}, {0, 2}}};
}

/// The PyTorch rule in f64; the halves are rounded as the kernel stores.
void extremumRef(bool isMax, amp_dtype_t dtype, double g, double a, double b,
                 double *ga, double *gb) {
  if (a == b) {
    *ga = *gb = roundViaF32(dtype, g * 0.5);
    return;
  }
  *ga = (isMax ? a < b : a > b) ? 0.0 : g;
  *gb = (isMax ? a > b : a < b) ? 0.0 : g;
}

class ExtremumGradTest
    : public ::testing::TestWithParam<std::tuple<bool, amp_dtype_t, int>> {};

TEST_P(ExtremumGradTest, RoutesDyWithTiesSplit) {
  const bool isMax = std::get<0>(GetParam());
  const amp_dtype_t dtype = std::get<1>(GetParam());
  const ExtremumCase c = extremumCases()[std::get<2>(GetParam())];
  std::mt19937 rng(23 + std::get<2>(GetParam()));
  // Small integers: many ties.
  Tensor lhs(dtype, c.lhs), rhs(dtype, c.rhs);
  for (int64_t i = 0; i < lhs.size(); ++i)
    lhs.set(i, static_cast<double>(rng() % 4));
  for (int64_t i = 0; i < rhs.size(); ++i)
    rhs.set(i, static_cast<double>(rng() % 4));
  if (lhs.size() > 2) {
    lhs.set(0, kNaN);
    lhs.set(1, -0.0);
  }
  if (rhs.size() > 2)
    rhs.set(1, 0.0);
  Tensor dy = randomTensor(dtype, c.dy, rng, -3, 3);
  Tensor dlhs = sentinelTensor(dtype, c.dy), drhs = sentinelTensor(dtype, c.dy);
  auto kernel = isMax ? amp_maximum_grad : amp_minimum_grad;
  ASSERT_TRUE(isOk(kernel(dy.data(), lhs.data(), rhs.data(), dlhs.data(),
                          drhs.data(), dy.dims(), dy.rank(), lhs.dims(),
                          lhs.rank(), rhs.dims(), rhs.rank(), dtype, nullptr)));
  std::vector<double> refL, refR;
  for (int64_t i = 0; i < dy.size(); ++i) {
    double ga, gb;
    extremumRef(isMax, dtype, dy.get(i),
                lhs.get(broadcastSource(i, c.dy, c.lhs)),
                rhs.get(broadcastSource(i, c.dy, c.rhs)), &ga, &gb);
    refL.push_back(ga);
    refR.push_back(gb);
  }
  const std::string what = std::string(isMax ? "maximum" : "minimum") +
                           "_grad " + shapeName(c.dy) + " " + dtypeName(dtype);
  EXPECT_TRUE(allEqual(dlhs, refL, what + " dlhs"));
  EXPECT_TRUE(allEqual(drhs, refR, what + " drhs"));
  // drhs in place over dy.
  Tensor inPlace = dy;
  ASSERT_TRUE(isOk(kernel(inPlace.data(), lhs.data(), rhs.data(), dlhs.data(),
                          inPlace.data(), dy.dims(), dy.rank(), lhs.dims(),
                          lhs.rank(), rhs.dims(), rhs.rank(), dtype, nullptr)));
  EXPECT_TRUE(allEqual(inPlace, refR, what + " drhs in place"));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ExtremumGradTest,
    ::testing::Combine(::testing::Bool(),
                       ::testing::Values(AMP_DTYPE_F32, AMP_DTYPE_F16,
                                         AMP_DTYPE_BF16),
                       ::testing::Range(0, 6)),
    [](const auto &info) {
      return std::string(std::get<0>(info.param) ? "max" : "min") + "_" +
             dtypeName(std::get<1>(info.param)) + "_case" +
             std::to_string(std::get<2>(info.param));
    });

TEST(ExtremumGrad, NaNGivesDyToBothAndTiesSplitExactly) {
  Tensor a(AMP_DTYPE_F16, {4}), b(AMP_DTYPE_F16, {4}), dy(AMP_DTYPE_F16, {4});
  const double as[] = {kNaN, 1.0, 2.0, -0.0}, bs[] = {1.0, kNaN, 2.0, 0.0};
  const double gs[] = {3.0, 5.0, 0x1p-24, 6.0}; // the f16 minimum subnormal
  for (int i = 0; i < 4; ++i) {
    a.set(i, as[i]);
    b.set(i, bs[i]);
    dy.set(i, gs[i]);
  }
  Tensor da(AMP_DTYPE_F16, {4}), db(AMP_DTYPE_F16, {4});
  for (auto kernel : {amp_maximum_grad, amp_minimum_grad}) {
    ASSERT_TRUE(isOk(kernel(dy.data(), a.data(), b.data(), da.data(), db.data(),
                            dy.dims(), 1, a.dims(), 1, b.dims(), 1,
                            AMP_DTYPE_F16, nullptr)));
    // 2^-25 ties to even (0) in f16; -0 == +0 is a tie.
    EXPECT_TRUE(allEqual(da, {3.0, 5.0, 0.0, 3.0}, "dlhs"));
    EXPECT_TRUE(allEqual(db, {3.0, 5.0, 0.0, 3.0}, "drhs"));
  }
}

//===----------------------------------------------------------------------===//
// Finite differences
//===----------------------------------------------------------------------===//

/// The operand values k/8 for a random permutation: distinct by far more
/// than the step, so the perturbations never cross a tie.
Tensor spreadTensor(const Shape &shape, int64_t offset, std::mt19937 &rng) {
  Tensor t(AMP_DTYPE_F32, shape);
  std::vector<int64_t> order(static_cast<size_t>(t.size()));
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = 2 * static_cast<int64_t>(i) + offset;
  std::shuffle(order.begin(), order.end(), rng);
  for (int64_t i = 0; i < t.size(); ++i)
    t.set(i, order[i] / 8.0 - 4.0);
  return t;
}

TEST(SelectGrads, MatchFiniteDifferencesOfTheForwardKernels) {
  std::mt19937 rng(37);
  const Shape shape = {6, 7};
  const double h = 1.0 / 1024;
  Tensor a = spreadTensor(shape, 0, rng), b = spreadTensor(shape, 1, rng);
  Tensor dy = randomTensor(AMP_DTYPE_F32, shape, rng, -1, 1);
  Tensor cond = randomBool(shape, rng);
  auto check = [&](const char *what, const Tensor &grad,
                   const std::vector<double> &fd) {
    std::vector<double> tol;
    for (int64_t i = 0; i < grad.size(); ++i)
      tol.push_back(1e-4 * (std::fabs(dy.get(i)) + std::fabs(fd[i])));
    EXPECT_TRUE(allClose(grad, fd, tol, what));
  };
  for (amp_binary_op_t op : {AMP_BINARY_MAX, AMP_BINARY_MIN}) {
    Tensor da(AMP_DTYPE_F32, shape), db(AMP_DTYPE_F32, shape);
    auto kernel = op == AMP_BINARY_MAX ? amp_maximum_grad : amp_minimum_grad;
    ASSERT_TRUE(isOk(kernel(dy.data(), a.data(), b.data(), da.data(), db.data(),
                            dy.dims(), 2, a.dims(), 2, b.dims(), 2,
                            AMP_DTYPE_F32, nullptr)));
    auto forward = [&](const Tensor &lhs, const Tensor &rhs) {
      Tensor out(AMP_DTYPE_F32, shape);
      EXPECT_TRUE(isOk(amp_binary(op, lhs.data(), rhs.data(), out.data(),
                                  shape.data(), 2, shape.data(), 2,
                                  shape.data(), 2, AMP_DTYPE_F32, nullptr)));
      return out.values();
    };
    check("dlhs", da,
          finiteDifferenceGrad(a, dy.values(), h, [&](const Tensor &in) {
            return forward(in, b);
          }));
    check("drhs", db,
          finiteDifferenceGrad(b, dy.values(), h, [&](const Tensor &in) {
            return forward(a, in);
          }));
  }
  Tensor da(AMP_DTYPE_F32, shape), db(AMP_DTYPE_F32, shape);
  ASSERT_TRUE(isOk(amp_where_grad(dy.data(), cond.data(), da.data(), db.data(),
                                  shape.data(), 2, shape.data(), 2,
                                  AMP_DTYPE_F32, nullptr)));
  auto where = [&](const Tensor &lhs, const Tensor &rhs) {
    Tensor out(AMP_DTYPE_F32, shape);
    EXPECT_TRUE(isOk(amp_where(cond.data(), lhs.data(), rhs.data(), out.data(),
                               shape.data(), 2, shape.data(), 2, shape.data(),
                               2, shape.data(), 2, AMP_DTYPE_F32, nullptr)));
    return out.values();
  };
  check("where dlhs", da,
        finiteDifferenceGrad(a, dy.values(), h,
                             [&](const Tensor &in) { return where(in, b); }));
  check("where drhs", db,
        finiteDifferenceGrad(b, dy.values(), h,
                             [&](const Tensor &in) { return where(a, in); }));
}

//===----------------------------------------------------------------------===//
// Argument checks
//===----------------------------------------------------------------------===//

TEST(SelectErrors, ShapesAliasesAndDtypes) {
  Tensor cond(AMP_DTYPE_BOOL, {4, 5}), x(AMP_DTYPE_F32, {4, 5}),
      row(AMP_DTYPE_F32, {5}), out(AMP_DTYPE_F32, {4, 5}),
      y(AMP_DTYPE_F32, {4, 5});
  const Shape bad = {3}, wrongOut = {4, 6};
  EXPECT_TRUE(failsWith(
      amp_where(cond.data(), x.data(), row.data(), out.data(), cond.dims(), 2,
                x.dims(), 2, bad.data(), 1, out.dims(), 2, AMP_DTYPE_F32,
                nullptr),
      AMP_STATUS_INVALID_ARGUMENT,
      "amp_where: lhs and rhs do not broadcast: dimension 1 is 5 vs 3"));
  EXPECT_TRUE(failsWith(amp_where(cond.data(), x.data(), row.data(), out.data(),
                                  cond.dims(), 2, x.dims(), 2, row.dims(), 1,
                                  wrongOut.data(), 2, AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "out's shape is not the broadcast"));
  EXPECT_TRUE(failsWith(amp_where(cond.data(), x.data(), row.data(), row.data(),
                                  cond.dims(), 2, x.dims(), 2, row.dims(), 1,
                                  out.dims(), 2, AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "aliases"));
  EXPECT_TRUE(failsWith(amp_where(nullptr, x.data(), row.data(), out.data(),
                                  cond.dims(), 2, x.dims(), 2, row.dims(), 1,
                                  out.dims(), 2, AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "cond is NULL"));
  EXPECT_TRUE(failsWith(amp_where(cond.data(), x.data(), row.data(), out.data(),
                                  cond.dims(), 2, x.dims(), 2, row.dims(), 1,
                                  out.dims(), 2, badDtype(9), nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "unknown dtype 9"));

  EXPECT_TRUE(failsWith(amp_where_grad(x.data(), cond.data(), out.data(),
                                       y.data(), bad.data(), 1, cond.dims(), 2,
                                       AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "higher rank"));
  EXPECT_TRUE(failsWith(amp_where_grad(x.data(), cond.data(), out.data(),
                                       out.data(), x.dims(), 2, cond.dims(), 2,
                                       AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "dlhs and drhs alias"));
  EXPECT_TRUE(failsWith(amp_where_grad(x.data(), cond.data(), out.data(),
                                       y.data(), x.dims(), 2, cond.dims(), 2,
                                       AMP_DTYPE_I32, nullptr),
                        AMP_STATUS_NOT_SUPPORTED, "dtype is i32"));

  EXPECT_TRUE(failsWith(
      amp_maximum_grad(x.data(), x.data(), row.data(), out.data(), y.data(),
                       x.dims(), 2, x.dims(), 2, wrongOut.data(), 2,
                       AMP_DTYPE_F32, nullptr),
      AMP_STATUS_INVALID_ARGUMENT,
      "amp_maximum_grad: dimension 1 of rhs (6) is neither 1 nor dy's (5)"));
  EXPECT_TRUE(failsWith(
      amp_minimum_grad(x.data(), x.data(), row.data(), out.data(), row.data(),
                       x.dims(), 2, x.dims(), 2, row.dims(), 1, AMP_DTYPE_F32,
                       nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "aliases the broadcast operand rhs"));
  EXPECT_TRUE(
      failsWith(amp_minimum_grad(x.data(), x.data(), row.data(), nullptr,
                                 y.data(), x.dims(), 2, x.dims(), 2, row.dims(),
                                 1, AMP_DTYPE_F32, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "dlhs is NULL"));
}

} // namespace
