//===- LossScaleTest.cpp - Tests of the loss-scale state machine ----------===//
//
// Unit tests of runtime/include/amp_runtime/loss_scale.h: growth and backoff
// of the dynamic loss scale (PyTorch GradScaler semantics, checked against an
// independent re-implementation of `_amp_update_scale_`), the f64 product,
// min/max scale, hysteresis, config validation, and the non-finite and
// unscale helpers.
//
//===----------------------------------------------------------------------===//

#include "amp_runtime/loss_scale.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

extern "C" {
// LossScaleC.c: the header's inline code compiled as C.
amp_loss_scale_config_t amp_test_c_default_config(void);
void amp_test_c_state_update(amp_loss_scale_state_t *state,
                             const amp_loss_scale_config_t *config,
                             int32_t found_inf);
}

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kFltMax = std::numeric_limits<float>::max();

float pow2(int exponent) { return std::ldexp(1.0f, exponent); }

uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

float floatOfBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

amp_loss_scale_state_t makeState(const amp_loss_scale_config_t &config,
                                 float scale = 65536.0f) {
  amp_loss_scale_state_t state;
  EXPECT_EQ(amp_loss_scale_state_init(&state, scale, &config), AMP_STATUS_OK);
  return state;
}

void step(amp_loss_scale_state_t &state, const amp_loss_scale_config_t &config,
          bool foundInf) {
  amp_loss_scale_state_update(&state, &config, foundInf ? 1 : 0);
}

void cleanSteps(amp_loss_scale_state_t &state,
                const amp_loss_scale_config_t &config, int count) {
  for (int i = 0; i < count; ++i)
    step(state, config, /*foundInf=*/false);
}

// A straightforward transcription of PyTorch's `_amp_update_scale_cpu_`
// (aten/src/ATen/native/AmpKernels.cpp), written independently of the code
// under test. `currentScale *= backoffFactor` multiplies a float by a double:
// the product is formed in double and rounded to float on assignment.
void torchAmpUpdateScale(float &currentScale, int32_t &growthTracker,
                         float foundInf, double growthFactor,
                         double backoffFactor, int64_t growthInterval) {
  if (foundInf) {
    currentScale *= backoffFactor;
    growthTracker = 0;
  } else {
    auto successful = growthTracker + 1;
    if (successful == growthInterval) {
      auto newScale = static_cast<float>(currentScale * growthFactor);
      if (std::isfinite(newScale))
        currentScale = newScale;
      growthTracker = 0;
    } else {
      growthTracker = successful;
    }
  }
}

//===----------------------------------------------------------------------===//
// Defaults
//===----------------------------------------------------------------------===//

TEST(LossScaleConfig, DefaultsArePyTorchGradScaler) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  EXPECT_EQ(config.growth_factor, 2.0);
  EXPECT_EQ(config.backoff_factor, 0.5);
  EXPECT_EQ(config.growth_interval, 2000);
  EXPECT_EQ(config.min_scale, 0.0f);
  EXPECT_EQ(config.max_scale, kInf);
  EXPECT_EQ(config.hysteresis, 1);
  EXPECT_EQ(AMP_LOSS_SCALE_DEFAULT_INIT_SCALE, 65536.0f);
  EXPECT_EQ(amp_loss_scale_validate_config(&config), AMP_STATUS_OK);

  amp_loss_scale_config_t fromMacro = AMP_LOSS_SCALE_CONFIG_DEFAULT_INIT;
  EXPECT_EQ(std::memcmp(&fromMacro, &config, sizeof(config)), 0);
  amp_loss_scale_config_t fromC = amp_test_c_default_config();
  EXPECT_EQ(std::memcmp(&fromC, &config, sizeof(config)), 0);
}

TEST(LossScaleConfig, StateInit) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  config.hysteresis = 3;
  amp_loss_scale_state_t state = {-1.0f, -1, -1};
  ASSERT_EQ(amp_loss_scale_state_init(&state, 65536.0f, &config),
            AMP_STATUS_OK);
  EXPECT_EQ(state.scale, 65536.0f);
  EXPECT_EQ(state.growth_tracker, 0);
  EXPECT_EQ(state.hysteresis_tracker, 3);
}

//===----------------------------------------------------------------------===//
// Growth and backoff with the defaults
//===----------------------------------------------------------------------===//

