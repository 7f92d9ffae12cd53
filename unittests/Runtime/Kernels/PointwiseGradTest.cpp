//===- PointwiseGradTest.cpp - pow, clamp and the same-shape gradients ----===//
//
// amp_pow, amp_clamp and the gradients amp_tanh_grad, amp_sigmoid_grad,
// amp_sqrt_grad, amp_rsqrt_grad (from the forward output), amp_abs_grad,
// amp_pow_grad and amp_clamp_grad against f64 formulas in every dtype, and
// in f32 against central finite differences of the forward kernels.
//
// Tolerances (err32 of KernelTestUtil.h, r the f64 result): clamp,
// clamp_grad, abs_grad: exact. pow: 2u|r| (glibc's powf is within 1 ulp);
// pow_grad: 4u|r|; tanh_grad: 4u|dy| (y^2 + |1 - y^2|) + u|r| (the
// cancellation in 1 - y*y); sigmoid_grad: 4u|r|; sqrt_grad: 2u|r|;
// rsqrt_grad: 4u|r|. Finite differences (f32, step h = 2^-10, away from
// kinks): within 1e-3 (|dy| + |r|), far above their truncation and rounding
// errors (below 1e-4 on these ranges) and far below any wrong formula.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

using namespace amp::test;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kStep = 1.0 / 1024;

using GradKernel = amp_status_t (*)(const void *, const void *, void *, int64_t,
                                    amp_dtype_t, void *);

/// A gradient from the forward output: y = f(x), dx = dy * f'(x) expressed
/// through y.
struct OutputGrad {
  const char *name;
  GradKernel kernel;
  amp_unary_op_t forward;
  double lo, hi; // range of x
  std::function<double(double)> f;
  std::function<double(double, double)> grad;        // (dy, y) -> dx
  std::function<double(double, double, double)> err; // (dy, y, r) -> err32
};

std::vector<OutputGrad> outputGrads() {
  auto rel = [](double k) {
    return [k](double, double, double r) { return k * kU * std::fabs(r); };
  };
  return {
      {"tanh", amp_tanh_grad, AMP_UNARY_TANH, -3, 3,
       [](double x) { return std::tanh(x); },
       [](double g, double y) { return g * (1 - y * y); },
       [](double g, double y, double r) {
         return 4 * kU * std::fabs(g) * (y * y + std::fabs(1 - y * y)) +
                kU * std::fabs(r);
       }},
      {"sigmoid", amp_sigmoid_grad, AMP_UNARY_SIGMOID, -6, 6,
       [](double x) { return 1 / (1 + std::exp(-x)); },
       [](double g, double y) { return g * y * (1 - y); }, rel(4)},
      {"sqrt", amp_sqrt_grad, AMP_UNARY_SQRT, 0.25, 9,
       [](double x) { return std::sqrt(x); },
       [](double g, double y) { return g / (2 * y); }, rel(2)},
      {"rsqrt", amp_rsqrt_grad, AMP_UNARY_RSQRT, 0.25, 9,
       [](double x) { return 1 / std::sqrt(x); },
       [](double g, double y) { return -0.5 * g * y * y * y; }, rel(4)},
  };
}

class OutputGradTest
    : public ::testing::TestWithParam<std::tuple<int, amp_dtype_t>> {};

TEST_P(OutputGradTest, MatchesF64) {
  const OutputGrad info = outputGrads()[std::get<0>(GetParam())];
  const amp_dtype_t dtype = std::get<1>(GetParam());
  std::mt19937 rng(31 + std::get<0>(GetParam()));
  // y is what the forward stores: f(x) rounded to the dtype.
  Tensor y(dtype, {1003});
  std::uniform_real_distribution<double> dist(info.lo, info.hi);
  for (int64_t i = 0; i < y.size(); ++i)
    y.set(i, info.f(dist(rng)));
  Tensor dy = randomTensor(dtype, {1003}, rng, -2, 2);
  Tensor dx = sentinelTensor(dtype, {1003});
  ASSERT_TRUE(isOk(
      info.kernel(dy.data(), y.data(), dx.data(), y.size(), dtype, nullptr)));
  std::vector<double> ref, tol;
  for (int64_t i = 0; i < y.size(); ++i) {
    const double g = dy.get(i), v = y.get(i), r = info.grad(g, v);
    ref.push_back(r);
    tol.push_back(outTol(dtype, r, info.err(g, v, r)));
  }
  EXPECT_TRUE(allClose(dx, ref, tol, info.name));
  // In place over dy and over y.
  Tensor overDy = dy, overY = y;
  ASSERT_TRUE(isOk(info.kernel(overDy.data(), y.data(), overDy.data(), y.size(),
                               dtype, nullptr)));
  ASSERT_TRUE(isOk(info.kernel(dy.data(), overY.data(), overY.data(), y.size(),
                               dtype, nullptr)));
  EXPECT_TRUE(overDy.sameBits(dx));
  EXPECT_TRUE(overY.sameBits(dx));
}

