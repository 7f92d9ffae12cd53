//===- ConvTest.cpp - conv2d and its gradients against f64 ----------------===//
//
// amp_conv2d, amp_conv2d_grad_input and amp_conv2d_grad_filter against
// naive f64 loops over geometries with strides that do not divide the
// input, asymmetric padding, dilation and groups, for every accumulator
// dtype pair, plus the argument checks.
//
// Tolerance: every output element is one f32 sum of T products, so
// err32 = (T + 1) u sum|terms| (products of exactly widened inputs are
// exact to u each, included in the T + 1).
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "gtest/gtest.h"

#include <chrono>
#include <cmath>
#include <random>

using namespace amp::test;

namespace {

struct ConvCase {
  const char *name;
  int64_t n, c, h, w, o, kh, kw;
  int64_t stride[2], pad[4], dil[2], groups;
};

const std::vector<ConvCase> &convCases() {
  static const std::vector<ConvCase> cases = {
      {"basic3x3", 2, 3, 7, 9, 4, 3, 3, {1, 1}, {1, 1, 1, 1}, {1, 1}, 1},
      {"stride2_uneven", 2, 2, 8, 7, 3, 3, 2, {2, 3}, {0, 1, 1, 0}, {1, 1}, 1},
      {"dilated", 1, 2, 9, 10, 3, 3, 3, {1, 2}, {2, 0, 1, 2}, {2, 3}, 1},
      {"groups3", 2, 6, 5, 6, 9, 2, 3, {1, 1}, {0, 1, 0, 1}, {1, 1}, 3},
      {"depthwise", 1, 4, 6, 6, 4, 3, 3, {2, 2}, {1, 1, 1, 1}, {1, 1}, 4},
      {"pointwise", 3, 5, 4, 3, 2, 1, 1, {1, 1}, {0, 0, 0, 0}, {1, 1}, 1},
      {"kernel_covers_padded",
       1,
       2,
       3,
       3,
       2,
       5,
       4,
       {1, 1},
       {1, 1, 1, 0},
       {1, 1},
       1},
  };
  return cases;
}

struct Geometry {
  ConvCase c;
  int64_t oh, ow, cg, og;
  Shape xShape() const { return {c.n, c.c, c.h, c.w}; }
  Shape wShape() const { return {c.o, cg, c.kh, c.kw}; }
  Shape yShape() const { return {c.n, c.o, oh, ow}; }
  explicit Geometry(const ConvCase &cc) : c(cc) {
    oh = (c.h + c.pad[0] + c.pad[2] - c.dil[0] * (c.kh - 1) - 1) / c.stride[0] +
         1;
    ow = (c.w + c.pad[1] + c.pad[3] - c.dil[1] * (c.kw - 1) - 1) / c.stride[1] +
         1;
    cg = c.c / c.groups;
    og = c.o / c.groups;
  }
  /// Calls f(xIndex, wIndex, yIndex) for every product of the convolution.
  template <typename F> void forEachTerm(F &&f) const {
    for (int64_t n = 0; n < c.n; ++n)
      for (int64_t o = 0; o < c.o; ++o)
        for (int64_t r = 0; r < oh; ++r)
          for (int64_t q = 0; q < ow; ++q)
            for (int64_t ic = 0; ic < cg; ++ic)
              for (int64_t i = 0; i < c.kh; ++i)
                for (int64_t j = 0; j < c.kw; ++j) {
                  int64_t hh = r * c.stride[0] - c.pad[0] + i * c.dil[0];
                  int64_t ww = q * c.stride[1] - c.pad[1] + j * c.dil[1];
                  if (hh < 0 || hh >= c.h || ww < 0 || ww >= c.w)
                    continue;
                  int64_t ch = (o / og) * cg + ic;
                  f(((n * c.c + ch) * c.h + hh) * c.w + ww,
                    ((o * cg + ic) * c.kh + i) * c.kw + j,
                    ((n * c.o + o) * oh + r) * ow + q);
                }
  }
};

std::string convCaseName(int geometry, int dtypes) {
  auto [in, out] = accumulatorPairs()[dtypes];
  return std::string(convCases()[geometry].name) + "_" + dtypeName(in) +
         "_to_" + dtypeName(out);
}

class ConvTest : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(ConvTest, AllThreeKernelsMatchF64) {
  const Geometry g(convCases()[std::get<0>(GetParam())]);
  const auto [in, out] = accumulatorPairs()[std::get<1>(GetParam())];
  std::mt19937 rng(41 + std::get<0>(GetParam()));
  Tensor x = randomTensor(in, g.xShape(), rng);
  Tensor w = randomTensor(in, g.wShape(), rng);
  Tensor dy = randomTensor(in, g.yShape(), rng);
  const ConvCase &c = g.c;

