//===- PoolTest.cpp - Max and average pooling and their gradients ---------===//
//
// amp_max_pool2d, amp_max_pool2d_grad, amp_avg_pool2d, amp_avg_pool2d_grad
// and amp_global_avg_pool against naive f64 loops over geometries with
// overlapping windows, strides that do not divide the input, asymmetric
// padding (also wider than the kernel), dilation, ties and NaN, in every
// float dtype; the gradients also against central finite differences of the
// forward kernels in f32; and the argument checks.
//
// Tolerances: max_pool2d: exact. max_pool2d_grad: each dx element is an f32
// sum of its k routed dy: (k + 1) u sum|dy|. avg_pool2d over T in-bounds
// terms: (T + 1) u sum|x| / divisor + u|r|. avg_pool2d_grad: each of the k
// shares dy / divisor is rounded once and then summed: (k + 2) u sum|share|.
// global_avg_pool: amp_reduce's mean bitwise. Finite differences (step
// 2^-6): the pools are piecewise linear and the max pool's inputs are spread
// far from ties, so 1e-4 (1 + |r|) covers the f32 rounding of the perturbed
// outputs.
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
constexpr double kInf = std::numeric_limits<double>::infinity();

struct PoolCase {
  const char *name;
  int64_t n, c, h, w, kh, kw;
  int64_t stride[2], pad[4], dil[2]; // dil: max pool only
};

const std::vector<PoolCase> &poolCases() {
  static const std::vector<PoolCase> cases = {
      {"basic2x2", 2, 3, 6, 8, 2, 2, {2, 2}, {0, 0, 0, 0}, {1, 1}},
      {"overlap3x3", 1, 2, 7, 5, 3, 3, {1, 1}, {1, 1, 1, 1}, {1, 1}},
      {"uneven_stride", 2, 2, 9, 7, 3, 2, {2, 3}, {1, 0, 0, 1}, {1, 1}},
      {"dilated", 1, 2, 9, 10, 2, 3, {1, 2}, {1, 2, 0, 1}, {2, 2}},
      {"pad_wider_than_kernel", 1, 2, 3, 3, 2, 2, {1, 1}, {2, 2, 2, 2}, {1, 1}},
      {"whole_image", 2, 3, 4, 5, 4, 5, {1, 1}, {0, 0, 0, 0}, {1, 1}},
      {"pointwise_strided", 1, 2, 3, 4, 1, 1, {2, 2}, {0, 0, 0, 0}, {1, 1}},
  };
  return cases;
}

/// A case's geometry for the max pool (with its dilation) or the average
/// pools (none).
struct Geometry {
  PoolCase c;
  int64_t dh, dw, oh, ow;
  Geometry(const PoolCase &cc, bool dilated)
      : c(cc), dh(dilated ? cc.dil[0] : 1), dw(dilated ? cc.dil[1] : 1) {
    oh = (c.h + c.pad[0] + c.pad[2] - dh * (c.kh - 1) - 1) / c.stride[0] + 1;
    ow = (c.w + c.pad[1] + c.pad[3] - dw * (c.kw - 1) - 1) / c.stride[1] + 1;
  }
  Shape xShape() const { return {c.n, c.c, c.h, c.w}; }
  Shape yShape() const { return {c.n, c.c, oh, ow}; }
  const int64_t *dilation() const {
    return dh == 1 && dw == 1 ? nullptr : c.dil;
  }
  const int64_t kernel[2] = {c.kh, c.kw};

  /// The in-bounds x indices of output yi's window, in row-major order.
  std::vector<int64_t> window(int64_t yi) const {
    const int64_t q = yi % ow, r = yi / ow % oh, plane = yi / (oh * ow);
    std::vector<int64_t> out;
    for (int64_t i = 0; i < c.kh; ++i)
      for (int64_t j = 0; j < c.kw; ++j) {
        const int64_t hh = r * c.stride[0] - c.pad[0] + i * dh;
        const int64_t ww = q * c.stride[1] - c.pad[1] + j * dw;
        if (hh >= 0 && hh < c.h && ww >= 0 && ww < c.w)
          out.push_back((plane * c.h + hh) * c.w + ww);
      }
    return out;
  }
};