INSTANTIATE_TEST_SUITE_P(
    AllOps, OutputGradTest,
    ::testing::Combine(::testing::Range(0, 4),
                       ::testing::Values(AMP_DTYPE_F32, AMP_DTYPE_F16,
                                         AMP_DTYPE_BF16)),
    [](const auto &info) {
      return std::string(outputGrads()[std::get<0>(info.param)].name) + "_" +
             dtypeName(std::get<1>(info.param));
    });

TEST(OutputGrad, MatchesFiniteDifferencesOfTheForwardKernels) {
  for (const OutputGrad &info : outputGrads()) {
    std::mt19937 rng(41);
    Tensor x = randomTensor(AMP_DTYPE_F32, {101}, rng, info.lo, info.hi);
    Tensor dy = randomTensor(AMP_DTYPE_F32, {101}, rng, -1, 1);
    auto forward = [&](const Tensor &in) {
      Tensor out(AMP_DTYPE_F32, in.shape());
      EXPECT_TRUE(isOk(amp_unary(info.forward, in.data(), out.data(), in.size(),
                                 AMP_DTYPE_F32, nullptr)));
      return out.values();
    };
    const std::vector<double> fd =
        finiteDifferenceGrad(x, dy.values(), kStep, forward);
    Tensor y(AMP_DTYPE_F32, x.shape()), dx(AMP_DTYPE_F32, x.shape());
    ASSERT_TRUE(isOk(amp_unary(info.forward, x.data(), y.data(), x.size(),
                               AMP_DTYPE_F32, nullptr)));
    ASSERT_TRUE(isOk(info.kernel(dy.data(), y.data(), dx.data(), x.size(),
                                 AMP_DTYPE_F32, nullptr)));
    std::vector<double> tol;
    for (int64_t i = 0; i < x.size(); ++i)
      tol.push_back(1e-3 * (std::fabs(dy.get(i)) + std::fabs(fd[i])));
    EXPECT_TRUE(allClose(dx, fd, tol, info.name));
  }
}

//===----------------------------------------------------------------------===//
// pow
//===----------------------------------------------------------------------===//

/// Exponents with the x range each is tested on (negative x only for
/// integers, where powf is real).
const std::vector<std::pair<float, std::pair<double, double>>> &powCases() {
  static const std::vector<std::pair<float, std::pair<double, double>>> cases =
      {{2.0f, {-3, 3}},    {3.0f, {-2, 2}},   {0.5f, {0.01, 9}},
       {-1.5f, {0.25, 4}}, {-2.0f, {0.5, 4}}, {1.0f, {-4, 4}},
       {0.0f, {-4, 4}},    {2.7f, {0.1, 3}}};
  return cases;
}

class PowTest : public ::testing::TestWithParam<std::tuple<int, amp_dtype_t>> {
};

TEST_P(PowTest, ForwardAndGradMatchF64) {
  const auto [e, range] = powCases()[std::get<0>(GetParam())];
  const amp_dtype_t dtype = std::get<1>(GetParam());
  std::mt19937 rng(51 + std::get<0>(GetParam()));
  Tensor x = randomTensor(dtype, {777}, rng, range.first, range.second);
  Tensor dy = randomTensor(dtype, {777}, rng, -2, 2);
  Tensor y = sentinelTensor(dtype, x.shape());
  ASSERT_TRUE(isOk(amp_pow(x.data(), y.data(), x.size(), dtype, e, nullptr)));
  Tensor dx = sentinelTensor(dtype, x.shape());
  ASSERT_TRUE(isOk(amp_pow_grad(dy.data(), x.data(), dx.data(), x.size(), dtype,
                                e, nullptr)));
  std::vector<double> ref, tol, gref, gtol;
  for (int64_t i = 0; i < x.size(); ++i) {
    const double v = x.get(i), r = std::pow(v, e);
    ref.push_back(r);
    tol.push_back(outTol(dtype, r, 2 * kU * std::fabs(r)));
    const double g = e == 0 ? 0.0 : dy.get(i) * e * std::pow(v, e - 1.0);
    gref.push_back(g);
    gtol.push_back(outTol(dtype, g, 4 * kU * std::fabs(g)));
  }
  EXPECT_TRUE(allClose(y, ref, tol, "pow"));
  EXPECT_TRUE(allClose(dx, gref, gtol, "pow_grad"));
}

INSTANTIATE_TEST_SUITE_P(Exponents, PowTest,
                         ::testing::Combine(::testing::Range(0, 8),
                                            ::testing::Values(AMP_DTYPE_F32,
                                                              AMP_DTYPE_F16,
                                                              AMP_DTYPE_BF16)),
                         CaseAndDtypeName());