  Tensor y = sentinelTensor(out, g.yShape());
  ASSERT_TRUE(isOk(amp_conv2d(x.data(), w.data(), y.data(), x.dims(), w.dims(),
                              y.dims(), in, out, c.stride, c.pad, c.dil,
                              c.groups, nullptr)));
  Accumulation fwd(y.size());
  g.forEachTerm([&](int64_t xi, int64_t wi, int64_t yi) {
    fwd.add(yi, x.get(xi) * w.get(wi));
  });
  EXPECT_TRUE(allClose(y, fwd.sum, fwd.tol(out), "conv2d"));

  Tensor dx = sentinelTensor(out, g.xShape());
  ASSERT_TRUE(isOk(amp_conv2d_grad_input(
      dy.data(), w.data(), dx.data(), x.dims(), w.dims(), y.dims(), in, out,
      c.stride, c.pad, c.dil, c.groups, nullptr)));
  Accumulation gin(dx.size());
  g.forEachTerm([&](int64_t xi, int64_t wi, int64_t yi) {
    gin.add(xi, dy.get(yi) * w.get(wi));
  });
  EXPECT_TRUE(allClose(dx, gin.sum, gin.tol(out), "conv2d_grad_input"));

  Tensor dw = sentinelTensor(out, g.wShape());
  ASSERT_TRUE(isOk(amp_conv2d_grad_filter(
      dy.data(), x.data(), dw.data(), x.dims(), w.dims(), y.dims(), in, out,
      c.stride, c.pad, c.dil, c.groups, nullptr)));
  Accumulation gw(dw.size());
  g.forEachTerm([&](int64_t xi, int64_t wi, int64_t yi) {
    gw.add(wi, dy.get(yi) * x.get(xi));
  });
  EXPECT_TRUE(allClose(dw, gw.sum, gw.tol(out), "conv2d_grad_filter"));
}

INSTANTIATE_TEST_SUITE_P(Cases, ConvTest,
                         ::testing::Combine(::testing::Range(0, 7),
                                            ::testing::Range(0, 5)),
                         [](const auto &info) {
                           return convCaseName(std::get<0>(info.param),
                                               std::get<1>(info.param));
                         });

TEST(Conv, NullGeometryMeansUnitStrideNoPaddingNoDilation) {
  std::mt19937 rng(5);
  Tensor x = randomTensor(AMP_DTYPE_F32, {1, 2, 5, 5}, rng);
  Tensor w = randomTensor(AMP_DTYPE_F32, {3, 2, 3, 3}, rng);
  Tensor a(AMP_DTYPE_F32, {1, 3, 3, 3}), b(AMP_DTYPE_F32, {1, 3, 3, 3});
  const int64_t one[] = {1, 1}, zero[] = {0, 0, 0, 0};
  ASSERT_TRUE(isOk(amp_conv2d(x.data(), w.data(), a.data(), x.dims(), w.dims(),
                              a.dims(), AMP_DTYPE_F32, AMP_DTYPE_F32, nullptr,
                              nullptr, nullptr, 1, nullptr)));
  ASSERT_TRUE(isOk(amp_conv2d(x.data(), w.data(), b.data(), x.dims(), w.dims(),
                              b.dims(), AMP_DTYPE_F32, AMP_DTYPE_F32, one, zero,
                              one, 1, nullptr)));
  EXPECT_TRUE(a.sameBits(b));
}

TEST(Conv, EmptyBatchZeroesTheFilterGradient) {
  Tensor x(AMP_DTYPE_F16, {0, 2, 4, 4}), dy(AMP_DTYPE_F16, {0, 3, 2, 2});
  Tensor dw = sentinelTensor(AMP_DTYPE_F32, {3, 2, 3, 3});
  ASSERT_TRUE(isOk(amp_conv2d_grad_filter(
      dy.data(), x.data(), dw.data(), x.dims(), dw.dims(), dy.dims(),
      AMP_DTYPE_F16, AMP_DTYPE_F32, nullptr, nullptr, nullptr, 1, nullptr)));
  EXPECT_TRUE(allEqual(dw, std::vector<double>(dw.size(), 0.0), "dw"));
}

TEST(Conv, RejectsBadGeometry) {
  Tensor x(AMP_DTYPE_F32, {1, 4, 5, 5}), w(AMP_DTYPE_F32, {6, 2, 3, 3}),
      y(AMP_DTYPE_F32, {1, 6, 3, 3});
  auto run = [&](const int64_t *yDims, int64_t groups, const int64_t *stride,
                 const int64_t *pad, amp_dtype_t outDtype) {
    return amp_conv2d(x.data(), w.data(), y.data(), x.dims(), w.dims(), yDims,
                      AMP_DTYPE_F32, outDtype, stride, pad, nullptr, groups,
                      nullptr);
  };
  ASSERT_TRUE(isOk(run(y.dims(), 2, nullptr, nullptr, AMP_DTYPE_F32)));
  const int64_t wrong[] = {1, 6, 4, 3};
  EXPECT_TRUE(failsWith(run(wrong, 2, nullptr, nullptr, AMP_DTYPE_F32),
                        AMP_STATUS_INVALID_ARGUMENT, "do not match"));
  EXPECT_TRUE(failsWith(run(y.dims(), 1, nullptr, nullptr, AMP_DTYPE_F32),
                        AMP_STATUS_INVALID_ARGUMENT, "groups"));
  EXPECT_TRUE(failsWith(run(y.dims(), 4, nullptr, nullptr, AMP_DTYPE_F32),
                        AMP_STATUS_INVALID_ARGUMENT, "groups"));
  const int64_t zeroStride[] = {0, 1}, negPad[] = {0, -1, 0, 0};
  EXPECT_TRUE(failsWith(run(y.dims(), 2, zeroStride, nullptr, AMP_DTYPE_F32),
                        AMP_STATUS_INVALID_ARGUMENT, "strides"));
  EXPECT_TRUE(failsWith(run(y.dims(), 2, nullptr, negPad, AMP_DTYPE_F32),
                        AMP_STATUS_INVALID_ARGUMENT, "padding"));
  EXPECT_TRUE(failsWith(run(y.dims(), 2, nullptr, nullptr, AMP_DTYPE_F16),
                        AMP_STATUS_NOT_SUPPORTED, "out_dtype is f16"));
  const int64_t bigW[] = {6, 2, 7, 3};
  EXPECT_TRUE(failsWith(amp_conv2d(x.data(), w.data(), y.data(), x.dims(), bigW,
                                   y.dims(), AMP_DTYPE_F32, AMP_DTYPE_F32,
                                   nullptr, nullptr, nullptr, 2, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "larger than"));
  EXPECT_TRUE(failsWith(
      amp_conv2d_grad_input(nullptr, w.data(), x.data(), x.dims(), w.dims(),
                            y.dims(), AMP_DTYPE_F32, AMP_DTYPE_F32, nullptr,
                            nullptr, nullptr, 2, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "dy is NULL"));
}

/// A CNN-sized layer (batch 8, 16 -> 32 channels, 3x3 on 16x16, f16 -> f32):
/// the three kernels together must stay far from anything that would slow
/// CPU training in CI (about 60 M multiply-adds each).
TEST(Conv, SmallCnnLayerIsFast) {
  std::mt19937 rng(9);
  Tensor x = randomTensor(AMP_DTYPE_F16, {8, 16, 16, 16}, rng);
  Tensor w = randomTensor(AMP_DTYPE_F16, {32, 16, 3, 3}, rng);
  Tensor dy = randomTensor(AMP_DTYPE_F16, {8, 32, 16, 16}, rng);
  Tensor y(AMP_DTYPE_F32, dy.shape()), dx(AMP_DTYPE_F32, x.shape()),
      dw(AMP_DTYPE_F32, w.shape());
  const int64_t pad[] = {1, 1, 1, 1};
  const amp_dtype_t h = AMP_DTYPE_F16, f = AMP_DTYPE_F32;
  auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(
      isOk(amp_conv2d(x.data(), w.data(), y.data(), x.dims(), w.dims(),
                      y.dims(), h, f, nullptr, pad, nullptr, 1, nullptr)));
  ASSERT_TRUE(isOk(amp_conv2d_grad_input(dy.data(), w.data(), dx.data(),
                                         x.dims(), w.dims(), y.dims(), h, f,
                                         nullptr, pad, nullptr, 1, nullptr)));
  ASSERT_TRUE(isOk(amp_conv2d_grad_filter(dy.data(), x.data(), dw.data(),
                                          x.dims(), w.dims(), y.dims(), h, f,
                                          nullptr, pad, nullptr, 1, nullptr)));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  RecordProperty("seconds", std::to_string(seconds));
  EXPECT_LT(seconds, 5.0);
}

} // namespace
