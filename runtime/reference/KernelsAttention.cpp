//===- KernelsAttention.cpp - Fused scaled-dot-product attention ----------===//
//
// The reference backend's attention, attentionForward and attentionBackward
// (called by AttentionEntryPoints.cpp's amp_attention and
// amp_attention_grad; the cpu backend has its own on oneDNN GEMMs,
// runtime/cpu/CpuAttention.cpp). Each
// problem's K and V are widened into f32 scratch, K (and for the gradient V)
// transposed so that a query row's dot products run one key per vector
// lane: each lane accumulates its dot product over the head dim in
// ascending order, exactly as a scalar loop would, so the vectorized loops
// change no sum's order. The forward works row by row (two passes over the
// row's scores: max and sum, then the output); the backward key/value
// problem by problem, each one's dk and dv summed in f32 scratch over the
// query rows of the problems that read it (kv_group of them under
// grouped-query attention) in ascending order. Rows (forward) and problems
// (backward) are independent loops (parallelRanges), run as written here. With
// dropout a dropped probability's term is left out of out and dv (as a
// masked-out key's), and the kept ones are divided by 1 - rate (amp_dropout's
// dropoutScaled).
//
//===----------------------------------------------------------------------===//

#include "reference/AttentionChecks.h"
#include "reference/AttentionMath.h"
#include "reference/ElementwiseMath.h"
#include "reference/KernelCommon.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {

/// The operands of one call (AttentionChecks.h).
using AttentionArgs = AttentionCall;

using Scratch = std::vector<float>;

Scratch scratch(int64_t n) { return Scratch(static_cast<size_t>(n)); }

/// y[0, n) += a * x[0, n). The lanes are independent, so the loop
/// vectorizes without reordering any sum.
inline void axpy(float *__restrict y, float a, const float *__restrict x,
                 int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    y[i] += a * x[i];
}

/// The four axpy calls y += a0 * x0, ..., y += a3 * x3 in that order, with
/// y loaded and stored once: the same sums, a quarter of the memory
/// traffic.
inline void axpy4(float *__restrict y, float a0, const float *__restrict x0,
                  float a1, const float *__restrict x1, float a2,
                  const float *__restrict x2, float a3,
                  const float *__restrict x3, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    float t = y[i];
    t += a0 * x0[i];
    t += a1 * x1[i];
    t += a2 * x2[i];
    t += a3 * x3[i];
    y[i] = t;
  }
}

/// y[0, n) += a[t] * x[t][0, n) for t = 0, 1, ..., terms - 1 in order.
inline void axpyTerms(float *y, const float *a, const float *const *x,
                      int64_t terms, int64_t n) {
  int64_t t = 0;
  for (; t + 4 <= terms; t += 4)
    axpy4(y, a[t], x[t], a[t + 1], x[t + 1], a[t + 2], x[t + 2], a[t + 3],
          x[t + 3], n);
  for (; t < terms; ++t)
    axpy(y, a[t], x[t], n);
}

/// y[0, n) += a[t] * (x + t * pitch)[0, n) for t in [0, terms) in order: a
/// matrix-vector product over the rows of x.
inline void axpyRows(float *y, const float *a, const float *x, int64_t pitch,
                     int64_t terms, int64_t n) {
  int64_t t = 0;
  for (; t + 4 <= terms; t += 4)
    axpy4(y, a[t], x + t * pitch, a[t + 1], x + (t + 1) * pitch, a[t + 2],
          x + (t + 2) * pitch, a[t + 3], x + (t + 3) * pitch, n);
  for (; t < terms; ++t)
    axpy(y, a[t], x + t * pitch, n);
}

/// dst = the rows x cols matrix src widened to f32, transposed when
/// `transpose` (dst[c * rows + r] = src[r * cols + c]).
template <typename T>
void widen(const T *src, int64_t rows, int64_t cols, bool transpose,
           float *dst) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      dst[transpose ? c * rows + r : r * cols + c] = toF32(src[r * cols + c]);
}