/// The x index the max pool of output yi selects (the first maximum, a
/// NaN beating everything), or -1 for a window in the padding.
int64_t argmaxRef(const Geometry &g, const Tensor &x, int64_t yi) {
  int64_t best = -1;
  for (int64_t k : g.window(yi)) {
    const double v = x.get(k);
    if (best < 0 ||
        (!std::isnan(x.get(best)) && (v > x.get(best) || std::isnan(v))))
      best = k;
  }
  return best;
}

class PoolTest
    : public ::testing::TestWithParam<std::tuple<int, amp_dtype_t, bool>> {};

TEST_P(PoolTest, MaxPoolAndItsGradMatchF64) {
  const Geometry g(poolCases()[std::get<0>(GetParam())], true);
  const amp_dtype_t dtype = std::get<1>(GetParam());
  // The bool parameter: small integers (many ties) or spread values.
  const bool ties = std::get<2>(GetParam());
  std::mt19937 rng(11 + std::get<0>(GetParam()));
  Tensor x = randomTensor(dtype, g.xShape(), rng, -2, 2);
  if (ties)
    for (int64_t i = 0; i < x.size(); ++i)
      x.set(i, static_cast<double>(rng() % 3));
  Tensor dy = randomTensor(dtype, g.yShape(), rng, -2, 2);
  Tensor y = sentinelTensor(dtype, g.yShape());
  ASSERT_TRUE(isOk(amp_max_pool2d(x.data(), y.data(), x.dims(), y.dims(), dtype,
                                  g.kernel, g.c.stride, g.c.pad, g.dilation(),
                                  nullptr)));
  Tensor dx = sentinelTensor(dtype, g.xShape());
  ASSERT_TRUE(isOk(amp_max_pool2d_grad(dy.data(), x.data(), dx.data(), x.dims(),
                                       y.dims(), dtype, g.kernel, g.c.stride,
                                       g.c.pad, g.dilation(), nullptr)));
  std::vector<double> ref;
  Accumulation grad(x.size());
  for (int64_t yi = 0; yi < y.size(); ++yi) {
    const int64_t k = argmaxRef(g, x, yi);
    ref.push_back(k < 0 ? -kInf : x.get(k));
    if (k >= 0)
      grad.add(k, dy.get(yi));
  }
  EXPECT_TRUE(allEqual(y, ref, "max_pool2d"));
  EXPECT_TRUE(allClose(dx, grad.sum, grad.tol(dtype, 1), "max_pool2d_grad"));
}

