//===- ReferenceGemm.cpp - The CPU reference GEMM -------------------------===//
//
// The reference semantics of amp_gemm, written for clarity first and speed
// second: each batch unpacks op(A) and op(B) into dense fp32 row-major
// buffers (exact for f16/bf16), multiplies them with a cache-blocked i-k-j
// loop that still adds the products of every output element in ascending k
// (so the result does not depend on the blocking), then runs the epilogue in
// fp32 and rounds each stored value once. The library is built with
// -ffp-contract=off, so no compiler fuses a*b+c differently on another host.
//
//===----------------------------------------------------------------------===//

#include "reference/ReferenceGemm.h"
#include "amp_runtime/float16.h"
#include "reference/GemmCommon.h"
#include "reference/GemmEpilogue.h"

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace amp::runtime;

namespace {

/// A typed view of one batch of a strided operand.
template <typename T> struct Matrix {
  T *base;
  int64_t ld;
  T &at(int64_t row, int64_t col) const { return base[row * ld + col]; }
};

/// Batch `b` of an operand; an unused (NULL) operand stays NULL.
template <typename T>
Matrix<T> batchOf(const void *ptr, int64_t ld, int64_t stride, int64_t b) {
  T *base = const_cast<T *>(static_cast<const T *>(ptr));
  return {base ? base + b * stride : nullptr, ld};
}

/// Writes the logical op(X) (rows x cols) densely, row-major, as fp32.
template <typename T>
void unpack(Matrix<T> x, bool trans, int64_t rows, int64_t cols, float *out) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out[r * cols + c] = toF32(trans ? x.at(c, r) : x.at(r, c));
}

/// acc = a * b for dense row-major fp32 a (m x k) and b (k x n). Blocks of
/// b (kBlockK x kBlockN, 256 KiB) stay in cache across all rows of a; the
/// inner loop over j vectorizes; every acc element still sums in ascending k.
void multiply(const float *__restrict a, const float *__restrict b,
              float *__restrict acc, int64_t m, int64_t n, int64_t k) {
  constexpr int64_t kBlockN = 512, kBlockK = 128;
  std::fill(acc, acc + m * n, 0.0f);
  for (int64_t j0 = 0; j0 < n; j0 += kBlockN) {
    const int64_t jn = std::min(kBlockN, n - j0);
    for (int64_t k0 = 0; k0 < k; k0 += kBlockK) {
      const int64_t kn = std::min(kBlockK, k - k0);
      for (int64_t i = 0; i < m; ++i) {
        float *__restrict accRow = acc + i * n + j0;
        for (int64_t kk = k0; kk < k0 + kn; ++kk) {
          const float aik = a[i * k + kk];
          const float *__restrict bRow = b + kk * n + j0;
          for (int64_t j = 0; j < jn; ++j)
            accRow[j] += aik * bRow[j];
        }
      }
    }
  }
}

template <typename AB, typename D> void gemmTyped(const amp_gemm_desc_t &g) {
  const EpilogueInfo epi = kEpilogueInfo[g.epilogue];
  const int64_t m = g.m, n = g.n, k = g.k;
  const bool readsC = g.beta != 0.0f;
  std::vector<float> aF(m * k), bF(k * n), acc(m * n), biasSum;
  if (isBiasGrad(epi.bias))
    biasSum.resize(epi.bias == BiasUse::GradOfA ? m : n);

  for (int64_t b = 0; b < g.batch_count; ++b) {
    // A broadcast operand (stride 0) is unpacked once.
    if (b == 0 || g.stride_a != 0)
      unpack(batchOf<AB>(g.a, g.lda, g.stride_a, b), g.trans_a, m, k,
             aF.data());
    if (b == 0 || g.stride_b != 0)
      unpack(batchOf<AB>(g.b, g.ldb, g.stride_b, b), g.trans_b, k, n,
             bF.data());
    multiply(aF.data(), bF.data(), acc.data(), m, n, k);

    Matrix<D> c = batchOf<D>(g.c, g.ldc, g.stride_c, b);
    Matrix<D> d = batchOf<D>(g.d, g.ldd, g.stride_d, b);
    Matrix<D> aux = batchOf<D>(g.aux, g.ld_aux, g.stride_aux, b);
    D *bias = g.bias ? static_cast<D *>(g.bias) + b * g.stride_bias : nullptr;

    std::fill(biasSum.begin(), biasSum.end(), 0.0f);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        float t = g.alpha * acc[i * n + j];
        if (readsC)
          t += g.beta * toF32(c.at(i, j));
        if (epi.bias == BiasUse::Input)
          t += toF32(bias[j]);
        // Read aux before writing D: DRELU may run in place on its aux.
        float auxIn = epi.aux == AuxUse::Read ? toF32(aux.at(i, j)) : 0.0f;
        if (epi.aux == AuxUse::Write)
          aux.at(i, j) = fromF32<D>(t);
        float out = applyActivation(epi.act, t, auxIn);
        if (epi.bias == BiasUse::GradOfD)
          biasSum[j] += out;
        d.at(i, j) = fromF32<D>(out);
      }
    }
    if (epi.bias == BiasUse::GradOfA)
      for (int64_t i = 0; i < m; ++i)
        for (int64_t kk = 0; kk < k; ++kk)
          biasSum[i] += aF[i * k + kk];
    if (epi.bias == BiasUse::GradOfB)
      for (int64_t kk = 0; kk < k; ++kk)
        for (int64_t j = 0; j < n; ++j)
          biasSum[j] += bF[kk * n + j];
    for (size_t j = 0; j < biasSum.size(); ++j)
      bias[j] = fromF32<D>(biasSum[j]);
  }
}

} // namespace

void amp::runtime::referenceGemm(const amp_gemm_desc_t &g) {
  // validateGemm admits exactly these five combinations.
  switch (g.a_dtype) {
  case AMP_DTYPE_F16:
    return g.d_dtype == AMP_DTYPE_F16 ? gemmTyped<Half, Half>(g)
                                      : gemmTyped<Half, float>(g);
  case AMP_DTYPE_BF16:
    return g.d_dtype == AMP_DTYPE_BF16 ? gemmTyped<BFloat16, BFloat16>(g)
                                       : gemmTyped<BFloat16, float>(g);
  default:
    return gemmTyped<float, float>(g);
  }
}

amp_status_t amp::runtime::runReferenceGemm(const amp_gemm_desc_t *desc) {
  clearGemmError();
  if (amp_status_t status = validateGemm(desc))
    return status;
  referenceGemm(*desc);
  return AMP_STATUS_OK;
}
