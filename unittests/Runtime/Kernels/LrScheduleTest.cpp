//===- LrScheduleTest.cpp - amp_lr_schedule against its closed forms ------===//
//
// amp_lr_schedule's factors against the closed forms of the schedules it
// stands for, written out here in f64 as their libraries compute them
// (neither PyTorch nor transformers is a dependency): transformers'
// get_linear_schedule_with_warmup, get_cosine_schedule_with_warmup and
// get_cosine_with_min_lr_schedule_with_warmup and
// get_polynomial_decay_schedule_with_warmup, and torch.optim.lr_scheduler's
// LinearLR (warmup), StepLR, ExponentialLR, PolynomialLR and MultiStepLR
// (after a warmup: SequentialLR with the milestone W, which restarts the
// second schedule's epoch at 0).
// Exact where the closed form runs the kernel's f64 operations in another
// but exact order (a power-of-two scaling, a multiplication by 1); within
// one f32 ulp where the op order differs (the min-lr forms) or pow() is
// involved (pow's last f64 place, rounded to f32 once, may flip one f32
// rounding). Also the counter (s + 1, in place, negative and NaN counts as
// 0) and every error case of kernels.h.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using namespace amp::test;

namespace {

constexpr double kPi = 3.14159265358979323846;

//===----------------------------------------------------------------------===//
// The closed forms, in f64
//===----------------------------------------------------------------------===//

/// transformers' get_linear_schedule_with_warmup lr_lambda.
double hfLinear(int64_t s, int64_t w, int64_t t) {
  if (s < w)
    return double(s) / double(std::max<int64_t>(1, w));
  return std::max(0.0, double(t - s) / double(std::max<int64_t>(1, t - w)));
}

/// transformers' get_cosine_schedule_with_warmup lr_lambda (num_cycles =
/// 0.5; Python evaluates math.pi * num_cycles * 2.0 * progress left to
/// right). It does not clamp the progress: past T the factor rises again.
double hfCosine(int64_t s, int64_t w, int64_t t) {
  if (s < w)
    return double(s) / double(std::max<int64_t>(1, w));
  const double progress = double(s - w) / double(std::max<int64_t>(1, t - w));
  return std::max(0.0, 0.5 * (1.0 + std::cos(kPi * 0.5 * 2.0 * progress)));
}

/// transformers' get_cosine_with_min_lr_schedule_with_warmup lr_lambda
/// (min_lr_rate = b), for s <= T.
double hfCosineMinLr(int64_t s, int64_t w, int64_t t, double b) {
  if (s < w)
    return double(s) / double(std::max<int64_t>(1, w));
  const double progress = double(s - w) / double(std::max<int64_t>(1, t - w));
  double factor = 0.5 * (1.0 + std::cos(kPi * 0.5 * 2.0 * progress));
  factor = factor * (1.0 - b) + b;
  return std::max(0.0, factor);
}

/// torch.optim.lr_scheduler.LinearLR's closed form with end_factor 1:
/// start + (end - start) * min(total_iters, epoch) / total_iters.
double torchLinearLR(int64_t s, double start, int64_t total) {
  return start + (1.0 - start) * double(std::min(total, s)) / double(total);
}

/// StepLR's closed form: gamma ** (epoch // step_size).
double torchStepLR(int64_t epoch, int64_t stepSize, double gamma) {
  return std::pow(gamma, double(epoch / stepSize));
}

/// transformers' get_polynomial_decay_schedule_with_warmup lr_lambda, as a
/// factor of lr_init.
double hfPolynomial(int64_t s, int64_t w, int64_t t, double lrInit,
                    double lrEnd, double power) {
  if (s < w)
    return double(s) / double(std::max<int64_t>(1, w));
  if (s > t)
    return lrEnd / lrInit;
  const double pctRemaining = 1.0 - double(s - w) / double(t - w);
  return ((lrInit - lrEnd) * std::pow(pctRemaining, power) + lrEnd) / lrInit;
}

/// PolynomialLR's closed form: (1 - min(total_iters, epoch) / total_iters)
/// ** power.
double torchPolynomialLR(int64_t epoch, int64_t total, double power) {
  return std::pow(1.0 - double(std::min(total, epoch)) / double(total), power);
}

/// MultiStepLR's closed form: gamma ** bisect_right(milestones, epoch).
double torchMultiStepLR(int64_t epoch, const std::vector<int64_t> &milestones,
                        double gamma) {
  auto passed = std::upper_bound(milestones.begin(), milestones.end(), epoch) -
                milestones.begin();
  return std::pow(gamma, double(passed));
}

/// ExponentialLR's closed form: gamma ** epoch.
double torchExponentialLR(int64_t epoch, double gamma) {
  return std::pow(gamma, double(epoch));
}

//===----------------------------------------------------------------------===//
// Running the kernel
//===----------------------------------------------------------------------===//

struct Schedule {
  amp_lr_schedule_t kind;
  int64_t warmupSteps = 0;
  float warmupStartFactor = 0.0f;
  int64_t totalSteps = 0;
  float finalFactor = 0.0f;
  int64_t stepSize = 1;
  float gamma = 1.0f;
  float power = 1.0f;
  std::vector<int64_t> milestones = {};
  /// The num_milestones passed: the array's size when unset.
  std::optional<int32_t> numMilestones = std::nullopt;
};

amp_status_t run(const Schedule &p, const float *count, float *factor,
                 float *newCount) {
  return amp_lr_schedule(
      count, factor, newCount, p.kind, p.warmupSteps, p.warmupStartFactor,
      p.totalSteps, p.finalFactor, p.stepSize, p.gamma, p.power,
      p.milestones.empty() ? nullptr : p.milestones.data(),
      p.numMilestones.value_or(static_cast<int32_t>(p.milestones.size())),
      nullptr);
}

/// The factor at counter value `count`; checks the new counter (s + 1).
float factorAt(const Schedule &p, float count) {
  float factor = -1.0f, newCount = -1.0f;
  EXPECT_TRUE(isOk(run(p, &count, &factor, &newCount)));
  const float s = count > 0.0f ? count : 0.0f;
  EXPECT_EQ(newCount, s + 1.0f) << "count " << count;
  return factor;
}

/// got is within `ulps` f32 ulps of (float)expected (0: bitwise).
::testing::AssertionResult withinUlps(float got, double expected, int ulps) {
  const float want = static_cast<float>(expected);
  float lo = want, hi = want;
  for (int i = 0; i < ulps; ++i) {
    lo = std::nextafter(lo, -INFINITY);
    hi = std::nextafter(hi, INFINITY);
  }
  const bool ok =
      ulps == 0 ? std::memcmp(&got, &want, 4) == 0 : got >= lo && got <= hi;
  if (ok)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "factor " << std::hexfloat << got << ", expected " << want
         << " within " << std::dec << ulps << " ulps (f64 " << std::hexfloat
         << expected << ")";
}

/// The steps a schedule with warmup W and total T is checked at: s = 0,
/// inside the warmup, W, past W, the middle, T - 1, T, past T, far past T.
std::vector<int64_t> stepsFor(int64_t w, int64_t t) {
  std::vector<int64_t> s = {0, 1,     w / 2,       w - 1,
                            w, w + 1, (w + t) / 2, t - 1,
                            t, t + 1, 3 * t + 7,   1000000};
  s.erase(std::remove_if(s.begin(), s.end(), [](int64_t v) { return v < 0; }),
          s.end());
  return s;
}

//===----------------------------------------------------------------------===//
// The factors
//===----------------------------------------------------------------------===//

TEST(LrSchedule, ConstantWithLinearLRWarmup) {
  // LinearLR's default start_factor 1/3 over total_iters = 5, then 1.
  const double third = static_cast<float>(1.0 / 3.0);
  const Schedule p{AMP_LR_SCHEDULE_CONSTANT, 5, static_cast<float>(third)};
  for (int64_t s : {0, 1, 2, 3, 4, 5, 6, 100})
    EXPECT_TRUE(
        withinUlps(factorAt(p, float(s)), torchLinearLR(s, third, 5), 0))
        << "s = " << s;
  EXPECT_EQ(factorAt(p, 5.0f), 1.0f);
  // No warmup: 1 from the first step; T, b, step_size and gamma unused.
  const Schedule plain{AMP_LR_SCHEDULE_CONSTANT, 0, 0.0f, -7, 9.0f, 0, NAN};
  for (float s : {0.0f, 1.0f, 1e6f})
    EXPECT_EQ(factorAt(plain, s), 1.0f);
}

TEST(LrSchedule, LinearAsTransformers) {
  for (auto [w, t] : {std::pair<int64_t, int64_t>{10, 100}, {0, 7}, {3, 4}}) {
    const Schedule p{AMP_LR_SCHEDULE_LINEAR, w, 0.0f, t, 0.0f};
    for (int64_t s : stepsFor(w, t))
      EXPECT_TRUE(withinUlps(factorAt(p, float(s)), hfLinear(s, w, t), 0))
          << "W " << w << " T " << t << " s " << s;
    EXPECT_EQ(factorAt(p, float(t)), 0.0f);
    EXPECT_EQ(factorAt(p, float(t + 5)), 0.0f);
    EXPECT_EQ(factorAt(p, float(w)), 1.0f);
  }
  // A floor b (transformers' min-lr rescaling of the factor) and a warmup
  // from a: a + (1 - a) s / W, then clamped to b past T.
  const double b = 0.1f, a = 0.25f;
  const Schedule p{AMP_LR_SCHEDULE_LINEAR, 4, float(a), 20, float(b)};
  for (int64_t s : stepsFor(4, 20)) {
    const double expected = s < 4 ? a + (1.0 - a) * double(s) / 4.0
                                  : hfLinear(s, 4, 20) * (1.0 - b) + b;
    EXPECT_TRUE(withinUlps(factorAt(p, float(s)), expected, 1)) << "s " << s;
  }
  EXPECT_EQ(factorAt(p, 20.0f), 0.1f);
  EXPECT_EQ(factorAt(p, 500.0f), 0.1f);
}

TEST(LrSchedule, CosineAsTransformers) {
  for (auto [w, t] :
       {std::pair<int64_t, int64_t>{10, 100}, {0, 1000}, {1, 2}}) {
    const Schedule p{AMP_LR_SCHEDULE_COSINE, w, 0.0f, t, 0.0f};
    for (int64_t s : stepsFor(w, t)) {
      const float got = factorAt(p, float(s));
      if (s <= t) {
        EXPECT_TRUE(withinUlps(got, hfCosine(s, w, t), 0))
            << "W " << w << " T " << t << " s " << s;
      } else {
        // Clamped to b; transformers' half cycle would rise again.
        EXPECT_EQ(got, 0.0f) << "s " << s;
      }
    }
    EXPECT_EQ(factorAt(p, float(w)), 1.0f);
  }
  EXPECT_GT(hfCosine(150, 10, 100), 0.0);
  // With a floor: get_cosine_with_min_lr_schedule_with_warmup.
  const double b = 0.05f;
  const Schedule p{AMP_LR_SCHEDULE_COSINE, 10, 0.0f, 110, float(b)};
  for (int64_t s : stepsFor(10, 110)) {
    const float got = factorAt(p, float(s));
    if (s <= 110) {
      EXPECT_TRUE(withinUlps(got, hfCosineMinLr(s, 10, 110, b), 1))
          << "s " << s;
    } else {
      EXPECT_EQ(got, 0.05f) << "s " << s;
    }
  }
  EXPECT_EQ(factorAt(p, 110.0f), 0.05f);
}

TEST(LrSchedule, StepAsStepLR) {
  for (float gamma : {0.1f, 0.5f, 0.9f, 3.0f}) {
    const Schedule p{AMP_LR_SCHEDULE_STEP, 0, 0.0f, 0, 0.0f, 3, gamma};
    for (int64_t s : {0, 1, 2, 3, 4, 5, 6, 9, 30, 31})
      EXPECT_TRUE(withinUlps(factorAt(p, float(s)),
                             torchStepLR(s, 3, double(gamma)),
                             gamma == 0.5f ? 0 : 1))
          << "gamma " << gamma << " s " << s;
    EXPECT_EQ(factorAt(p, 2.0f), 1.0f);
  }
  // After a LinearLR warmup of 4 steps from 1/2 (SequentialLR, milestone
  // 4): StepLR's epoch restarts at 0 at s = W.
  const Schedule p{AMP_LR_SCHEDULE_STEP, 4, 0.5f, 0, 0.0f, 2, 0.5f};
  for (int64_t s : {0, 1, 2, 3, 4, 5, 6, 7, 8, 20}) {
    const double expected =
        s < 4 ? torchLinearLR(s, 0.5, 4) : torchStepLR(s - 4, 2, 0.5);
    EXPECT_TRUE(withinUlps(factorAt(p, float(s)), expected, 0)) << "s " << s;
  }
}

TEST(LrSchedule, ExponentialAsExponentialLR) {
  for (float gamma : {0.95f, 0.5f, 1.0f, 1.5f}) {
    const Schedule p{AMP_LR_SCHEDULE_EXPONENTIAL, 0, 0.0f, 0, 0.0f, 0, gamma};
    for (int64_t s : {0, 1, 2, 10, 100, 1000})
      EXPECT_TRUE(withinUlps(factorAt(p, float(s)),
                             torchExponentialLR(s, double(gamma)),
                             gamma == 0.5f || gamma == 1.0f ? 0 : 1))
          << "gamma " << gamma << " s " << s;
  }
  // Underflow and overflow far out: 0 and inf, as f64 pow() rounded.
  const Schedule down{AMP_LR_SCHEDULE_EXPONENTIAL, 0, 0.0f, 0, 0.0f, 0, 0.5f};
  EXPECT_EQ(factorAt(down, 1e6f), 0.0f);
  const Schedule up{AMP_LR_SCHEDULE_EXPONENTIAL, 0, 0.0f, 0, 0.0f, 0, 2.0f};
  EXPECT_EQ(factorAt(up, 1e6f), INFINITY);
  // With a warmup of 3 from 0 (transformers' warmup): d = s - W.
  const Schedule p{AMP_LR_SCHEDULE_EXPONENTIAL, 3, 0.0f, 0, 0.0f, 0, 0.9f};
  for (int64_t s : {0, 1, 2, 3, 4, 13}) {
    const double expected =
        s < 3 ? hfLinear(s, 3, 1000) : torchExponentialLR(s - 3, double(0.9f));
    EXPECT_TRUE(withinUlps(factorAt(p, float(s)), expected, s < 3 ? 0 : 1))
        << "s " << s;
  }
}

TEST(LrSchedule, PolynomialAsTransformersAndPolynomialLR) {
  // transformers' polynomial decay: lr_init 1e-3 to lr_end 1e-7 (b = 1e-4)
  // over T = 100 after a warmup of 10, power 1, 2 and 0.5; past T it holds
  // lr_end.
  for (float power : {1.0f, 2.0f, 0.5f}) {
    const float b = static_cast<float>(1e-7 / 1e-3);
    const Schedule p{
        AMP_LR_SCHEDULE_POLYNOMIAL, 10, 0.0f, 100, b, 0, 0.0f, power};
    for (int64_t s : stepsFor(10, 100))
      EXPECT_TRUE(withinUlps(
          factorAt(p, float(s)),
          hfPolynomial(s, 10, 100, 1e-3, 1e-3 * double(b), double(power)), 1))
          << "power " << power << " s " << s;
  }
  // PolynomialLR(total_iters = 40, power): b = 0, no warmup; 0 from T on.
  for (float power : {1.0f, 3.0f, 0.9f}) {
    const Schedule p{
        AMP_LR_SCHEDULE_POLYNOMIAL, 0, 0.0f, 40, 0.0f, 0, 0.0f, power};
    for (int64_t s : stepsFor(0, 40))
      EXPECT_TRUE(withinUlps(factorAt(p, float(s)),
                             torchPolynomialLR(s, 40, double(power)), 1))
          << "power " << power << " s " << s;
    EXPECT_EQ(factorAt(p, 40.0f), 0.0f);
  }
  // Power 1 is the linear schedule, bitwise.
  const Schedule poly{
      AMP_LR_SCHEDULE_POLYNOMIAL, 4, 0.25f, 20, 0.1f, 0, 0.0f, 1.0f};
  const Schedule linear{AMP_LR_SCHEDULE_LINEAR, 4, 0.25f, 20, 0.1f};
  for (int64_t s : stepsFor(4, 20))
    EXPECT_TRUE(withinUlps(factorAt(poly, float(s)),
                           double(factorAt(linear, float(s))), 0))
        << "s " << s;
}

TEST(LrSchedule, MultistepAsMultiStepLR) {
  const std::vector<int64_t> milestones = {3, 7, 8, 30};
  for (float gamma : {0.1f, 0.5f, 2.0f}) {
    const Schedule p{AMP_LR_SCHEDULE_MULTISTEP,
                     0,
                     0.0f,
                     0,
                     0.0f,
                     0,
                     gamma,
                     1.0f,
                     milestones};
    for (int64_t s : {0, 1, 2, 3, 4, 6, 7, 8, 9, 29, 30, 31, 1000000})
      EXPECT_TRUE(withinUlps(factorAt(p, float(s)),
                             torchMultiStepLR(s, milestones, double(gamma)),
                             gamma == 0.1f ? 1 : 0))
          << "gamma " << gamma << " s " << s;
  }
  // Milestone 0 applies from the first step (MultiStepLR's constructor
  // steps to epoch 0); after a warmup of 4 from 0, milestones count from
  // its end.
  const Schedule p{
      AMP_LR_SCHEDULE_MULTISTEP, 4, 0.0f, 0, 0.0f, 0, 0.5f, 1.0f, {0, 2}};
  for (int64_t s : {0, 1, 3, 4, 5, 6, 7, 100}) {
    const double expected =
        s < 4 ? hfLinear(s, 4, 1000) : torchMultiStepLR(s - 4, {0, 2}, 0.5);
    EXPECT_TRUE(withinUlps(factorAt(p, float(s)), expected, 0)) << "s " << s;
  }
  // The most milestones the ABI takes.
  std::vector<int64_t> many;
  for (int64_t m = 0; m < AMP_LR_SCHEDULE_MAX_MILESTONES; ++m)
    many.push_back(2 * m + 1);
  const Schedule full{
      AMP_LR_SCHEDULE_MULTISTEP, 0, 0.0f, 0, 0.0f, 0, 0.5f, 1.0f, many};
  EXPECT_EQ(factorAt(full, 1e6f),
            std::ldexp(1.0f, -AMP_LR_SCHEDULE_MAX_MILESTONES));
  EXPECT_EQ(factorAt(full, 4.0f), 0.25f);
}

//===----------------------------------------------------------------------===//
// The counter
//===----------------------------------------------------------------------===//

TEST(LrSchedule, CountsInPlaceOverSteps) {
  const Schedule p{AMP_LR_SCHEDULE_COSINE, 3, 0.0f, 12, 0.0f};
  float count = 0.0f, factor = -1.0f;
  for (int64_t s = 0; s < 20; ++s) {
    ASSERT_TRUE(isOk(run(p, &count, &factor, &count)));
    EXPECT_EQ(count, float(s + 1));
    EXPECT_TRUE(withinUlps(factor, s <= 12 ? hfCosine(s, 3, 12) : 0.0, 0))
        << "s " << s;
  }
}

TEST(LrSchedule, NegativeOrNaNCountIsZero) {
  const Schedule p{AMP_LR_SCHEDULE_LINEAR, 4, 0.25f, 10, 0.0f};
  const float atZero = factorAt(p, 0.0f);
  EXPECT_EQ(atZero, 0.25f);
  for (float count :
       {-0.0f, -1.0f, -3.5f, -INFINITY, std::numeric_limits<float>::quiet_NaN(),
        -std::numeric_limits<float>::quiet_NaN()}) {
    float factor = -1.0f, newCount = -1.0f;
    ASSERT_TRUE(isOk(run(p, &count, &factor, &newCount)));
    EXPECT_EQ(std::memcmp(&factor, &atZero, 4), 0) << "count " << count;
    const float one = 1.0f;
    EXPECT_EQ(std::memcmp(&newCount, &one, 4), 0) << "count " << count;
  }
  // In place too.
  float count = -7.0f, factor = -1.0f;
  ASSERT_TRUE(isOk(run(p, &count, &factor, &count)));
  EXPECT_EQ(count, 1.0f);
  EXPECT_EQ(factor, 0.25f);
}

TEST(LrSchedule, CounterSaturatesAsAnF32) {
  // s + 1 in f32, as Adam's step counter: exact below 2^24, then stuck.
  const Schedule p{AMP_LR_SCHEDULE_CONSTANT};
  float count = 16777215.0f, newCount = 0, factor = 0;
  ASSERT_TRUE(isOk(run(p, &count, &factor, &newCount)));
  EXPECT_EQ(newCount, 16777216.0f);
  count = newCount;
  ASSERT_TRUE(isOk(run(p, &count, &factor, &newCount)));
  EXPECT_EQ(newCount, 16777216.0f);
  EXPECT_EQ(factor, 1.0f);
}

//===----------------------------------------------------------------------===//
// Malformed calls
//===----------------------------------------------------------------------===//

amp_lr_schedule_t rawKind(int32_t raw) {
  amp_lr_schedule_t kind;
  static_assert(sizeof(kind) == sizeof(raw), "ABI enums are 32-bit");
  std::memcpy(&kind, &raw, sizeof(raw));
  return kind;
}

TEST(LrSchedule, RejectsEveryErrorCaseWithoutWriting) {
  float count = 3.0f, factor = -1.0f, newCount = -1.0f;
  const Schedule linear{AMP_LR_SCHEDULE_LINEAR, 2, 0.0f, 10, 0.0f};
  const Schedule cosine{AMP_LR_SCHEDULE_COSINE, 2, 0.0f, 10, 0.0f};
  const Schedule step{AMP_LR_SCHEDULE_STEP, 2, 0.0f, 0, 0.0f, 3, 0.5f};
  const Schedule exponential{
      AMP_LR_SCHEDULE_EXPONENTIAL, 2, 0.0f, 0, 0.0f, 0, 0.5f};
  const Schedule constant{AMP_LR_SCHEDULE_CONSTANT, 2, 0.0f};
  const Schedule polynomial{
      AMP_LR_SCHEDULE_POLYNOMIAL, 2, 0.0f, 10, 0.0f, 0, 0.0f, 2.0f};
  const Schedule multistep{
      AMP_LR_SCHEDULE_MULTISTEP, 2, 0.0f, 0, 0.0f, 0, 0.5f, 1.0f, {1, 5}};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto with = [](Schedule p, auto change) {
    change(p);
    return p;
  };
  struct Case {
    std::string what;
    Schedule p;
  };
  std::vector<Case> cases = {
      // Within the enum's value range (a C++ enum with values 0..6 holds
      // 0..7); wider values come from C in ErrorTest.
      {"unknown kind 7",
       with(constant, [](Schedule &p) { p.kind = rawKind(7); })},
      {"milestones must not be NULL", with(multistep,
                                           [](Schedule &p) {
                                             p.milestones.clear();
                                             p.numMilestones = 2;
                                           })},
      {"num_milestones (0) must be in [1, 16]",
       with(multistep, [](Schedule &p) { p.numMilestones = 0; })},
      {"num_milestones (-1) must be in [1, 16]",
       with(multistep, [](Schedule &p) { p.numMilestones = -1; })},
      {"num_milestones (17) must be in [1, 16]",
       with(multistep, [](Schedule &p) { p.milestones.assign(17, 0); })},
      {"milestones[0] (-1) must be >= 0", with(multistep,
                                               [](Schedule &p) {
                                                 p.milestones = {-1, 3};
                                               })},
      {"milestones[1] (5) must be >= 0 and greater than the one before",
       with(multistep,
            [](Schedule &p) {
              p.milestones = {5, 5};
            })},
      {"milestones[2] (2) must be >= 0 and greater than the one before",
       with(multistep,
            [](Schedule &p) {
              p.milestones = {1, 3, 2};
            })},
      // No overflow comparing with the largest step.
      {"milestones[1] (9223372036854775807) must be >= 0 and greater than "
       "the one before",
       with(multistep,
            [](Schedule &p) { p.milestones = {INT64_MAX, INT64_MAX}; })},
      {"warmup_steps (-1)",
       with(constant, [](Schedule &p) { p.warmupSteps = -1; })},
  };
  for (float a : {-0.5f, 1.5f, nan, INFINITY})
    for (const Schedule &base :
         {constant, linear, cosine, step, exponential, polynomial, multistep})
      cases.push_back({"warmup_start_factor", with(base, [a](Schedule &p) {
                         p.warmupStartFactor = a;
                       })});
  for (const Schedule &base : {linear, cosine, polynomial}) {
    for (int64_t t : {2, 1, 0, -5})
      cases.push_back({"total_steps (" + std::to_string(t) + ")",
                       with(base, [t](Schedule &p) { p.totalSteps = t; })});
    for (float b : {-0.1f, 1.1f, nan})
      cases.push_back({"final_factor",
                       with(base, [b](Schedule &p) { p.finalFactor = b; })});
  }
  for (int64_t size : {int64_t{0}, int64_t{-1}, INT64_MIN})
    cases.push_back({"step_size (" + std::to_string(size) + ")",
                     with(step, [size](Schedule &p) { p.stepSize = size; })});
  for (float power : {0.0f, -1.0f, INFINITY, nan})
    cases.push_back(
        {"power", with(polynomial, [power](Schedule &p) { p.power = power; })});
  for (const Schedule &base : {step, exponential, multistep})
    for (float gamma : {0.0f, -0.0f, -0.5f, INFINITY, -INFINITY, nan})
      cases.push_back(
          {"gamma", with(base, [gamma](Schedule &p) { p.gamma = gamma; })});
  for (const Case &c : cases) {
    EXPECT_TRUE(failsWith(run(c.p, &count, &factor, &newCount),
                          AMP_STATUS_INVALID_ARGUMENT,
                          "amp_lr_schedule: " + c.what))
        << c.what;
    EXPECT_EQ(factor, -1.0f) << c.what;
    EXPECT_EQ(newCount, -1.0f) << c.what;
  }
  // NULL pointers.
  for (const Schedule &p :
       {constant, linear, cosine, step, exponential, polynomial, multistep}) {
    EXPECT_TRUE(failsWith(run(p, nullptr, &factor, &newCount),
                          AMP_STATUS_INVALID_ARGUMENT, "count is NULL"));
    EXPECT_TRUE(failsWith(run(p, &count, nullptr, &newCount),
                          AMP_STATUS_INVALID_ARGUMENT, "factor is NULL"));
    EXPECT_TRUE(failsWith(run(p, &count, &factor, nullptr),
                          AMP_STATUS_INVALID_ARGUMENT, "new_count is NULL"));
  }
  EXPECT_EQ(count, 3.0f);
  EXPECT_EQ(factor, -1.0f);
  EXPECT_EQ(newCount, -1.0f);
}

TEST(LrSchedule, IgnoresTheArgumentsAKindDoesNotUse) {
  float count = 3.0f, factor = -1.0f, newCount = -1.0f;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // T <= W, b outside [0, 1], step_size < 1, a bad gamma or power and bad
  // milestones (NULL with a count, or not increasing), each where the kind
  // does not use it.
  const Schedule cases[] = {
      {AMP_LR_SCHEDULE_CONSTANT, 5, 0.5f, -1, nan, 0, nan, nan, {}, 3},
      {AMP_LR_SCHEDULE_LINEAR, 0, 1.0f, 10, 0.0f, -3, -1.0f, 0.0f, {4, 2}},
      {AMP_LR_SCHEDULE_COSINE, 0, 0.0f, 1, 1.0f, 0, INFINITY, -1.0f, {}, 99},
      {AMP_LR_SCHEDULE_STEP, 0, 0.0f, INT64_MIN, 7.0f, 1, 2.0f, nan, {-1}},
      {AMP_LR_SCHEDULE_EXPONENTIAL,
       0,
       1.0f,
       -4,
       -3.0f,
       INT64_MIN,
       1e-30f,
       INFINITY,
       {},
       -5},
      {AMP_LR_SCHEDULE_POLYNOMIAL, 0, 0.0f, 10, 0.5f, -1, nan, 3.0f, {}, 40},
      {AMP_LR_SCHEDULE_MULTISTEP, 0, 0.0f, -7, 9.0f, 0, 0.5f, nan, {2}},
  };
  for (const Schedule &p : cases)
    EXPECT_TRUE(isOk(run(p, &count, &factor, &newCount)))
        << "kind " << static_cast<int>(p.kind);
}

} // namespace
