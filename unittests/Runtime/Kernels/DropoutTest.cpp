//===- DropoutTest.cpp - amp_dropout's mask, scaling and statistics -------===//
//
// The keep(seed, i) formula of kernels.h on elements computed by hand from
// the published splitmix64 test vectors (seed 0: e220a8397b1dcdaf,
// 6e789e6aa1b965f4, 06c45d188009454f, f88bb8a8724c81ec), the kept fraction
// within statistical bounds of 1 - rate, determinism per seed, the identity
// when not training, and the argument checks.
//
// Values are exact: a kept element is RNE(f32(x / f32(1 - rate))), a
// dropped one +0.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <random>

using namespace amp::test;

namespace {

/// What amp_dropout stores for a kept x: the f32 quotient, rounded once.
double keptValue(amp_dtype_t dtype, double x, float rate) {
  return roundViaF32(dtype, x / static_cast<double>(1.0f - rate));
}

Tensor ones(amp_dtype_t dtype, int64_t n) {
  Tensor t(dtype, {n});
  for (int64_t i = 0; i < n; ++i)
    t.set(i, 1.0);
  return t;
}

TEST(Dropout, KeepsTheElementsTheFormulaSelects) {
  // Seed 0: z = i * 0x9E3779B97F4A7C15, whose finalized values for i = 1..4
  // are splitmix64's first outputs; u = z >> 40 = 0, 14819496, 7239838,
  // 443485, 16288696 for i = 0..4. Thresholds f32(2^24 * f32(1 - rate)):
  // 0.5 -> 8388608, 0.1 -> 15099494, 0.12 -> 14763950, 0.02 -> 16441672,
  // 0.03 -> 16274900.
  const struct {
    float rate;
    std::vector<bool> keep;
  } cases[] = {{0.5f, {true, false, true, true, false}},
               {0.1f, {true, true, true, true, false}},
               {0.12f, {true, false, true, true, false}},
               {0.02f, {true, true, true, true, true}},
               {0.03f, {true, true, true, true, false}}};
  const int64_t seed = 0;
  for (amp_dtype_t dtype : floatDtypes())
    for (const auto &c : cases) {
      Tensor x = ones(dtype, 5);
      Tensor y = sentinelTensor(dtype, {5});
      ASSERT_TRUE(isOk(amp_dropout(x.data(), &seed, y.data(), 5, dtype, c.rate,
                                   1, nullptr)));
      std::vector<double> ref;
      for (bool k : c.keep)
        ref.push_back(k ? keptValue(dtype, 1.0, c.rate) : 0.0);
      EXPECT_TRUE(allEqual(
          y, ref, "rate " + std::to_string(c.rate) + " " + dtypeName(dtype)));
    }
}

TEST(Dropout, KeptFractionIsWithinStatisticalBounds) {
  const int64_t n = int64_t{1} << 20;
  const int64_t seed = -7; // negative seeds are taken mod 2^64
  Tensor x = ones(AMP_DTYPE_F32, n);
  Tensor y(AMP_DTYPE_F32, {n});
  for (float rate : {0.1f, 0.24f, 0.25f, 0.5f, 0.9f}) {
    ASSERT_TRUE(isOk(amp_dropout(x.data(), &seed, y.data(), n, AMP_DTYPE_F32,
                                 rate, 1, nullptr)));
    int64_t kept = 0, keptPairs = 0;
    for (int64_t i = 0; i < n; ++i) {
      const bool k = y.get(i) != 0.0;
      kept += k;
      keptPairs += k && i > 0 && y.get(i - 1) != 0.0;
    }
    // Bernoulli(p): six standard deviations, and the same for neighbours
    // (independence: p^2).
    const double p = 1.0 - rate, sigma = std::sqrt(p * (1 - p) / n);
    EXPECT_NEAR(static_cast<double>(kept) / n, p, 6 * sigma) << rate;
    const double sigma2 = std::sqrt(p * p * (1 - p * p) / n);
    EXPECT_NEAR(static_cast<double>(keptPairs) / (n - 1), p * p, 8 * sigma2)
        << rate;
  }
  // Element 10^6 has u = 12605505 for seed -7 (hand-computed): dropped at
  // rate 0.25 (threshold 12582912), kept at 0.24 (12750684).
  for (float rate : {0.25f, 0.24f}) {
    ASSERT_TRUE(isOk(amp_dropout(x.data(), &seed, y.data(), n, AMP_DTYPE_F32,
                                 rate, 1, nullptr)));
    EXPECT_EQ(y.get(1000000),
              rate == 0.25f ? 0.0 : keptValue(AMP_DTYPE_F32, 1.0, rate));
  }
}

TEST(Dropout, SameSeedSameMaskAndTheGradientFollowsIt) {
  std::mt19937 rng(5);
  for (amp_dtype_t dtype : floatDtypes()) {
    Tensor x = randomTensor(dtype, {4099}, rng, 0.5, 2); // never 0
    Tensor dy = randomTensor(dtype, {4099}, rng, 0.5, 2);
    Tensor a(dtype, x.shape()), b(dtype, x.shape()), c(dtype, x.shape()),
        dx(dtype, x.shape());
    const int64_t seed = 123456789, other = 123456790;
    ASSERT_TRUE(isOk(amp_dropout(x.data(), &seed, a.data(), x.size(), dtype,
                                 0.3f, 1, nullptr)));
    ASSERT_TRUE(isOk(amp_dropout(x.data(), &seed, b.data(), x.size(), dtype,
                                 0.3f, 1, nullptr)));
    ASSERT_TRUE(isOk(amp_dropout(x.data(), &other, c.data(), x.size(), dtype,
                                 0.3f, 1, nullptr)));
    EXPECT_TRUE(a.sameBits(b));
    EXPECT_FALSE(a.sameBits(c));
    // The gradient is the same call on dy: the same elements survive.
    ASSERT_TRUE(isOk(amp_dropout(dy.data(), &seed, dx.data(), dy.size(), dtype,
                                 0.3f, 1, nullptr)));
    std::vector<double> ref;
    for (int64_t i = 0; i < x.size(); ++i)
      ref.push_back(a.get(i) != 0.0 ? keptValue(dtype, dy.get(i), 0.3f) : 0.0);
    EXPECT_TRUE(
        allEqual(dx, ref, std::string("dropout grad ") + dtypeName(dtype)));
    // In place.
    ASSERT_TRUE(isOk(amp_dropout(x.data(), &seed, x.data(), x.size(), dtype,
                                 0.3f, 1, nullptr)));
    EXPECT_TRUE(x.sameBits(a));
  }
}

TEST(Dropout, SpecialValues) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Seed 0, rate 0.5 keeps elements 0, 2 and 3 and drops 1 and 4.
  Tensor x(AMP_DTYPE_F16, {5});
  const double xs[] = {nan, nan, 65504.0, -inf, inf};
  for (int i = 0; i < 5; ++i)
    x.set(i, xs[i]);
  Tensor y(AMP_DTYPE_F16, {5});
  const int64_t seed = 0;
  ASSERT_TRUE(isOk(amp_dropout(x.data(), &seed, y.data(), 5, AMP_DTYPE_F16,
                               0.5f, 1, nullptr)));
  // A kept NaN stays NaN, 65504 / 0.5 overflows f16, dropped values are +0
  // whatever they were.
  EXPECT_TRUE(allEqual(y, {nan, 0.0, inf, -inf, 0.0}, "specials"));
  EXPECT_FALSE(std::signbit(y.get(1)) || std::signbit(y.get(4)));
}

