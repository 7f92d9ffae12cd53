//===- CompareAttention.cpp - amp_attention, amp_attention_grad -----------===//
//
// Shapes: BERT-like ([2, 12, 128, 64] with a key-padding mask, [1, 2, 512,
// 64], a causal [2, 4, 100, 64]) and odd ones: rank 2 and 3, Sq != Sk,
// D != Dv, D = Dv = 1, D = 0, wide heads (D = 160, Dv = 200: more than 48 KiB
// of shared memory; D = Dv = 1024: the CUDA blocks shrink), causal with Sq < Sk
// and Sq > Sk, masks of the scores' shape and broadcast ones with -inf entries
// (f32 or the dtype), Sq = 0 and Sk = 0, dropout of the probabilities (rate
// 0.1 and 0.3), grouped-query attention (kv_group 2, 3 and 4, one key/value
// head for all: multi-query); f32, f16 and bf16. The gradients of
// both backends take the same dout, out and lse (the reference's), so each
// kernel is compared on the same inputs.
//
// Tolerances (u = 2^-24; n the keys of a row, m the query rows, S the
// largest |score|, each bound doubled). Both backends form the same f32
// scores (the dot products in the same order, no FMA contraction) and the
// same max. The reference sums exp(s - m) in order and forms p = exp(s -
// lse); the CUDA forward keeps a running max and sum over tiles of up to 32
// keys, rescales by exp(m_old - m_new) and divides by l. Each side is
// within about (n + 2 S + 2 log n + 8) u of the exact softmax, plus 16 u a
// rescale (at most n / 16 of them), and CUDA's expf is within 2 ulps:
//   out: absolute (8 n + 18 S + 8 log2(n + 1) + 32) u max|v|;
//   lse: absolute (6 n + 16 S + 8 log2(n + 1) + 16) u.
// The gradients see the same scores, lse and delta (dot(dout, out) in
// order on both) and sum in the same order, so they differ by expf (6 u
// relative in p, 8 u in ds) and each side's rounding of the same sums:
//   dq: |scale| (2 n + 10) u max|k| max_i sum_j |ds_ij|;
//   dk: |scale| (2 m + 10) u max|q| max_j sum_i |ds_ij|;
//   dv: (2 m + 8) u max|dout| max_j sum_i p_ij,
// with the sums of |ds| and p computed here in f64. Under grouped-query
// attention the dk and dv sums run over the rows of kv_group query
// problems: m is kv_group Sq, and the sums over i take those rows. f16/bf16
// outputs add one rounding: 1 ulp.
//
// The cpu backend (--host, runtime/cpu/CpuAttention.cpp) computes the
// same formulas with oneDNN GEMMs: the dot products and the gradient's
// sums in a blocked order with fused multiply-adds, the row max and sum in
// 16 partial results, out as (sum e v) / l like CUDA, and its own exp
// (within 1 ulp). Each of its sums is within (terms) u of its sum of
// |terms| in any order, which the n and m terms above cover. The bounds
// have no term for the scores' dot products over D, which may now differ
// by up to (D + 2) u |scale| sum |q k| each; for these inputs (uniform, scale
// 1/sqrt(D)) their rounding errors grow like sqrt(D), and the cpu backend
// uses at most 8% of any f32 bound (D = 1024 included).
//
// Dropout divides the kept p (out, dv) and dp (ds) by 1 - rate on both
// sides, with the same mask: out's bound is multiplied by 1 / (1 - rate),
// and the sums of |ds| and p that the gradients' bounds take are those of
// the dropped ds = p (f dp - delta) and p f (f = 1 / (1 - rate) or 0); the
// doubling covers the division's rounding.
//
//===----------------------------------------------------------------------===//

#include "Compare.h"

#include "amp_runtime/dropout.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace amp::compare;

