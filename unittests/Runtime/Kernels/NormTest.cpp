//===- NormTest.cpp - Softmax, layer norm and batch norm kernels ----------===//
//
// amp_softmax, amp_log_softmax, amp_softmax_grad, amp_layer_norm(_grad) and
// amp_batch_norm(_grad) against f64 computations on the same stored inputs
// (the gradients take the forward kernel's saved f32 statistics as inputs,
// as the ops do).
//
// Tolerances (err32 of KernelTestUtil.h; every bound below is doubled for
// margin). Softmax over a row of n with d = x - max, R = max|d|, s = sum
// exp(d): p: (2R + n + 6) u p; log_softmax: u (|d| + n + R + 3 + 2|log s| +
// |r|); softmax_grad: |y| ((n + 1) u sum|dy y| + u|dy - s|) + u|r|.
// Normalization over n values with A = mean|x|: mean (n + 2) u A; rstd
// (n/2 + 4) u rstd; xhat (n/2 + 6) u |xhat| + rstd (n + 2) u A; y: |scale|
// err(xhat) + u (|xhat scale| + |y|). Gradients over n values: dx: rstd ((n
// + 5) u (mean|g| + |xhat| mean|g xhat|) + 4u (|g| + |mean g| + |xhat mean
// g xhat|)) + u|dx| with g = dy * scale; dscale: (rows + 4) u sum|dy xhat|;
// dbias: (rows + 1) u sum|dy|.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace amp::test;

namespace {

/// The rows of a tensor around one axis: for each (outer, inner) pair the
/// element indices along the axis.
std::vector<std::vector<int64_t>> rowsAround(const Shape &shape, int axis) {
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d)
    outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d)
    inner *= shape[d];
  std::vector<std::vector<int64_t>> rows;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < inner; ++j) {
      std::vector<int64_t> row;
      for (int64_t i = 0; i < shape[axis]; ++i)
        row.push_back((o * shape[axis] + i) * inner + j);
      rows.push_back(row);
    }
  return rows;
}

struct SoftmaxCase {
  Shape shape;
  int64_t axis;
  double lo, hi;
};

class SoftmaxTest
    : public ::testing::TestWithParam<std::tuple<int, amp_dtype_t>> {};

const std::vector<SoftmaxCase> &softmaxCases() {
  static const std::vector<SoftmaxCase> cases = {
      {{3, 5, 11}, -1, -8, 8}, {{3, 5, 11}, 1, -8, 8},
      {{3, 5, 11}, 0, -8, 8},  {{7, 13}, 1, 40, 56}, // needs the max shift
      {{4, 1}, -1, -3, 3},     {{129}, 0, -20, 20}};
  return cases;
}

