//===- ParamInitTest.cpp - initial values of params and state -------------===//

#include "RunnerTestUtil.h"

#include "amp/Runner/ParamInit.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace amp::runner;
using namespace amp::runner::test;

// The draws are part of the reproducibility contract: a run with the same
// seed must start from the same params as every earlier version of amp-run.
TEST(ParamInitTest, WeightsAreReproducible) {
  std::mt19937_64 rng(1);
  std::vector<float> w = initParam(tensor(Role::Param, {4, 2}), rng);
  // std::mt19937_64(1) through uniform_real_distribution<float>(-0.5, 0.5).
  std::vector<float> expected = {
      -0x1.76e90cp-2f, -0x1.7451b8p-2f, -0x1.8fa5cp-5f, -0x1.ea78ap-2f,
      -0x1.315c54p-3f, 0x1.a53b0cp-2f,  -0x1.df328p-6f, -0x1.b3c9ecp-2f};
  ASSERT_EQ(w.size(), expected.size());
  EXPECT_EQ(std::memcmp(w.data(), expected.data(), 4 * w.size()), 0);
}

TEST(ParamInitTest, BoundsFollowFanIn) {
  std::mt19937_64 rng(2);
  // OIHW filter: fan_in = I*KH*KW = 3*3*3.
  std::vector<float> filter = initParam(tensor(Role::Param, {8, 3, 3, 3}), rng);
  float bound = 1.0f / std::sqrt(27.0f), largest = 0;
  for (float v : filter)
    largest = std::max(largest, std::fabs(v));
  EXPECT_LE(largest, bound);
  EXPECT_GT(largest, 0.8f * bound);
}

TEST(ParamInitTest, BiasesAndInitValuesDrawNothing) {
  std::mt19937_64 rng(3), untouched(3);
  EXPECT_EQ(initParam(tensor(Role::Param, {3}), rng),
            (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(initParam(tensor(Role::Param, {2, 2}, ElementType::F32, 0.25), rng),
            (std::vector<float>{0.25f, 0.25f, 0.25f, 0.25f}));
  EXPECT_EQ(rng(), untouched());
}

TEST(ParamInitTest, StateFromInit) {
  StatusOr<std::vector<char>> scale =
      initState(tensor(Role::LossScale, {}, ElementType::F32, 65536.0));
  ASSERT_FALSE(scale.failed());
  float value;
  std::memcpy(&value, scale->data(), 4);
  EXPECT_EQ(value, 65536.0f);

  StatusOr<std::vector<char>> found =
      initState(tensor(Role::FoundInf, {}, ElementType::I1, -1.0));
  ASSERT_FALSE(found.failed());
  EXPECT_EQ(*found, std::vector<char>{1});

  StatusOr<std::vector<char>> tracker =
      initState(tensor(Role::GrowthTracker, {2}, ElementType::I64));
  ASSERT_FALSE(tracker.failed());
  EXPECT_EQ(*tracker, std::vector<char>(16, 0));

  StatusOr<std::vector<char>> half =
      initState(tensor(Role::OptState, {2}, ElementType::BF16));
  ASSERT_TRUE(half.failed());
  EXPECT_EQ(half.getStatus().message(),
            "cannot initialize a state argument of element type other than "
            "f32, i32, i64 or i1");
}