TEST(LossScaleUpdate, GrowsOnExactlyTheIntervalthCleanStep) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  amp_loss_scale_state_t state = makeState(config);

  cleanSteps(state, config, 1999);
  EXPECT_EQ(state.scale, 65536.0f) << "grew before the 2000th clean step";
  EXPECT_EQ(state.growth_tracker, 1999);

  step(state, config, false);
  EXPECT_EQ(state.scale, 131072.0f) << "did not grow on the 2000th step";
  EXPECT_EQ(state.growth_tracker, 0);

  cleanSteps(state, config, 1999);
  EXPECT_EQ(state.scale, 131072.0f);
  EXPECT_EQ(state.growth_tracker, 1999);
  step(state, config, false);
  EXPECT_EQ(state.scale, 262144.0f);
  EXPECT_EQ(state.growth_tracker, 0);
}

TEST(LossScaleUpdate, BackoffResetsTheGrowthTracker) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  amp_loss_scale_state_t state = makeState(config);

  cleanSteps(state, config, 1500);
  EXPECT_EQ(state.growth_tracker, 1500);
  step(state, config, true);
  EXPECT_EQ(state.scale, 32768.0f);
  EXPECT_EQ(state.growth_tracker, 0);

  // The next growth needs 2000 fresh clean steps.
  cleanSteps(state, config, 1999);
  EXPECT_EQ(state.scale, 32768.0f);
  step(state, config, false);
  EXPECT_EQ(state.scale, 65536.0f);
}

// found_inf comes from the unscale-and-check: +Inf, -Inf and NaN all back off.
TEST(LossScaleUpdate, BacksOffOnInfAndNaNGradients) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  for (float bad : {kInf, -kInf, kNaN, -kNaN}) {
    amp_loss_scale_state_t state = makeState(config);
    cleanSteps(state, config, 10);
    std::vector<float> grads = {1.0f, bad, 2.0f};
    int32_t foundInf = 0;
    amp_unscale_and_check_f32(grads.data(), grads.size(),
                              amp_loss_scale_inverse(state.scale), &foundInf);
    EXPECT_EQ(foundInf, 1) << bad;
    EXPECT_TRUE(amp_loss_scale_should_skip(foundInf));
    amp_loss_scale_state_update(&state, &config, foundInf);
    EXPECT_EQ(state.scale, 32768.0f) << bad;
    EXPECT_EQ(state.growth_tracker, 0) << bad;
  }
}

TEST(LossScaleUpdate, ShouldSkipExactlyOnFoundInf) {
  EXPECT_EQ(amp_loss_scale_should_skip(0), 0);
  EXPECT_EQ(amp_loss_scale_should_skip(1), 1);
  EXPECT_EQ(amp_loss_scale_should_skip(-7), 1);
}

// Repeated backoffs from 65536 walk through the subnormals down to 0: there
// is no floor by default.
TEST(LossScaleUpdate, BacksOffThroughSubnormalsToZero) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  amp_loss_scale_state_t state = makeState(config);
  for (int k = 1; k <= 165; ++k) {
    step(state, config, true);
    ASSERT_EQ(state.scale, pow2(16 - k)) << "after " << k << " backoffs";
    int expectedClass = k <= 142 ? FP_NORMAL : FP_SUBNORMAL;
    ASSERT_EQ(std::fpclassify(state.scale), expectedClass) << k;
  }
  EXPECT_EQ(state.scale, std::numeric_limits<float>::denorm_min());
  // 2^-150 is halfway between 0 and 2^-149 and rounds to even: 0.
  step(state, config, true);
  EXPECT_EQ(bitsOf(state.scale), 0u);
  step(state, config, true);
  EXPECT_EQ(bitsOf(state.scale), 0u);
  // A zero scale stays zero, growth included.
  cleanSteps(state, config, 2000);
  EXPECT_EQ(bitsOf(state.scale), 0u);
}

TEST(LossScaleUpdate, RejectsGrowthThatOverflows) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  amp_loss_scale_state_t state = makeState(config, pow2(127));
  cleanSteps(state, config, 1999);
  EXPECT_EQ(state.growth_tracker, 1999);
  step(state, config, false);
  EXPECT_EQ(state.scale, pow2(127)) << "2^128 is inf in f32";
  EXPECT_EQ(state.growth_tracker, 0) << "the tracker resets either way";
  cleanSteps(state, config, 2000);
  EXPECT_EQ(state.scale, pow2(127));
  EXPECT_EQ(state.growth_tracker, 0);
}

