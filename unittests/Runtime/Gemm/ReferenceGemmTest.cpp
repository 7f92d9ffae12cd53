//===- ReferenceGemmTest.cpp - libamp_runtime_ref against naive f64 -------===//
//
// Every epilogue x dtype pair x transpose x batch form through the C ABI of
// the reference backend, checked against the f64 oracle of GemmTestUtil
// (tolerances derived there from K and the fp32 epsilon), plus exact
// rounding, aliasing, blocking boundaries and the counters.
//
//===----------------------------------------------------------------------===//

#include "GemmTestUtil.h"

#include "amp_runtime/float16.h"
#include "amp_runtime/gemm.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace amp::test;
using amp::runtime::Half;

namespace {

class ReferenceGemm : public ::testing::TestWithParam<GemmCase> {};

TEST_P(ReferenceGemm, MatchesF64) {
  HostGemm before = HostGemm::make(GetParam(), /*seed=*/1234);
  HostGemm out = before;
  out.pointDescAtBuffers();
  ASSERT_EQ(amp_gemm(&out.desc, nullptr), AMP_STATUS_OK)
      << amp_gemm_last_error();
  EXPECT_STREQ(amp_gemm_last_error(), "");
  EXPECT_TRUE(checkOutputs(before, out, expectedF64(before)));
}

INSTANTIATE_TEST_SUITE_P(AllCases, ReferenceGemm,
                         ::testing::ValuesIn(allGemmCases()),
                         [](const ::testing::TestParamInfo<GemmCase> &info) {
                           return caseName(info.param);
                         });

/// Sizes that cross the reference's cache blocks (512 columns, 128 k).
TEST(ReferenceGemmShapes, CrossesBlockBoundaries) {
  GemmCase c{AMP_GEMM_EPILOGUE_GELU_AUX_BIAS,
             AMP_DTYPE_BF16,
             AMP_DTYPE_F32,
             /*transA=*/true,
             /*transB=*/false,
             BatchForm::Strided};
  c.m = 9;
  c.n = 521;
  c.k = 300;
  HostGemm before = HostGemm::make(c, 7);
  HostGemm out = before;
  out.pointDescAtBuffers();
  ASSERT_EQ(amp_gemm(&out.desc, nullptr), AMP_STATUS_OK)
      << amp_gemm_last_error();
  EXPECT_TRUE(checkOutputs(before, out, expectedF64(before)));
}

/// An f32 request of m x n x k over tight row-major A (m x k), B (k x n),
/// C and D (m x n); the tests then set the pointers and what they vary.
amp_gemm_desc_t f32Desc(int64_t m, int64_t n, int64_t k) {
  amp_gemm_desc_t g;
  amp_gemm_desc_init(&g);
  g.a_dtype = g.b_dtype = g.d_dtype = AMP_DTYPE_F32;
  g.m = m;
  g.n = n;
  g.k = k;
  g.lda = k;
  g.ldb = g.ldc = g.ldd = g.ld_aux = n;
  return g;
}

/// A 1 x 1 x 1 GEMM whose output is a chosen f32 value, rounded into f16.
float roundTripThroughGemm(float b, float c) {
  uint16_t a16 = Half::fromFloat(1.0f).bits, b16 = Half::fromFloat(b).bits;
  uint16_t c16 = Half::fromFloat(c).bits, d16 = 0;
  amp_gemm_desc_t g;
  amp_gemm_desc_init(&g);
  g.a = &a16;
  g.b = &b16;
  g.c = &c16;
  g.d = &d16;
  g.m = g.n = g.k = 1;
  g.lda = g.ldb = g.ldc = g.ldd = 1;
  g.beta = 1.0f;
  EXPECT_EQ(amp_gemm(&g, nullptr), AMP_STATUS_OK) << amp_gemm_last_error();
  return Half{d16}.toFloat();
}

/// D is rounded once, to nearest even: 2048 + 1 and 2048 + 3 are ties
/// between f16 neighbours 2 apart (truncation or round-half-up would give
/// 2050 / 2050, or 2048 / 2050).
TEST(ReferenceGemmRounding, OutputRoundsToNearestEven) {
  EXPECT_EQ(roundTripThroughGemm(2048.0f, 1.0f), 2048.0f);
  EXPECT_EQ(roundTripThroughGemm(2048.0f, 3.0f), 2052.0f);
  EXPECT_EQ(roundTripThroughGemm(2048.0f, -1.0f), 2047.0f);
  // 65520 is the tie between 65504 (odd mantissa) and 2^16: overflow.
  EXPECT_EQ(roundTripThroughGemm(65504.0f, 15.0f), 65504.0f);
  EXPECT_TRUE(std::isinf(roundTripThroughGemm(65504.0f, 16.0f)));
}

/// With beta == 0, C is not read even when it holds NaN (BLAS convention).
TEST(ReferenceGemmSemantics, BetaZeroIgnoresC) {
  float a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1};
  float c[4], d[4] = {};
  for (float &x : c)
    x = std::numeric_limits<float>::quiet_NaN();
  amp_gemm_desc_t g = f32Desc(2, 2, 2);
  g.a = a;
  g.b = b;
  g.c = c;
  g.d = d;
  ASSERT_EQ(amp_gemm(&g, nullptr), AMP_STATUS_OK) << amp_gemm_last_error();
  EXPECT_EQ(std::vector<float>(d, d + 4), std::vector<float>(a, a + 4));
}