namespace {

constexpr double kU = 0x1p-24;

double roundingOf(amp_dtype_t dt) {
  return dt == AMP_DTYPE_F16 ? 0x1p-10 : dt == AMP_DTYPE_BF16 ? 0x1p-7 : 0.0;
}

/// abs in f32, plus one rounding to dt (relative, and the smallest
/// subnormal for results near 0).
Tolerance tol(amp_dtype_t dt, double abs) {
  const double tiny = dt == AMP_DTYPE_F16    ? 0x1p-24
                      : dt == AMP_DTYPE_BF16 ? 0x1p-133
                                             : 0x1p-149;
  return Tolerance{abs + tiny, roundingOf(dt), 1, false};
}

struct Case {
  std::vector<int64_t> q; // [B..., Sq, D]
  int64_t sk, dv;
  std::vector<int64_t> mask; // empty: none
  int32_t causal;
  bool maskInDtype;
  float dropout = 0.0f; // the dropout rate; 0: none
  int64_t kvGroup = 1;  // query heads per key/value head
};

const std::vector<Case> &cases() {
  static const std::vector<Case> all = {
      {{2, 12, 128, 64}, 128, 64, {2, 1, 1, 128}, 0, false},
      {{1, 2, 512, 64}, 512, 64, {}, 0, false},
      {{2, 4, 100, 64}, 100, 64, {}, 1, false},
      {{37, 9}, 45, 13, {37, 45}, 0, true},
      {{3, 50, 17}, 33, 5, {1, 50, 1}, 1, false},
      {{2, 3, 7, 3}, 70, 33, {2, 3, 7, 70}, 1, true},
      {{2, 5, 1}, 3, 1, {}, 0, false},
      {{1, 1, 40, 160}, 40, 200, {1, 1, 1, 40}, 0, false},
      {{1, 1, 20, 1024}, 24, 1024, {}, 1, false},
      {{2, 4, 0}, 6, 3, {2, 4, 6}, 0, false},
      {{2, 0, 8}, 5, 4, {}, 0, false},
      {{2, 6, 8}, 0, 4, {}, 1, false},
      {{2, 12, 128, 64}, 128, 64, {2, 1, 1, 128}, 0, false, 0.1f},
      {{2, 4, 100, 64}, 100, 64, {}, 1, false, 0.3f},
      {{3, 50, 17}, 33, 5, {1, 50, 1}, 1, true, 0.3f},
      // grouped-query attention: Llama-like (8 query heads, 2 key/value
      // heads), causal with a key-padding mask; multi-query (one
      // key/value head); rank 3; with dropout
      {{2, 8, 64, 64}, 64, 64, {2, 1, 1, 64}, 1, false, 0.0f, 4},
      {{1, 4, 40, 16}, 52, 24, {}, 0, true, 0.0f, 4},
      {{6, 33, 8}, 20, 8, {6, 33, 20}, 1, true, 0.0f, 2},
      {{1, 6, 50, 32}, 70, 16, {1, 1, 50, 70}, 0, false, 0.1f, 3},
  };
  return all;
}

/// The geometry of a case.
struct Dims {
  int32_t rank;
  int64_t batch, kvBatch, sq, d, sk, dv;
  int64_t q, k, v, out, rows, mask;
};

Dims dimsOf(const Case &c) {
  Dims g;
  g.rank = int32_t(c.q.size());
  g.batch = 1;
  for (int32_t a = 0; a + 2 < g.rank; ++a)
    g.batch *= c.q[a];
  g.sq = c.q[g.rank - 2];
  g.d = c.q[g.rank - 1];
  g.sk = c.sk;
  g.dv = c.dv;
  g.kvBatch = g.batch / c.kvGroup;
  g.q = g.batch * g.sq * g.d;
  g.k = g.kvBatch * g.sk * g.d;
  g.v = g.kvBatch * g.sk * g.dv;
  g.out = g.batch * g.sq * g.dv;
  g.rows = g.batch * g.sq;
  g.mask = c.mask.empty() ? 0 : 1;
  for (int64_t m : c.mask)
    g.mask *= m;
  return g;
}

std::string describe(const char *what, amp_dtype_t dt, const Case &c) {
  std::string d = std::string(what) + " " + amp_dtype_name(dt) + " q [";
  for (size_t i = 0; i < c.q.size(); ++i)
    d += (i ? "," : "") + std::to_string(c.q[i]);
  d += "] sk " + std::to_string(c.sk) + " dv " + std::to_string(c.dv);
  if (!c.mask.empty()) {
    d += " mask [";
    for (size_t i = 0; i < c.mask.size(); ++i)
      d += (i ? "," : "") + std::to_string(c.mask[i]);
    d += "]";
  }
  if (c.dropout > 0)
    d += " dropout " + std::to_string(c.dropout);
  if (c.kvGroup > 1)
    d += " kv_group " + std::to_string(c.kvGroup);
  return d + (c.causal ? " causal" : "");
}

/// The inputs of one case.
struct Inputs {
  Host q, k, v, mask, dout;
  Host seed; // 0-d i64
  float scale;
};

/// The mask element of scores[b, i, j] (numpy broadcasting of mask_dims).
int64_t maskIndex(const Case &c, const Dims &g, int64_t b, int64_t i,
                  int64_t j) {
  std::vector<int64_t> index(size_t(g.rank));
  for (int32_t a = g.rank - 3; a >= 0; --a) {
    index[a] = b % c.q[a];
    b /= c.q[a];
  }
  index[g.rank - 2] = i;
  index[g.rank - 1] = j;
  int64_t at = 0;
  for (int32_t a = 0; a < g.rank; ++a)
    at = at * c.mask[a] + (c.mask[a] == 1 ? 0 : index[a]);
  return at;
}

/// What dropout multiplies problem b's p[i, j] by: 1 / (1 - rate) or 0
/// (amp_runtime/dropout.h's mask), 1 without dropout.
double dropFactor(const Case &c, const Inputs &in, const Dims &g, int64_t b,
                  int64_t i, int64_t j) {
  if (c.dropout == 0)
    return 1.0;
  const auto seed = static_cast<uint64_t>(in.seed.get(0));
  return amp::runtime::dropoutKeep(
             seed, static_cast<uint64_t>((b * g.sq + i) * g.sk + j),
             amp::runtime::dropoutThreshold(c.dropout))
             ? 1.0 / double(1.0f - c.dropout)
             : 0.0;
}

/// Magnitudes the tolerances need, in f64 from the inputs and the
/// reference's out and lse.
struct Sizes {
  double scoreMax = 0, dsRowMax = 0, dsColMax = 0, pColMax = 0;
};

Sizes sizesOf(const Case &c, const Dims &g, const Inputs &in, const Host &out,
              const Host &lse) {
  Sizes z;
  std::vector<double> dsCol(size_t(g.sk)), pCol(size_t(g.sk));
  for (int64_t b = 0; b < g.batch; ++b) {
    // dk's and dv's sums run over the query problems of one key/value
    // problem, b / kvGroup.
    const int64_t kb = b / c.kvGroup;
    if (b % c.kvGroup == 0) {
      std::fill(dsCol.begin(), dsCol.end(), 0.0);
      std::fill(pCol.begin(), pCol.end(), 0.0);
    }
    for (int64_t i = 0; i < g.sq; ++i) {
      const int64_t r = b * g.sq + i;
      const int64_t n = c.causal ? std::min(i + 1, g.sk) : g.sk;
      double delta = 0, dsRow = 0;
      for (int64_t e = 0; e < g.dv; ++e)
        delta += in.dout.get(r * g.dv + e) * out.get(r * g.dv + e);
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t x = 0; x < g.d; ++x)
          s += in.q.get(r * g.d + x) * in.k.get((kb * g.sk + j) * g.d + x);
        s *= in.scale;
        if (!c.mask.empty())
          s += in.mask.get(maskIndex(c, g, b, i, j));
        if (std::isinf(s) || std::isinf(lse.get(r)))
          continue;
        z.scoreMax = std::max(z.scoreMax, std::fabs(s));
        double dp = 0;
        for (int64_t e = 0; e < g.dv; ++e)
          dp +=
              in.dout.get(r * g.dv + e) * in.v.get((kb * g.sk + j) * g.dv + e);
        const double f = dropFactor(c, in, g, b, i, j),
                     p = std::exp(s - lse.get(r)),
                     ds = std::fabs(p * (f * dp - delta));
        dsRow += ds;
        dsCol[j] += ds;
        pCol[j] += p * f;
      }
      z.dsRowMax = std::max(z.dsRowMax, dsRow);
    }
    for (int64_t j = 0; j < g.sk; ++j) {
      z.dsColMax = std::max(z.dsColMax, dsCol[j]);
      z.pColMax = std::max(z.pColMax, pCol[j]);
    }
  }
  return z;
}