TEST(Pow, GradMatchesFiniteDifferences) {
  std::mt19937 rng(61);
  for (float e : {2.0f, 3.0f, 0.5f, -1.5f, 2.7f}) {
    Tensor x = randomTensor(AMP_DTYPE_F32, {64}, rng, 0.5, 3);
    Tensor dy = randomTensor(AMP_DTYPE_F32, {64}, rng, -1, 1);
    auto forward = [&](const Tensor &in) {
      Tensor out(AMP_DTYPE_F32, in.shape());
      EXPECT_TRUE(isOk(amp_pow(in.data(), out.data(), in.size(), AMP_DTYPE_F32,
                               e, nullptr)));
      return out.values();
    };
    const std::vector<double> fd =
        finiteDifferenceGrad(x, dy.values(), kStep, forward);
    Tensor dx(AMP_DTYPE_F32, x.shape());
    ASSERT_TRUE(isOk(amp_pow_grad(dy.data(), x.data(), dx.data(), x.size(),
                                  AMP_DTYPE_F32, e, nullptr)));
    std::vector<double> tol;
    for (int64_t i = 0; i < x.size(); ++i)
      tol.push_back(1e-3 * (std::fabs(dy.get(i)) + std::fabs(fd[i])));
    EXPECT_TRUE(allClose(dx, fd, tol, "pow_grad e=" + std::to_string(e)));
  }
}

TEST(Pow, ZeroExponentHasAZeroGradientEverywhere) {
  Tensor x(AMP_DTYPE_F32, {4}), dy(AMP_DTYPE_F32, {4}), dx(AMP_DTYPE_F32, {4});
  const double xs[] = {0.0, kInf, kNaN, -2.0}, gs[] = {kInf, kNaN, 1.0, -3.0};
  for (int i = 0; i < 4; ++i) {
    x.set(i, xs[i]);
    dy.set(i, gs[i]);
  }
  ASSERT_TRUE(isOk(amp_pow_grad(dy.data(), x.data(), dx.data(), 4,
                                AMP_DTYPE_F32, 0.0f, nullptr)));
  EXPECT_TRUE(allEqual(dx, {0, 0, 0, 0}, "pow_grad e=0"));
  ASSERT_TRUE(
      isOk(amp_pow(x.data(), dx.data(), 4, AMP_DTYPE_F32, 0.0f, nullptr)));
  EXPECT_TRUE(allEqual(dx, {1, 1, 1, 1}, "powf(x, 0) = 1, NaN included"));
}

//===----------------------------------------------------------------------===//
// clamp and abs
//===----------------------------------------------------------------------===//

class ClampTest : public ::testing::TestWithParam<amp_dtype_t> {};

TEST_P(ClampTest, ForwardAndGradAreExact) {
  const amp_dtype_t dtype = GetParam();
  // Two-sided, one-sided (a missing bound is an infinity), a point, and a
  // bound that f16/bf16 cannot represent.
  const std::pair<float, float> bounds[] = {{-0.5f, 0.5f},
                                            {-INFINITY, 0.25f},
                                            {-0.3f, INFINITY},
                                            {0.1f, 0.1f},
                                            {-1.0f, 0.7f}};
  std::mt19937 rng(71);
  for (const auto &[lo, hi] : bounds) {
    Tensor x = randomTensor(dtype, {301}, rng, -1.5, 1.5);
    x.set(0, lo); // on the bounds: inside for the gradient
    x.set(1, hi);
    x.set(2, kNaN);
    x.set(3, kInf);
    x.set(4, -kInf);
    Tensor dy = randomTensor(dtype, {301}, rng, -2, 2);
    Tensor y = sentinelTensor(dtype, x.shape());
    Tensor dx = sentinelTensor(dtype, x.shape());
    ASSERT_TRUE(
        isOk(amp_clamp(x.data(), y.data(), x.size(), dtype, lo, hi, nullptr)));
    ASSERT_TRUE(isOk(amp_clamp_grad(dy.data(), x.data(), dx.data(), x.size(),
                                    dtype, lo, hi, nullptr)));
    std::vector<double> ref, gref;
    for (int64_t i = 0; i < x.size(); ++i) {
      const double v = x.get(i);
      // The comparison is against the f32 bound; the stored bound rounds.
      ref.push_back(std::isnan(v) ? v
                    : v < lo      ? roundTo(dtype, lo)
                    : v > hi      ? roundTo(dtype, hi)
                                  : v);
      gref.push_back(lo <= v && v <= hi ? dy.get(i) : 0.0);
    }
    const std::string what = "clamp [" + std::to_string(lo) + ", " +
                             std::to_string(hi) + "] " + dtypeName(dtype);
    EXPECT_TRUE(allEqual(y, ref, what));
    EXPECT_TRUE(allEqual(dx, gref, what + " grad"));
  }
}

