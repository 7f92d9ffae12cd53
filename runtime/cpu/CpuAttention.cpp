//===- CpuAttention.cpp - Fused attention on oneDNN's sgemm ---------------===//
//
// The attention of libamp_runtime_cpu: attentionForward and
// attentionBackward, which AttentionEntryPoints.cpp's amp_attention and
// amp_attention_grad call after the shared checks. FlashAttention-style:
// blocks of up to kBlockRows query rows, whose products are f32 GEMMs
// (dnnl_sgemm), so that only a block's [rows, Sk] scores exist at a time.
// f16 and bf16 operands are widened exactly to f32 first.
//
//   forward   per (problem, block), in parallel: S = scale Q K^T, plus the
//             mask and -inf past the causal diagonal; per row m = max S,
//             E = exp(S - m), l = sum E, lse = m + log(l); out = (E V) / l,
//             rounded once.
//   gradient  per key/value problem, in parallel, the blocks of the query
//             problems that read it (kv_group of them) in order: S again,
//             P = exp(S - lse), dP = dO V^T, delta = dot(dO, out),
//             dS = P (dP - delta); dQ = scale dS K for the block; dK +=
//             dS^T Q and dV += P^T dO into f32 sums (sgemm with beta = 1),
//             rounded once after the last block (dK times scale).
//
// Each sgemm runs on the thread that calls it, and a GEMM's sums depend on
// its shape (and the CPU) alone, so nothing depends on the thread count. The
// results are not the reference's bits: the GEMMs block their sums, the
// exponential is expF32 below, and a row's max and sum run in kLanes partial
// results. A key whose score is -inf contributes nothing: its p and ds are 0,
// and since 0 * inf is NaN inside a GEMM, a row of an operand that holds an
// infinity or a NaN is zeroed for the GEMM and its live terms added afterwards
// (fixUpKeys, fixUpQueries; only for non-finite inputs). With dropout
// (dropRow) the forward's E and the gradient's dP and P are divided by
// 1 - rate where kept and zeroed where dropped; a dropped entry of the
// forward also gets the score -inf, so that the fix-ups leave it out.
//
//===----------------------------------------------------------------------===//

#include "cpu/CpuContext.h"
#include "reference/AttentionChecks.h"
#include "reference/AttentionMath.h"
#include "reference/Convert.h"
#include "reference/ElementwiseMath.h"
#include "reference/KernelCommon.h"

#include <oneapi/dnnl/dnnl.h>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <vector>

using namespace amp::runtime;
using namespace amp::runtime::cpu;
using namespace amp::runtime::kernels;

namespace {

/// Query rows per block: three blocks of scores (64 x 512 f32 at BERT's
/// Sk) stay in a core's L2 cache.
constexpr int64_t kBlockRows = 64;

/// The most scores a block holds: fewer rows when Sk is very long.
constexpr int64_t kMaxBlockScores = int64_t(1) << 20;

/// Partial results per row max and sum, so that those loops vectorize; the
/// same with and without AVX-512.
constexpr int64_t kLanes = 16;

/// The operands of one call (AttentionChecks.h).
using AttentionArgs = AttentionCall;

//===----------------------------------------------------------------------===//
// Row passes
//===----------------------------------------------------------------------===//

__attribute__((always_inline)) inline uint32_t bitsOf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
}

__attribute__((always_inline)) inline float floatFromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

/// exp(x) within 1 ulp (checked against f64 for every f32 in [-103, 88.7]),
/// exp(-inf) = 0, overflow to inf, NaN to NaN: x clamped to [-104, 89], x =
/// k ln2 + r with |r| <= ln2 / 2 (ln2 in two parts, k read from the
/// mantissa of the rounding shift), Cephes' polynomial for exp(r), then
/// 2^k as two factors so that a subnormal result rounds once. Plain f32
/// operations and selects (glibc's expf is a call per element), so that
/// loops of it vectorize and give the same bits at any vector width.
__attribute__((always_inline)) inline float expF32(float x) {
  constexpr float kShift = 0x1.8p23f;
  float xr = x < -104.0f ? -104.0f : x;
  xr = xr > 89.0f ? 89.0f : xr;
  const float shifted = xr * 1.44269504088896341f + kShift;
  const float kf = shifted - kShift;
  const int32_t k = static_cast<int32_t>(bitsOf(shifted) - bitsOf(kShift));
  const float r = (xr - kf * 0.693359375f) - kf * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float y = 1.0f + (r + (r * r) * p);
  const int32_t k1 = k >> 1, k2 = k - k1;
  return y * floatFromBits(static_cast<uint32_t>(k1 + 127) << 23) *
         floatFromBits(static_cast<uint32_t>(k2 + 127) << 23);
}