/// The first n mask values of problem b's query row i, widened.
template <typename T>
void loadMaskRow(const AttentionView &v, const AttentionArgs &a, int64_t b,
                 int64_t i, int64_t n, float *row) {
  const int64_t base = v.maskBase(b) + i * v.maskStrideI;
  if (a.maskIsF32()) {
    const float *m = static_cast<const float *>(a.mask);
    for (int64_t j = 0; j < n; ++j)
      row[j] = m[base + j * v.maskStrideJ];
  } else {
    const T *m = static_cast<const T *>(a.mask);
    for (int64_t j = 0; j < n; ++j)
      row[j] = toF32(m[base + j * v.maskStrideJ]);
  }
}

/// The scores s[0, n) of one query row (q widened into `qRow`) against the
/// problem's K^T (kT[d * sk + j]): the forward and the backward both call
/// this, so the backward's probabilities are bitwise the forward's.
template <typename T>
void scoreRow(const AttentionView &v, const AttentionArgs &a, int64_t b,
              int64_t i, int64_t n, const float *qRow, const float *kT,
              float *maskRow, float *s) {
  std::fill(s, s + n, 0.0f);
  axpyRows(s, qRow, kT, v.sk, v.d, n);
  if (!v.hasMask) {
    for (int64_t j = 0; j < n; ++j)
      s[j] = attentionScore(s[j], a.scale, 0.0f);
    return;
  }
  loadMaskRow<T>(v, a, b, i, n, maskRow);
  for (int64_t j = 0; j < n; ++j)
    s[j] = attentionScore(s[j], a.scale, maskRow[j]);
}

/// The work of `count` items for parallelRanges, capped so that count *
/// work cannot overflow (the cap is already enough to split the loop).
int64_t workOf(int64_t perItem) {
  return std::clamp<int64_t>(perItem, 1, kParallelGrain);
}

/// The live keys of one row (those not masked out), ascending: their
/// weights and the rows they weight.
struct Terms {
  Scratch weight;
  std::vector<const float *> row;
  int64_t count = 0;

  explicit Terms(int64_t n)
      : weight(static_cast<size_t>(n)), row(static_cast<size_t>(n)) {}
  void add(float w, const float *r) {
    weight[count] = w;
    row[count++] = r;
  }
};

template <typename T>
void forwardProblems(const AttentionView &v, const AttentionArgs &a) {
  const int64_t sk = v.sk, d = v.d, dv = v.dv;
  const T *q = static_cast<const T *>(a.q);
  const T *k = static_cast<const T *>(a.k);
  const T *val = static_cast<const T *>(a.v);
  T *out = static_cast<T *>(a.dst);
  const bool drops = v.dropoutSeed != nullptr;
  const uint64_t seed = v.seedValue();
  const int64_t rows = v.batch * v.sq, work = workOf(sk * (d + dv + 1));
  parallelRanges(rows, work, [&](int64_t begin, int64_t end) {
    Scratch kT = scratch(d * sk), vRows = scratch(sk * dv), qRow = scratch(d),
            s = scratch(sk), maskRow = scratch(sk), acc = scratch(dv);
    Terms terms(sk);
    int64_t loaded = -1;
    for (int64_t r = begin; r < end; ++r) {
      const int64_t b = r / v.sq, i = r % v.sq, n = v.keysOf(i);
      const int64_t kb = v.kvProblem(b);
      if (kb != loaded) {
        widen(k + kb * sk * d, sk, d, true, kT.data());
        widen(val + kb * sk * dv, sk, dv, false, vRows.data());
        loaded = kb;
      }
      widen(q + r * d, 1, d, false, qRow.data());
      scoreRow<T>(v, a, b, i, n, qRow.data(), kT.data(), maskRow.data(),
                  s.data());
      float m = -INFINITY;
      for (int64_t j = 0; j < n; ++j)
        m = maxNaN(m, s[j]);
      std::fill(acc.begin(), acc.end(), 0.0f);
      float lse = -INFINITY; // no key: out = 0
      if (m != -INFINITY) {
        float l = 0.0f;
        for (int64_t j = 0; j < n; ++j)
          l += std::exp(s[j] - m);
        lse = attentionLse(m, l);
        terms.count = 0;
        for (int64_t j = 0; j < n; ++j) {
          if (maskedOut(s[j]))
            continue;
          const float p = attentionProb(s[j], lse);
          if (!drops)
            terms.add(p, vRows.data() + j * dv);
          else if (v.keeps(seed, b, i, j))
            terms.add(dropoutScaled(p, v.keepProb), vRows.data() + j * dv);
        }
        axpyTerms(acc.data(), terms.weight.data(), terms.row.data(),
                  terms.count, dv);
      }
      for (int64_t e = 0; e < dv; ++e)
        out[r * dv + e] = fromF32<T>(acc[e]);
      a.lseOut[r] = lse;
    }
  });
}