double maxAbs(const Host &h) {
  double m = 0;
  for (int64_t i = 0; i < h.numel(); ++i)
    if (!std::isinf(h.get(i)))
      m = std::max(m, std::fabs(h.get(i)));
  return m;
}

struct Forward {
  Host out, lse;
};

Forward runForward(Backend &b, const Case &c, const Dims &g, const Inputs &in,
                   amp_dtype_t dt) {
  Buf q = b.upload(in.q), k = b.upload(in.k), v = b.upload(in.v);
  Buf mask = c.mask.empty() ? Buf() : b.upload(in.mask);
  Buf seed = c.dropout > 0 ? b.upload(in.seed) : Buf();
  Buf out = b.alloc(dt, g.out), lse = b.alloc(AMP_DTYPE_F32, g.rows);
  b.ok(AMP_CALL(b, amp_attention, q, k, v, mask, out,
                static_cast<float *>(lse.get()), c.q.data(), g.rank, g.sk, g.dv,
                c.kvGroup, c.mask.empty() ? nullptr : c.mask.data(), dt,
                in.mask.dtype, in.scale, c.causal,
                static_cast<const int64_t *>(seed.get()), c.dropout, nullptr));
  return {b.download(out), b.download(lse)};
}

struct Grads {
  Host dq, dk, dv;
};