/// The forward's row max and l = sum exp(s - max).
struct RowSums {
  float max, sum;
};

/// One row of scores s[0, cols) as both passes see it: the mask row (NULL:
/// none) added to the first n, the others (past the causal diagonal) -inf.
__attribute__((always_inline)) inline void
maskRowScores(float *s, const float *mask, int64_t n, int64_t cols) {
  if (mask) {
#pragma omp simd
    for (int64_t j = 0; j < n; ++j)
      s[j] += mask[j];
  }
  for (int64_t j = n; j < cols; ++j)
    s[j] = -INFINITY;
}

/// The forward's pass over one row of scores s[0, cols): masks it
/// (maskRowScores) and writes e[j] = exp(s[j] - max), 0 for a masked-out
/// key.
__attribute__((always_inline)) inline RowSums
softmaxRowLoop(float *s, const float *mask, int64_t n, int64_t cols, float *e) {
  maskRowScores(s, mask, n, cols);
  float lanes[kLanes];
  std::fill(lanes, lanes + kLanes, -INFINITY);
  for (int64_t j0 = 0; j0 < cols; j0 += kLanes) {
    const int64_t width = std::min(kLanes, cols - j0);
#pragma omp simd
    for (int64_t t = 0; t < width; ++t)
      lanes[t] = maxNaN(lanes[t], s[j0 + t]);
  }
  float max = -INFINITY;
  for (int64_t t = 0; t < kLanes; ++t)
    max = maxNaN(max, lanes[t]);
  if (max == -INFINITY) { // no key
    std::fill(e, e + cols, 0.0f);
    return {max, 0.0f};
  }
  std::fill(lanes, lanes + kLanes, 0.0f);
  for (int64_t j0 = 0; j0 < cols; j0 += kLanes) {
    const int64_t width = std::min(kLanes, cols - j0);
#pragma omp simd
    for (int64_t t = 0; t < width; ++t) {
      const float x = s[j0 + t];
      const float ex = maskedOut(x) ? 0.0f : expF32(x - max);
      e[j0 + t] = ex;
      lanes[t] += ex;
    }
  }
  float sum = 0.0f;
  for (int64_t t = 0; t < kLanes; ++t)
    sum += lanes[t];
  return {max, sum};
}

/// The gradient's pass over one row with keys: the scores as the forward's,
/// p[j] = exp(s[j] - lse) and ds[j] = p[j] (dp[j] - delta) with dp read
/// from ds, both 0 for a masked-out key.
__attribute__((always_inline)) inline void
gradRowLoop(float *s, const float *mask, int64_t n, int64_t cols, float lse,
            float delta, float *p, float *ds) {
  maskRowScores(s, mask, n, cols);
#pragma omp simd
  for (int64_t j = 0; j < cols; ++j) {
    const bool live = !maskedOut(s[j]);
    const float pj = live ? expF32(s[j] - lse) : 0.0f;
    p[j] = pj;
    ds[j] = live ? attentionScoreGrad(pj, ds[j], delta) : 0.0f;
  }
}

// The baseline build vectorizes for SSE2; with AVX-512 a vector holds all
// kLanes lanes. The results are the same bits either way.
__attribute__((target("avx512f"))) RowSums
softmaxRowAvx512(float *s, const float *mask, int64_t n, int64_t cols,
                 float *e) {
  return softmaxRowLoop(s, mask, n, cols, e);
}

RowSums softmaxRowBaseline(float *s, const float *mask, int64_t n, int64_t cols,
                           float *e) {
  return softmaxRowLoop(s, mask, n, cols, e);
}