TEST_P(PoolTest, AvgPoolAndItsGradMatchF64) {
  const Geometry g(poolCases()[std::get<0>(GetParam())], false);
  const amp_dtype_t dtype = std::get<1>(GetParam());
  const bool includePad = std::get<2>(GetParam());
  std::mt19937 rng(21 + std::get<0>(GetParam()));
  Tensor x = randomTensor(dtype, g.xShape(), rng, -2, 2);
  Tensor dy = randomTensor(dtype, g.yShape(), rng, -2, 2);
  Tensor y = sentinelTensor(dtype, g.yShape());
  ASSERT_TRUE(
      isOk(amp_avg_pool2d(x.data(), y.data(), x.dims(), y.dims(), dtype,
                          g.kernel, g.c.stride, g.c.pad, includePad, nullptr)));
  Tensor dx = sentinelTensor(dtype, g.xShape());
  ASSERT_TRUE(isOk(amp_avg_pool2d_grad(dy.data(), dx.data(), x.dims(), y.dims(),
                                       dtype, g.kernel, g.c.stride, g.c.pad,
                                       includePad, nullptr)));
  std::vector<double> ref, tol;
  Accumulation grad(x.size());
  for (int64_t yi = 0; yi < y.size(); ++yi) {
    const std::vector<int64_t> window = g.window(yi);
    const double divisor = includePad ? static_cast<double>(g.c.kh * g.c.kw)
                                      : static_cast<double>(window.size());
    double sum = 0, abs = 0;
    for (int64_t k : window) {
      sum += x.get(k);
      abs += std::fabs(x.get(k));
      grad.add(k, dy.get(yi) / divisor);
    }
    const double r = sum / divisor; // 0 / 0 = NaN for a window in the padding
    ref.push_back(r);
    tol.push_back(std::isnan(r)
                      ? 0.0
                      : outTol(dtype, r,
                               (window.size() + 1) * kU * abs / divisor +
                                   kU * std::fabs(r)));
  }
  EXPECT_TRUE(allClose(y, ref, tol, "avg_pool2d"));
  EXPECT_TRUE(allClose(dx, grad.sum, grad.tol(dtype, 2), "avg_pool2d_grad"));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PoolTest,
    ::testing::Combine(::testing::Range(0, 7),
                       ::testing::Values(AMP_DTYPE_F32, AMP_DTYPE_F16,
                                         AMP_DTYPE_BF16),
                       ::testing::Bool()),
    [](const auto &info) {
      return std::string(poolCases()[std::get<0>(info.param)].name) + "_" +
             dtypeName(std::get<1>(info.param)) +
             (std::get<2>(info.param) ? "_ties_or_pad" : "");
    });

TEST(MaxPool, NaNPropagatesAndTakesTheGradient) {
  // One 1x4 row, kernel 1x2, stride 1: windows {0,1}, {1,2}, {2,3}.
  Tensor x(AMP_DTYPE_BF16, {1, 1, 1, 4});
  const double xs[] = {1.0, kNaN, 3.0, kNaN};
  for (int i = 0; i < 4; ++i)
    x.set(i, xs[i]);
  Tensor y(AMP_DTYPE_BF16, {1, 1, 1, 3}), dy(AMP_DTYPE_BF16, {1, 1, 1, 3}),
      dx(AMP_DTYPE_BF16, {1, 1, 1, 4});
  for (int i = 0; i < 3; ++i)
    dy.set(i, 1 << i);
  const int64_t kernel[] = {1, 2};
  ASSERT_TRUE(isOk(amp_max_pool2d(x.data(), y.data(), x.dims(), y.dims(),
                                  AMP_DTYPE_BF16, kernel, nullptr, nullptr,
                                  nullptr, nullptr)));
  EXPECT_TRUE(allEqual(y, {kNaN, kNaN, kNaN}, "max_pool2d"));
  ASSERT_TRUE(isOk(amp_max_pool2d_grad(dy.data(), x.data(), dx.data(), x.dims(),
                                       y.dims(), AMP_DTYPE_BF16, kernel,
                                       nullptr, nullptr, nullptr, nullptr)));
  // The first NaN of each window takes its dy: 1 + 2 at x[1], 4 at x[3].
  EXPECT_TRUE(allEqual(dx, {0.0, 3.0, 0.0, 4.0}, "max_pool2d_grad"));
}