Grads runGrad(Backend &b, const Case &c, const Dims &g, const Inputs &in,
              const Forward &f, amp_dtype_t dt) {
  Buf q = b.upload(in.q), k = b.upload(in.k), v = b.upload(in.v);
  Buf mask = c.mask.empty() ? Buf() : b.upload(in.mask);
  Buf dout = b.upload(in.dout), out = b.upload(f.out), lse = b.upload(f.lse);
  Buf seed = c.dropout > 0 ? b.upload(in.seed) : Buf();
  Buf dq = b.alloc(dt, g.q), dk = b.alloc(dt, g.k), dv = b.alloc(dt, g.v);
  b.ok(AMP_CALL(b, amp_attention_grad, dout, q, k, v, mask, out,
                static_cast<const float *>(lse.get()), dq, dk, dv, c.q.data(),
                g.rank, g.sk, g.dv, c.kvGroup,
                c.mask.empty() ? nullptr : c.mask.data(), dt, in.mask.dtype,
                in.scale, c.causal, static_cast<const int64_t *>(seed.get()),
                c.dropout, nullptr));
  return {b.download(dq), b.download(dk), b.download(dv)};
}

} // namespace

AMP_COMPARE_CASE(attention) {
  for (amp_dtype_t dt : floatDtypes())
    for (const Case &cs : cases()) {
      const Dims g = dimsOf(cs);
      Inputs in;
      in.q = randomHost(c.rng, dt, g.q, -1, 1);
      in.k = randomHost(c.rng, dt, g.k, -1, 1);
      in.v = randomHost(c.rng, dt, g.v, -1, 1);
      in.dout = randomHost(c.rng, dt, g.out, -1, 1);
      in.mask =
          randomHost(c.rng, cs.maskInDtype ? dt : AMP_DTYPE_F32, g.mask, -2, 2);
      std::uniform_int_distribution<int> pick(0, 9);
      for (int64_t i = 0; i < g.mask; ++i)
        if (pick(c.rng) == 0)
          in.mask.set(i, -INFINITY);
      in.scale = g.d > 0 ? float(1 / std::sqrt(double(g.d))) : 1.0f;
      in.seed = zeros(AMP_DTYPE_I64, 1);
      in.seed.set(0, 20261205);

      const Forward ref = runForward(*c.ref, cs, g, in, dt);
      const Forward dev = runForward(*c.dev, cs, g, in, dt);
      const Sizes z = sizesOf(cs, g, in, ref.out, ref.lse);
      const double n = double(g.sk), m = double(cs.kvGroup * g.sq),
                   logN = std::log2(n + 1), s = z.scoreMax,
                   kept = 1.0 / (1.0 - double(cs.dropout));
      c.expectClose(
          describe("attention out", dt, cs), ref.out, dev.out,
          tol(dt, kept * (8 * n + 18 * s + 8 * logN + 32) * kU * maxAbs(in.v)));
      c.expectClose(describe("attention lse", dt, cs), ref.lse, dev.lse,
                    tol(AMP_DTYPE_F32, (6 * n + 16 * s + 8 * logN + 16) * kU));

      const Grads gr = runGrad(*c.ref, cs, g, in, ref, dt);
      const Grads gd = runGrad(*c.dev, cs, g, in, ref, dt);
      const double scale = std::fabs(double(in.scale));
      c.expectClose(
          describe("attention_grad dq", dt, cs), gr.dq, gd.dq,
          tol(dt, 2 * scale * (2 * n + 10) * kU * maxAbs(in.k) * z.dsRowMax));
      c.expectClose(
          describe("attention_grad dk", dt, cs), gr.dk, gd.dk,
          tol(dt, 2 * scale * (2 * m + 10) * kU * maxAbs(in.q) * z.dsColMax));
      c.expectClose(
          describe("attention_grad dv", dt, cs), gr.dv, gd.dv,
          tol(dt, 2 * (2 * m + 8) * kU * maxAbs(in.dout) * z.pColMax));
    }
}