// Finiteness is judged on the product rounded to f32: a product just above
// FLT_MAX that rounds down to FLT_MAX is applied.
TEST(LossScaleUpdate, GrowthFinitenessIsJudgedAfterRounding) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  config.growth_interval = 1;
  config.growth_factor = 1.0 + std::ldexp(1.0, -26);
  amp_loss_scale_state_t state = makeState(config, kFltMax);
  ASSERT_GT(static_cast<double>(kFltMax) * config.growth_factor,
            static_cast<double>(kFltMax));
  step(state, config, false);
  EXPECT_EQ(state.scale, kFltMax);

  config.growth_factor = 1.0 + 1e-7; // rounds to inf: rejected.
  state = makeState(config, kFltMax);
  step(state, config, false);
  EXPECT_EQ(state.scale, kFltMax);
}

//===----------------------------------------------------------------------===//
// The f64 product
//===----------------------------------------------------------------------===//

float f64Product(float scale, double factor) {
  return static_cast<float>(static_cast<double>(scale) * factor);
}

TEST(LossScaleUpdate, BackoffProductIsComputedInF64) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  config.backoff_factor = 0.8;

  // 13 * 0.8: f64 then f32 gives 10.3999996, the f32 product 10.4000006.
  amp_loss_scale_state_t state = makeState(config, 13.0f);
  step(state, config, true);
  EXPECT_EQ(state.scale, f64Product(13.0f, 0.8));
  EXPECT_EQ(state.scale, 10.3999996185302734375f);
  EXPECT_NE(state.scale, 13.0f * 0.8f) << "product was formed in f32";

  // Over many scales, the update always matches the f64 reference, and it
  // differs from the naive f32 product for a fair share of them.
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  std::uniform_int_distribution<int> exponent(-120, 120);
  int differFromF32 = 0;
  for (int i = 0; i < 10000; ++i) {
    float scale = std::ldexp(mantissa(rng), exponent(rng));
    state = makeState(config, scale);
    step(state, config, true);
    ASSERT_EQ(state.scale, f64Product(scale, 0.8)) << scale;
    differFromF32 += state.scale != scale * 0.8f;
  }
  EXPECT_GT(differFromF32, 100);
}

TEST(LossScaleUpdate, GrowthProductIsComputedInF64) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  config.growth_factor = 1.1;
  config.growth_interval = 1;
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> scales(1.0f, 1e30f);
  int differFromF32 = 0;
  for (int i = 0; i < 10000; ++i) {
    float scale = scales(rng);
    amp_loss_scale_state_t state = makeState(config, scale);
    step(state, config, false);
    ASSERT_EQ(state.scale, f64Product(scale, 1.1)) << scale;
    differFromF32 += state.scale != scale * 1.1f;
  }
  EXPECT_GT(differFromF32, 100);
}

//===----------------------------------------------------------------------===//
// min_scale and max_scale
//===----------------------------------------------------------------------===//

TEST(LossScaleUpdate, MinScaleFloorsBackoff) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  config.min_scale = 1.0f;
  amp_loss_scale_state_t state = makeState(config, 4.0f);
  step(state, config, true);
  EXPECT_EQ(state.scale, 2.0f);
  step(state, config, true);
  EXPECT_EQ(state.scale, 1.0f);
  step(state, config, true);
  EXPECT_EQ(state.scale, 1.0f);
  EXPECT_EQ(state.growth_tracker, 0);

  // The floor applies to the rounded product, not only to powers of two.
  config.backoff_factor = 0.8;
  state = makeState(config, 1.1f);
  step(state, config, true);
  EXPECT_EQ(state.scale, 1.0f);

  // Growth is not affected by the floor.
  config.growth_interval = 3;
  cleanSteps(state, config, 3);
  EXPECT_EQ(state.scale, 2.0f);
}

TEST(LossScaleUpdate, MaxScaleCapsGrowth) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  config.max_scale = 100000.0f;
  amp_loss_scale_state_t state = makeState(config);
  cleanSteps(state, config, 2000);
  EXPECT_EQ(state.scale, 100000.0f);
  EXPECT_EQ(state.growth_tracker, 0);
  cleanSteps(state, config, 2000);
  EXPECT_EQ(state.scale, 100000.0f);
  EXPECT_EQ(state.growth_tracker, 0);
  // Backoff is not affected by the cap.
  step(state, config, true);
  EXPECT_EQ(state.scale, 50000.0f);
}

