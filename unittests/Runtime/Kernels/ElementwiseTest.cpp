//===- ElementwiseTest.cpp - Unary, binary, cast and fill kernels ---------===//
//
// amp_unary, amp_relu_grad, amp_gelu_grad, amp_erf_grad, amp_binary, amp_cast,
// amp_fill and amp_scaled_grad_seed against f64 on odd sizes in every dtype.
//
// Tolerances (err32 of KernelTestUtil.h, x the stored input, r the f64
// result): neg, relu, abs, relu_grad, binary ops (max and min included;
// i32 and i64 wrap as uint64_t arithmetic does),
// cast, fill: exact. exp, log:
// 4u|r| (glibc's expf/logf are within 1 ulp); sqrt: 2u|r|; rsqrt: 4u|r|
// (two roundings); tanh: 8u|r| + 2^-149; sigmoid: 8u|r| (expf, one add, one
// divide); gelu: 8u|r| + 16u|x| (tanhf and the 1 + t cancellation); sin,
// cos, erf, and tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh
// (over their whole domains): 4u|r| + 2^-149; erf_grad: (6 + 2x^2)u|r| (x^2's
// rounding through expf); gelu_grad: |dy| 8u (1 + |x| (1 + 0.14 x^2)) + u|r|
// (the GEMM test's bound of the f32 gelu').
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "amp_runtime/float16.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

using namespace amp::test;