/// Query rows the backward takes together, so that each dk and dv row is
/// loaded and stored once for up to four of its terms.
constexpr int64_t kRowBlock = 4;

/// The state of one query row of the backward: its widened q and dout rows,
/// its scores, and for its keys dv's weight p (divided by 1 - rate under
/// dropout), ds, and whether dropout dropped p (row < 0: nothing to add,
/// either past the last row or a row without keys).
struct GradRow {
  Scratch q, dout, s, p, ds;
  std::vector<char> dropped;
  int64_t row = -1, keys = 0;
  GradRow(int64_t d, int64_t dv, int64_t sk)
      : q(static_cast<size_t>(d)), dout(static_cast<size_t>(dv)),
        s(static_cast<size_t>(sk)), p(static_cast<size_t>(sk)),
        ds(static_cast<size_t>(sk)), dropped(static_cast<size_t>(sk)) {}
};

template <typename T>
void backwardProblems(const AttentionView &v, const AttentionArgs &a) {
  const int64_t sq = v.sq, sk = v.sk, d = v.d, dv = v.dv;
  const T *q = static_cast<const T *>(a.q);
  const T *k = static_cast<const T *>(a.k);
  const T *val = static_cast<const T *>(a.v);
  const T *out = static_cast<const T *>(a.out);
  const T *dout = static_cast<const T *>(a.dout);
  T *dq = static_cast<T *>(a.dst);
  T *dk = static_cast<T *>(a.dk);
  T *dvOut = static_cast<T *>(a.dv);
  const bool drops = v.dropoutSeed != nullptr;
  const uint64_t seed = v.seedValue();
  if (sq == 0) {
    // dk and dv sum over no row; no scratch (Sk may be huge when the head
    // dims are 0: amp-kernel-args-fuzzer).
    fillWith<T>(dk, v.kvBatch() * sk * d, a.scale * 0.0f);
    fillWith<T>(dvOut, v.kvBatch() * sk * dv, 0.0f);
    return;
  }
  // No problem: nothing to write, and kv_group may be any divisor of q's 0
  // heads (amp-kernel-args-fuzzer). Otherwise kv_group * Sq * Sk is at most
  // the scores' count, which the checks bounded.
  if (v.kvBatch() == 0)
    return;
  const int64_t work =
      workOf(v.kvGroup * sq * sk * (d + dv + 1) + sk * (d + dv));
  // One key/value problem at a time: its dk and dv sum over the rows of
  // each query problem that reads it, in ascending order.
  parallelRanges(v.kvBatch(), work, [&](int64_t begin, int64_t end) {
    Scratch kRows = scratch(sk * d), kT = scratch(d * sk),
            vT = scratch(dv * sk), dkAcc = scratch(sk * d),
            dvAcc = scratch(sk * dv), dqAcc = scratch(d), maskRow = scratch(sk);
    std::vector<GradRow> rows(kRowBlock, GradRow(d, dv, sk));
    Terms terms(std::max(sk, kRowBlock)), dvTerms(kRowBlock);
    for (int64_t kb = begin; kb < end; ++kb) {
      widen(k + kb * sk * d, sk, d, false, kRows.data());
      widen(k + kb * sk * d, sk, d, true, kT.data());
      widen(val + kb * sk * dv, sk, dv, true, vT.data());
      std::fill(dkAcc.begin(), dkAcc.end(), 0.0f);
      std::fill(dvAcc.begin(), dvAcc.end(), 0.0f);
      for (int64_t b = kb * v.kvGroup; b < (kb + 1) * v.kvGroup; ++b) {
        for (int64_t i0 = 0; i0 < sq; i0 += kRowBlock) {
          int64_t maxKeys = 0;
          for (int64_t t = 0; t < kRowBlock; ++t) {
            GradRow &g = rows[t];
            const int64_t i = i0 + t, r = b * sq + i;
            g.row = -1;
            if (i >= sq)
              continue;
            const int64_t n = v.keysOf(i);
            const float lse = a.lse[r];
            std::fill(dqAcc.begin(), dqAcc.end(), 0.0f);
            if (n > 0 && lse != -INFINITY) { // else no key: p = 0
              g.row = r;
              g.keys = n;
              maxKeys = std::max(maxKeys, n);
              widen(q + r * d, 1, d, false, g.q.data());
              widen(dout + r * dv, 1, dv, false, g.dout.data());
              scoreRow<T>(v, a, b, i, n, g.q.data(), kT.data(), maskRow.data(),
                          g.s.data());
              float delta = 0.0f;
              for (int64_t e = 0; e < dv; ++e)
                delta += g.dout[e] * toF32(out[r * dv + e]);
              // dp[j] = dot(dout, v[j]) in ds, then ds itself.
              std::fill(g.ds.begin(), g.ds.begin() + n, 0.0f);
              axpyRows(g.ds.data(), g.dout.data(), vT.data(), sk, dv, n);
              terms.count = 0;
              for (int64_t j = 0; j < n; ++j) {
                if (maskedOut(g.s[j]))
                  continue;
                const float p = attentionProb(g.s[j], lse);
                float dp = g.ds[j];
                g.dropped[j] = drops && !v.keeps(seed, b, i, j);
                g.p[j] = p;
                if (drops) {
                  dp = g.dropped[j] ? 0.0f : dropoutScaled(dp, v.keepProb);
                  g.p[j] = dropoutScaled(p, v.keepProb);
                }
                g.ds[j] = attentionScoreGrad(p, dp, delta);
                terms.add(g.ds[j], kRows.data() + j * d);
              }
              axpyTerms(dqAcc.data(), terms.weight.data(), terms.row.data(),
                        terms.count, d);
            }
            for (int64_t c = 0; c < d; ++c)
              dq[r * d + c] = fromF32<T>(a.scale * dqAcc[c]);
          }
          // dk[j] and dv[j] take the block's rows in ascending order.
          for (int64_t j = 0; j < maxKeys; ++j) {
            terms.count = dvTerms.count = 0;
            for (const GradRow &g : rows)
              if (g.row >= 0 && j < g.keys && !maskedOut(g.s[j])) {
                terms.add(g.ds[j], g.q.data());
                if (!g.dropped[j])
                  dvTerms.add(g.p[j], g.dout.data());
              }
            axpyTerms(dkAcc.data() + j * d, terms.weight.data(),
                      terms.row.data(), terms.count, d);
            axpyTerms(dvAcc.data() + j * dv, dvTerms.weight.data(),
                      dvTerms.row.data(), dvTerms.count, dv);
          }
        }
      }
      const int64_t kBase = kb * sk * d, vBase = kb * sk * dv;
      for (int64_t x = 0; x < sk * d; ++x)
        dk[kBase + x] = fromF32<T>(a.scale * dkAcc[x]);
      for (int64_t x = 0; x < sk * dv; ++x)
        dvOut[vBase + x] = fromF32<T>(dvAcc[x]);
    }
  });
}

} // namespace

amp_status_t kernels::attentionForward(Checker &check,
                                       const AttentionCall &call) {
  return guarded(check, [&] {
    dispatchFloat(call.dtype, [&](auto t) {
      forwardProblems<decltype(t)>(call.view, call);
    });
  });
}

amp_status_t kernels::attentionBackward(Checker &check,
                                        const AttentionCall &call) {
  return guarded(check, [&] {
    dispatchFloat(call.dtype, [&](auto t) {
      backwardProblems<decltype(t)>(call.view, call);
    });
  });
}