// With a finite cap, a growth that would overflow lands on the cap.
TEST(LossScaleUpdate, MaxScaleAppliesBeforeTheOverflowCheck) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  config.growth_interval = 1;
  config.max_scale = kFltMax;
  amp_loss_scale_state_t state = makeState(config, pow2(127));
  step(state, config, false);
  EXPECT_EQ(state.scale, kFltMax);
}

//===----------------------------------------------------------------------===//
// Hysteresis (Megatron semantics)
//===----------------------------------------------------------------------===//

struct Expected {
  bool foundInf;
  float scale;
  int32_t growthTracker;
  int32_t hysteresisTracker;
};

void runSequence(amp_loss_scale_state_t &state,
                 const amp_loss_scale_config_t &config,
                 const std::vector<Expected> &sequence) {
  for (size_t i = 0; i < sequence.size(); ++i) {
    const Expected &e = sequence[i];
    step(state, config, e.foundInf);
    EXPECT_EQ(state.scale, e.scale) << "step " << i;
    EXPECT_EQ(state.growth_tracker, e.growthTracker) << "step " << i;
    EXPECT_EQ(state.hysteresis_tracker, e.hysteresisTracker) << "step " << i;
  }
}

TEST(LossScaleHysteresis, TwoInfsPerBackoff) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  config.hysteresis = 2;
  config.growth_interval = 3;
  amp_loss_scale_state_t state = makeState(config, 1024.0f);
  runSequence(state, config,
              {
                  {true, 1024.0f, 0, 1},  // tolerated
                  {false, 1024.0f, 1, 1}, // a clean step does not refill
                  {true, 512.0f, 0, 0},   // second inf: backoff
                  {true, 256.0f, 0, 0},   // exhausted: every inf backs off
                  {false, 256.0f, 1, 0},
                  {false, 256.0f, 2, 0},
                  {false, 512.0f, 0, 2}, // growth refills the tracker
                  {true, 512.0f, 0, 1},  // tolerated again
                  {false, 512.0f, 1, 1},
                  {true, 256.0f, 0, 0},
              });
}

TEST(LossScaleHysteresis, ThreeInfsPerBackoff) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  config.hysteresis = 3;
  amp_loss_scale_state_t state = makeState(config);
  runSequence(state, config,
              {
                  {true, 65536.0f, 0, 2},
                  {false, 65536.0f, 1, 2},
                  {true, 65536.0f, 0, 1},
                  {false, 65536.0f, 1, 1},
                  {false, 65536.0f, 2, 1},
                  {true, 32768.0f, 0, 0},
                  {false, 32768.0f, 1, 0},
                  {true, 16384.0f, 0, 0},
              });
  // 2000 clean steps: growth, and the tracker is back to 3.
  cleanSteps(state, config, 2000);
  EXPECT_EQ(state.scale, 32768.0f);
  EXPECT_EQ(state.hysteresis_tracker, 3);
  runSequence(state, config,
              {
                  {true, 32768.0f, 0, 2},
                  {true, 32768.0f, 0, 1},
                  {true, 16384.0f, 0, 0},
              });
}

// Clean steps short of a growth never refill the tracker (Megatron; not
// DeepSpeed's consecutive_hysteresis).
TEST(LossScaleHysteresis, CleanStepsAloneDoNotRefill) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  config.hysteresis = 2;
  amp_loss_scale_state_t state = makeState(config);
  step(state, config, true);
  cleanSteps(state, config, 1999);
  EXPECT_EQ(state.hysteresis_tracker, 1);
  step(state, config, true);
  EXPECT_EQ(state.scale, 32768.0f);
}

// A completed growth interval refills the tracker even when the growth
// itself is rejected (overflow) or capped.
TEST(LossScaleHysteresis, RejectedGrowthStillRefills) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  config.hysteresis = 2;
  config.growth_interval = 2;
  amp_loss_scale_state_t state = makeState(config, pow2(127));
  runSequence(state, config,
              {
                  {true, pow2(127), 0, 1},
                  {true, pow2(126), 0, 0},
                  {false, pow2(126), 1, 0},
                  {false, pow2(127), 0, 2},
                  {false, pow2(127), 1, 2},
                  {true, pow2(127), 0, 1},
                  {false, pow2(127), 1, 1},
                  {false, pow2(127), 0, 2}, // growth rejected, refilled
                  {true, pow2(127), 0, 1},
              });
}

// The tracker does not count below 0, however long the run of infs.
TEST(LossScaleHysteresis, TrackerStopsAtZero) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  config.hysteresis = 2;
  amp_loss_scale_state_t state = makeState(config);
  for (int i = 0; i < 500; ++i)
    step(state, config, true);
  EXPECT_EQ(state.hysteresis_tracker, 0);
  EXPECT_EQ(bitsOf(state.scale), 0u);
}