namespace {

constexpr double kSqrt2OverPi = 0.7978845608028654;
constexpr double kGeluCubic = 0.044715;

double geluF64(double x) {
  return 0.5 * x *
         (1.0 + std::tanh(kSqrt2OverPi * (x + kGeluCubic * x * x * x)));
}

double geluGradF64(double x) {
  double t = std::tanh(kSqrt2OverPi * (x + kGeluCubic * x * x * x));
  return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * kSqrt2OverPi *
                               (1.0 + 3.0 * kGeluCubic * x * x);
}

/// The exact GELU x * Phi(x) and its derivative Phi(x) + x * phi(x).
double geluErfF64(double x) { return 0.5 * x * (1.0 + std::erf(x / M_SQRT2)); }

double geluErfGradF64(double x) {
  return 0.5 * (1.0 + std::erf(x / M_SQRT2)) +
         x * std::exp(-0.5 * x * x) / std::sqrt(2.0 * M_PI);
}

struct UnaryInfo {
  amp_unary_op_t op;
  const char *name;
  double lo, hi;                             // input range
  std::function<double(double)> f;           // f64 reference
  std::function<double(double, double)> err; // err32(x, r); 0: exact
};

std::vector<UnaryInfo> unaryOps() {
  auto rel = [](double k) {
    return [k](double, double r) { return k * kU * std::fabs(r); };
  };
  const auto exactError = [](double, double) { return 0.0; };
  return {
      {AMP_UNARY_NEG, "neg", -4, 4, [](double x) { return -x; }, exactError},
      {AMP_UNARY_EXP, "exp", -10, 10, [](double x) { return std::exp(x); },
       rel(4)},
      {AMP_UNARY_LOG, "log", 0.01, 50, [](double x) { return std::log(x); },
       rel(4)},
      {AMP_UNARY_SQRT, "sqrt", 0.0, 50, [](double x) { return std::sqrt(x); },
       rel(2)},
      {AMP_UNARY_RSQRT, "rsqrt", 0.01, 50,
       [](double x) { return 1.0 / std::sqrt(x); }, rel(4)},
      {AMP_UNARY_TANH, "tanh", -6, 6, [](double x) { return std::tanh(x); },
       [](double, double r) { return 8 * kU * std::fabs(r) + 0x1p-149; }},
      {AMP_UNARY_SIGMOID, "sigmoid", -20, 20,
       [](double x) { return 1.0 / (1.0 + std::exp(-x)); }, rel(8)},
      {AMP_UNARY_RELU, "relu", -4, 4, [](double x) { return x < 0 ? 0.0 : x; },
       exactError},
      {AMP_UNARY_GELU, "gelu", -8, 8, geluF64,
       [](double x, double r) {
         return 8 * kU * std::fabs(r) + 16 * kU * std::fabs(x);
       }},
      {AMP_UNARY_ABS, "abs", -4, 4, [](double x) { return std::fabs(x); },
       exactError},
      // 1 + erf(x / sqrt 2) cancels for negative x: an absolute error of a
      // few ulps of 1, times 0.5 |x|.
      {AMP_UNARY_GELU_ERF, "gelu_erf", -8, 8, geluErfF64,
       [](double x, double r) {
         return 8 * kU * std::fabs(r) + 8 * kU * std::fabs(x);
       }},
      // glibc's sinf, cosf and erff are within 1 ulp; sin and cos over a
      // range that needs argument reduction.
      {AMP_UNARY_SIN, "sin", -100, 100, [](double x) { return std::sin(x); },
       [](double, double r) { return 4 * kU * std::fabs(r) + 0x1p-149; }},
      {AMP_UNARY_COS, "cos", -100, 100, [](double x) { return std::cos(x); },
       [](double, double r) { return 4 * kU * std::fabs(r) + 0x1p-149; }},
      {AMP_UNARY_ERF, "erf", -5, 5, [](double x) { return std::erf(x); },
       [](double, double r) { return 4 * kU * std::fabs(r) + 0x1p-149; }},
      // The step functions are exact (ties and special values:
      // Unary.StepFunctions); the range reaches past 256, where bf16 holds
      // integers only.
      {AMP_UNARY_FLOOR, "floor", -300, 300,
       [](double x) { return std::floor(x); }, exactError},
      {AMP_UNARY_CEIL, "ceil", -300, 300, [](double x) { return std::ceil(x); },
       exactError},
      {AMP_UNARY_ROUND, "round", -300, 300,
       [](double x) { return std::nearbyint(x); }, exactError},
      {AMP_UNARY_SIGN, "sign", -4, 4,
       [](double x) { return x > 0   ? 1.0
                             : x < 0 ? -1.0
                                     : x; }, exactError},
      // The other trigonometric and hyperbolic functions: glibc's f32 ones
      // are within 2 ulps; tan up to near its pole at pi/2, the inverse
      // functions over their whole domains (asin, acos and atanh up to +-1,
      // acosh from 1), sinh and cosh up to 49000, below f16's largest value.
      {AMP_UNARY_TAN, "tan", -1.55, 1.55, [](double x) { return std::tan(x); },
       rel(4)},
      {AMP_UNARY_ASIN, "asin", -1, 1, [](double x) { return std::asin(x); },
       [](double, double r) { return 4 * kU * std::fabs(r) + 0x1p-149; }},
      {AMP_UNARY_ACOS, "acos", -1, 1, [](double x) { return std::acos(x); },
       rel(4)},
      {AMP_UNARY_ATAN, "atan", -20, 20, [](double x) { return std::atan(x); },
       [](double, double r) { return 4 * kU * std::fabs(r) + 0x1p-149; }},
      {AMP_UNARY_SINH, "sinh", -11.5, 11.5,
       [](double x) { return std::sinh(x); },
       [](double, double r) { return 4 * kU * std::fabs(r) + 0x1p-149; }},
      {AMP_UNARY_COSH, "cosh", -11.5, 11.5,
       [](double x) { return std::cosh(x); }, rel(4)},
      {AMP_UNARY_ASINH, "asinh", -100, 100,
       [](double x) { return std::asinh(x); },
       [](double, double r) { return 4 * kU * std::fabs(r) + 0x1p-149; }},
      {AMP_UNARY_ACOSH, "acosh", 1, 100, [](double x) { return std::acosh(x); },
       [](double, double r) { return 4 * kU * std::fabs(r) + 0x1p-149; }},
      {AMP_UNARY_ATANH, "atanh", -0.999, 0.999,
       [](double x) { return std::atanh(x); },
       [](double, double r) { return 4 * kU * std::fabs(r) + 0x1p-149; }},
  };
}

class UnaryTest
    : public ::testing::TestWithParam<std::tuple<int, amp_dtype_t>> {};

TEST_P(UnaryTest, MatchesF64) {
  const UnaryInfo info = unaryOps()[std::get<0>(GetParam())];
  const amp_dtype_t dtype = std::get<1>(GetParam());
  std::mt19937 rng(17 + info.op);
  Tensor x = randomTensor(dtype, {1001}, rng, info.lo, info.hi);
  Tensor y = sentinelTensor(dtype, {1001});
  ASSERT_TRUE(
      isOk(amp_unary(info.op, x.data(), y.data(), x.size(), dtype, nullptr)));
  // An error bound of zero means an exact op.
  const bool exact = info.err(1.0, 1.0) == 0.0;
  std::vector<double> ref, tol;
  for (int64_t i = 0; i < x.size(); ++i) {
    double r = info.f(x.get(i));
    ref.push_back(exact ? roundViaF32(dtype, r) : r);
    tol.push_back(outTol(dtype, r, info.err(x.get(i), r)));
  }
  if (exact)
    EXPECT_TRUE(allEqual(y, ref, info.name));
  else
    EXPECT_TRUE(allClose(y, ref, tol, info.name));

  // In place gives the same bits.
  Tensor inPlace = x;
  ASSERT_TRUE(isOk(amp_unary(info.op, inPlace.data(), inPlace.data(), x.size(),
                             dtype, nullptr)));
  EXPECT_TRUE(inPlace.sameBits(y));
}

INSTANTIATE_TEST_SUITE_P(
    AllOps, UnaryTest,
    ::testing::Combine(::testing::Range(0, int(unaryOps().size())),
                       ::testing::Values(AMP_DTYPE_F32, AMP_DTYPE_F16,
                                         AMP_DTYPE_BF16)),
    [](const auto &info) {
      return std::string(unaryOps()[std::get<0>(info.param)].name) + "_" +
             dtypeName(std::get<1>(info.param));
    });

TEST(Unary, SpecialValues) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (amp_dtype_t dtype : floatDtypes()) {
    Tensor x(dtype, {6});
    const double in[] = {-0.0, 0.0, nan, inf, -inf, -1.0};
    for (int i = 0; i < 6; ++i)
      x.set(i, in[i]);
    Tensor y(dtype, {6});
    ASSERT_TRUE(
        isOk(amp_unary(AMP_UNARY_RELU, x.data(), y.data(), 6, dtype, nullptr)));
    // NaN and -0 pass through relu (x < 0 is false for both).
    EXPECT_TRUE(allEqual(y, {-0.0, 0.0, nan, inf, 0.0, 0.0}, "relu"));
    EXPECT_TRUE(std::signbit(y.get(0))) << dtypeName(dtype);
    ASSERT_TRUE(isOk(
        amp_unary(AMP_UNARY_SIGMOID, x.data(), y.data(), 6, dtype, nullptr)));
    EXPECT_TRUE(allClose(y, {0.5, 0.5, nan, 1.0, 0.0, 0.2689414213699951},
                         {0, 0, 0, 0, 0, 0.01}, "sigmoid"));
    ASSERT_TRUE(
        isOk(amp_unary(AMP_UNARY_LOG, x.data(), y.data(), 6, dtype, nullptr)));
    EXPECT_TRUE(allEqual(y, {-inf, -inf, nan, inf, nan, nan}, "log"));
    ASSERT_TRUE(isOk(
        amp_unary(AMP_UNARY_RSQRT, x.data(), y.data(), 6, dtype, nullptr)));
    EXPECT_TRUE(allEqual(y, {-inf, inf, nan, 0.0, nan, nan}, "rsqrt"));
    ASSERT_TRUE(
        isOk(amp_unary(AMP_UNARY_ABS, x.data(), y.data(), 6, dtype, nullptr)));
    EXPECT_TRUE(allEqual(y, {0.0, 0.0, nan, inf, inf, 1.0}, "abs"));
    EXPECT_FALSE(std::signbit(y.get(0))) << "abs(-0) is +0";
  }
}

/// Special values of one op: its results on a fixed input.
struct UnaryCase {
  amp_unary_op_t op;
  const char *name;
  std::vector<double> want;
};

