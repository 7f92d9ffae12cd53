//===- HostGemmTest.cpp - a host backend's amp_gemm against naive f64 -----===//
//
// Every epilogue x dtype pair x transpose x batch form through the C ABI of
// a backend on host memory, checked against the f64 oracle of GemmTestUtil
// (tolerances derived there from K and the fp32 epsilon), plus exact
// rounding, aliasing and blocking boundaries. Built once per host backend
// (AMPGemmTests: libamp_runtime_ref; AMPGemmCpuTests: libamp_runtime_cpu);
// what only one backend does is tested in its *BackendTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "GemmTestUtil.h"

#include "amp_runtime/float16.h"
#include "amp_runtime/gemm.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <vector>

using namespace amp::test;
using amp::runtime::Half;

namespace {

class HostBackendGemm : public ::testing::TestWithParam<GemmCase> {};

TEST_P(HostBackendGemm, MatchesF64) {
  HostGemm before = HostGemm::make(GetParam(), /*seed=*/1234);
  HostGemm out = before;
  out.pointDescAtBuffers();
  ASSERT_EQ(amp_gemm(&out.desc, nullptr), AMP_STATUS_OK)
      << amp_gemm_last_error();
  EXPECT_STREQ(amp_gemm_last_error(), "");
  EXPECT_TRUE(checkOutputs(before, out, expectedF64(before)));
}

INSTANTIATE_TEST_SUITE_P(AllCases, HostBackendGemm,
                         ::testing::ValuesIn(allGemmCases()),
                         [](const ::testing::TestParamInfo<GemmCase> &info) {
                           return caseName(info.param);
                         });

/// Sizes that cross the reference's cache blocks (512 columns, 128 k).
/// amp_gemm_with_pointers, what compiled steps call: the descriptor's scalar
/// fields from a misaligned copy whose own pointers are garbage, the buffers
/// from the arguments; the same bytes as amp_gemm's.
TEST_P(HostBackendGemm, WithPointersMatchesAmpGemm) {
  HostGemm before = HostGemm::make(GetParam(), /*seed=*/1234);
  HostGemm direct = before, split = before;
  direct.pointDescAtBuffers();
  ASSERT_EQ(amp_gemm(&direct.desc, nullptr), AMP_STATUS_OK)
      << amp_gemm_last_error();

  split.pointDescAtBuffers();
  amp_gemm_desc_t shape = split.desc;
  std::memset(&shape, 0xab, offsetof(amp_gemm_desc_t, m));
  std::vector<unsigned char> misaligned(sizeof(shape) + 1);
  std::memcpy(misaligned.data() + 1, &shape, sizeof(shape));
  ASSERT_EQ(
      amp_gemm_with_pointers(
          reinterpret_cast<const amp_gemm_desc_t *>(misaligned.data() + 1),
          split.desc.a, split.desc.b, split.desc.c, split.desc.d,
          split.desc.bias, split.desc.aux, nullptr),
      AMP_STATUS_OK)
      << amp_gemm_last_error();
  EXPECT_EQ(split.d, direct.d);
  EXPECT_EQ(split.aux, direct.aux);
  EXPECT_EQ(split.bias, direct.bias);
}

TEST(HostGemmShapes, CrossesBlockBoundaries) {
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
TEST(HostGemmRounding, OutputRoundsToNearestEven) {
  EXPECT_EQ(roundTripThroughGemm(2048.0f, 1.0f), 2048.0f);
  EXPECT_EQ(roundTripThroughGemm(2048.0f, 3.0f), 2052.0f);
  EXPECT_EQ(roundTripThroughGemm(2048.0f, -1.0f), 2047.0f);
  // 65520 is the tie between 65504 (odd mantissa) and 2^16: overflow.
  EXPECT_EQ(roundTripThroughGemm(65504.0f, 15.0f), 65504.0f);
  EXPECT_TRUE(std::isinf(roundTripThroughGemm(65504.0f, 16.0f)));
}

/// With beta == 0, C is not read even when it holds NaN (BLAS convention).
TEST(HostGemmSemantics, BetaZeroIgnoresC) {
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
TEST(HostGemmSemantics, InPlaceAccumulation) {
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
TEST(HostGemmSemantics, DreluInPlaceOverItsAux) {
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
TEST(HostGemmSemantics, BgradaSumsTheTransposedA) {
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

} // namespace