TEST(Pools, GradsMatchFiniteDifferencesOfTheForwardKernels) {
  std::mt19937 rng(5);
  const double h = 1.0 / 64; // the pools are piecewise linear
  for (const PoolCase &c : poolCases()) {
    for (bool isMax : {true, false}) {
      const Geometry g(c, isMax);
      // Max: distinct values k/8, so a step never changes a window's
      // argmax (and the max pool copies them exactly). Avg: small values,
      // so the rounding of the window sums stays far below the tolerance.
      Tensor x = randomTensor(AMP_DTYPE_F32, g.xShape(), rng);
      if (isMax) {
        std::vector<int64_t> order(static_cast<size_t>(x.size()));
        for (size_t i = 0; i < order.size(); ++i)
          order[i] = static_cast<int64_t>(i);
        std::shuffle(order.begin(), order.end(), rng);
        for (int64_t i = 0; i < x.size(); ++i)
          x.set(i, order[i] / 8.0 - 2.0);
      }
      Tensor dy = randomTensor(AMP_DTYPE_F32, g.yShape(), rng, -1, 1);
      std::vector<double> w = dy.values();
      for (double &v : w) // windows in the padding give inf or NaN
        v = std::isfinite(v) ? v : 0.0;
      const Shape yShape = g.yShape();
      const std::vector<double> fd =
          finiteDifferenceGrad(x, w, h, [&](const Tensor &in) {
            Tensor out(AMP_DTYPE_F32, yShape);
            EXPECT_TRUE(isOk(
                isMax ? amp_max_pool2d(in.data(), out.data(), in.dims(),
                                       out.dims(), AMP_DTYPE_F32, g.kernel,
                                       c.stride, c.pad, g.dilation(), nullptr)
                      : amp_avg_pool2d(in.data(), out.data(), in.dims(),
                                       out.dims(), AMP_DTYPE_F32, g.kernel,
                                       c.stride, c.pad, 1, nullptr)));
            std::vector<double> v = out.values();
            for (double &e : v)
              e = std::isfinite(e) ? e : 0.0;
            return v;
          });
      Tensor dx(AMP_DTYPE_F32, g.xShape());
      ASSERT_TRUE(isOk(
          isMax ? amp_max_pool2d_grad(dy.data(), x.data(), dx.data(), x.dims(),
                                      yShape.data(), AMP_DTYPE_F32, g.kernel,
                                      c.stride, c.pad, g.dilation(), nullptr)
                : amp_avg_pool2d_grad(dy.data(), dx.data(), x.dims(),
                                      yShape.data(), AMP_DTYPE_F32, g.kernel,
                                      c.stride, c.pad, 1, nullptr)));
      std::vector<double> tol;
      for (double v : fd)
        tol.push_back(1e-4 * (1 + std::fabs(v)));
      EXPECT_TRUE(
          allClose(dx, fd, tol, std::string(isMax ? "max " : "avg ") + c.name));
    }
  }
}

TEST(GlobalAvgPool, IsTheMeanOverHAndW) {
  std::mt19937 rng(9);
  for (amp_dtype_t dtype : floatDtypes()) {
    Tensor x = randomTensor(dtype, {3, 4, 5, 7}, rng, -2, 2);
    Tensor y = sentinelTensor(dtype, {3, 4, 1, 1});
    ASSERT_TRUE(isOk(
        amp_global_avg_pool(x.data(), y.data(), x.dims(), dtype, nullptr)));
    std::vector<double> ref, tol;
    for (int64_t p = 0; p < 12; ++p) {
      double sum = 0, abs = 0;
      for (int64_t k = 0; k < 35; ++k) {
        sum += x.get(p * 35 + k);
        abs += std::fabs(x.get(p * 35 + k));
      }
      ref.push_back(sum / 35);
      tol.push_back(outTol(dtype, sum / 35,
                           36 * kU * abs / 35 + kU * std::fabs(sum / 35)));
    }
    EXPECT_TRUE(allClose(y, ref, tol, "global_avg_pool"));
    // Exactly amp_reduce's mean.
    Tensor mean(dtype, {3, 4});
    const int64_t axes[] = {2, 3};
    ASSERT_TRUE(isOk(amp_reduce(AMP_REDUCE_MEAN, x.data(), mean.data(),
                                x.dims(), 4, axes, 2, dtype, dtype, nullptr)));
    EXPECT_TRUE(allEqual(y, mean.values(), "global_avg_pool vs reduce"));
  }
  Tensor empty(AMP_DTYPE_F32, {2, 1, 0, 3}), y(AMP_DTYPE_F32, {2, 1, 1, 1});
  ASSERT_TRUE(isOk(amp_global_avg_pool(empty.data(), y.data(), empty.dims(),
                                       AMP_DTYPE_F32, nullptr)));
  EXPECT_TRUE(allEqual(y, {kNaN, kNaN}, "0 / 0"));
}