/// Runs every case on `in` in every float dtype. With `ulps` 0 the results
/// are exact and zeros keep the expected sign; else finite ones are within
/// `ulps` f32 ulps (plus the dtype's rounding) and the others equal.
void expectUnaryCases(const std::vector<double> &in,
                      const std::vector<UnaryCase> &cases, double ulps) {
  for (amp_dtype_t dtype : floatDtypes()) {
    Tensor x(dtype, {int64_t(in.size())});
    for (size_t i = 0; i < in.size(); ++i)
      x.set(int64_t(i), in[i]);
    for (const UnaryCase &c : cases) {
      Tensor y = sentinelTensor(dtype, {int64_t(in.size())});
      ASSERT_TRUE(
          isOk(amp_unary(c.op, x.data(), y.data(), x.size(), dtype, nullptr)));
      if (ulps == 0) {
        EXPECT_TRUE(allEqual(y, c.want, c.name)) << dtypeName(dtype);
        for (size_t i = 0; i < in.size(); ++i)
          if (c.want[i] == 0.0)
            EXPECT_EQ(std::signbit(y.get(int64_t(i))), std::signbit(c.want[i]))
                << c.name << " of " << in[i] << " in " << dtypeName(dtype);
        continue;
      }
      std::vector<double> tol;
      for (double w : c.want)
        tol.push_back(std::isfinite(w)
                          ? outTol(dtype, w, ulps * kU * std::fabs(w))
                          : 0.0);
      EXPECT_TRUE(allClose(y, c.want, tol, c.name)) << dtypeName(dtype);
    }
  }
}

TEST(Unary, StepFunctions) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> in = {-0.0, 0.0, nan,  inf,  -inf,  0.5,
                                  1.5,  2.5, -0.5, -2.5, -1.25, 7.75};
  expectUnaryCases(
      in,
      {
          {AMP_UNARY_FLOOR,
           "floor",
           {-0.0, 0.0, nan, inf, -inf, 0.0, 1.0, 2.0, -1.0, -3.0, -2.0, 7.0}},
          {AMP_UNARY_CEIL,
           "ceil",
           {-0.0, 0.0, nan, inf, -inf, 1.0, 2.0, 3.0, -0.0, -2.0, -1.0, 8.0}},
          // Ties to even.
          {AMP_UNARY_ROUND,
           "round",
           {-0.0, 0.0, nan, inf, -inf, 0.0, 2.0, 2.0, -0.0, -2.0, -1.0, 8.0}},
          // A zero keeps its sign and NaN stays NaN (ONNX's and numpy's sign).
          {AMP_UNARY_SIGN,
           "sign",
           {-0.0, 0.0, nan, 1.0, -1.0, 1.0, 1.0, 1.0, -1.0, -1.0, -1.0, 1.0}},
      },
      0);
}

// The inverse functions' domains and the functions' limits: NaN outside a
// domain, infinities at atanh's ends and of sinh and cosh of infinities,
// pi/2 for atan of infinity, and asin, acos and acosh at the domains' ends.
TEST(Unary, TrigonometricDomains) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> in = {-2.0, -1.0, 1.0, 2.0, inf, -inf, nan};
  expectUnaryCases(
      in,
      {
          {AMP_UNARY_ASIN, "asin", {nan, -M_PI_2, M_PI_2, nan, nan, nan, nan}},
          {AMP_UNARY_ACOS, "acos", {nan, M_PI, 0.0, nan, nan, nan, nan}},
          {AMP_UNARY_ATAN,
           "atan",
           {std::atan(-2.0), -M_PI_4, M_PI_4, std::atan(2.0), M_PI_2, -M_PI_2,
            nan}},
          {AMP_UNARY_ACOSH,
           "acosh",
           {nan, nan, 0.0, std::acosh(2.0), inf, nan, nan}},
          {AMP_UNARY_ATANH, "atanh", {nan, -inf, inf, nan, nan, nan, nan}},
          {AMP_UNARY_SINH,
           "sinh",
           {std::sinh(-2.0), std::sinh(-1.0), std::sinh(1.0), std::sinh(2.0),
            inf, -inf, nan}},
          {AMP_UNARY_COSH,
           "cosh",
           {std::cosh(-2.0), std::cosh(1.0), std::cosh(1.0), std::cosh(2.0),
            inf, inf, nan}},
      },
      4);
}

TEST(Unary, ExpOverflowsToInfInF16) {
  // exp(11.1) = 66171 rounds past 65504 in f16 but not in bf16.
  Tensor x(AMP_DTYPE_F16, {1}), y(AMP_DTYPE_F16, {1});
  x.set(0, 11.1);
  ASSERT_TRUE(isOk(
      amp_unary(AMP_UNARY_EXP, x.data(), y.data(), 1, AMP_DTYPE_F16, nullptr)));
  EXPECT_TRUE(std::isinf(y.get(0)));
}

class ActivationGradTest : public ::testing::TestWithParam<amp_dtype_t> {};

TEST_P(ActivationGradTest, ReluGradIsASelect) {
  const amp_dtype_t dtype = GetParam();
  std::mt19937 rng(5);
  Tensor dy = randomTensor(dtype, {777}, rng, -3, 3);
  Tensor x = randomTensor(dtype, {777}, rng, -1, 1);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  x.set(0, 0.0);
  x.set(1, -0.0);
  x.set(2, nan);
  x.set(3, std::numeric_limits<double>::infinity());
  Tensor dx = sentinelTensor(dtype, {777});
  ASSERT_TRUE(
      isOk(amp_relu_grad(dy.data(), x.data(), dx.data(), 777, dtype, nullptr)));
  std::vector<double> ref;
  for (int64_t i = 0; i < 777; ++i)
    ref.push_back(x.get(i) > 0 ? dy.get(i) : 0.0); // NaN x: 0
  EXPECT_TRUE(allEqual(dx, ref, "relu_grad"));
}

using InputGradFn = amp_status_t (*)(const void *dy, const void *x, void *dx,
                                     int64_t n, amp_dtype_t dtype,
                                     void *stream);

