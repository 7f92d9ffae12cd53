//===- GemmCommon.cpp - GEMM request validation and error reporting ------===//
//
// The checks every backend runs on an amp_gemm_desc_t before touching
// memory, and the thread-local last-error message.
//
//===----------------------------------------------------------------------===//

#include "reference/GemmCommon.h"
#include "reference/GemmEpilogue.h"

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

using namespace amp::runtime;

// The descriptor's layout is ABI (lowered code builds it field by field):
// pointers, then int64_t, then 32-bit fields, no padding.
static_assert(sizeof(amp_gemm_desc_t) == 6 * sizeof(void *) + 15 * 8 + 8 * 4,
              "amp_gemm_desc_t has padding");
static_assert(offsetof(amp_gemm_desc_t, m) == 6 * sizeof(void *) &&
                  offsetof(amp_gemm_desc_t, alpha) ==
                      6 * sizeof(void *) + 15 * 8 &&
                  offsetof(amp_gemm_desc_t, epilogue) ==
                      6 * sizeof(void *) + 15 * 8 + 7 * 4,
              "amp_gemm_desc_t field order changed");

namespace {

thread_local std::string lastError;

/// The raw 32-bit value of an enum field. Callers may store any value in
/// these fields; reading one outside the enumerators through the enum type
/// is undefined in C++ (and trips UBSan), so validation reads the bits.
template <typename Enum> int32_t rawValue(const Enum &field) {
  static_assert(sizeof(Enum) == sizeof(int32_t), "ABI enums are 32-bit");
  int32_t raw;
  std::memcpy(&raw, &field, sizeof(raw));
  return raw;
}

bool isKnownDtype(int32_t dtype) {
  return dtype >= AMP_DTYPE_F32 && dtype <= AMP_DTYPE_BOOL;
}

/// The output dtypes a GEMM with inputs of `ab` may produce: what
/// cuBLASLt supports with CUBLAS_COMPUTE_32F and the reference mirrors.
bool isSupportedCombination(amp_dtype_t ab, amp_dtype_t d) {
  switch (ab) {
  case AMP_DTYPE_F16:
    return d == AMP_DTYPE_F16 || d == AMP_DTYPE_F32;
  case AMP_DTYPE_BF16:
    return d == AMP_DTYPE_BF16 || d == AMP_DTYPE_F32;
  case AMP_DTYPE_F32:
    return d == AMP_DTYPE_F32;
  default:
    return false;
  }
}

/// Checks one strided batch of row-major matrices: the leading dimension
/// covers a row, the batch stride is non-negative (and, for an output, keeps
/// batches apart), and the last element's offset fits in int64_t bytes.
amp_status_t checkMatrix(const char *name, int64_t rows, int64_t cols,
                         int64_t ld, int64_t stride, int64_t batch,
                         int64_t elemSize, bool isOutput) {
  if (ld < cols)
    return gemmError(AMP_STATUS_INVALID_ARGUMENT,
                     "amp_gemm: ld of %s (%lld) is less than its row length "
                     "(%lld)",
                     name, (long long)ld, (long long)cols);
  if (stride < 0)
    return gemmError(AMP_STATUS_INVALID_ARGUMENT,
                     "amp_gemm: batch stride of %s (%lld) is negative", name,
                     (long long)stride);
  int64_t span = 0, last = 0;
  if (__builtin_mul_overflow(rows - 1, ld, &span) ||
      __builtin_add_overflow(span, cols, &span) ||
      __builtin_mul_overflow(batch - 1, stride, &last) ||
      __builtin_add_overflow(last, span, &last) ||
      __builtin_mul_overflow(last, elemSize, &last))
    return gemmError(AMP_STATUS_INVALID_ARGUMENT,
                     "amp_gemm: %s spans more than INT64_MAX bytes", name);
  if (isOutput && batch > 1 && stride < span)
    return gemmError(AMP_STATUS_INVALID_ARGUMENT,
                     "amp_gemm: batch stride of output %s (%lld) is less than "
                     "one batch (%lld elements), so batches would overlap",
                     name, (long long)stride, (long long)span);
  return AMP_STATUS_OK;
}

amp_status_t checkPointer(const char *name, const void *ptr, bool used,
                          amp_gemm_epilogue_t epilogue, int64_t elemSize) {
  if (!used) {
    if (ptr)
      return gemmError(AMP_STATUS_INVALID_ARGUMENT,
                       "amp_gemm: %s is given but epilogue %s does not use it",
                       name, amp_gemm_epilogue_name(epilogue));
    return AMP_STATUS_OK;
  }
  if (!ptr)
    return gemmError(AMP_STATUS_INVALID_ARGUMENT, "amp_gemm: %s is NULL", name);
  if (reinterpret_cast<uintptr_t>(ptr) % static_cast<uintptr_t>(elemSize))
    return gemmError(AMP_STATUS_INVALID_ARGUMENT,
                     "amp_gemm: %s (%p) is not aligned to its element size "
                     "(%lld bytes)",
                     name, ptr, (long long)elemSize);
  return AMP_STATUS_OK;
}

} // namespace

amp_status_t amp::runtime::gemmError(amp_status_t status, const char *fmt,
                                     ...) {
  char buffer[512];
  va_list args;
  va_start(args, fmt);
  vsnprintf(buffer, sizeof(buffer), fmt, args);
  va_end(args);
  lastError = buffer;
  return status;
}

void amp::runtime::clearGemmError() { lastError.clear(); }