__attribute__((target("avx512f"))) void
gradRowAvx512(float *s, const float *mask, int64_t n, int64_t cols, float lse,
              float delta, float *p, float *ds) {
  gradRowLoop(s, mask, n, cols, lse, delta, p, ds);
}

void gradRowBaseline(float *s, const float *mask, int64_t n, int64_t cols,
                     float lse, float delta, float *p, float *ds) {
  gradRowLoop(s, mask, n, cols, lse, delta, p, ds);
}

bool hasAvx512() {
  static const bool has = __builtin_cpu_supports("avx512f");
  return has;
}

RowSums softmaxRow(float *s, const float *mask, int64_t n, int64_t cols,
                   float *e) {
  return hasAvx512() ? softmaxRowAvx512(s, mask, n, cols, e)
                     : softmaxRowBaseline(s, mask, n, cols, e);
}

void gradRow(float *s, const float *mask, int64_t n, int64_t cols, float lse,
             float delta, float *p, float *ds) {
  if (hasAvx512())
    gradRowAvx512(s, mask, n, cols, lse, delta, p, ds);
  else
    gradRowBaseline(s, mask, n, cols, lse, delta, p, ds);
}

//===----------------------------------------------------------------------===//
// GEMMs, threads, scratch and operands
//===----------------------------------------------------------------------===//

/// C = alpha op(A) op(B) + beta C, row-major, on the calling thread; beta =
/// 0 does not read C. K = 0 gives alpha * 0 (+ beta C), as a sum over no
/// term does in the reference.
void sgemm(char transA, char transB, int64_t m, int64_t n, int64_t k,
           float alpha, const float *a, int64_t lda, const float *b,
           int64_t ldb, float beta, float *c, int64_t ldc) {
  if (m == 0 || n == 0)
    return;
  if (k == 0) {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float &x = c[i * ldc + j];
        x = alpha * 0.0f + (beta == 0.0f ? 0.0f : beta * x);
      }
    return;
  }
  if (dnnl_status_t status = dnnl_sgemm(transA, transB, m, n, k, alpha, a, lda,
                                        b, ldb, beta, c, ldc))
    throw dnnl::error(status, "dnnl_sgemm");
}

/// Runs body(begin, end) on contiguous ranges that split [0, n), one per
/// thread, so that each sgemm runs on the thread that calls it: oneDNN
/// takes one thread inside an active parallel region, and the thread count
/// set inside (which ends with the region) makes it so in a team of one,
/// which OpenMP does not count as active. The first exception of a range is
/// rethrown after the region.
template <typename Body> void splitOverThreads(int64_t n, Body &&body) {
  if (n <= 0)
    return;
  std::exception_ptr failure;
#pragma omp parallel
  {
    omp_set_num_threads(1);
    const int64_t threads = omp_get_num_threads();
    const int64_t t = omp_get_thread_num();
    const int64_t begin = n * t / threads, end = n * (t + 1) / threads;
    try {
      if (begin < end)
        body(begin, end);
    } catch (...) {
#pragma omp critical(amp_attention_failure)
      if (!failure)
        failure = std::current_exception();
    }
  }
  if (failure)
    std::rethrow_exception(failure);
}

/// The calling thread's f32 buffers, carved from its Scratch::Attention
/// slot: each a multiple of 64 bytes from a 64-byte boundary.
class Buffers {
public:
  /// `sizes` floats each; get(i) is the i-th buffer.
  explicit Buffers(std::initializer_list<int64_t> sizes) {
    int64_t total = 0;
    for (int64_t n : sizes)
      total += roundUp(n);
    float *base = scratch(Scratch::Attention, total + kAlign);
    const uintptr_t at = reinterpret_cast<uintptr_t>(base);
    float *next = base + (kAlign - at / sizeof(float) % kAlign) % kAlign;
    for (int64_t n : sizes) {
      buffers.push_back(next);
      next += roundUp(n);
    }
  }
  float *get(size_t i) const { return buffers[i]; }

private:
  static constexpr int64_t kAlign = 16; // floats
  static int64_t roundUp(int64_t n) {
    return (n + kAlign - 1) / kAlign * kAlign;
  }
  std::vector<float *> buffers;
};