/// dx = fn(dy, x) on 999 elements, dy in [-3, 3] and x in [-xMax, xMax],
/// against dy * deriv(x) in f64 within err(dy, x, r) (then the output
/// dtype's rounding); computed in place over x (overX) or dy, the same bits.
static void
checkInputGrad(InputGradFn fn, const char *name, unsigned seed, double xMax,
               double (*deriv)(double),
               const std::function<double(double, double, double)> &err,
               amp_dtype_t dtype, bool overX) {
  std::mt19937 rng(seed);
  Tensor dy = randomTensor(dtype, {999}, rng, -3, 3);
  Tensor x = randomTensor(dtype, {999}, rng, -xMax, xMax);
  Tensor dx = sentinelTensor(dtype, {999});
  ASSERT_TRUE(isOk(fn(dy.data(), x.data(), dx.data(), 999, dtype, nullptr)));
  std::vector<double> ref, tol;
  for (int64_t i = 0; i < 999; ++i) {
    double r = dy.get(i) * deriv(x.get(i));
    ref.push_back(r);
    tol.push_back(outTol(dtype, r, err(dy.get(i), x.get(i), r)));
  }
  EXPECT_TRUE(allClose(dx, ref, tol, name));
  Tensor &inPlace = overX ? x : dy;
  ASSERT_TRUE(
      isOk(fn(dy.data(), x.data(), inPlace.data(), 999, dtype, nullptr)));
  EXPECT_TRUE(inPlace.sameBits(dx)) << name << " in place";
}

TEST_P(ActivationGradTest, GeluGradMatchesF64) {
  checkInputGrad(
      amp_gelu_grad, "gelu_grad", 6, 6, geluGradF64,
      [](double dy, double x, double r) {
        double eg = 8 * kU * (1 + std::fabs(x) * (1 + 0.14 * x * x));
        return std::fabs(dy) * eg + kU * std::fabs(r);
      },
      GetParam(), /*overX=*/false);
}

TEST_P(ActivationGradTest, GeluErfGradMatchesF64) {
  checkInputGrad(
      amp_gelu_erf_grad, "gelu_erf_grad", 7, 6, geluErfGradF64,
      [](double dy, double x, double r) {
        // cdf to a few ulps of 1, x * pdf to a few ulps of itself.
        double eg = 8 * kU * (1 + std::fabs(x) * std::exp(-0.5 * x * x));
        return std::fabs(dy) * eg + kU * std::fabs(r);
      },
      GetParam(), /*overX=*/true);
}

TEST_P(ActivationGradTest, ErfGradMatchesF64) {
  checkInputGrad(
      amp_erf_grad, "erf_grad", 8, 3,
      [](double x) { return 2 / std::sqrt(M_PI) * std::exp(-x * x); },
      // x^2's rounding scales by x^2 through exp; expf and two products.
      [](double, double x, double r) {
        return (6 + 2 * x * x) * kU * std::fabs(r);
      },
      GetParam(), /*overX=*/false);
}

INSTANTIATE_TEST_SUITE_P(Dtypes, ActivationGradTest,
                         ::testing::Values(AMP_DTYPE_F32, AMP_DTYPE_F16,
                                           AMP_DTYPE_BF16),
                         [](const auto &info) {
                           return std::string(dtypeName(info.param));
                         });

//===----------------------------------------------------------------------===//
// Binary
//===----------------------------------------------------------------------===//

struct BroadcastCase {
  Shape lhs, rhs, out;
};

std::vector<BroadcastCase> broadcastCases() {
  return {{{5, 7, 3}, {5, 7, 3}, {5, 7, 3}},
          {{5, 7, 3}, {7, 1}, {5, 7, 3}},
          {{1}, {4, 1, 6}, {4, 1, 6}},
          {{}, {3, 5}, {3, 5}},
          {{3, 1, 5}, {1, 4, 1}, {3, 4, 5}},
          {{2, 1, 3, 1, 5}, {1, 1, 3, 7, 1}, {2, 1, 3, 7, 5}},
          {{9}, {}, {9}}};
}

const char *binaryName(int op) {
  static const char *const names[] = {"add", "sub", "mul",  "div", "max",
                                      "min", "pow", "fmod", "mod"};
  return names[op];
}

class BinaryTest
    : public ::testing::TestWithParam<std::tuple<int, amp_dtype_t, int>> {};

TEST_P(BinaryTest, IsExactlyTheRoundedF32Result) {
  const auto op = static_cast<amp_binary_op_t>(std::get<0>(GetParam()));
  const amp_dtype_t dtype = std::get<1>(GetParam());
  const BroadcastCase c = broadcastCases()[std::get<2>(GetParam())];
  std::mt19937 rng(100 + std::get<2>(GetParam()));
  Tensor a = randomTensor(dtype, c.lhs, rng, -8, 8);
  Tensor b = randomTensor(dtype, c.rhs, rng, 0.25, 4); // nonzero divisors
  for (int64_t i = 0; i < b.size(); i += 2)
    b.set(i, -b.get(i));
  Tensor out = sentinelTensor(dtype, c.out);
  ASSERT_TRUE(isOk(amp_binary(op, a.data(), b.data(), out.data(), a.dims(),
                              a.rank(), b.dims(), b.rank(), out.dims(),
                              out.rank(), dtype, nullptr)));
  // The naive numpy index mapping; the f64 result of two f32 values is
  // exact for + - *, fmod and mod (|fmod| < |y|, so its sum with y is
  // exact) and an innocuous double rounding for /, so rounding it to f32
  // gives the correctly rounded f32 operation.
  std::vector<double> ref;
  for (int64_t i = 0; i < out.size(); ++i) {
    double x = a.get(broadcastSource(i, c.out, c.lhs));
    double y = b.get(broadcastSource(i, c.out, c.rhs));
    double v = op == AMP_BINARY_ADD   ? x + y
               : op == AMP_BINARY_SUB ? x - y
               : op == AMP_BINARY_MUL ? x * y
               : op == AMP_BINARY_DIV ? x / y
               : op == AMP_BINARY_MAX ? std::max(x, y)
               : op == AMP_BINARY_MIN ? std::min(x, y)
                                      : std::fmod(x, y);
    if (op == AMP_BINARY_MOD && v != 0 && (v < 0) != (y < 0))
      v += y;
    ref.push_back(roundViaF32(dtype, v));
  }
  EXPECT_TRUE(allEqual(out, ref, "binary"));
}

INSTANTIATE_TEST_SUITE_P(
    AllOps, BinaryTest,
    ::testing::Combine(::testing::Values(0, 1, 2, 3, 4, 5, 7, 8),
                       ::testing::Values(AMP_DTYPE_F32, AMP_DTYPE_F16,
                                         AMP_DTYPE_BF16),
                       ::testing::Range(0, 7)),
    [](const auto &info) {
      return std::string(binaryName(std::get<0>(info.param))) + "_" +
             dtypeName(std::get<1>(info.param)) + "_case" +
             std::to_string(std::get<2>(info.param));
    });

