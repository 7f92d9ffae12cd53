//===- GemmTestUtil.h - GEMM test cases, f64 expectations, comparisons ----===//
//
// Shared by the reference-backend tests and the CUDA-backend tests: the
// table of GEMM cases (epilogue x dtypes x transposes x batch form), host
// operands with padded leading dimensions, padded or zero (broadcast) batch
// strides and sentinel-filled outputs, the naive f64 result with a
// per-element error bound, and comparisons that say where they failed.
//
// Error bound of one output element, with u = 2^-24 (fp32 unit roundoff):
//   S      = |alpha| sum_k |a_ik b_kj| + |beta c_ij| + |bias_j|
//   e_pre  = 1.01 (K + 4) u S          fp32 products and K-term sum (K u),
//                                      then alpha, beta*C, + bias (4 u)
//   e_act  = e_pre                     NONE, RELU, DRELU (1-Lipschitz)
//          = 1.13 e_pre + 16 u |x|     GELU (|gelu'| <= 1.13; tanhf and the
//                                      1 + t cancellation near x << 0)
//          = 1.13 e_pre + |x| e_g      DGELU, e_g = 8 u (1 + |aux| (1 +
//                                      0.14 aux^2)) bounds the fp32 gelu'
//   |D - D64| <= e_act + ulp_D(|D64| + e_act) / 2   (one RNE rounding)
// and for the reductions: bias gradients add the bounds of their terms plus
// n u sum|terms| for their own fp32 n-term sum, and half an ulp.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UNITTESTS_RUNTIME_GEMM_GEMMTESTUTIL_H
#define AMP_UNITTESTS_RUNTIME_GEMM_GEMMTESTUTIL_H

#include "amp_runtime/gemm.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <string>
#include <vector>

namespace amp {
namespace test {

/// How the batch dimension of a case is laid out.
enum class BatchForm {
  Single,     ///< batch 1, tight leading dimensions, beta = 0, no C
  Strided,    ///< batch 3, padded leading dimensions and strides, C
  BroadcastA, ///< batch 3, A, C and the bias input with stride 0
  BroadcastB, ///< batch 3, B and a read aux with stride 0
};

struct GemmCase {
  amp_gemm_epilogue_t epilogue;
  amp_dtype_t abDtype;
  amp_dtype_t dDtype;
  bool transA;
  bool transB;
  BatchForm form;
  int64_t m = 37, n = 29, k = 45; // odd: no dimension is a multiple of 8
};

/// "GELU_AUX_BIAS_f16_f32_TN_Strided" (a valid gtest parameter name).
std::string caseName(const GemmCase &c);

/// Every epilogue x dtype combination x transposes x batch form.
std::vector<GemmCase> allGemmCases();

/// The five supported (A/B, D) dtype pairs.
std::vector<std::pair<amp_dtype_t, amp_dtype_t>> supportedDtypes();

/// One element of a stored buffer, widened to double / written from float.
double loadElement(amp_dtype_t dtype, const std::vector<uint8_t> &buffer,
                   int64_t index);
void storeElement(amp_dtype_t dtype, std::vector<uint8_t> &buffer,
                  int64_t index, float value);

/// An f32 request of m x n x k over tight row-major A (m x k), B (k x n),
/// C and D (m x n); tests then set the pointers and what they vary.
amp_gemm_desc_t f32Desc(int64_t m, int64_t n, int64_t k);

/// The operands of one case in host memory. `desc` points into the buffers
/// (call pointDescAtBuffers() after copying a HostGemm).
struct HostGemm {
  GemmCase gemmCase;
  amp_gemm_desc_t desc;
  std::vector<uint8_t> a, b, c, d, bias, aux;

  /// Random operands in [-1, 1] (aux inputs in [-3, 3]); D, a written aux
  /// and a bias gradient are filled with a NaN sentinel.
  static HostGemm make(const GemmCase &gemmCase, uint32_t seed);
  void pointDescAtBuffers();
};

/// Expected outputs with absolute tolerances (see the file comment).
struct Expected {
  std::vector<double> d, dTol;       // [batch][m][n]
  std::vector<double> aux, auxTol;   // [batch][m][n] when aux is written
  std::vector<double> bias, biasTol; // [batch][len] for bias gradients
  /// Half-ulp slack per bias-gradient element, summed over its terms, for
  /// implementations that sum D after rounding (see the CUDA tests).
  std::vector<double> biasRoundingSlack;
};

/// `tanhRelError` widens the GELU/DGELU bounds for implementations whose
/// tanh is a hardware approximation (error relative to |tanh|): 0 for the
/// reference's tanhf, whose few-ulp error the 16 u / 8 u terms cover.
/// `productRoundedToD`: the product (alpha AB + beta C) may be rounded to
/// an f16/bf16 D's type before the bias and activation, as cuBLASLt's fused
/// epilogues do (seen on an H100, 2026-11-27: up to 2 ulps of the product
/// off the once-rounded result).
Expected expectedF64(const HostGemm &in, double tanhRelError = 0.0,
                     bool productRoundedToD = false);

/// Checks every output of `out` against `expected` (tolerances scaled by
/// `tolScale`), and that nothing outside the logical outputs changed from
/// `before` (padding, gaps between batches, rows past the end).
::testing::AssertionResult checkOutputs(const HostGemm &before,
                                        const HostGemm &out,
                                        const Expected &expected,
                                        double tolScale = 1.0,
                                        bool biasRoundingSlack = false);

/// An Expected holding the outputs of `ref` as values and the tolerances of
/// `bounds`, to compare another backend's outputs with ref's.
Expected expectedFromOutputs(const HostGemm &ref, const Expected &bounds);

} // namespace test
} // namespace amp

#endif // AMP_UNITTESTS_RUNTIME_GEMM_GEMMTESTUTIL_H