TEST_P(ClampTest, AbsGradIsDyTimesSign) {
  const amp_dtype_t dtype = GetParam();
  std::mt19937 rng(81);
  Tensor x = randomTensor(dtype, {257}, rng, -3, 3);
  x.set(0, 0.0);
  x.set(1, -0.0);
  x.set(2, kNaN);
  x.set(3, -kInf);
  Tensor dy = randomTensor(dtype, {257}, rng, -2, 2);
  dy.set(3, 5.0);
  Tensor dx = sentinelTensor(dtype, x.shape());
  ASSERT_TRUE(isOk(
      amp_abs_grad(dy.data(), x.data(), dx.data(), x.size(), dtype, nullptr)));
  std::vector<double> ref;
  for (int64_t i = 0; i < x.size(); ++i) {
    const double v = x.get(i);
    ref.push_back(std::isnan(v) ? kNaN
                  : v > 0       ? dy.get(i)
                  : v < 0       ? -dy.get(i)
                                : 0.0);
  }
  EXPECT_TRUE(allEqual(dx, ref, std::string("abs_grad ") + dtypeName(dtype)));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, ClampTest,
                         ::testing::Values(AMP_DTYPE_F32, AMP_DTYPE_F16,
                                           AMP_DTYPE_BF16),
                         [](const auto &info) {
                           return std::string(dtypeName(info.param));
                         });

TEST(Clamp, GradsMatchFiniteDifferencesAwayFromKinks) {
  std::mt19937 rng(91);
  Tensor x = randomTensor(AMP_DTYPE_F32, {200}, rng, -2, 2);
  // Keep every x at least 2h from the kinks (0 for abs, the bounds).
  for (int64_t i = 0; i < x.size(); ++i)
    for (double kink : {0.0, -0.75, 1.25})
      if (std::fabs(x.get(i) - kink) < 4 * kStep)
        x.set(i, kink + 8 * kStep);
  Tensor dy = randomTensor(AMP_DTYPE_F32, {200}, rng, -1, 1);
  const float lo = -0.75f, hi = 1.25f;
  auto run = [&](auto forward, auto grad, const char *what) {
    const std::vector<double> fd =
        finiteDifferenceGrad(x, dy.values(), kStep, [&](const Tensor &in) {
          Tensor out(AMP_DTYPE_F32, in.shape());
          EXPECT_TRUE(isOk(forward(in, out)));
          return out.values();
        });
    Tensor dx(AMP_DTYPE_F32, x.shape());
    ASSERT_TRUE(isOk(grad(dx)));
    std::vector<double> tol;
    for (int64_t i = 0; i < x.size(); ++i)
      tol.push_back(1e-3 * (std::fabs(dy.get(i)) + std::fabs(fd[i])));
    EXPECT_TRUE(allClose(dx, fd, tol, what));
  };
  run(
      [&](const Tensor &in, Tensor &out) {
        return amp_clamp(in.data(), out.data(), in.size(), AMP_DTYPE_F32, lo,
                         hi, nullptr);
      },
      [&](Tensor &dx) {
        return amp_clamp_grad(dy.data(), x.data(), dx.data(), x.size(),
                              AMP_DTYPE_F32, lo, hi, nullptr);
      },
      "clamp_grad");
  run(
      [&](const Tensor &in, Tensor &out) {
        return amp_unary(AMP_UNARY_ABS, in.data(), out.data(), in.size(),
                         AMP_DTYPE_F32, nullptr);
      },
      [&](Tensor &dx) {
        return amp_abs_grad(dy.data(), x.data(), dx.data(), x.size(),
                            AMP_DTYPE_F32, nullptr);
      },
      "abs_grad");
}

TEST(Clamp, RejectsBadBoundsAndWritesNothing) {
  Tensor x(AMP_DTYPE_F32, {3});
  Tensor y = sentinelTensor(AMP_DTYPE_F32, {3});
  const Tensor before = y;
  EXPECT_TRUE(failsWith(
      amp_clamp(x.data(), y.data(), 3, AMP_DTYPE_F32, 1.0f, 0.5f, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "amp_clamp: min (1) must be <= max (0.5)"));
  EXPECT_TRUE(failsWith(
      amp_clamp(x.data(), y.data(), 3, AMP_DTYPE_F32, NAN, 1.0f, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "neither NaN"));
  EXPECT_TRUE(failsWith(amp_clamp_grad(x.data(), x.data(), y.data(), 3,
                                       AMP_DTYPE_F32, 0.0f, NAN, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "amp_clamp_grad: min"));
  EXPECT_TRUE(y.sameBits(before));
}

} // namespace