TEST(Pools, EmptyBatchesWriteNothing) {
  const int64_t x[] = {0, 3, 4, 4}, y[] = {0, 3, 2, 2}, kernel[] = {2, 2},
                stride[] = {2, 2};
  EXPECT_TRUE(isOk(amp_max_pool2d(nullptr, nullptr, x, y, AMP_DTYPE_F16, kernel,
                                  stride, nullptr, nullptr, nullptr)));
  EXPECT_TRUE(isOk(amp_avg_pool2d_grad(nullptr, nullptr, x, y, AMP_DTYPE_F16,
                                       kernel, stride, nullptr, 0, nullptr)));
}

TEST(Pools, RejectBadArguments) {
  Tensor x(AMP_DTYPE_F32, {1, 2, 5, 5}), y(AMP_DTYPE_F32, {1, 2, 2, 2});
  const int64_t kernel[] = {2, 2}, stride[] = {2, 2};
  auto maxPool = [&](const int64_t *k, const int64_t *s, const int64_t *p,
                     const int64_t *d, const int64_t *yDims) {
    return amp_max_pool2d(x.data(), y.data(), x.dims(), yDims, AMP_DTYPE_F32, k,
                          s, p, d, nullptr);
  };
  ASSERT_TRUE(isOk(maxPool(kernel, stride, nullptr, nullptr, y.dims())));
  const int64_t zeroKernel[] = {0, 2}, zeroStride[] = {2, 0},
                negPad[] = {0, 0, -1, 0}, bigDil[] = {5, 1},
                wrongY[] = {1, 2, 3, 2};
  EXPECT_TRUE(failsWith(maxPool(nullptr, stride, nullptr, nullptr, y.dims()),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "amp_max_pool2d: kernel is NULL"));
  EXPECT_TRUE(failsWith(maxPool(zeroKernel, stride, nullptr, nullptr, y.dims()),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "kernel [0, 2] must be in"));
  EXPECT_TRUE(failsWith(maxPool(kernel, zeroStride, nullptr, nullptr, y.dims()),
                        AMP_STATUS_INVALID_ARGUMENT, "strides and dilation"));
  EXPECT_TRUE(failsWith(maxPool(kernel, stride, negPad, nullptr, y.dims()),
                        AMP_STATUS_INVALID_ARGUMENT, "padding 2 (-1)"));
  EXPECT_TRUE(failsWith(maxPool(kernel, stride, nullptr, bigDil, y.dims()),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "the dilated kernel is larger than the padded input"));
  EXPECT_TRUE(failsWith(maxPool(kernel, stride, nullptr, nullptr, wrongY),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "y_dims [1, 2, 3, 2] do not match the pool's output "
                        "[1, 2, 2, 2]"));
  EXPECT_TRUE(failsWith(amp_max_pool2d(x.data(), y.data(), x.dims(), y.dims(),
                                       AMP_DTYPE_I64, kernel, stride, nullptr,
                                       nullptr, nullptr),
                        AMP_STATUS_NOT_SUPPORTED, "dtype is i64"));
  EXPECT_TRUE(
      failsWith(amp_max_pool2d_grad(y.data(), nullptr, x.data(), x.dims(),
                                    y.dims(), AMP_DTYPE_F32, kernel, stride,
                                    nullptr, nullptr, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "amp_max_pool2d_grad: x is NULL"));
  EXPECT_TRUE(failsWith(
      amp_avg_pool2d(x.data(), y.data(), nullptr, y.dims(), AMP_DTYPE_F32,
                     kernel, stride, nullptr, 0, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "amp_avg_pool2d: dims of x_dims are NULL"));
  EXPECT_TRUE(failsWith(
      amp_avg_pool2d_grad(nullptr, x.data(), x.dims(), y.dims(), AMP_DTYPE_F32,
                          kernel, stride, nullptr, 1, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "amp_avg_pool2d_grad: dy is NULL"));
  EXPECT_TRUE(failsWith(
      amp_global_avg_pool(x.data(), nullptr, x.dims(), AMP_DTYPE_F32, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "amp_global_avg_pool: y is NULL"));
}

} // namespace