//===----------------------------------------------------------------------===//
// Against PyTorch on long random sequences
//===----------------------------------------------------------------------===//

struct RandomCase {
  double growthFactor;
  double backoffFactor;
  int32_t growthInterval;
  double infProbability;
  float initScale;
};

TEST(LossScalePyTorch, HysteresisOneMatchesPyTorchOnRandomSequences) {
  const RandomCase cases[] = {
      {2.0, 0.5, 2000, 0.0002, 65536.0f}, // the defaults
      {2.0, 0.5, 3, 0.2, 65536.0f},
      {2.0, 0.5, 1, 0.05, 65536.0f}, // reaches 2^127 and rejects growth
      {2.0, 0.5, 2, 0.6, 65536.0f},  // sinks to subnormals and 0
      {1.5, 0.8, 5, 0.15, 1000.0f},
      {1.1, 0.9, 1, 0.4, 3.0f},
      {4.0, 0.25, 7, 0.1, 1.0f},
      {1.0001, 0.9999, 2, 0.3, 12345.678f},
  };
  std::mt19937 rng(20240611);
  int64_t grew = 0, backedOff = 0, rejected = 0;
  for (const RandomCase &c : cases) {
    amp_loss_scale_config_t config = amp_loss_scale_config_default();
    config.growth_factor = c.growthFactor;
    config.backoff_factor = c.backoffFactor;
    config.growth_interval = c.growthInterval;
    amp_loss_scale_state_t state = makeState(config, c.initScale);
    amp_loss_scale_state_t stateFromC = state;
    float flatScale = c.initScale;
    int32_t flatTracker = 0;

    float torchScale = c.initScale;
    int32_t torchTracker = 0;
    std::bernoulli_distribution infDist(c.infProbability);
    for (int i = 0; i < 50000; ++i) {
      bool foundInf = infDist(rng);
      float before = torchScale;
      int32_t trackerBefore = torchTracker;
      torchAmpUpdateScale(torchScale, torchTracker, foundInf ? 1.0f : 0.0f,
                          c.growthFactor, c.backoffFactor, c.growthInterval);
      grew += torchScale > before;
      backedOff += torchScale < before;
      rejected += !foundInf && trackerBefore + 1 == c.growthInterval &&
                  torchScale == before && before != 0.0f;

      amp_loss_scale_state_update(&state, &config, foundInf);
      amp_test_c_state_update(&stateFromC, &config, foundInf);
      amp_loss_scale_update(&flatScale, &flatTracker, nullptr, foundInf,
                            c.growthFactor, c.backoffFactor, c.growthInterval,
                            0.0f, kInf, 1);
      ASSERT_EQ(bitsOf(state.scale), bitsOf(torchScale)) << "step " << i;
      ASSERT_EQ(state.growth_tracker, torchTracker) << "step " << i;
      ASSERT_EQ(bitsOf(stateFromC.scale), bitsOf(torchScale)) << "step " << i;
      ASSERT_EQ(stateFromC.growth_tracker, torchTracker) << "step " << i;
      ASSERT_EQ(bitsOf(flatScale), bitsOf(torchScale)) << "step " << i;
      ASSERT_EQ(flatTracker, torchTracker) << "step " << i;
    }
  }
  // The sequences exercised every branch.
  EXPECT_GT(grew, 1000);
  EXPECT_GT(backedOff, 1000);
  EXPECT_GT(rejected, 100);
}

// The flat symbol for lowered code with a hysteresis tracker equals the
// inline update on the state struct, with hysteresis and min/max set.
TEST(LossScalePyTorch, FlatSymbolMatchesInlineUpdate) {
  amp_loss_scale_config_t config = {1.5, 0.8, 4, 1e-3f, 1e6f, 3};
  ASSERT_EQ(amp_loss_scale_validate_config(&config), AMP_STATUS_OK);
  amp_loss_scale_state_t state = makeState(config, 100.0f);
  float scale = state.scale;
  int32_t growthTracker = state.growth_tracker;
  int32_t hysteresisTracker = state.hysteresis_tracker;
  std::mt19937 rng(7);
  std::bernoulli_distribution infDist(0.3);
  for (int i = 0; i < 20000; ++i) {
    int32_t foundInf = infDist(rng);
    amp_loss_scale_state_update(&state, &config, foundInf);
    amp_loss_scale_update(&scale, &growthTracker, &hysteresisTracker, foundInf,
                          config.growth_factor, config.backoff_factor,
                          config.growth_interval, config.min_scale,
                          config.max_scale, config.hysteresis);
    ASSERT_EQ(bitsOf(scale), bitsOf(state.scale)) << "step " << i;
    ASSERT_EQ(growthTracker, state.growth_tracker) << "step " << i;
    ASSERT_EQ(hysteresisTracker, state.hysteresis_tracker) << "step " << i;
    ASSERT_GE(state.scale, config.min_scale);
    ASSERT_LE(state.scale, config.max_scale);
  }
}