/// `count` elements of `src` from element `at` as f32: src itself for f32,
/// else widened into `buffer`.
const float *asF32(const AttentionArgs &a, const void *src, int64_t at,
                   int64_t count, float *buffer) {
  if (a.dtype == AMP_DTYPE_F32)
    return static_cast<const float *>(src) + at;
  if (count == 0) // src may be NULL for an empty tensor
    return buffer;
  widenToF32(a.dtype,
             static_cast<const char *>(src) + at * amp_dtype_size(a.dtype),
             buffer, count);
  return buffer;
}

/// `count` f32 values rounded into `dst` from element `at` (dst may be NULL
/// when count is 0).
void store(const AttentionArgs &a, const float *src, void *dst, int64_t at,
           int64_t count) {
  if (count == 0)
    return;
  narrowFromF32(a.dtype, src,
                static_cast<char *>(dst) + at * amp_dtype_size(a.dtype), count);
}

/// Mask element `index` widened.
float maskAt(const AttentionArgs &a, int64_t index) {
  switch (a.maskDtype) {
  case AMP_DTYPE_F16:
    return toF32(static_cast<const Half *>(a.mask)[index]);
  case AMP_DTYPE_BF16:
    return toF32(static_cast<const BFloat16 *>(a.mask)[index]);
  default:
    return static_cast<const float *>(a.mask)[index];
  }
}

/// Problem b's mask over the first n keys of query row i as f32 (NULL
/// without a mask): the mask itself when it is f32 along the keys, else
/// widened or broadcast into `row`.
const float *maskRow(const AttentionView &v, const AttentionArgs &a, int64_t b,
                     int64_t i, int64_t n, float *row) {
  if (!v.hasMask)
    return nullptr;
  const int64_t base = v.maskBase(b) + i * v.maskStrideI;
  if (v.maskStrideJ == 0) { // the keys broadcast (Sk = 1 or a [.., 1] mask)
    std::fill(row, row + n, maskAt(a, base));
    return row;
  }
  if (a.maskDtype == AMP_DTYPE_F32)
    return static_cast<const float *>(a.mask) + base;
  widenToF32(a.maskDtype,
             static_cast<const char *>(a.mask) +
                 base * amp_dtype_size(a.maskDtype),
             row, n);
  return row;
}

/// The rows of the rows x cols matrix x that hold an infinity or a NaN.
void nonFiniteRows(const float *x, int64_t rows, int64_t cols,
                   std::vector<int64_t> &found) {
  found.clear();
  for (int64_t r = 0; r < rows; ++r) {
    const float *row = x + r * cols;
    uint32_t bad = 0;
#pragma omp simd reduction(| : bad)
    for (int64_t c = 0; c < cols; ++c) {
      uint32_t bits;
      std::memcpy(&bits, &row[c], sizeof(bits));
      bad |= (bits & 0x7f800000u) == 0x7f800000u;
    }
    if (bad)
      found.push_back(r);
  }
}

/// The operand for a GEMM that sums over x's rows: x itself, or a copy in
/// `buffer` with the `bad` rows zeroed (fixUpKeys and fixUpQueries add
/// their live terms).
const float *zeroRows(const float *x, int64_t rows, int64_t cols,
                      const std::vector<int64_t> &bad, float *buffer) {
  if (bad.empty())
    return x;
  std::copy(x, x + rows * cols, buffer);
  for (int64_t r : bad)
    std::fill(buffer + r * cols, buffer + (r + 1) * cols, 0.0f);
  return buffer;
}

/// y[0, n) += a * x[0, n).
void axpy(float *y, float a, const float *x, int64_t n) {
  for (int64_t c = 0; c < n; ++c)
    y[c] += a * x[c];
}

/// The terms a GEMM left out by zeroing the rows `bad` of x (keys; row
/// width n): acc[i] += w[i, j] x[j] for j in `bad`, j < cols, and each of
/// the `rows` rows i that is not dead and whose score s[i, j] is not -inf
/// (w and s with row pitch cols).
void fixUpKeys(const std::vector<int64_t> &bad, const float *s, const float *w,
               const std::vector<char> &dead, int64_t rows, int64_t cols,
               const float *x, int64_t n, float *acc) {
  for (int64_t j : bad)
    for (int64_t i = 0; i < rows && j < cols; ++i)
      if (!dead[i] && !maskedOut(s[i * cols + j]))
        axpy(acc + i * n, w[i * cols + j], x + j * n, n);
}