const char *amp::runtime::lastGemmError() { return lastError.c_str(); }

const char *amp::runtime::dtypeName(amp_dtype_t dtype) {
  return amp_dtype_name(dtype);
}

amp_status_t amp::runtime::validateGemm(const amp_gemm_desc_t *desc) {
  if (!desc)
    return gemmError(AMP_STATUS_INVALID_ARGUMENT, "amp_gemm: desc is NULL");
  const amp_gemm_desc_t &g = *desc;

  if (!isKnownEpilogue(rawValue(g.epilogue)))
    return gemmError(AMP_STATUS_INVALID_ARGUMENT,
                     "amp_gemm: unknown epilogue %d", rawValue(g.epilogue));
  const int32_t dtypes[] = {rawValue(g.a_dtype), rawValue(g.b_dtype),
                            rawValue(g.d_dtype)};
  const char *dtypeFields[] = {"a_dtype", "b_dtype", "d_dtype"};
  for (int i = 0; i < 3; ++i)
    if (!isKnownDtype(dtypes[i]))
      return gemmError(AMP_STATUS_INVALID_ARGUMENT, "amp_gemm: unknown %s %d",
                       dtypeFields[i], dtypes[i]);
  if (g.a_dtype != g.b_dtype || !isSupportedCombination(g.a_dtype, g.d_dtype))
    return gemmError(AMP_STATUS_NOT_SUPPORTED,
                     "amp_gemm: unsupported dtypes A=%s B=%s D=%s (supported: "
                     "f16->f16|f32, bf16->bf16|f32, f32->f32 with A and B "
                     "alike)",
                     dtypeName(g.a_dtype), dtypeName(g.b_dtype),
                     dtypeName(g.d_dtype));

  if (g.m < 1 || g.n < 1 || g.k < 1 || g.batch_count < 1)
    return gemmError(AMP_STATUS_INVALID_ARGUMENT,
                     "amp_gemm: m, n, k and batch_count must be >= 1 (got "
                     "m=%lld n=%lld k=%lld batch_count=%lld)",
                     (long long)g.m, (long long)g.n, (long long)g.k,
                     (long long)g.batch_count);
  if ((g.trans_a != 0 && g.trans_a != 1) || (g.trans_b != 0 && g.trans_b != 1))
    return gemmError(AMP_STATUS_INVALID_ARGUMENT,
                     "amp_gemm: trans_a and trans_b must be 0 or 1 (got %d, "
                     "%d)",
                     (int)g.trans_a, (int)g.trans_b);

  const EpilogueInfo &epi = kEpilogueInfo[g.epilogue];
  const int64_t abSize = amp_dtype_size(g.a_dtype);
  const int64_t dSize = amp_dtype_size(g.d_dtype);
  const bool readsC = g.beta != 0.0f;
  amp_status_t s;
  if ((s = checkPointer("A", g.a, true, g.epilogue, abSize)) ||
      (s = checkPointer("B", g.b, true, g.epilogue, abSize)) ||
      (s = checkPointer("D", g.d, true, g.epilogue, dSize)) ||
      (s = checkPointer("bias", g.bias, epi.bias != BiasUse::None, g.epilogue,
                        dSize)) ||
      (s = checkPointer("aux", g.aux, epi.aux != AuxUse::None, g.epilogue,
                        dSize)))
    return s;
  // C is allowed (and ignored) when beta == 0, as in BLAS.
  if (readsC &&
      (s = checkPointer("C (beta != 0)", g.c, true, g.epilogue, dSize)))
    return s;

  // Stored shapes: A is M x K (K x M transposed), B is K x N (N x K).
  const int64_t aRows = g.trans_a ? g.k : g.m, aCols = g.trans_a ? g.m : g.k;
  const int64_t bRows = g.trans_b ? g.n : g.k, bCols = g.trans_b ? g.k : g.n;
  const int64_t batch = g.batch_count;
  if ((s = checkMatrix("A", aRows, aCols, g.lda, g.stride_a, batch, abSize,
                       false)) ||
      (s = checkMatrix("B", bRows, bCols, g.ldb, g.stride_b, batch, abSize,
                       false)) ||
      (s = checkMatrix("D", g.m, g.n, g.ldd, g.stride_d, batch, dSize, true)))
    return s;
  if (readsC &&
      (s = checkMatrix("C", g.m, g.n, g.ldc, g.stride_c, batch, dSize, false)))
    return s;
  if (epi.aux != AuxUse::None &&
      (s = checkMatrix("aux", g.m, g.n, g.ld_aux, g.stride_aux, batch, dSize,
                       epi.aux == AuxUse::Write)))
    return s;
  if (epi.bias != BiasUse::None) {
    const int64_t biasLength = epi.bias == BiasUse::GradOfA ? g.m : g.n;
    if ((s = checkMatrix("bias", 1, biasLength, biasLength, g.stride_bias,
                         batch, dSize, isBiasGrad(epi.bias))))
      return s;
  }
  if (readsC && g.c == g.d && (g.ldc != g.ldd || g.stride_c != g.stride_d))
    return gemmError(AMP_STATUS_INVALID_ARGUMENT,
                     "amp_gemm: C aliases D but their layouts differ (ldc=%lld "
                     "ldd=%lld stride_c=%lld stride_d=%lld)",
                     (long long)g.ldc, (long long)g.ldd, (long long)g.stride_c,
                     (long long)g.stride_d);
  return AMP_STATUS_OK;
}