/// C may be D (in-place accumulation, D += A B).
TEST(ReferenceGemmSemantics, InPlaceAccumulation) {
  float a[6] = {1, 2, 3, 4, 5, 6}; // 2 x 3
  float b[3] = {1, -1, 2};         // 3 x 1
  float d[2] = {10, 20};
  amp_gemm_desc_t g = f32Desc(2, 1, 3);
  g.a = a;
  g.b = b;
  g.c = d;
  g.d = d;
  g.beta = 1.0f;
  ASSERT_EQ(amp_gemm(&g, nullptr), AMP_STATUS_OK) << amp_gemm_last_error();
  EXPECT_EQ(d[0], 10.0f + 1 - 2 + 6);
  EXPECT_EQ(d[1], 20.0f + 4 - 5 + 12);
}

/// DRELU's aux may be the forward ReLU output itself, in place over D.
TEST(ReferenceGemmSemantics, DreluInPlaceOverItsAux) {
  float a[2] = {1, 1}, b[4] = {3, -2, 5, 7}; // 1 x 2 times 2 x 2
  float h[2] = {0.5f, 0.0f};                 // ReLU output: 2nd unit dead
  amp_gemm_desc_t g = f32Desc(1, 2, 2);
  g.a = a;
  g.b = b;
  g.d = h;
  g.aux = h;
  g.epilogue = AMP_GEMM_EPILOGUE_DRELU;
  ASSERT_EQ(amp_gemm(&g, nullptr), AMP_STATUS_OK) << amp_gemm_last_error();
  EXPECT_EQ(h[0], 8.0f);
  EXPECT_EQ(h[1], 0.0f);
}

/// BGRADA is the linear layer's bias gradient: with A = dY stored tokens x
/// out and trans_a, bias[o] = sum over tokens of dY[t][o], unscaled by alpha.
TEST(ReferenceGemmSemantics, BgradaSumsTheTransposedA) {
  const int tokens = 3, outF = 2, inF = 2;
  float dy[tokens * outF] = {1, 2, 3, 4, 5, 6};
  float x[tokens * inF] = {1, 0, 0, 1, 1, 1};
  float dw[outF * inF] = {}, db[outF] = {};
  amp_gemm_desc_t g = f32Desc(outF, inF, tokens);
  g.a = dy;
  g.b = x;
  g.d = dw;
  g.bias = db;
  g.trans_a = 1;
  g.lda = outF; // dY is stored tokens x out
  g.alpha = 2.0f;
  g.epilogue = AMP_GEMM_EPILOGUE_BGRADA;
  ASSERT_EQ(amp_gemm(&g, nullptr), AMP_STATUS_OK) << amp_gemm_last_error();
  EXPECT_EQ(db[0], 1.0f + 3 + 5);
  EXPECT_EQ(db[1], 2.0f + 4 + 6);
  // dW = 2 * dY^T X.
  EXPECT_EQ(dw[0], 2.0f * (1 + 5));
  EXPECT_EQ(dw[1], 2.0f * (3 + 5));
  EXPECT_EQ(dw[2], 2.0f * (2 + 6));
  EXPECT_EQ(dw[3], 2.0f * (4 + 6));
}

TEST(ReferenceGemmBackend, NameAndCounters) {
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