// Without a hysteresis tracker there is no hysteresis: every inf backs off.
TEST(LossScalePyTorch, FlatSymbolWithoutTrackerHasNoHysteresis) {
  float scale = 1024.0f;
  int32_t growthTracker = 5;
  amp_loss_scale_update(&scale, &growthTracker, nullptr, 1, 2.0, 0.5, 2000,
                        0.0f, kInf, /*hysteresis=*/3);
  EXPECT_EQ(scale, 512.0f);
  EXPECT_EQ(growthTracker, 0);
  amp_loss_scale_update(&scale, &growthTracker, nullptr, 1, 2.0, 0.5, 2000,
                        0.0f, kInf, /*hysteresis=*/3);
  EXPECT_EQ(scale, 256.0f);
}

//===----------------------------------------------------------------------===//
// Config validation
//===----------------------------------------------------------------------===//

TEST(LossScaleConfig, RejectsInvalidConfigs) {
  auto expectRejected = [](const char *what,
                           void (*mutate)(amp_loss_scale_config_t &)) {
    amp_loss_scale_config_t config = amp_loss_scale_config_default();
    mutate(config);
    EXPECT_EQ(amp_loss_scale_validate_config(&config),
              AMP_STATUS_INVALID_ARGUMENT)
        << what;
    amp_loss_scale_state_t state = {1.0f, 5, 5};
    EXPECT_EQ(amp_loss_scale_state_init(&state, 1.0f, &config),
              AMP_STATUS_INVALID_ARGUMENT)
        << what;
    EXPECT_EQ(state.scale, 1.0f) << what;
    EXPECT_EQ(state.growth_tracker, 5) << what;
  };
  expectRejected("growth 1", [](auto &c) { c.growth_factor = 1.0; });
  expectRejected("growth 0.5", [](auto &c) { c.growth_factor = 0.5; });
  expectRejected("growth nan", [](auto &c) {
    c.growth_factor = std::numeric_limits<double>::quiet_NaN();
  });
  expectRejected("growth inf", [](auto &c) {
    c.growth_factor = std::numeric_limits<double>::infinity();
  });
  expectRejected("backoff 0", [](auto &c) { c.backoff_factor = 0.0; });
  expectRejected("backoff 1", [](auto &c) { c.backoff_factor = 1.0; });
  expectRejected("backoff -0.5", [](auto &c) { c.backoff_factor = -0.5; });
  expectRejected("backoff 1.5", [](auto &c) { c.backoff_factor = 1.5; });
  expectRejected("backoff nan", [](auto &c) {
    c.backoff_factor = std::numeric_limits<double>::quiet_NaN();
  });
  expectRejected("interval 0", [](auto &c) { c.growth_interval = 0; });
  expectRejected("interval -1", [](auto &c) { c.growth_interval = -1; });
  expectRejected("hysteresis 0", [](auto &c) { c.hysteresis = 0; });
  expectRejected("hysteresis -2", [](auto &c) { c.hysteresis = -2; });
  expectRejected("min -1", [](auto &c) { c.min_scale = -1.0f; });
  expectRejected("min nan", [](auto &c) { c.min_scale = kNaN; });
  expectRejected("min inf", [](auto &c) { c.min_scale = kInf; });
  expectRejected("max 0", [](auto &c) { c.max_scale = 0.0f; });
  expectRejected("max -1", [](auto &c) { c.max_scale = -1.0f; });
  expectRejected("max nan", [](auto &c) { c.max_scale = kNaN; });
  expectRejected("min > max", [](auto &c) {
    c.min_scale = 2.0f;
    c.max_scale = 1.0f;
  });
  EXPECT_EQ(amp_loss_scale_validate_config(nullptr),
            AMP_STATUS_INVALID_ARGUMENT);
}