/// The same for zeroed rows `bad` of x that are query rows, summed over
/// into keys: acc[j] += w[i, j] x[i] for i in `bad` not dead and j < cols
/// whose score is not -inf.
void fixUpQueries(const std::vector<int64_t> &bad, const float *s,
                  const float *w, const std::vector<char> &dead, int64_t cols,
                  const float *x, int64_t n, float *acc) {
  for (int64_t i : bad)
    for (int64_t j = 0; j < cols && !dead[i]; ++j)
      if (!maskedOut(s[i * cols + j]))
        axpy(acc + j * n, w[i * cols + j], x + i * n, n);
}

//===----------------------------------------------------------------------===//
// The kernels
//===----------------------------------------------------------------------===//

/// Dropout of x[0, n), a row of problem b's query row i over its keys:
/// x[j] / (1 - rate) where p[i, j] is kept, 0 where it is dropped (and
/// s[j] = -inf there, when s is not NULL).
void dropRow(const AttentionView &v, uint64_t seed, int64_t b, int64_t i,
             int64_t n, float *x, float *s) {
  for (int64_t j = 0; j < n; ++j) {
    if (v.keeps(seed, b, i, j)) {
      x[j] = dropoutScaled(x[j], v.keepProb);
      continue;
    }
    x[j] = 0.0f;
    if (s)
      s[j] = -INFINITY;
  }
}

/// Query rows per block when each row has sk keys.
int64_t blockRowsFor(int64_t sk) {
  return std::clamp<int64_t>(kMaxBlockScores / std::max<int64_t>(sk, 1), 1,
                             kBlockRows);
}

void forwardProblems(const AttentionView &v, const AttentionArgs &a) {
  const int64_t sq = v.sq, sk = v.sk, d = v.d, dv = v.dv;
  const int64_t blockRows = blockRowsFor(sk);
  const int64_t blocks = (sq + blockRows - 1) / blockRows;
  const uint64_t seed = v.seedValue();
  splitOverThreads(v.batch * blocks, [&](int64_t begin, int64_t end) {
    const bool wide = a.dtype != AMP_DTYPE_F32;
    const Buffers buf({wide ? sk * d : 0, wide ? sk * dv : 0, sk * dv,
                       wide ? blockRows * d : 0, blockRows * sk, blockRows * sk,
                       blockRows * dv, sk});
    float *kWide = buf.get(0), *vWide = buf.get(1), *vZeroed = buf.get(2),
          *qWide = buf.get(3), *s = buf.get(4), *e = buf.get(5),
          *o = buf.get(6), *maskBuf = buf.get(7);
    std::vector<int64_t> badKeys;
    std::vector<char> dead(blockRows);
    std::vector<float> sums(blockRows);
    const float *k = nullptr, *val = nullptr, *vGemm = nullptr;
    int64_t loaded = -1;
    for (int64_t item = begin; item < end; ++item) {
      const int64_t b = item / blocks, i0 = item % blocks * blockRows;
      const int64_t rows = std::min(blockRows, sq - i0), row0 = b * sq + i0;
      const int64_t cols = v.keysOf(i0 + rows - 1); // the block's widest row
      if (const int64_t kb = v.kvProblem(b); kb != loaded) {
        k = asF32(a, a.k, kb * sk * d, sk * d, kWide);
        val = asF32(a, a.v, kb * sk * dv, sk * dv, vWide);
        nonFiniteRows(val, sk, dv, badKeys);
        vGemm = zeroRows(val, sk, dv, badKeys, vZeroed);
        loaded = kb;
      }
      const float *q = asF32(a, a.q, row0 * d, rows * d, qWide);
      sgemm('N', 'T', rows, cols, d, a.scale, q, d, k, d, 0.0f, s, cols);
      for (int64_t t = 0; t < rows; ++t) {
        const int64_t i = i0 + t, n = v.keysOf(i);
        const RowSums r =
            softmaxRow(s + t * cols, maskRow(v, a, b, i, n, maskBuf), n, cols,
                       e + t * cols);
        dead[t] = r.max == -INFINITY; // no key: out = 0, lse = -inf
        sums[t] = r.sum;
        a.lseOut[row0 + t] = dead[t] ? -INFINITY : attentionLse(r.max, r.sum);
        if (v.dropoutSeed && !dead[t])
          dropRow(v, seed, b, i, n, e + t * cols, s + t * cols);
      }
      sgemm('N', 'N', rows, dv, cols, 1.0f, e, cols, vGemm, dv, 0.0f, o, dv);
      fixUpKeys(badKeys, s, e, dead, rows, cols, val, dv, o);
      for (int64_t t = 0; t < rows; ++t)
        for (int64_t c = 0; c < dv; ++c)
          o[t * dv + c] = dead[t] ? 0.0f : o[t * dv + c] / sums[t];
      store(a, o, a.dst, row0 * dv, rows * dv);
    }
  });
}