TEST(Dropout, IdentityWhenNotTrainingOrRateZero) {
  Tensor x(AMP_DTYPE_BF16, {4});
  x.setBits(0, 0x7f81); // a signalling NaN keeps its bits
  x.setBits(1, 0x8000);
  x.setBits(2, 0x3f80);
  x.setBits(3, 0xc2f7);
  const int64_t seed = 99;
  for (const auto &[rate, training] : {std::pair<float, int32_t>{0.5f, 0},
                                       std::pair<float, int32_t>{0.0f, 1}}) {
    Tensor y = sentinelTensor(AMP_DTYPE_BF16, {4});
    ASSERT_TRUE(isOk(amp_dropout(x.data(), &seed, y.data(), 4, AMP_DTYPE_BF16,
                                 rate, training, nullptr)));
    EXPECT_TRUE(y.sameBits(x));
    ASSERT_TRUE(isOk(amp_dropout(x.data(), &seed, x.data(), 4, AMP_DTYPE_BF16,
                                 rate, training, nullptr)));
    EXPECT_TRUE(y.sameBits(x));
  }
}

TEST(Dropout, RejectsBadArguments) {
  Tensor x(AMP_DTYPE_F32, {3});
  Tensor y = sentinelTensor(AMP_DTYPE_F32, {3});
  const Tensor before = y;
  const int64_t seed = 1;
  for (float rate : {1.0f, -0.25f, NAN, 2.0f})
    EXPECT_TRUE(failsWith(amp_dropout(x.data(), &seed, y.data(), 3,
                                      AMP_DTYPE_F32, rate, 1, nullptr),
                          AMP_STATUS_INVALID_ARGUMENT, ") is not in [0, 1)"))
        << rate;
  EXPECT_TRUE(failsWith(amp_dropout(x.data(), nullptr, y.data(), 3,
                                    AMP_DTYPE_F32, 0.5f, 1, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "seed is NULL"));
  const int64_t *oddSeed = reinterpret_cast<const int64_t *>(
      reinterpret_cast<const char *>(&seed) + 4);
  EXPECT_TRUE(failsWith(amp_dropout(x.data(), oddSeed, y.data(), 3,
                                    AMP_DTYPE_F32, 0.5f, 1, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "seed ("));
  EXPECT_TRUE(failsWith(amp_dropout(x.data(), &seed, y.data(), 3, AMP_DTYPE_I64,
                                    0.5f, 1, nullptr),
                        AMP_STATUS_NOT_SUPPORTED, "dtype is i64"));
  EXPECT_TRUE(y.sameBits(before));
}

} // namespace