/// AMP_BINARY_POW is powf in f32 rounded to the dtype: powf is not
/// correctly rounded, so against pow in f64 it is within 4 f32 ulps before
/// that rounding, for every broadcast case; C's edge cases are exact.
TEST(Binary, PowIsPowfWithinUlpsAndCsEdgeCases) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (amp_dtype_t dtype : floatDtypes()) {
    for (const BroadcastCase &c : broadcastCases()) {
      std::mt19937 rng(7);
      Tensor a = randomTensor(dtype, c.lhs, rng, 0.25, 4);
      Tensor b = randomTensor(dtype, c.rhs, rng, -3, 3);
      Tensor out = sentinelTensor(dtype, c.out);
      ASSERT_TRUE(isOk(amp_binary(
          AMP_BINARY_POW, a.data(), b.data(), out.data(), a.dims(), a.rank(),
          b.dims(), b.rank(), out.dims(), out.rank(), dtype, nullptr)));
      std::vector<double> ref, tol;
      for (int64_t i = 0; i < out.size(); ++i) {
        double v = std::pow(a.get(broadcastSource(i, c.out, c.lhs)),
                            b.get(broadcastSource(i, c.out, c.rhs)));
        ref.push_back(v);
        tol.push_back(outTol(dtype, v, 4 * std::ldexp(std::abs(v), -23)));
      }
      EXPECT_TRUE(allClose(out, ref, tol, "pow"));
    }
    // pow(x, 0) = 1 (NaN too), pow(1, NaN) = 1, a negative base with an
    // integer exponent keeps its sign, with a non-integer one NaN, and
    // pow(0, y < 0) = inf.
    const std::vector<double> lhs = {2, -2, -2, 0, 0, 1, nan, -0.5, 4, -3};
    const std::vector<double> rhs = {0, 3, 0.5, -1, 0, nan, 0, -2, -0.5, 2};
    const std::vector<double> want = {1, -8, nan, inf, 1, 1, 1, 4, 0.5, 9};
    Tensor x(dtype, {10}), y(dtype, {10}), out(dtype, {10});
    for (int64_t i = 0; i < 10; ++i) {
      x.set(i, lhs[i]);
      y.set(i, rhs[i]);
    }
    ASSERT_TRUE(isOk(amp_binary(AMP_BINARY_POW, x.data(), y.data(), out.data(),
                                x.dims(), 1, y.dims(), 1, out.dims(), 1, dtype,
                                nullptr)));
    EXPECT_TRUE(allEqual(out, want, "pow edge cases"));
  }
  Tensor i(AMP_DTYPE_I64, {4});
  EXPECT_TRUE(failsWith(
      amp_binary(AMP_BINARY_POW, i.data(), i.data(), i.data(), i.dims(), 1,
                 i.dims(), 1, i.dims(), 1, AMP_DTYPE_I64, nullptr),
      AMP_STATUS_NOT_SUPPORTED, "dtype is i64; expected f32, f16 or bf16"));
}

TEST(Binary, MaxAndMinPropagateNaNAndKeepLhsOnTies) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> a = {nan, 1.0, nan, -0.0, 0.0, 2.0, -inf, 3.0};
  const std::vector<double> b = {1.0, nan, nan, 0.0, -0.0, 2.0, 5.0, inf};
  for (amp_dtype_t dtype : floatDtypes()) {
    Tensor x(dtype, {8}), y(dtype, {8}), out(dtype, {8});
    for (int i = 0; i < 8; ++i) {
      x.set(i, a[i]);
      y.set(i, b[i]);
    }
    ASSERT_TRUE(isOk(amp_binary(AMP_BINARY_MAX, x.data(), y.data(), out.data(),
                                x.dims(), 1, y.dims(), 1, out.dims(), 1, dtype,
                                nullptr)));
    EXPECT_TRUE(
        allEqual(out, {nan, nan, nan, -0.0, 0.0, 2.0, 5.0, inf}, "max"));
    EXPECT_TRUE(std::signbit(out.get(3)) && !std::signbit(out.get(4)))
        << "a +-0 tie gives lhs (" << dtypeName(dtype) << ")";
    ASSERT_TRUE(isOk(amp_binary(AMP_BINARY_MIN, x.data(), y.data(), out.data(),
                                x.dims(), 1, y.dims(), 1, out.dims(), 1, dtype,
                                nullptr)));
    EXPECT_TRUE(
        allEqual(out, {nan, nan, nan, -0.0, 0.0, 2.0, -inf, 3.0}, "min"));
    EXPECT_TRUE(std::signbit(out.get(3)) && !std::signbit(out.get(4)))
        << "a +-0 tie gives lhs (" << dtypeName(dtype) << ")";
  }
}

TEST(Binary, InPlaceOnTheFullShapeOperand) {
  std::mt19937 rng(3);
  Tensor a = randomTensor(AMP_DTYPE_F16, {4, 6}, rng);
  Tensor b = randomTensor(AMP_DTYPE_F16, {6}, rng);
  Tensor expect(AMP_DTYPE_F16, {4, 6});
  ASSERT_TRUE(isOk(amp_binary(AMP_BINARY_MUL, a.data(), b.data(), expect.data(),
                              a.dims(), 2, b.dims(), 1, expect.dims(), 2,
                              AMP_DTYPE_F16, nullptr)));
  ASSERT_TRUE(
      isOk(amp_binary(AMP_BINARY_MUL, a.data(), b.data(), a.data(), a.dims(), 2,
                      b.dims(), 1, a.dims(), 2, AMP_DTYPE_F16, nullptr)));
  EXPECT_TRUE(a.sameBits(expect));
}