TEST_P(SoftmaxTest, ForwardAndGradMatchF64) {
  const SoftmaxCase c = softmaxCases()[std::get<0>(GetParam())];
  const amp_dtype_t dtype = std::get<1>(GetParam());
  std::mt19937 rng(11 + std::get<0>(GetParam()));
  Tensor x = randomTensor(dtype, c.shape, rng, c.lo, c.hi);
  Tensor y = sentinelTensor(dtype, c.shape),
         ls = sentinelTensor(dtype, c.shape);
  ASSERT_TRUE(isOk(amp_softmax(x.data(), y.data(), x.dims(), x.rank(), dtype,
                               c.axis, nullptr)));
  ASSERT_TRUE(isOk(amp_log_softmax(x.data(), ls.data(), x.dims(), x.rank(),
                                   dtype, c.axis, nullptr)));
  const int axis = static_cast<int>(c.axis < 0 ? c.axis + x.rank() : c.axis);
  std::vector<double> pRef(x.size()), pTol(x.size()), lRef(x.size()),
      lTol(x.size());
  for (const auto &row : rowsAround(c.shape, axis)) {
    const double n = static_cast<double>(row.size());
    double m = -INFINITY;
    for (int64_t i : row)
      m = std::max(m, x.get(i));
    double s = 0, r = 0;
    for (int64_t i : row) {
      s += std::exp(x.get(i) - m);
      r = std::max(r, std::fabs(x.get(i) - m));
    }
    for (int64_t i : row) {
      double d = x.get(i) - m, p = std::exp(d) / s, l = d - std::log(s);
      pRef[i] = p;
      pTol[i] = outTol(dtype, p, 2 * (2 * r + n + 6) * kU * p);
      lRef[i] = l;
      lTol[i] = outTol(dtype, l,
                       2 * kU *
                           (std::fabs(d) + n + r + 3 +
                            2 * std::fabs(std::log(s)) + std::fabs(l)));
    }
  }
  EXPECT_TRUE(allClose(y, pRef, pTol, "softmax"));
  EXPECT_TRUE(allClose(ls, lRef, lTol, "log_softmax"));

  // softmax_grad on the kernel's own softmax output.
  Tensor dy = randomTensor(dtype, c.shape, rng, -2, 2);
  Tensor dx = sentinelTensor(dtype, c.shape);
  ASSERT_TRUE(isOk(amp_softmax_grad(dy.data(), y.data(), dx.data(), x.dims(),
                                    x.rank(), dtype, c.axis, nullptr)));
  std::vector<double> gRef(x.size()), gTol(x.size());
  for (const auto &row : rowsAround(c.shape, axis)) {
    const double n = static_cast<double>(row.size());
    double s = 0, sAbs = 0;
    for (int64_t i : row) {
      s += dy.get(i) * y.get(i);
      sAbs += std::fabs(dy.get(i) * y.get(i));
    }
    for (int64_t i : row) {
      double g = y.get(i) * (dy.get(i) - s);
      gRef[i] = g;
      gTol[i] =
          outTol(dtype, g,
                 2 * (std::fabs(y.get(i)) * ((n + 1) * kU * sAbs +
                                             kU * std::fabs(dy.get(i) - s)) +
                      kU * std::fabs(g)));
    }
  }
  EXPECT_TRUE(allClose(dx, gRef, gTol, "softmax_grad"));

  // In place gives the same bits.
  Tensor inPlace = x;
  ASSERT_TRUE(isOk(amp_softmax(inPlace.data(), inPlace.data(), x.dims(),
                               x.rank(), dtype, c.axis, nullptr)));
  EXPECT_TRUE(inPlace.sameBits(y));
}

INSTANTIATE_TEST_SUITE_P(Cases, SoftmaxTest,
                         ::testing::Combine(::testing::Range(0, 6),
                                            ::testing::Values(AMP_DTYPE_F32,
                                                              AMP_DTYPE_F16,
                                                              AMP_DTYPE_BF16)),
                         CaseAndDtypeName());