void backwardProblems(const AttentionView &v, const AttentionArgs &a) {
  const int64_t sq = v.sq, sk = v.sk, d = v.d, dv = v.dv;
  if (sq == 0) {
    // dk and dv sum over no row; no scratch (Sk may be huge when the head
    // dims are 0).
    dispatchFloat(a.dtype, [&](auto t) {
      fillWith<decltype(t)>(a.dk, v.kvBatch() * sk * d, a.scale * 0.0f);
      fillWith<decltype(t)>(a.dv, v.kvBatch() * sk * dv, 0.0f);
    });
    return;
  }
  const int64_t blockRows = blockRowsFor(sk);
  const uint64_t seed = v.seedValue();
  // One key/value problem per item: its dk and dv sum over the query
  // problems that read it, in order.
  splitOverThreads(v.kvBatch(), [&](int64_t begin, int64_t end) {
    const bool wide = a.dtype != AMP_DTYPE_F32;
    const int64_t qSize = blockRows * d, oSize = blockRows * dv,
                  sSize = blockRows * sk;
    const Buffers buf({wide ? sk * d : 0, sk * d, wide ? sk * dv : 0,
                       wide ? qSize : 0, qSize, wide ? oSize : 0, oSize,
                       wide ? oSize : 0, sSize, sSize, sSize, qSize, sk * d,
                       sk * dv, sk});
    float *kWide = buf.get(0), *kZeroed = buf.get(1), *vWide = buf.get(2),
          *qWide = buf.get(3), *qZeroed = buf.get(4), *dOutWide = buf.get(5),
          *dOutZeroed = buf.get(6), *outWide = buf.get(7), *s = buf.get(8),
          *p = buf.get(9), *ds = buf.get(10), *dq = buf.get(11),
          *dkSum = buf.get(12), *dvSum = buf.get(13), *maskBuf = buf.get(14);
    std::vector<int64_t> badKeys, badQueries, badDOut;
    std::vector<char> dead(blockRows);
    for (int64_t kb = begin; kb < end; ++kb) {
      const float *k = asF32(a, a.k, kb * sk * d, sk * d, kWide);
      const float *val = asF32(a, a.v, kb * sk * dv, sk * dv, vWide);
      nonFiniteRows(k, sk, d, badKeys);
      const float *kGemm = zeroRows(k, sk, d, badKeys, kZeroed);
      std::fill(dkSum, dkSum + sk * d, 0.0f);
      std::fill(dvSum, dvSum + sk * dv, 0.0f);
      for (int64_t b = kb * v.kvGroup; b < (kb + 1) * v.kvGroup; ++b) {
        for (int64_t i0 = 0; i0 < sq; i0 += blockRows) {
          const int64_t rows = std::min(blockRows, sq - i0), row0 = b * sq + i0;
          const int64_t cols = v.keysOf(i0 + rows - 1);
          const float *q = asF32(a, a.q, row0 * d, rows * d, qWide);
          const float *dout = asF32(a, a.dout, row0 * dv, rows * dv, dOutWide);
          const float *out = asF32(a, a.out, row0 * dv, rows * dv, outWide);
          nonFiniteRows(q, rows, d, badQueries);
          nonFiniteRows(dout, rows, dv, badDOut);
          const float *qGemm = zeroRows(q, rows, d, badQueries, qZeroed);
          const float *dOutGemm = zeroRows(dout, rows, dv, badDOut, dOutZeroed);
          sgemm('N', 'T', rows, cols, d, a.scale, q, d, k, d, 0.0f, s, cols);
          // dp = dO V^T into ds, which gradRow turns into ds.
          sgemm('N', 'T', rows, cols, dv, 1.0f, dout, dv, val, dv, 0.0f, ds,
                cols);
          for (int64_t t = 0; t < rows; ++t) {
            const int64_t i = i0 + t, n = v.keysOf(i);
            const float lse = a.lse[row0 + t];
            float *sRow = s + t * cols, *pRow = p + t * cols,
                  *dsRow = ds + t * cols;
            dead[t] = n == 0 || lse == -INFINITY; // no key: p = 0
            if (dead[t]) {
              std::fill(sRow, sRow + cols, -INFINITY);
              std::fill(pRow, pRow + cols, 0.0f);
              std::fill(dsRow, dsRow + cols, 0.0f);
              continue;
            }
            float delta = 0.0f;
            for (int64_t c = 0; c < dv; ++c)
              delta += dout[t * dv + c] * out[t * dv + c];
            if (v.dropoutSeed) // dp of the dropped probabilities
              dropRow(v, seed, b, i, n, dsRow, nullptr);
            gradRow(sRow, maskRow(v, a, b, i, n, maskBuf), n, cols, lse, delta,
                    pRow, dsRow);
            if (v.dropoutSeed) // dV's weights: the dropped probabilities
              dropRow(v, seed, b, i, n, pRow, nullptr);
          }
          sgemm('N', 'N', rows, d, cols, 1.0f, ds, cols, kGemm, d, 0.0f, dq, d);
          fixUpKeys(badKeys, s, ds, dead, rows, cols, k, d, dq);
          for (int64_t t = 0; t < rows; ++t)
            for (int64_t c = 0; c < d; ++c)
              dq[t * d + c] = a.scale * (dead[t] ? 0.0f : dq[t * d + c]);
          store(a, dq, a.dst, row0 * d, rows * d);
          sgemm('T', 'N', cols, d, rows, 1.0f, ds, cols, qGemm, d, 1.0f, dkSum,
                d);
          fixUpQueries(badQueries, s, ds, dead, cols, q, d, dkSum);
          sgemm('T', 'N', cols, dv, rows, 1.0f, p, cols, dOutGemm, dv, 1.0f,
                dvSum, dv);
          fixUpQueries(badDOut, s, p, dead, cols, dout, dv, dvSum);
        }
      }
      for (int64_t x = 0; x < sk * d; ++x)
        dkSum[x] *= a.scale;
      store(a, dkSum, a.dk, kb * sk * d, sk * d);
      store(a, dvSum, a.dv, kb * sk * dv, sk * dv);
    }
  });
}

/// Runs a checked call's kernel: a malformed AMP_NUM_THREADS fails it, and
/// oneDNN's failures and running out of memory are
/// AMP_STATUS_BACKEND_ERROR.
template <typename Body> amp_status_t run(Checker &check, Body &&body) {
  if (!threadSettingError().empty())
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "%s",
                      threadSettingError().c_str());
  applyThreadSetting();
  try {
    body();
  } catch (const dnnl::error &e) {
    return check.fail(AMP_STATUS_BACKEND_ERROR, "oneDNN sgemm failed: %s",
                      e.what());
  } catch (const std::bad_alloc &) {
    return check.fail(AMP_STATUS_BACKEND_ERROR,
                      "out of memory for the kernel's scratch buffers");
  }
  return AMP_STATUS_OK;
}

} // namespace

amp_status_t kernels::attentionForward(Checker &check,
                                       const AttentionCall &call) {
  return run(check, [&] { forwardProblems(call.view, call); });
}

amp_status_t kernels::attentionBackward(Checker &check,
                                        const AttentionCall &call) {
  return run(check, [&] { backwardProblems(call.view, call); });
}