TEST(Binary, RejectsBadShapesAndAliases) {
  Tensor a(AMP_DTYPE_F32, {4, 6}), b(AMP_DTYPE_F32, {5}),
      out(AMP_DTYPE_F32, {4, 6});
  EXPECT_TRUE(failsWith(amp_binary(AMP_BINARY_ADD, a.data(), b.data(),
                                   out.data(), a.dims(), 2, b.dims(), 1,
                                   out.dims(), 2, AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "do not broadcast"));
  Tensor c(AMP_DTYPE_F32, {6});
  Shape wrong = {4, 7};
  EXPECT_TRUE(failsWith(amp_binary(AMP_BINARY_ADD, a.data(), c.data(),
                                   out.data(), a.dims(), 2, c.dims(), 1,
                                   wrong.data(), 2, AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "not the broadcast"));
  EXPECT_TRUE(failsWith(amp_binary(AMP_BINARY_ADD, a.data(), c.data(), c.data(),
                                   a.dims(), 2, c.dims(), 1, out.dims(), 2,
                                   AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "aliases"));
  Tensor i(AMP_DTYPE_I32, {4, 6});
  EXPECT_TRUE(failsWith(
      amp_binary(AMP_BINARY_POW, i.data(), i.data(), i.data(), i.dims(), 2,
                 i.dims(), 2, i.dims(), 2, AMP_DTYPE_I32, nullptr),
      AMP_STATUS_NOT_SUPPORTED, "dtype is i32; expected f32, f16 or bf16"));
  Tensor m(AMP_DTYPE_BOOL, {4, 6});
  EXPECT_TRUE(failsWith(amp_binary(AMP_BINARY_ADD, m.data(), m.data(), m.data(),
                                   m.dims(), 2, m.dims(), 2, m.dims(), 2,
                                   AMP_DTYPE_BOOL, nullptr),
                        AMP_STATUS_NOT_SUPPORTED,
                        "dtype is bool; expected f32, f16, bf16, i32 or i64"));
}

/// amp_binary on i32 and i64 against the operations written out in
/// uint64_t (wrapping) and int64_t (max, min), with broadcasting, operands
/// near the type's limits so that sums, differences and products wrap.
TEST(Binary, IntegersWrapAndBroadcast) {
  for (amp_dtype_t dtype : {AMP_DTYPE_I32, AMP_DTYPE_I64}) {
    const bool is32 = dtype == AMP_DTYPE_I32;
    const uint64_t big = is32 ? uint64_t(INT32_MAX) : uint64_t(INT64_MAX);
    Tensor a(dtype, {3, 4}), b(dtype, {4}), out(dtype, {3, 4});
    const uint64_t av[] = {big,          big - 1, 0, uint64_t(-5),       7,
                           uint64_t(-1), big,     3, uint64_t(-big - 1), 2,
                           big / 2,      1};
    const uint64_t bv[] = {1, big, uint64_t(-3), 3};
    for (int i = 0; i < 12; ++i)
      a.setBits(i, av[i]);
    for (int i = 0; i < 4; ++i)
      b.setBits(i, bv[i]);
    auto narrow = [&](uint64_t v) {
      return is32 ? int64_t(int32_t(uint32_t(v))) : int64_t(v);
    };
    for (amp_binary_op_t op : {AMP_BINARY_ADD, AMP_BINARY_SUB, AMP_BINARY_MUL,
                               AMP_BINARY_MAX, AMP_BINARY_MIN}) {
      ASSERT_TRUE(
          isOk(amp_binary(op, a.data(), b.data(), out.data(), a.dims(), 2,
                          b.dims(), 1, out.dims(), 2, dtype, nullptr)));
      for (int i = 0; i < 12; ++i) {
        const int64_t x = a.intValue(i), y = b.intValue(i % 4);
        const uint64_t ux = uint64_t(x), uy = uint64_t(y);
        int64_t expect = 0;
        switch (op) {
        case AMP_BINARY_ADD:
          expect = narrow(ux + uy);
          break;
        case AMP_BINARY_SUB:
          expect = narrow(ux - uy);
          break;
        case AMP_BINARY_MUL:
          expect = narrow(ux * uy);
          break;
        case AMP_BINARY_MAX:
          expect = x > y ? x : y;
          break;
        default:
          expect = x < y ? x : y;
          break;
        }
        ASSERT_EQ(out.intValue(i), expect)
            << binaryName(op) << " " << dtypeName(dtype) << " element " << i
            << ": " << x << " and " << y;
      }
    }
  }
}

/// FMOD has the dividend's sign (C's fmod), MOD the divisor's (Python's %):
/// a zero takes the divisor's sign, an infinite divisor leaves a finite
/// dividend of its sign (and gives it for one of the other sign), and an
/// infinite dividend or a zero divisor gives NaN. Exact in every dtype.
TEST(Binary, RemaindersFollowCAndPython) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> a = {5.5, -5.5, 5.5, -5.5, 4, -4, 4, 1, -1, inf, 3};
  const std::vector<double> b = {2, 2, -2, -2, 2, 2, -2, inf, inf, 2, 0};
  const std::vector<double> fmod = {1.5, -1.5, 1.5, -1.5, 0,  -0.0,
                                    0,   1,    -1,  nan,  nan};
  const std::vector<double> mod = {1.5,  0.5, -0.5, -1.5, 0,  0,
                                   -0.0, 1,   inf,  nan,  nan};
  for (amp_dtype_t dtype : floatDtypes()) {
    const int64_t n = int64_t(a.size());
    Tensor x(dtype, {n}), y(dtype, {n});
    for (int64_t i = 0; i < n; ++i) {
      x.set(i, a[i]);
      y.set(i, b[i]);
    }
    for (auto [op, want] :
         {std::pair{AMP_BINARY_FMOD, &fmod}, std::pair{AMP_BINARY_MOD, &mod}}) {
      Tensor out = sentinelTensor(dtype, {n});
      ASSERT_TRUE(
          isOk(amp_binary(op, x.data(), y.data(), out.data(), x.dims(), 1,
                          y.dims(), 1, out.dims(), 1, dtype, nullptr)));
      EXPECT_TRUE(allEqual(out, *want, binaryName(op))) << dtypeName(dtype);
      for (int64_t i = 0; i < n; ++i)
        if ((*want)[i] == 0)
          EXPECT_EQ(std::signbit(out.get(i)), std::signbit((*want)[i]))
              << binaryName(op) << " of " << a[i] << " and " << b[i] << " in "
              << dtypeName(dtype);
    }
  }
}

/// Integer DIV truncates toward zero, FMOD keeps the dividend's sign, MOD
/// takes the divisor's; a zero divisor gives 0 (numpy's result) and
/// INT_MIN / -1 wraps to INT_MIN, INT_MIN % -1 is 0.
TEST(Binary, IntegerDivisionTruncatesAndZeroDivisorsGiveZero) {
  for (amp_dtype_t dtype : {AMP_DTYPE_I32, AMP_DTYPE_I64}) {
    const int64_t lo = dtype == AMP_DTYPE_I32 ? int64_t(INT32_MIN) : INT64_MIN;
    const std::vector<int64_t> a = {7, -7, 7, -7, 5, lo, lo, lo, 0, 6};
    const std::vector<int64_t> b = {2, 2, -2, -2, 0, -1, 3, 1, -5, 3};
    // lo = -(3 q) - 2 for both widths, q = 715827882 or 3074457345618258602.
    const std::vector<int64_t> div = {3, -3, -3, 3, 0, lo, lo / 3, lo, 0, 2};
    const std::vector<int64_t> fmod = {1, -1, 1, -1, 0, 0, -2, 0, 0, 0};
    const std::vector<int64_t> mod = {1, 1, -1, -1, 0, 0, 1, 0, 0, 0};
    const int64_t n = int64_t(a.size());
    Tensor x(dtype, {n}), y(dtype, {n});
    for (int64_t i = 0; i < n; ++i) {
      x.setBits(i, uint64_t(a[i]));
      y.setBits(i, uint64_t(b[i]));
    }
    for (auto [op, want] :
         {std::pair{AMP_BINARY_DIV, &div}, std::pair{AMP_BINARY_FMOD, &fmod},
          std::pair{AMP_BINARY_MOD, &mod}}) {
      Tensor out(dtype, {n});
      ASSERT_TRUE(
          isOk(amp_binary(op, x.data(), y.data(), out.data(), x.dims(), 1,
                          y.dims(), 1, out.dims(), 1, dtype, nullptr)));
      for (int64_t i = 0; i < n; ++i)
        EXPECT_EQ(out.intValue(i), (*want)[i])
            << binaryName(op) << " " << dtypeName(dtype) << ": " << a[i]
            << " and " << b[i];
    }
  }
}

//===----------------------------------------------------------------------===//
// Cast, fill, seeds
//===----------------------------------------------------------------------===//

/// f32 values that exercise every rounding path: random bit patterns (NaN,
/// inf, subnormals of every format), ties, and the overflow boundaries.
Tensor castInputs() {
  std::vector<double> special = {0.0,
                                 -0.0,
                                 1.0,
                                 65504.0,
                                 65519.99609375, // just below the f16 tie
                                 65520.0,        // the tie: rounds to inf
                                 -65520.0,
                                 1.0 + 0x1p-11, // f16 tie, rounds down
                                 1.0 + 3 * 0x1p-11,
                                 0x1p-24, // smallest f16 subnormal
                                 0x1p-25, // tie with 0 in f16
                                 1.5 * 0x1p-25,
                                 0x1p-133, // smallest bf16 subnormal
                                 std::ldexp(255.5, 120), // bf16 tie to inf
                                 1.0 + 0x1p-8,           // bf16 tie
                                 std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity()};
  std::mt19937 rng(99);
  Tensor t(AMP_DTYPE_F32, {4000});
  for (int64_t i = 0; i < t.size(); ++i)
    if (i < static_cast<int64_t>(special.size()))
      t.set(i, special[i]);
    else
      t.setBits(i, rng());
  return t;
}

TEST(Cast, F32ToLowPrecisionMatchesTheOracle) {
  Tensor x = castInputs();
  for (amp_dtype_t to : {AMP_DTYPE_F16, AMP_DTYPE_BF16}) {
    Tensor y = sentinelTensor(to, x.shape());
    ASSERT_TRUE(isOk(
        amp_cast(x.data(), y.data(), x.size(), AMP_DTYPE_F32, to, nullptr)));
    std::vector<double> ref;
    for (int64_t i = 0; i < x.size(); ++i)
      ref.push_back(roundTo(to, x.get(i)));
    EXPECT_TRUE(allEqual(y, ref, std::string("f32->") + dtypeName(to)));
    // Back to f32 is exact.
    Tensor back(AMP_DTYPE_F32, x.shape());
    ASSERT_TRUE(isOk(
        amp_cast(y.data(), back.data(), y.size(), to, AMP_DTYPE_F32, nullptr)));
    EXPECT_TRUE(allEqual(back, y.values(), "widening"));
  }
}

TEST(Cast, EveryHalfPatternToBFloat16) {
  Tensor x(AMP_DTYPE_F16, {65536});
  for (int64_t i = 0; i < 65536; ++i)
    x.setBits(i, static_cast<uint64_t>(i));
  Tensor y(AMP_DTYPE_BF16, {65536});
  ASSERT_TRUE(isOk(amp_cast(x.data(), y.data(), 65536, AMP_DTYPE_F16,
                            AMP_DTYPE_BF16, nullptr)));
  std::vector<double> ref;
  for (int64_t i = 0; i < 65536; ++i)
    ref.push_back(roundTo(AMP_DTYPE_BF16, x.get(i)));
  EXPECT_TRUE(allEqual(y, ref, "f16->bf16"));
  // bf16 -> f16: bf16's range overflows f16.
  Tensor h(AMP_DTYPE_F16, {65536});
  ASSERT_TRUE(isOk(amp_cast(y.data(), h.data(), 65536, AMP_DTYPE_BF16,
                            AMP_DTYPE_F16, nullptr)));
  ref.clear();
  for (int64_t i = 0; i < 65536; ++i)
    ref.push_back(roundTo(AMP_DTYPE_F16, y.get(i)));
  EXPECT_TRUE(allEqual(h, ref, "bf16->f16"));
}

/// amp_cast converts runs of f16 with the CPU's F16C instructions and runs
/// of f32 to bf16 in AVX-512 vectors where it has them (reference/
/// Convert.cpp): bitwise float16.h's scalar conversions,
/// NaN payloads, subnormals, ties and overflow included, except that a
/// signalling NaN widens to a quiet one, as the contract says. Every f16
/// pattern widens, and f32 patterns spread over the whole range (every 4099th,
/// then the neighbours and midpoints of every f16 value) narrow to f16 and
/// bf16.
TEST(Cast, RunsAreBitwiseTheScalarConversions) {
  using namespace amp::runtime;
  std::vector<uint16_t> halves(65536);
  for (uint32_t i = 0; i < 65536; ++i)
    halves[i] = static_cast<uint16_t>(i);
  std::vector<float> wide(65536);
  ASSERT_TRUE(isOk(amp_cast(halves.data(), wide.data(), 65536, AMP_DTYPE_F16,
                            AMP_DTYPE_F32, nullptr)));
  // A signalling NaN widens to the quiet NaN of the same sign and payload.
  int mismatches = 0;
  for (uint32_t i = 0; i < 65536; ++i) {
    uint32_t expected = floatBits(halfBitsToFloat(halves[i]));
    if ((halves[i] & 0x7c00u) == 0x7c00u && (halves[i] & 0x3ffu))
      expected |= 0x00400000u;
    mismatches += floatBits(wide[i]) != expected;
  }
  EXPECT_EQ(mismatches, 0) << "f16 -> f32";

  std::vector<uint32_t> bits;
  for (uint64_t b = 0; b < (uint64_t{1} << 32); b += 4099)
    bits.push_back(static_cast<uint32_t>(b));
  for (uint32_t i = 0; i < 65536; ++i) {
    const uint32_t f = floatBits(halfBitsToFloat(static_cast<uint16_t>(i)));
    for (uint32_t d : {f - 1, f, f + 1, f + 0x1000, f + 0xfff, f + 0x1001})
      bits.push_back(d);
  }
  std::vector<float> in(bits.size());
  for (size_t i = 0; i < bits.size(); ++i)
    in[i] = bitsToFloat(bits[i]);
  const int64_t n = static_cast<int64_t>(in.size());
  for (amp_dtype_t to : {AMP_DTYPE_F16, AMP_DTYPE_BF16}) {
    std::vector<uint16_t> out(in.size());
    ASSERT_TRUE(
        isOk(amp_cast(in.data(), out.data(), n, AMP_DTYPE_F32, to, nullptr)));
    mismatches = 0;
    for (size_t i = 0; i < in.size(); ++i)
      mismatches +=
          out[i] != (to == AMP_DTYPE_F16 ? floatToHalfBits(in[i])
                                         : floatToBFloat16Bits(in[i]));
    EXPECT_EQ(mismatches, 0) << "f32 -> " << dtypeName(to);
  }
}

TEST(Cast, SameDtypeIsABitwiseCopy) {
  Tensor x(AMP_DTYPE_F16, {3});
  x.setBits(0, 0x7d01); // a signalling NaN keeps its bits
  x.setBits(1, 0x8000);
  x.setBits(2, 0x3c00);
  Tensor y(AMP_DTYPE_F16, {3});
  ASSERT_TRUE(isOk(
      amp_cast(x.data(), y.data(), 3, AMP_DTYPE_F16, AMP_DTYPE_F16, nullptr)));
  EXPECT_TRUE(y.sameBits(x));
  ASSERT_TRUE(isOk(
      amp_cast(x.data(), x.data(), 3, AMP_DTYPE_F16, AMP_DTYPE_F16, nullptr)));
  EXPECT_TRUE(failsWith(
      amp_cast(x.data(), x.data(), 1, AMP_DTYPE_F16, AMP_DTYPE_BF16, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "aliases"));
}

TEST(Fill, GradSeedsAreExact) {
  for (amp_dtype_t dtype : floatDtypes()) {
    Tensor y = sentinelTensor(dtype, {13});
    ASSERT_TRUE(isOk(amp_fill(y.data(), 13, dtype, 1.0f, nullptr)));
    EXPECT_TRUE(allEqual(y, std::vector<double>(13, 1.0), "grad_seed"));
    const float scale = 65536.0f;
    ASSERT_TRUE(
        isOk(amp_scaled_grad_seed(&scale, y.data(), 13, dtype, nullptr)));
    // 65536 is beyond f16's range: the seed is inf (RNE, overflow -> inf).
    EXPECT_TRUE(allEqual(y, std::vector<double>(13, roundTo(dtype, 65536.0)),
                         "scaled_grad_seed"));
    const float odd = 1000.3f;
    ASSERT_TRUE(isOk(amp_scaled_grad_seed(&odd, y.data(), 13, dtype, nullptr)));
    EXPECT_TRUE(allEqual(y, std::vector<double>(13, roundTo(dtype, odd)),
                         "scaled_grad_seed"));
  }
  // A 0-d seed (the loss is a scalar).
  Tensor s(AMP_DTYPE_F32, {});
  ASSERT_TRUE(isOk(amp_fill(s.data(), 1, AMP_DTYPE_F32, 1.0f, nullptr)));
  EXPECT_EQ(s.get(0), 1.0);
  EXPECT_TRUE(failsWith(
      amp_scaled_grad_seed(nullptr, s.data(), 1, AMP_DTYPE_F32, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "scale is NULL"));
}

TEST(Fill, IntegersAndFlagsAreStoredExactly) {
  std::vector<int32_t> i32(5, 99);
  ASSERT_TRUE(isOk(amp_fill(i32.data(), 5, AMP_DTYPE_I32, -7.0f, nullptr)));
  EXPECT_EQ(i32, std::vector<int32_t>(5, -7));
  std::vector<int64_t> i64(3, 99);
  ASSERT_TRUE(
      isOk(amp_fill(i64.data(), 3, AMP_DTYPE_I64, 16777216.0f, nullptr)));
  EXPECT_EQ(i64, std::vector<int64_t>(3, 16777216));
  std::vector<int8_t> flags(4, 7);
  ASSERT_TRUE(isOk(amp_fill(flags.data(), 4, AMP_DTYPE_BOOL, 1.0f, nullptr)));
  EXPECT_EQ(flags, std::vector<int8_t>(4, 1));

  // Values the dtype does not hold exactly are rejected, and nothing is
  // written.
  const char *inexact = "is not exactly a value";
  EXPECT_TRUE(failsWith(amp_fill(i32.data(), 5, AMP_DTYPE_I32, 0.5f, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, inexact));
  EXPECT_TRUE(
      failsWith(amp_fill(i64.data(), 3, AMP_DTYPE_I64, 33554432.0f, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, inexact));
  EXPECT_TRUE(
      failsWith(amp_fill(flags.data(), 4, AMP_DTYPE_BOOL, 2.0f, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, inexact));
  EXPECT_TRUE(failsWith(amp_fill(i32.data(), 5, AMP_DTYPE_I32, NAN, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, inexact));
  EXPECT_EQ(i32, std::vector<int32_t>(5, -7));
  EXPECT_EQ(flags, std::vector<int8_t>(4, 1));
}

} // namespace