TEST(LossScaleConfig, AcceptsBoundaryConfigs) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  config.growth_factor = 1.0000001;
  config.backoff_factor = 0.9999999;
  config.growth_interval = 1;
  config.hysteresis = 1000;
  config.min_scale = 0.5f;
  config.max_scale = 0.5f;
  EXPECT_EQ(amp_loss_scale_validate_config(&config), AMP_STATUS_OK);
  config.min_scale = std::numeric_limits<float>::denorm_min();
  config.max_scale = kFltMax;
  EXPECT_EQ(amp_loss_scale_validate_config(&config), AMP_STATUS_OK);
}

TEST(LossScaleConfig, RejectsInvalidInitialScales) {
  amp_loss_scale_config_t config = amp_loss_scale_config_default();
  config.min_scale = 1.0f;
  config.max_scale = 1e6f;
  for (float bad : {0.0f, -0.0f, -1.0f, kInf, kNaN, 0.5f, 2e6f}) {
    amp_loss_scale_state_t state = {7.0f, 7, 7};
    EXPECT_EQ(amp_loss_scale_state_init(&state, bad, &config),
              AMP_STATUS_INVALID_ARGUMENT)
        << bad;
    EXPECT_EQ(state.scale, 7.0f);
    EXPECT_EQ(state.growth_tracker, 7);
    EXPECT_EQ(state.hysteresis_tracker, 7);
  }
  EXPECT_EQ(amp_loss_scale_state_init(nullptr, 2.0f, &config),
            AMP_STATUS_INVALID_ARGUMENT);
  amp_loss_scale_state_t state;
  EXPECT_EQ(amp_loss_scale_state_init(&state, 1.0f, &config), AMP_STATUS_OK);
  EXPECT_EQ(amp_loss_scale_state_init(&state, 1e6f, &config), AMP_STATUS_OK);
}

//===----------------------------------------------------------------------===//
// Non-finite checks and unscale
//===----------------------------------------------------------------------===//

TEST(LossScaleNonFinite, F32) {
  const float signalingNaN = std::numeric_limits<float>::signaling_NaN();
  std::vector<float> finite = {
      0.0f,     -0.0f,    1.0f,
      kFltMax,  -kFltMax, std::numeric_limits<float>::denorm_min(),
      65504.0f, 1e38f};
  EXPECT_EQ(amp_any_nonfinite_f32(finite.data(), finite.size()), 0);
  EXPECT_EQ(amp_any_nonfinite_f32(nullptr, 0), 0);
  for (float bad : {kInf, -kInf, kNaN, -kNaN, signalingNaN,
                    floatOfBits(0x7fffffffu), floatOfBits(0xff800001u)}) {
    for (size_t at : {size_t(0), size_t(3), finite.size()}) {
      std::vector<float> values = finite;
      values.insert(values.begin() + at, bad);
      EXPECT_EQ(amp_any_nonfinite_f32(values.data(), values.size()), 1)
          << "0x" << std::hex << bitsOf(bad) << " at " << at;
    }
  }
  // n bounds the scan.
  std::vector<float> values = {1.0f, 2.0f, kInf};
  EXPECT_EQ(amp_any_nonfinite_f32(values.data(), 2), 0);
}

TEST(LossScaleNonFinite, F16BitPatterns) {
  // 65504, -65504, 1, 0, -0, min subnormal, max subnormal, min normal.
  std::vector<uint16_t> finite = {0x7bff, 0xfbff, 0x3c00, 0x0000,
                                  0x8000, 0x0001, 0x03ff, 0x0400};
  EXPECT_EQ(amp_any_nonfinite_f16(finite.data(), finite.size()), 0);
  // +inf, -inf, quiet NaN, signaling NaN, negative NaN, all ones.
  for (uint16_t bad : {0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0xffff}) {
    std::vector<uint16_t> values = finite;
    values.push_back(bad);
    EXPECT_EQ(amp_any_nonfinite_f16(values.data(), values.size()), 1)
        << std::hex << bad;
  }
  // The bf16 infinity pattern is a NaN in f16.
  uint16_t bf16Inf = 0x7f80;
  EXPECT_EQ(amp_any_nonfinite_f16(&bf16Inf, 1), 1);
}