AMP_COMPARE_CASE(attention_errors) {
  const int64_t dims[] = {2, 3, 4}, badMask[] = {2, 2, 3}, one[] = {4};
  Buf bufs[2][4];
  int k = 0;
  for (Backend *b : {c.ref, c.dev}) {
    for (Buf &buf : bufs[k])
      buf = b->alloc(AMP_DTYPE_F32, 24);
    ++k;
  }
  auto both = [&](const char *what, auto call) {
    c.expectSameStatus(what, call(*c.ref, bufs[0]), call(*c.dev, bufs[1]));
  };
  auto forward = [](Backend &b, Buf *p, const void *q, void *out,
                    const int64_t *qDims, int32_t rank, const void *mask,
                    const int64_t *maskDims, amp_dtype_t dtype,
                    int32_t causal) {
    return AMP_CALL(b, amp_attention, q, p[1].get(), p[2].get(), mask, out,
                    static_cast<float *>(p[3].get()), qDims, rank, 3, 4, 1,
                    maskDims, dtype, AMP_DTYPE_F32, 0.5f, causal, nullptr, 0.0f,
                    nullptr);
  };
  both("NULL out", [&](Backend &b, Buf *p) {
    return forward(b, p, p[0], nullptr, dims, 3, nullptr, nullptr,
                   AMP_DTYPE_F32, 0);
  });
  both("rank 1", [&](Backend &b, Buf *p) {
    return forward(b, p, p[0], p[0], one, 1, nullptr, nullptr, AMP_DTYPE_F32,
                   0);
  });
  both("i32", [&](Backend &b, Buf *p) {
    return forward(b, p, p[0], p[0], dims, 3, nullptr, nullptr, AMP_DTYPE_I32,
                   0);
  });
  both("mask dims", [&](Backend &b, Buf *p) {
    return forward(b, p, p[0], p[0], dims, 3, p[3].get(), badMask,
                   AMP_DTYPE_F32, 0);
  });
  both("causal 2", [&](Backend &b, Buf *p) {
    return forward(b, p, p[0], p[0], dims, 3, nullptr, nullptr, AMP_DTYPE_F32,
                   2);
  });
  both("out overlaps q", [&](Backend &b, Buf *p) {
    return forward(b, p, p[0], p[0], dims, 3, nullptr, nullptr, AMP_DTYPE_F32,
                   0);
  });
  both("NULL dk", [&](Backend &b, Buf *p) {
    return AMP_CALL(b, amp_attention_grad, p[0].get(), p[0].get(), p[0].get(),
                    p[0].get(), nullptr, p[0].get(),
                    static_cast<const float *>(p[3].get()), p[1].get(), nullptr,
                    p[2].get(), dims, 3, 3, 4, 1, nullptr, AMP_DTYPE_F32,
                    AMP_DTYPE_F32, 0.5f, 0, nullptr, 0.0f, nullptr);
  });
}
