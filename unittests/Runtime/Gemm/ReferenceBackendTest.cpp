//===- ReferenceBackendTest.cpp - what only the reference GEMM does -------===//
//
// The name and counters of libamp_runtime_ref: it only counts calls (no
// plans, no unfused path), and its unused setters answer like the others.
//
//===----------------------------------------------------------------------===//

#include "GemmTestUtil.h"

#include "amp_runtime/gemm.h"

#include "gtest/gtest.h"

using namespace amp::test;

namespace {

TEST(ReferenceBackend, NameAndCounters) {
  EXPECT_STREQ(amp_gemm_backend_name(), "reference");
  amp_gemm_reset_stats();
  float a = 2, b = 3, d = 0;
  amp_gemm_desc_t g = f32Desc(1, 1, 1);
  g.a = &a;
  g.b = &b;
  g.d = &d;
  ASSERT_EQ(amp_gemm(&g, nullptr), AMP_STATUS_OK);
  g.m = 0; // rejected: not counted
  ASSERT_NE(amp_gemm(&g, nullptr), AMP_STATUS_OK);
  amp_gemm_stats_t stats;
  amp_gemm_get_stats(&stats);
  EXPECT_EQ(stats.calls, 1u);
  EXPECT_EQ(stats.plan_hits + stats.plan_misses + stats.unfused_calls, 0u);
  amp_gemm_get_stats(nullptr); // allowed
  EXPECT_EQ(amp_gemm_set_force_unfused(1), 0);
  EXPECT_EQ(amp_gemm_set_force_unfused(0), 1);
  amp_gemm_release_resources();
}

} // namespace
