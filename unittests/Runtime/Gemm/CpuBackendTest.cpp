//===- CpuBackendTest.cpp - what only the oneDNN cpu GEMM does ------------===//
//
// libamp_runtime_cpu's plan cache and counters, its unfused path (forced,
// on every case of the table, against the same f64 oracle as the fused
// one), and that both paths agree with each other within the oracle's
// bounds on the requests both can run.
//
//===----------------------------------------------------------------------===//

#include "GemmTestUtil.h"

#include "amp_runtime/gemm.h"

#include "gtest/gtest.h"

#include <vector>

using namespace amp::test;

namespace {

/// Forces the unfused path for the lifetime of the object.
struct ForceUnfused {
  ForceUnfused() { amp_gemm_set_force_unfused(1); }
  ~ForceUnfused() { amp_gemm_set_force_unfused(0); }
};

class CpuUnfusedGemm : public ::testing::TestWithParam<GemmCase> {};

TEST_P(CpuUnfusedGemm, MatchesF64) {
  ForceUnfused force;
  HostGemm before = HostGemm::make(GetParam(), /*seed=*/99);
  HostGemm out = before;
  out.pointDescAtBuffers();
  ASSERT_EQ(amp_gemm(&out.desc, nullptr), AMP_STATUS_OK)
      << amp_gemm_last_error();
  EXPECT_TRUE(checkOutputs(before, out, expectedF64(before)));
}

INSTANTIATE_TEST_SUITE_P(AllCases, CpuUnfusedGemm,
                         ::testing::ValuesIn(allGemmCases()),
                         [](const ::testing::TestParamInfo<GemmCase> &info) {
                           return caseName(info.param);
                         });

TEST(CpuBackend, NameCountersAndPlanCache) {
  EXPECT_STREQ(amp_gemm_backend_name(), "cpu");
  amp_gemm_release_resources();
  amp_gemm_reset_stats();
  std::vector<float> a(6 * 4, 1.0f), b(4 * 5, 2.0f), d(6 * 5, 0.0f);
  amp_gemm_desc_t g = f32Desc(6, 5, 4);
  g.a = a.data();
  g.b = b.data();
  g.d = d.data();
  ASSERT_EQ(amp_gemm(&g, nullptr), AMP_STATUS_OK) << amp_gemm_last_error();
  ASSERT_EQ(amp_gemm(&g, nullptr), AMP_STATUS_OK) << amp_gemm_last_error();
  EXPECT_EQ(d[0], 8.0f);
  amp_gemm_stats_t stats;
  amp_gemm_get_stats(&stats);
  EXPECT_EQ(stats.calls, 2u);
  EXPECT_EQ(stats.plan_misses, 1u);
  EXPECT_EQ(stats.plan_hits, 1u);
  EXPECT_EQ(stats.unfused_calls, 0u);

  // BGRADA's sums follow the fused matmul; alpha != 1 is applied by amp
  // after it, unfused.
  std::vector<float> bias(6, 0.0f);
  g.bias = bias.data();
  g.epilogue = AMP_GEMM_EPILOGUE_BGRADA;
  ASSERT_EQ(amp_gemm(&g, nullptr), AMP_STATUS_OK) << amp_gemm_last_error();
  EXPECT_EQ(bias[0], 4.0f);
  amp_gemm_get_stats(&stats);
  EXPECT_EQ(stats.unfused_calls, 0u);
  g.alpha = 0.5f;
  ASSERT_EQ(amp_gemm(&g, nullptr), AMP_STATUS_OK) << amp_gemm_last_error();
  EXPECT_EQ(d[0], 4.0f);
  EXPECT_EQ(bias[0], 4.0f); // unscaled by alpha
  amp_gemm_get_stats(&stats);
  EXPECT_EQ(stats.unfused_calls, 1u);
  EXPECT_EQ(stats.plan_misses, 3u);
  g.alpha = 1.0f;

  // Released plans are built again.
  amp_gemm_release_resources();
  g.bias = nullptr;
  g.epilogue = AMP_GEMM_EPILOGUE_NONE;
  ASSERT_EQ(amp_gemm(&g, nullptr), AMP_STATUS_OK) << amp_gemm_last_error();
  amp_gemm_get_stats(&stats);
  EXPECT_EQ(stats.plan_misses, 4u);
  g.m = 0; // rejected: not counted
  ASSERT_EQ(amp_gemm(&g, nullptr), AMP_STATUS_INVALID_ARGUMENT);
  amp_gemm_get_stats(&stats);
  EXPECT_EQ(stats.calls, 5u);
  EXPECT_EQ(amp_gemm_set_force_unfused(1), 0);
  EXPECT_EQ(amp_gemm_set_force_unfused(0), 1);
}

} // namespace