TEST(Softmax, RejectsBadAxes) {
  Tensor x(AMP_DTYPE_F32, {2, 3});
  EXPECT_TRUE(failsWith(
      amp_softmax(x.data(), x.data(), x.dims(), 2, AMP_DTYPE_F32, 2, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "axis 2 is out of range"));
  EXPECT_TRUE(failsWith(amp_log_softmax(x.data(), x.data(), x.dims(), 2,
                                        AMP_DTYPE_F32, -3, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "out of range"));
}

//===----------------------------------------------------------------------===//
// Layer norm and batch norm
//===----------------------------------------------------------------------===//

/// What a normalization test varies.
struct NormCase {
  amp_dtype_t x, scale, bias;
  bool affine; // false: scale and bias are NULL
};

std::vector<NormCase> normCases() {
  std::vector<NormCase> cases;
  for (amp_dtype_t x : floatDtypes()) {
    cases.push_back({x, x, x, true});
    if (x != AMP_DTYPE_F32) {
      cases.push_back({x, AMP_DTYPE_F32, AMP_DTYPE_F32, true});
      cases.push_back({x, AMP_DTYPE_F32, x, true});
    }
    cases.push_back({x, x, x, false});
  }
  return cases;
}

std::string normCaseName(const NormCase &c) {
  return std::string("x") + dtypeName(c.x) + "_scale" + dtypeName(c.scale) +
         "_bias" + dtypeName(c.bias) + (c.affine ? "" : "_noaffine");
}

/// The f64 forward of one group of elements normalized together, and the
/// expected outputs and tolerances of the group's elements. `param(i)` is
/// the index of element i's scale and bias.
struct NormGroupCheck {
  std::vector<double> &yRef, &yTol;
  double *meanRef, *meanTol, *rstdRef, *rstdTol;
};

template <typename ParamIndex>
void normForwardF64(const Tensor &x, const std::vector<int64_t> &group,
                    const Tensor *scale, const Tensor *bias, double eps,
                    ParamIndex param, NormGroupCheck out) {
  const double n = static_cast<double>(group.size());
  double sum = 0, absSum = 0;
  for (int64_t i : group) {
    sum += x.get(i);
    absSum += std::fabs(x.get(i));
  }
  const double mean = sum / n, a = absSum / n;
  double var = 0;
  for (int64_t i : group)
    var += (x.get(i) - mean) * (x.get(i) - mean);
  var /= n;
  const double rstd = 1.0 / std::sqrt(var + eps);
  *out.meanRef = mean;
  *out.meanTol = 2 * (n + 2) * kU * a;
  *out.rstdRef = rstd;
  *out.rstdTol = 2 * (n / 2 + 4) * kU * rstd;
  for (int64_t i : group) {
    const double g = scale ? scale->get(param(i)) : 1.0;
    const double b = bias ? bias->get(param(i)) : 0.0;
    const double xh = (x.get(i) - mean) * rstd, y = xh * g + b;
    const double exh =
        (n / 2 + 6) * kU * std::fabs(xh) + rstd * (n + 2) * kU * a;
    out.yRef[i] = y;
    out.yTol[i] = outTol(
        x.dtype(), y,
        2 * (std::fabs(g) * exh + kU * (std::fabs(xh * g) + std::fabs(y))));
  }
}

/// The f64 gradient of one group, given the saved f32 statistics.
template <typename ParamIndex>
void normGradF64(const Tensor &dy, const Tensor &x,
                 const std::vector<int64_t> &group, const Tensor *scale,
                 double mean, double rstd, ParamIndex param,
                 std::vector<double> &dxRef, std::vector<double> &dxTol) {
  const double n = static_cast<double>(group.size());
  double sg = 0, sgx = 0, sgAbs = 0, sgxAbs = 0;
  for (int64_t i : group) {
    const double g = dy.get(i) * (scale ? scale->get(param(i)) : 1.0);
    const double xh = (x.get(i) - mean) * rstd;
    sg += g;
    sgx += g * xh;
    sgAbs += std::fabs(g);
    sgxAbs += std::fabs(g * xh);
  }
  const double mg = sg / n, mgx = sgx / n;
  for (int64_t i : group) {
    const double g = dy.get(i) * (scale ? scale->get(param(i)) : 1.0);
    const double xh = (x.get(i) - mean) * rstd;
    const double dx = rstd * (g - mg - xh * mgx);
    dxRef[i] = dx;
    dxTol[i] = outTol(
        x.dtype(), dx,
        2 * (rstd * ((n + 5) * kU * (sgAbs / n + std::fabs(xh) * sgxAbs / n) +
                     4 * kU *
                         (std::fabs(g) + std::fabs(mg) + std::fabs(xh * mgx))) +
             kU * std::fabs(dx)));
  }
}

/// Expected dscale/dbias: sums over groups of dy * xhat and dy per param.
void paramGradF64(const Tensor &dy, const Tensor &x,
                  const std::vector<int64_t> &paramOf,
                  const std::vector<double> &meanOf,
                  const std::vector<double> &rstdOf, int64_t nParams,
                  int64_t termsPerParam, amp_dtype_t dtype,
                  std::vector<double> &dsRef, std::vector<double> &dsTol,
                  std::vector<double> &dbRef, std::vector<double> &dbTol) {
  std::vector<double> ds(nParams), dsAbs(nParams), db(nParams), dbAbs(nParams);
  for (int64_t i = 0; i < x.size(); ++i) {
    const double xh = (x.get(i) - meanOf[i]) * rstdOf[i];
    ds[paramOf[i]] += dy.get(i) * xh;
    dsAbs[paramOf[i]] += std::fabs(dy.get(i) * xh);
    db[paramOf[i]] += dy.get(i);
    dbAbs[paramOf[i]] += std::fabs(dy.get(i));
  }
  const double t = static_cast<double>(termsPerParam);
  for (int64_t p = 0; p < nParams; ++p) {
    dsRef.push_back(ds[p]);
    dsTol.push_back(outTol(dtype, ds[p], 2 * (t + 4) * kU * dsAbs[p]));
    dbRef.push_back(db[p]);
    dbTol.push_back(outTol(dtype, db[p], 2 * (t + 1) * kU * dbAbs[p]));
  }
}

class LayerNormTest : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(LayerNormTest, ForwardAndGradMatchF64) {
  const NormCase c = normCases()[std::get<0>(GetParam())];
  const int64_t axis = std::get<1>(GetParam()) == 0 ? -1 : 1;
  const Shape shape = {4, 3, 33};
  const int a = axis < 0 ? 2 : 1;
  const Shape normShape(shape.begin() + a, shape.end()),
      statShape(shape.begin(), shape.begin() + a);
  const int64_t len = numel(normShape), rows = numel(statShape);
  std::mt19937 rng(21 + std::get<0>(GetParam()));
  Tensor x = randomTensor(c.x, shape, rng, -3, 5);
  Tensor scale = randomTensor(c.scale, normShape, rng, 0.5, 2);
  Tensor bias = randomTensor(c.bias, normShape, rng, -1, 1);
  Tensor y = sentinelTensor(c.x, shape);
  Tensor mean = sentinelTensor(AMP_DTYPE_F32, statShape);
  Tensor rstd = sentinelTensor(AMP_DTYPE_F32, statShape);
  const float eps = 1e-5f;
  ASSERT_TRUE(isOk(amp_layer_norm(
      x.data(), c.affine ? scale.data() : nullptr,
      c.affine ? bias.data() : nullptr, y.data(),
      static_cast<float *>(mean.data()), static_cast<float *>(rstd.data()),
      x.dims(), x.rank(), c.x, c.scale, c.bias, axis, eps, nullptr)));

  std::vector<double> yRef(x.size()), yTol(x.size()), mRef(rows), mTol(rows),
      rRef(rows), rTol(rows);
  auto param = [&](int64_t i) { return i % len; };
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<int64_t> group;
    for (int64_t i = 0; i < len; ++i)
      group.push_back(r * len + i);
    normForwardF64(x, group, c.affine ? &scale : nullptr,
                   c.affine ? &bias : nullptr, eps, param,
                   {yRef, yTol, &mRef[r], &mTol[r], &rRef[r], &rTol[r]});
  }
  EXPECT_TRUE(allClose(y, yRef, yTol, "layer_norm y"));
  EXPECT_TRUE(allClose(mean, mRef, mTol, "layer_norm mean"));
  EXPECT_TRUE(allClose(rstd, rRef, rTol, "layer_norm rstd"));

  Tensor dy = randomTensor(c.x, shape, rng, -1, 1);
  Tensor dx = sentinelTensor(c.x, shape);
  Tensor dscale = sentinelTensor(c.scale, normShape);
  Tensor dbias = sentinelTensor(c.scale, normShape);
  ASSERT_TRUE(isOk(amp_layer_norm_grad(
      dy.data(), x.data(), static_cast<const float *>(mean.data()),
      static_cast<const float *>(rstd.data()),
      c.affine ? scale.data() : nullptr, dx.data(), dscale.data(), dbias.data(),
      x.dims(), x.rank(), c.x, c.scale, axis, nullptr)));
  std::vector<double> dxRef(x.size()), dxTol(x.size()), meanOf(x.size()),
      rstdOf(x.size());
  std::vector<int64_t> paramOf(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<int64_t> group;
    for (int64_t i = 0; i < len; ++i) {
      group.push_back(r * len + i);
      meanOf[r * len + i] = mean.get(r);
      rstdOf[r * len + i] = rstd.get(r);
      paramOf[r * len + i] = i;
    }
    normGradF64(dy, x, group, c.affine ? &scale : nullptr, mean.get(r),
                rstd.get(r), param, dxRef, dxTol);
  }
  EXPECT_TRUE(allClose(dx, dxRef, dxTol, "layer_norm_grad dx"));
  std::vector<double> dsRef, dsTol, dbRef, dbTol;
  paramGradF64(dy, x, paramOf, meanOf, rstdOf, len, rows, c.scale, dsRef, dsTol,
               dbRef, dbTol);
  EXPECT_TRUE(allClose(dscale, dsRef, dsTol, "layer_norm_grad dscale"));
  EXPECT_TRUE(allClose(dbias, dbRef, dbTol, "layer_norm_grad dbias"));

  // dx may overwrite dy or x: the same results, bit for bit (dscale and
  // dbias read dy and x before dx is written).
  for (bool overDy : {true, false}) {
    Tensor dyIn = dy, xIn = x;
    Tensor &dxOut = overDy ? dyIn : xIn;
    Tensor ds = sentinelTensor(c.scale, normShape),
           db = sentinelTensor(c.scale, normShape);
    ASSERT_TRUE(isOk(amp_layer_norm_grad(
        dyIn.data(), xIn.data(), static_cast<const float *>(mean.data()),
        static_cast<const float *>(rstd.data()),
        c.affine ? scale.data() : nullptr, dxOut.data(), ds.data(), db.data(),
        x.dims(), x.rank(), c.x, c.scale, axis, nullptr)));
    const char *where = overDy ? "dx over dy" : "dx over x";
    EXPECT_TRUE(dxOut.sameBits(dx)) << where;
    EXPECT_TRUE(ds.sameBits(dscale)) << where;
    EXPECT_TRUE(db.sameBits(dbias)) << where;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, LayerNormTest,
    ::testing::Combine(::testing::Range(0, 10), ::testing::Range(0, 2)),
    [](const auto &info) {
      return normCaseName(normCases()[std::get<0>(info.param)]) +
             (std::get<1>(info.param) ? "_axis1" : "_axism1");
    });

class BatchNormTest : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(BatchNormTest, ForwardAndGradMatchF64) {
  const NormCase c = normCases()[std::get<0>(GetParam())];
  const Shape shapes[] = {{5, 3, 4, 7}, {9, 6}, {4, 5, 6}};
  const Shape shape = shapes[std::get<1>(GetParam())];
  const int64_t channels = shape[1];
  int64_t spatial = 1;
  for (size_t d = 2; d < shape.size(); ++d)
    spatial *= shape[d];
  std::mt19937 rng(31 + std::get<0>(GetParam()));
  Tensor x = randomTensor(c.x, shape, rng, -3, 5);
  Tensor scale = randomTensor(c.scale, {channels}, rng, 0.5, 2);
  Tensor bias = randomTensor(c.bias, {channels}, rng, -1, 1);
  Tensor y = sentinelTensor(c.x, shape);
  Tensor mean = sentinelTensor(AMP_DTYPE_F32, {channels});
  Tensor invstd = sentinelTensor(AMP_DTYPE_F32, {channels});
  const float eps = 1e-3f;
  ASSERT_TRUE(isOk(amp_batch_norm(
      x.data(), c.affine ? scale.data() : nullptr,
      c.affine ? bias.data() : nullptr, y.data(),
      static_cast<float *>(mean.data()), static_cast<float *>(invstd.data()),
      x.dims(), x.rank(), c.x, c.scale, c.bias, eps, nullptr)));

  auto channelOf = [&](int64_t i) { return (i / spatial) % channels; };
  std::vector<std::vector<int64_t>> groups(channels);
  for (int64_t i = 0; i < x.size(); ++i)
    groups[channelOf(i)].push_back(i);
  std::vector<double> yRef(x.size()), yTol(x.size()), mRef(channels),
      mTol(channels), rRef(channels), rTol(channels);
  for (int64_t ch = 0; ch < channels; ++ch)
    normForwardF64(x, groups[ch], c.affine ? &scale : nullptr,
                   c.affine ? &bias : nullptr, eps, channelOf,
                   {yRef, yTol, &mRef[ch], &mTol[ch], &rRef[ch], &rTol[ch]});
  EXPECT_TRUE(allClose(y, yRef, yTol, "batch_norm y"));
  EXPECT_TRUE(allClose(mean, mRef, mTol, "batch_norm mean"));
  EXPECT_TRUE(allClose(invstd, rRef, rTol, "batch_norm invstd"));

  Tensor dy = randomTensor(c.x, shape, rng, -1, 1);
  Tensor dx = sentinelTensor(c.x, shape);
  Tensor dscale = sentinelTensor(c.scale, {channels});
  Tensor dbias = sentinelTensor(c.scale, {channels});
  ASSERT_TRUE(isOk(amp_batch_norm_grad(
      dy.data(), x.data(), static_cast<const float *>(mean.data()),
      static_cast<const float *>(invstd.data()),
      c.affine ? scale.data() : nullptr, dx.data(), dscale.data(), dbias.data(),
      x.dims(), x.rank(), c.x, c.scale, nullptr)));
  std::vector<double> dxRef(x.size()), dxTol(x.size()), meanOf(x.size()),
      rstdOf(x.size());
  std::vector<int64_t> paramOf(x.size());
  for (int64_t ch = 0; ch < channels; ++ch) {
    normGradF64(dy, x, groups[ch], c.affine ? &scale : nullptr, mean.get(ch),
                invstd.get(ch), channelOf, dxRef, dxTol);
    for (int64_t i : groups[ch]) {
      meanOf[i] = mean.get(ch);
      rstdOf[i] = invstd.get(ch);
      paramOf[i] = ch;
    }
  }
  EXPECT_TRUE(allClose(dx, dxRef, dxTol, "batch_norm_grad dx"));
  std::vector<double> dsRef, dsTol, dbRef, dbTol;
  paramGradF64(dy, x, paramOf, meanOf, rstdOf, channels, x.size() / channels,
               c.scale, dsRef, dsTol, dbRef, dbTol);
  EXPECT_TRUE(allClose(dscale, dsRef, dsTol, "batch_norm_grad dscale"));
  EXPECT_TRUE(allClose(dbias, dbRef, dbTol, "batch_norm_grad dbias"));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BatchNormTest,
    ::testing::Combine(::testing::Range(0, 10), ::testing::Range(0, 3)),
    [](const auto &info) {
      return normCaseName(normCases()[std::get<0>(info.param)]) + "_shape" +
             std::to_string(std::get<1>(info.param));
    });

TEST(Norm, ConstantInputsGiveZeroAndOneOverSqrtEps) {
  // Zero variance: xhat = 0, rstd = 1/sqrt(eps), y = bias.
  Tensor x(AMP_DTYPE_F16, {2, 4}), y(AMP_DTYPE_F16, {2, 4});
  for (int64_t i = 0; i < 8; ++i)
    x.set(i, 3.0);
  float mean[2], rstd[2];
  ASSERT_TRUE(isOk(amp_layer_norm(
      x.data(), nullptr, nullptr, y.data(), mean, rstd, x.dims(), 2,
      AMP_DTYPE_F16, AMP_DTYPE_F16, AMP_DTYPE_F16, -1, 0.25f, nullptr)));
  EXPECT_TRUE(allEqual(y, std::vector<double>(8, 0.0), "y"));
  EXPECT_EQ(mean[0], 3.0f);
  EXPECT_EQ(rstd[1], 2.0f);
}

TEST(Norm, RejectsBadArguments) {
  Tensor x(AMP_DTYPE_F16, {2, 4}), y(AMP_DTYPE_F16, {2, 4});
  Tensor scale(AMP_DTYPE_BF16, {4});
  float mean[4], rstd[4];
  EXPECT_TRUE(
      failsWith(amp_layer_norm(x.data(), scale.data(), nullptr, y.data(), mean,
                               rstd, x.dims(), 2, AMP_DTYPE_F16, AMP_DTYPE_BF16,
                               AMP_DTYPE_F16, -1, 1e-5f, nullptr),
                AMP_STATUS_NOT_SUPPORTED, "scale_dtype is bf16"));
  EXPECT_TRUE(
      failsWith(amp_layer_norm(x.data(), nullptr, nullptr, y.data(), mean, rstd,
                               x.dims(), 2, AMP_DTYPE_F16, AMP_DTYPE_F16,
                               AMP_DTYPE_F16, -1, -1.0f, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "epsilon"));
  EXPECT_TRUE(
      failsWith(amp_layer_norm(x.data(), nullptr, nullptr, y.data(), nullptr,
                               rstd, x.dims(), 2, AMP_DTYPE_F16, AMP_DTYPE_F16,
                               AMP_DTYPE_F16, -1, 1e-5f, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "mean is NULL"));
  const int64_t one[] = {8};
  EXPECT_TRUE(
      failsWith(amp_batch_norm(x.data(), nullptr, nullptr, y.data(), mean, rstd,
                               one, 1, AMP_DTYPE_F16, AMP_DTYPE_F16,
                               AMP_DTYPE_F16, 1e-5f, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "rank >= 2"));
  const int64_t empty[] = {0, 4};
  EXPECT_TRUE(
      failsWith(amp_batch_norm(x.data(), nullptr, nullptr, y.data(), mean, rstd,
                               empty, 2, AMP_DTYPE_F16, AMP_DTYPE_F16,
                               AMP_DTYPE_F16, 1e-5f, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "no elements"));
}

/// amp_running_stats_update against the formula in f64: (1 - m) * running
/// + m * batch, the batch variance 1 / invstd^2 - eps times the correction;
/// in place (results aliasing the running inputs) as well.
TEST(RunningStats, UpdateMatchesF64) {
  const int64_t c = 37;
  const float momentum = 0.1f, eps = 1e-5f, correction = 128.0f / 127.0f;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> mean(-2.0f, 2.0f), pos(0.05f, 3.0f);
  std::vector<float> rm(c), rv(c), m(c), is(c);
  for (int64_t i = 0; i < c; ++i) {
    rm[i] = mean(rng);
    rv[i] = pos(rng);
    m[i] = mean(rng);
    is[i] = pos(rng);
  }
  auto expectUpdate = [&](const std::vector<float> &gotMean,
                          const std::vector<float> &gotVar) {
    for (int64_t i = 0; i < c; ++i) {
      const double mu = 1.0 - momentum;
      const double var = 1.0 / (double(is[i]) * is[i]) - eps;
      const double wantMean = mu * rm[i] + double(momentum) * m[i];
      const double wantVar =
          mu * rv[i] + double(momentum) * var * double(correction);
      EXPECT_NEAR(gotMean[i], wantMean, 1e-6 * (1 + std::abs(wantMean))) << i;
      EXPECT_NEAR(gotVar[i], wantVar, 1e-6 * (1 + std::abs(wantVar))) << i;
    }
  };
  std::vector<float> newMean(c), newVar(c);
  ASSERT_TRUE(isOk(amp_running_stats_update(
      rm.data(), rv.data(), m.data(), is.data(), newMean.data(), newVar.data(),
      c, momentum, eps, correction, nullptr)));
  expectUpdate(newMean, newVar);
  std::vector<float> inMean = rm, inVar = rv;
  ASSERT_TRUE(isOk(amp_running_stats_update(
      inMean.data(), inVar.data(), m.data(), is.data(), inMean.data(),
      inVar.data(), c, momentum, eps, correction, nullptr)));
  EXPECT_EQ(inMean, newMean);
  EXPECT_EQ(inVar, newVar);
  // Momentum 1 takes the batch's statistics; 0 keeps the running ones.
  ASSERT_TRUE(isOk(amp_running_stats_update(
      rm.data(), rv.data(), m.data(), is.data(), newMean.data(), newVar.data(),
      c, 0.0f, eps, 1.0f, nullptr)));
  EXPECT_EQ(newMean, rm);
  EXPECT_EQ(newVar, rv);
  // No channel: nothing to read or write.
  EXPECT_TRUE(isOk(amp_running_stats_update(nullptr, nullptr, nullptr, nullptr,
                                            nullptr, nullptr, 0, momentum, eps,
                                            correction, nullptr)));
}

TEST(RunningStats, RejectsBadArguments) {
  float s[4] = {1, 1, 1, 1}, out[4], out2[4];
  auto call = [&](const float *mean, int64_t c, float momentum, float eps,
                  float correction) {
    return amp_running_stats_update(s, s, mean, s, out, out2, c, momentum, eps,
                                    correction, nullptr);
  };
  EXPECT_TRUE(failsWith(call(s, -1, 0.1f, 1e-5f, 1.0f),
                        AMP_STATUS_INVALID_ARGUMENT, "channels"));
  EXPECT_TRUE(failsWith(call(s, 4, 1.5f, 1e-5f, 1.0f),
                        AMP_STATUS_INVALID_ARGUMENT, "momentum (1.5)"));
  EXPECT_TRUE(failsWith(call(s, 4, std::nanf(""), 1e-5f, 1.0f),
                        AMP_STATUS_INVALID_ARGUMENT, "momentum"));
  EXPECT_TRUE(failsWith(call(s, 4, 0.1f, -1.0f, 1.0f),
                        AMP_STATUS_INVALID_ARGUMENT, "epsilon"));
  EXPECT_TRUE(failsWith(call(s, 4, 0.1f, 1e-5f, 0.5f),
                        AMP_STATUS_INVALID_ARGUMENT, "correction (0.5)"));
  EXPECT_TRUE(failsWith(call(s, 4, 0.1f, 1e-5f, INFINITY),
                        AMP_STATUS_INVALID_ARGUMENT, "correction"));
  EXPECT_TRUE(failsWith(call(nullptr, 4, 0.1f, 1e-5f, 1.0f),
                        AMP_STATUS_INVALID_ARGUMENT, "mean is NULL"));
}

} // namespace