TEST(LossScaleNonFinite, BF16BitPatterns) {
  // max finite (~3.39e38), -max, 1, 0, -0, min subnormal, min normal, and
  // 0x7c00, which is f16's infinity but a finite bf16 (2^121).
  std::vector<uint16_t> finite = {0x7f7f, 0xff7f, 0x3f80, 0x0000,
                                  0x8000, 0x0001, 0x0080, 0x7c00};
  EXPECT_EQ(amp_any_nonfinite_bf16(finite.data(), finite.size()), 0);
  // +inf, -inf, quiet NaN, signaling NaN, negative NaN, all ones.
  for (uint16_t bad : {0x7f80, 0xff80, 0x7fc0, 0x7f81, 0xffc0, 0xffff}) {
    std::vector<uint16_t> values = finite;
    values.insert(values.begin(), bad);
    EXPECT_EQ(amp_any_nonfinite_bf16(values.data(), values.size()), 1)
        << std::hex << bad;
  }
}

TEST(LossScaleUnscale, InverseIsF64ReciprocalRoundedOnce) {
  EXPECT_EQ(amp_loss_scale_inverse(65536.0f), pow2(-16));
  EXPECT_EQ(amp_loss_scale_inverse(3.0f), static_cast<float>(1.0 / 3.0));
  EXPECT_EQ(amp_loss_scale_inverse(pow2(127)), pow2(-127));
  EXPECT_EQ(amp_loss_scale_inverse(pow2(-127)), pow2(127));
  EXPECT_EQ(amp_loss_scale_inverse(0.0f), kInf);
  EXPECT_EQ(amp_loss_scale_inverse(std::numeric_limits<float>::denorm_min()),
            kInf);
}

TEST(LossScaleUnscale, UnscalesInF32) {
  float scale = 65536.0f;
  std::vector<float> grads = {1.5f * scale, -2.0f * scale, 0.0f, kFltMax,
                              -kFltMax};
  int32_t foundInf = 0;
  amp_unscale_and_check_f32(grads.data(), grads.size(),
                            amp_loss_scale_inverse(scale), &foundInf);
  EXPECT_EQ(foundInf, 0);
  EXPECT_EQ(grads[0], 1.5f);
  EXPECT_EQ(grads[1], -2.0f);
  EXPECT_EQ(grads[2], 0.0f);
  EXPECT_EQ(grads[3], kFltMax * pow2(-16));
  EXPECT_EQ(grads[4], -kFltMax * pow2(-16));

  // A non-power-of-two scale: each value is one f32 multiplication.
  float inv = amp_loss_scale_inverse(3.0f);
  std::vector<float> values = {1.0f, 7.0f, 1e-30f, 123456.789f};
  std::vector<float> expected;
  for (float v : values)
    expected.push_back(v * inv);
  amp_unscale_and_check_f32(values.data(), values.size(), inv, &foundInf);
  EXPECT_EQ(foundInf, 0);
  for (size_t i = 0; i < values.size(); ++i)
    EXPECT_EQ(bitsOf(values[i]), bitsOf(expected[i])) << i;
}

TEST(LossScaleUnscale, FlagsNonFiniteScaledInputs) {
  for (float bad : {kInf, -kInf, kNaN}) {
    std::vector<float> grads = {2.0f, bad, 4.0f};
    int32_t foundInf = 0;
    amp_unscale_and_check_f32(grads.data(), grads.size(), 0.5f, &foundInf);
    EXPECT_EQ(foundInf, 1) << bad;
    // Every value is still unscaled.
    EXPECT_EQ(grads[0], 1.0f);
    EXPECT_EQ(grads[2], 2.0f);
    EXPECT_EQ(bitsOf(grads[1]), bitsOf(bad * 0.5f));
  }
}

TEST(LossScaleUnscale, FoundInfAccumulatesOverBuffers) {
  std::vector<float> bad = {1.0f, kNaN};
  std::vector<float> clean = {1.0f, 2.0f};
  int32_t foundInf = 0;
  amp_unscale_and_check_f32(bad.data(), bad.size(), 1.0f, &foundInf);
  amp_unscale_and_check_f32(clean.data(), clean.size(), 1.0f, &foundInf);
  EXPECT_EQ(foundInf, 1) << "a clean buffer cleared the flag";
}

// The check is on the scaled inputs: a finite value that overflows only when
// unscaled (scale < 1) is not flagged.
TEST(LossScaleUnscale, ChecksScaledValuesNotUnscaledOnes) {
  std::vector<float> grads = {kFltMax};
  int32_t foundInf = 0;
  amp_unscale_and_check_f32(grads.data(), grads.size(),
                            amp_loss_scale_inverse(0.5f), &foundInf);
  EXPECT_EQ(foundInf, 0);
  EXPECT_EQ(grads[0], kInf);
}

} // namespace
