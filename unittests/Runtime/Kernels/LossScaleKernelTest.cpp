//===- LossScaleKernelTest.cpp - Unscale-and-check and the scale update ---===//
//
// amp_unscale_and_check (exact: one correctly rounded f32 multiply by
// f32(1/f64(scale)), then RNE; found_inf over every buffer, only ever set,
// as PyTorch's _amp_foreach_non_finite_check_and_unscale_) and amp_update_scale (against the inline state machine of
// loss_scale.h, with the state in memory, in place or not).
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "amp_runtime/loss_scale.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <random>

using namespace amp::test;

namespace {

TEST(UnscaleAndCheck, IsExactOverMixedBuffers) {
  std::mt19937 rng(111);
  const amp_dtype_t dtypes[] = {AMP_DTYPE_F32, AMP_DTYPE_F16, AMP_DTYPE_BF16,
                                AMP_DTYPE_F32};
  const int64_t sizes[] = {1001, 333, 77, 0};
  for (float scale : {65536.0f, 1024.5f, 3.0f, 0.1f}) {
    std::vector<Tensor> grads, out;
    std::vector<const void *> in;
    std::vector<void *> outPtrs;
    for (int i = 0; i < 4; ++i) {
      grads.push_back(randomTensor(dtypes[i], {sizes[i]}, rng, -100, 100));
      out.push_back(sentinelTensor(dtypes[i], {sizes[i]}));
    }
    for (int i = 0; i < 4; ++i) {
      in.push_back(grads[i].data());
      outPtrs.push_back(out[i].data());
    }
    int8_t found = 0;
    ASSERT_TRUE(isOk(amp_unscale_and_check(4, in.data(), outPtrs.data(), sizes,
                                           dtypes, &scale, &found, nullptr)));
    EXPECT_EQ(found, 0);
    // inv = f32(1 / f64(scale)); the f64 product of two f32 values is exact.
    const double inv = roundTo(AMP_DTYPE_F32, 1.0 / double(scale));
    for (int i = 0; i < 4; ++i) {
      std::vector<double> ref;
      for (int64_t k = 0; k < sizes[i]; ++k)
        ref.push_back(roundViaF32(dtypes[i], grads[i].get(k) * inv));
      EXPECT_TRUE(allEqual(out[i], ref, "buffer " + std::to_string(i)));
    }
  }
}

TEST(UnscaleAndCheck, FindsInfAndNaNInAnyBufferAndUnscalesInPlace) {
  const double inf = std::numeric_limits<double>::infinity();
  for (int hit = 0; hit < 3; ++hit) {
    Tensor a(AMP_DTYPE_F32, {5}), b(AMP_DTYPE_F16, {4}), c(AMP_DTYPE_BF16, {3});
    for (int64_t k = 0; k < 5; ++k)
      a.set(k, 2.0 * k);
    b.set(1, 65504.0);    // finite in f16
    c.setBits(0, 0x7c00); // 2^121 in bf16: finite (f16's inf pattern)
    if (hit == 0)
      a.set(3, std::numeric_limits<double>::quiet_NaN());
    if (hit == 1)
      b.set(2, -inf);
    if (hit == 2)
      c.set(2, inf);
    const void *in[] = {a.data(), b.data(), c.data()};
    void *out[] = {a.data(), b.data(), c.data()};
    const int64_t sizes[] = {5, 4, 3};
    const amp_dtype_t dtypes[] = {AMP_DTYPE_F32, AMP_DTYPE_F16, AMP_DTYPE_BF16};
    const float scale = 2.0f;
    int8_t found = 0;
    ASSERT_TRUE(isOk(amp_unscale_and_check(3, in, out, sizes, dtypes, &scale,
                                           &found, nullptr)));
    EXPECT_EQ(found, 1) << "hit " << hit;
    EXPECT_EQ(a.get(4), 4.0); // still unscaled everywhere
    EXPECT_EQ(b.get(1), 32752.0);
  }
  // No buffers: nothing found.
  const float scale = 1.0f;
  int8_t found = 0;
  ASSERT_TRUE(isOk(amp_unscale_and_check(0, nullptr, nullptr, nullptr, nullptr,
                                         &scale, &found, nullptr)));
  EXPECT_EQ(found, 0);
}

TEST(UnscaleAndCheck, AnEarlierInfSurvivesACleanLaterCall) {
  // One flag over several calls (one per dtype group), as PyTorch's
  // _amp_foreach_non_finite_check_and_unscale_: set, never cleared.
  Tensor bad(AMP_DTYPE_F16, {2}), clean(AMP_DTYPE_F32, {3});
  bad.set(1, std::numeric_limits<double>::infinity());
  for (int64_t k = 0; k < 3; ++k)
    clean.set(k, 1.5 * k);
  const float scale = 4.0f;
  int8_t found = 0;
  const void *badIn[] = {bad.data()};
  void *badOut[] = {bad.data()};
  const int64_t badSize = 2, cleanSize = 3;
  const amp_dtype_t f16 = AMP_DTYPE_F16, f32 = AMP_DTYPE_F32;
  ASSERT_TRUE(isOk(amp_unscale_and_check(1, badIn, badOut, &badSize, &f16,
                                         &scale, &found, nullptr)));
  EXPECT_EQ(found, 1);
  const void *cleanIn[] = {clean.data()};
  void *cleanOut[] = {clean.data()};
  ASSERT_TRUE(isOk(amp_unscale_and_check(1, cleanIn, cleanOut, &cleanSize,
                                         &f32, &scale, &found, nullptr)));
  EXPECT_EQ(found, 1) << "a clean call must not clear an earlier inf";
  EXPECT_EQ(clean.get(2), 0.75); // and it still unscales
}

TEST(UnscaleAndCheck, ZeroScaleGivesInfiniteInverse) {
  // docs/loss-scaling.md: 1/0 is +inf, so unscaled values are inf or NaN
  // (0 * inf), but found_inf looks only at the scaled inputs.
  Tensor g(AMP_DTYPE_F32, {2});
  g.set(0, 1.0);
  const void *in[] = {g.data()};
  void *out[] = {g.data()};
  const int64_t size = 2;
  const amp_dtype_t dtype = AMP_DTYPE_F32;
  const float scale = 0.0f;
  int8_t found = 0;
  ASSERT_TRUE(isOk(amp_unscale_and_check(1, in, out, &size, &dtype, &scale,
                                         &found, nullptr)));
  EXPECT_EQ(found, 0);
  EXPECT_TRUE(std::isinf(g.get(0)));
  EXPECT_TRUE(std::isnan(g.get(1)));
}

TEST(UpdateScale, FollowsTheStateMachineThroughMemory) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  config.growth_interval = 3;
  for (bool withHysteresis : {false, true}) {
    config.hysteresis = withHysteresis ? 2 : 1;
    amp_loss_scale_state_t expected;
    ASSERT_EQ(amp_loss_scale_state_init(&expected, 65536.0f, &config),
              AMP_STATUS_OK);
    float scale = expected.scale;
    int32_t growth = 0, hysteresis = expected.hysteresis_tracker;
    const int8_t pattern[] = {0, 0, 0, 1, 0, 1, 1, 1, 0, 0, 0, 0};
    for (int8_t found : pattern) {
      amp_loss_scale_state_update(&expected, &config, found);
      // Alternate between in-place and separate outputs.
      float newScale;
      int32_t newGrowth, newHysteresis;
      const bool inPlace = found == 0;
      ASSERT_TRUE(isOk(amp_update_scale(
          &scale, &growth, withHysteresis ? &hysteresis : nullptr, &found,
          inPlace ? &scale : &newScale, inPlace ? &growth : &newGrowth,
          withHysteresis ? (inPlace ? &hysteresis : &newHysteresis) : nullptr,
          config.growth_factor, config.backoff_factor, config.growth_interval,
          config.min_scale, config.max_scale, config.hysteresis, nullptr)));
      if (!inPlace) {
        scale = newScale;
        growth = newGrowth;
        if (withHysteresis)
          hysteresis = newHysteresis;
      }
      EXPECT_EQ(scale, expected.scale);
      EXPECT_EQ(growth, expected.growth_tracker);
      if (withHysteresis) {
        EXPECT_EQ(hysteresis, expected.hysteresis_tracker);
      }
    }
  }
}

TEST(UpdateScale, RejectsBadConfigsAndPointers) {
  float scale = 1.0f;
  int32_t growth = 0, hyst = 1;
  const int8_t found = 0;
  EXPECT_TRUE(failsWith(amp_update_scale(&scale, &growth, nullptr, &found,
                                         &scale, &growth, nullptr, 1.0, 0.5,
                                         2000, 0.0f, INFINITY, 1, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "config"));
  EXPECT_TRUE(failsWith(amp_update_scale(&scale, &growth, &hyst, &found, &scale,
                                         &growth, nullptr, 2.0, 0.5, 2000, 0.0f,
                                         INFINITY, 1, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "both"));
  EXPECT_TRUE(failsWith(amp_update_scale(&scale, &growth, nullptr, nullptr,
                                         &scale, &growth, nullptr, 2.0, 0.5,
                                         2000, 0.0f, INFINITY, 1, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "found_inf"));
}

} // namespace
