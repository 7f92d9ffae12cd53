//===- AttentionTest.cpp - Fused scaled-dot-product attention -------------===//
//
// amp_attention and amp_attention_grad against a naive f64 computation on
// the same stored inputs that materializes every score: s = scale q.k +
// mask (-inf past the causal diagonal), its softmax, the products. The
// gradient takes the forward kernel's out and lse as inputs, as the op does,
// and is also checked against central finite differences of sum(out * w)
// of the f64 forward. f16 and bf16 inputs are exact in f64, so the oracle
// is the same; only the output's final rounding (outTol) differs.
//
// Tolerances (err32 of KernelTestUtil.h, u = 2^-24; each bound doubled for
// margin). A score over head dim D with M = |scale| sum_d |q_d k_d| +
// |mask|: es = (D + 3) u M. Per row with n live keys, E = max es, R =
// max |s - m|: lse within E + (n + 3) u + u (R + |log l| + |lse|); each p
// relatively within dp = es + err(lse) + u |s - lse| + 2 u (expf); out
// within sum_j p_j |v_j| dp_j + (n + 1) u sum_j p_j |v_j|. Gradient, with
// the given lse: p within p (es + u |s - lse| + 2 u), dp = dout.v and delta
// = dout.out within (Dv + 1) u of their sums of |terms|, ds = p (dp -
// delta) within err(p) |dp - delta| + p (err(dp) + err(delta) + u |dp -
// delta|) + u |ds|; dq, dk, dv are sums of ds k, ds q, p dout whose terms
// carry those errors, plus (terms + 1) u of their sums of |terms|. Each
// sum's bound holds for any order of its terms, so they cover the cpu
// backend's blocked GEMMs too; its exp is within 1 ulp, and its out,
// (sum e v) / l, carries the same terms' errors.
// The finite differences (h = 2^-20 in f64) are within about 1e-9 of the
// gradient; the f32 kernel is compared with them at 1e-5 + 1e-4 |fd|.
// With dropout the oracle multiplies each p[i, j] by its factor f, 1 / (1 -
// rate) where amp_runtime/dropout.h's keep() (checked against splitmix64's
// published outputs in DropoutTest) keeps element (b Sq + i) Sk + j of the
// probabilities and 0 elsewhere: out and dv sum p f, ds = p (f dp - delta);
// the kernels' f32 division by 1 - rate adds u to each kept term.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "amp_runtime/dropout.h"
#include "gtest/gtest.h"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace amp::test;

namespace {

struct AttentionCase {
  Shape q; // [B..., Sq, D]
  int64_t sk, dv;
  Shape mask; // empty: no mask
  bool causal;
  bool maskInDtype; // the mask in the tensors' dtype, else f32
  float dropout = 0.0f; // the dropout rate; 0: none
  int64_t kvGroup = 1;  // query heads per key/value head
};

/// q's batch dims, the heads (the last) divided by `group`, followed by
/// (rows, cols).
Shape batchShape(const Shape &q, int64_t rows, int64_t cols,
                 int64_t group = 1) {
  Shape s(q.begin(), q.end() - 2);
  if (!s.empty())
    s.back() /= group;
  s.push_back(rows);
  s.push_back(cols);
  return s;
}

/// One call's inputs, as f64 values (the stored ones, exactly) and tensors.
struct Problem {
  AttentionCase c;
  amp_dtype_t dtype;
  float scale;
  int64_t batch, sq, sk, d, dv;
  Tensor q, k, v, mask;
  Shape scores, outShape, lseShape;
  int64_t seed = 0x5eed0123456789;

  bool hasMask() const { return !c.mask.empty(); }
  /// The element offset of key (value: width dv) row j of problem b.
  int64_t kvRow(int64_t b, int64_t j, int64_t width) const {
    return (b / c.kvGroup * sk + j) * width;
  }
  const int64_t *dropoutSeed() const { return c.dropout > 0 ? &seed : nullptr; }
  /// What dropout multiplies problem b's p[i, j] by (1 without dropout).
  double dropFactor(int64_t b, int64_t i, int64_t j) const {
    if (c.dropout == 0)
      return 1.0;
    const bool kept =
        amp::runtime::dropoutKeep(static_cast<uint64_t>(seed),
                                  static_cast<uint64_t>((b * sq + i) * sk + j),
                                  amp::runtime::dropoutThreshold(c.dropout));
    return kept ? 1.0 / double(1.0f - c.dropout) : 0.0;
  }
  /// The relative error dropout's division adds to a kept term.
  double dropErr() const { return c.dropout > 0 ? kU : 0.0; }
  const void *maskData() const { return hasMask() ? mask.data() : nullptr; }
  amp_dtype_t maskDtype() const { return mask.dtype(); }
  const int64_t *maskDims() const {
    return hasMask() ? c.mask.data() : nullptr;
  }
};

/// Random q, k, v in [-1, 1] and a mask in [-2, 2] with about one -inf in
/// seven.
Problem makeProblem(const AttentionCase &c, amp_dtype_t dtype,
                    std::mt19937 &rng) {
  Problem p;
  p.c = c;
  p.dtype = dtype;
  const size_t r = c.q.size();
  p.sq = c.q[r - 2];
  p.d = c.q[r - 1];
  p.sk = c.sk;
  p.dv = c.dv;
  p.batch = numel(Shape(c.q.begin(), c.q.end() - 2));
  p.scale = p.d > 0 ? static_cast<float>(1.0 / std::sqrt(double(p.d))) : 1.0f;
  p.q = randomTensor(dtype, c.q, rng);
  p.k = randomTensor(dtype, batchShape(c.q, p.sk, p.d, c.kvGroup), rng);
  p.v = randomTensor(dtype, batchShape(c.q, p.sk, p.dv, c.kvGroup), rng);
  p.scores = batchShape(c.q, p.sq, p.sk);
  p.outShape = batchShape(c.q, p.sq, p.dv);
  p.lseShape = Shape(c.q.begin(), c.q.end() - 1);
  const amp_dtype_t maskDtype = c.maskInDtype ? dtype : AMP_DTYPE_F32;
  if (p.hasMask()) {
    p.mask = randomTensor(maskDtype, c.mask, rng, -2, 2);
    std::uniform_int_distribution<int> pick(0, 6);
    for (int64_t i = 0; i < p.mask.size(); ++i)
      if (pick(rng) == 0)
        p.mask.set(i, -INFINITY);
  } else {
    p.mask = Tensor(maskDtype, {0});
  }
  return p;
}

/// f64 values of the three inputs (perturbed by the finite differences).
struct Inputs {
  std::vector<double> q, k, v;
};

Inputs inputsOf(const Problem &p) {
  return {p.q.values(), p.k.values(), p.v.values()};
}

/// The f64 scores of problem b's row i for its n keys (causal: the first
/// i + 1), and the magnitude M of each (see the file comment).
int64_t scoresF64(const Problem &p, const Inputs &in, int64_t b, int64_t i,
                  std::vector<double> &s, std::vector<double> &mag) {
  const int64_t n = p.c.causal ? std::min(i + 1, p.sk) : p.sk;
  s.assign(n, 0.0);
  mag.assign(n, 0.0);
  for (int64_t j = 0; j < n; ++j) {
    double dot = 0, abs = 0;
    for (int64_t c = 0; c < p.d; ++c) {
      const double t =
          in.q[(b * p.sq + i) * p.d + c] * in.k[p.kvRow(b, j, p.d) + c];
      dot += t;
      abs += std::fabs(t);
    }
    double m = 0;
    if (p.hasMask())
      m = p.mask.get(
          broadcastSource((b * p.sq + i) * p.sk + j, p.scores, p.c.mask));
    s[j] = double(p.scale) * dot + m;
    mag[j] =
        std::fabs(double(p.scale)) * abs + (std::isinf(m) ? 0 : std::fabs(m));
  }
  return n;
}

struct Forward {
  std::vector<double> out, outTol, lse, lseTol;
};

Forward forwardF64(const Problem &p, const Inputs &in) {
  Forward f;
  f.out.assign(p.batch * p.sq * p.dv, 0.0);
  f.outTol.assign(f.out.size(), 0.0);
  f.lse.assign(p.batch * p.sq, -INFINITY);
  f.lseTol.assign(f.lse.size(), 0.0);
  std::vector<double> s, mag;
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.sq; ++i) {
      const int64_t r = b * p.sq + i, n = scoresF64(p, in, b, i, s, mag);
      double m = -INFINITY;
      for (int64_t j = 0; j < n; ++j)
        m = std::max(m, s[j]);
      if (m == -INFINITY)
        continue; // no key: out 0, lse -inf, exactly
      double l = 0, e = 0, spread = 0;
      for (int64_t j = 0; j < n; ++j)
        if (s[j] != -INFINITY) {
          l += std::exp(s[j] - m);
          e = std::max(e, (p.d + 3) * kU * mag[j]);
          spread = std::max(spread, std::fabs(s[j] - m));
        }
      const double lse = m + std::log(l);
      const double lseErr =
          e + (n + 3) * kU +
          kU * (spread + std::fabs(std::log(l)) + std::fabs(lse));
      f.lse[r] = lse;
      f.lseTol[r] = outTol(AMP_DTYPE_F32, lse, 2 * lseErr);
      for (int64_t c = 0; c < p.dv; ++c) {
        double sum = 0, err = 0, abs = 0;
        for (int64_t j = 0; j < n; ++j) {
          if (s[j] == -INFINITY)
            continue;
          const double pj = std::exp(s[j] - lse) * p.dropFactor(b, i, j);
          const double vj = in.v[p.kvRow(b, j, p.dv) + c];
          const double relP = (p.d + 3) * kU * mag[j] + lseErr +
                              kU * std::fabs(s[j] - lse) + 2 * kU + p.dropErr();
          sum += pj * vj;
          abs += pj * std::fabs(vj);
          err += pj * std::fabs(vj) * relP;
        }
        f.out[r * p.dv + c] = sum;
        f.outTol[r * p.dv + c] =
            outTol(p.dtype, sum, 2 * (err + (n + 1) * kU * abs));
      }
    }
  return f;
}

struct Backward {
  std::vector<double> dq, dk, dv, dqTol, dkTol, dvTol;
};

/// The gradients by the header's formulas, from the given out and lse.
Backward backwardF64(const Problem &p, const Inputs &in, const Tensor &out,
                     const Tensor &lse, const Tensor &dout) {
  Backward g;
  g.dq.assign(p.q.size(), 0.0);
  g.dk.assign(p.k.size(), 0.0);
  g.dv.assign(p.v.size(), 0.0);
  std::vector<double> dqErr(g.dq.size()), dkErr(g.dk.size()),
      dvErr(g.dv.size());
  const double scale = p.scale, absScale = std::fabs(scale);
  std::vector<double> s, mag;
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.sq; ++i) {
      const int64_t r = b * p.sq + i, n = scoresF64(p, in, b, i, s, mag);
      const double l = lse.get(r);
      if (l == -INFINITY)
        continue;
      double delta = 0, deltaAbs = 0;
      for (int64_t c = 0; c < p.dv; ++c) {
        delta += dout.get(r * p.dv + c) * out.get(r * p.dv + c);
        deltaAbs += std::fabs(dout.get(r * p.dv + c) * out.get(r * p.dv + c));
      }
      const double deltaErr = (p.dv + 1) * kU * deltaAbs;
      for (int64_t j = 0; j < n; ++j) {
        if (s[j] == -INFINITY)
          continue;
        const double pj = std::exp(s[j] - l), f = p.dropFactor(b, i, j);
        const double pErr =
            pj * ((p.d + 3) * kU * mag[j] + kU * std::fabs(s[j] - l) + 2 * kU);
        double dp = 0, dpAbs = 0;
        for (int64_t c = 0; c < p.dv; ++c) {
          const double t =
              dout.get(r * p.dv + c) * in.v[p.kvRow(b, j, p.dv) + c];
          dp += f * t;
          dpAbs += f * std::fabs(t) * (1 + p.dropErr());
        }
        const double diff = dp - delta, ds = pj * diff;
        const double dsErr =
            pErr * std::fabs(diff) +
            pj * ((p.dv + 1) * kU * dpAbs + deltaErr + kU * std::fabs(diff)) +
            kU * std::fabs(ds);
        // dk and dv sum over the rows of the kvGroup problems that share
        // the key/value problem.
        const int64_t rowsSummed = p.c.kvGroup * p.sq;
        for (int64_t c = 0; c < p.d; ++c) {
          const int64_t qi = r * p.d + c, kj = p.kvRow(b, j, p.d) + c;
          g.dq[qi] += scale * ds * in.k[kj];
          dqErr[qi] += absScale * (dsErr * std::fabs(in.k[kj]) +
                                   (n + 1) * kU * std::fabs(ds * in.k[kj]));
          g.dk[kj] += scale * ds * in.q[qi];
          dkErr[kj] +=
              absScale * (dsErr * std::fabs(in.q[qi]) +
                          (rowsSummed + 1) * kU * std::fabs(ds * in.q[qi]));
        }
        for (int64_t c = 0; c < p.dv; ++c) {
          const int64_t vj = p.kvRow(b, j, p.dv) + c;
          const double o = dout.get(r * p.dv + c);
          g.dv[vj] += pj * f * o;
          dvErr[vj] +=
              f * (pErr * std::fabs(o) + (rowsSummed + 1 + p.dropErr() / kU) *
                                             kU * pj * std::fabs(o));
        }
      }
    }
  auto tolerances = [&](const std::vector<double> &ref,
                        const std::vector<double> &err) {
    std::vector<double> t(ref.size());
    for (size_t x = 0; x < ref.size(); ++x)
      t[x] = outTol(p.dtype, ref[x], 2 * (err[x] + kU * std::fabs(ref[x])));
    return t;
  };
  g.dqTol = tolerances(g.dq, dqErr);
  g.dkTol = tolerances(g.dk, dkErr);
  g.dvTol = tolerances(g.dv, dvErr);
  return g;
}

/// The kernels' outputs of one problem.
struct Results {
  Tensor out, lse, dout, dq, dk, dv;
};

Results runKernels(const Problem &p, std::mt19937 &rng) {
  Results r;
  r.out = sentinelTensor(p.dtype, p.outShape);
  r.lse = sentinelTensor(AMP_DTYPE_F32, p.lseShape);
  const int32_t rank = static_cast<int32_t>(p.c.q.size());
  EXPECT_TRUE(isOk(amp_attention(
      p.q.data(), p.k.data(), p.v.data(), p.maskData(), r.out.data(),
      static_cast<float *>(r.lse.data()), p.c.q.data(), rank, p.sk, p.dv,
      p.c.kvGroup, p.maskDims(), p.dtype, p.maskDtype(), p.scale, p.c.causal,
      p.dropoutSeed(), p.c.dropout, nullptr)));
  r.dout = randomTensor(p.dtype, p.outShape, rng);
  r.dq = sentinelTensor(p.dtype, p.q.shape());
  r.dk = sentinelTensor(p.dtype, p.k.shape());
  r.dv = sentinelTensor(p.dtype, p.v.shape());
  EXPECT_TRUE(isOk(amp_attention_grad(
      r.dout.data(), p.q.data(), p.k.data(), p.v.data(), p.maskData(),
      r.out.data(), static_cast<const float *>(r.lse.data()), r.dq.data(),
      r.dk.data(), r.dv.data(), p.c.q.data(), rank, p.sk, p.dv, p.c.kvGroup,
      p.maskDims(), p.dtype, p.maskDtype(), p.scale, p.c.causal,
      p.dropoutSeed(), p.c.dropout, nullptr)));
  return r;
}

const std::vector<AttentionCase> &attentionCases() {
  static const std::vector<AttentionCase> cases = {
      // rank 2, Sq != Sk, D != Dv, no mask
      {{5, 8}, 7, 6, {}, false, false},
      // rank 3, a mask of the scores' shape
      {{3, 6, 4}, 6, 4, {3, 6, 6}, false, false},
      // rank 4, a key-padding mask [B, 1, 1, Sk] in the dtype
      {{2, 3, 5, 8}, 9, 3, {2, 1, 1, 9}, false, true},
      // causal with Sq < Sk
      {{2, 2, 4, 5}, 7, 5, {}, true, false},
      // causal with Sq > Sk (the last rows see every key), a per-row mask
      {{1, 2, 7, 3}, 4, 2, {1, 1, 7, 1}, true, false},
      // rank 2 with an [Sq, Sk] mask
      {{4, 5}, 6, 3, {4, 6}, false, true},
      // longer rows and odd head dims (the blocked loops' remainders)
      {{2, 9, 17}, 41, 13, {1, 9, 41}, false, false},
      // rank 5: the mask broadcast over two of three batch dims
      {{2, 3, 2, 3, 4}, 5, 2, {1, 3, 1, 3, 5}, true, true},
      // D = 0: the scores are the mask alone (q and k are empty)
      {{2, 3, 0}, 5, 3, {1, 3, 5}, true, false},
      // several blocks of query rows (the cpu backend's 64), causal: each
      // block sees up to its last row's keys
      {{2, 150, 16}, 140, 8, {2, 1, 140}, true, false},
      // several blocks, a mask of the scores' shape in the dtype
      {{1, 2, 100, 24}, 90, 12, {1, 2, 100, 90}, false, true},
      // dropout: rank 2 without a mask, rate 0.5
      {{5, 8}, 7, 6, {}, false, false, 0.5f},
      // dropout with a key-padding mask, causal, rate 0.1
      {{2, 3, 6, 8}, 9, 5, {2, 1, 1, 9}, true, false, 0.1f},
      // dropout over several blocks of query rows, rate 0.3
      {{2, 130, 16}, 70, 8, {1, 130, 70}, false, true, 0.3f},
      // grouped-query attention: 6 query heads on 2 key/value heads,
      // causal, a key-padding mask
      {{2, 6, 5, 8}, 7, 4, {2, 1, 1, 7}, true, false, 0.0f, 3},
      // multi-query (one key/value head) over several blocks of rows, with
      // dropout
      {{1, 4, 70, 16}, 40, 8, {}, false, false, 0.2f, 4},
      // rank 3: the heads are the only batch dim
      {{4, 9, 6}, 11, 5, {4, 9, 11}, false, true, 0.0f, 2},
  };
  return cases;
}

class AttentionTest
    : public ::testing::TestWithParam<std::tuple<int, amp_dtype_t>> {};

TEST_P(AttentionTest, ForwardAndGradMatchF64) {
  const int index = std::get<0>(GetParam());
  const amp_dtype_t dtype = std::get<1>(GetParam());
  std::mt19937 rng(101 + index);
  const Problem p = makeProblem(attentionCases()[index], dtype, rng);
  const Inputs in = inputsOf(p);
  const Results r = runKernels(p, rng);
  const Forward f = forwardF64(p, in);
  EXPECT_TRUE(allClose(r.out, f.out, f.outTol, "out"));
  EXPECT_TRUE(allClose(r.lse, f.lse, f.lseTol, "lse"));
  const Backward g = backwardF64(p, in, r.out, r.lse, r.dout);
  EXPECT_TRUE(allClose(r.dq, g.dq, g.dqTol, "dq"));
  EXPECT_TRUE(allClose(r.dk, g.dk, g.dkTol, "dk"));
  EXPECT_TRUE(allClose(r.dv, g.dv, g.dvTol, "dv"));
}

INSTANTIATE_TEST_SUITE_P(Cases, AttentionTest,
                         ::testing::Combine(::testing::Range(0, 17),
                                            ::testing::Values(AMP_DTYPE_F32,
                                                              AMP_DTYPE_F16,
                                                              AMP_DTYPE_BF16)),
                         CaseAndDtypeName());

/// The f32 kernel's gradients against central differences of L = sum(out *
/// dout) of the f64 forward, each input perturbed by h in f64.
TEST(Attention, GradMatchesFiniteDifferences) {
  for (const AttentionCase &c :
       {AttentionCase{{2, 3, 4}, 5, 3, {2, 1, 5}, true, false},
        AttentionCase{{1, 2, 4, 3}, 6, 5, {1, 1, 4, 6}, false, false},
        AttentionCase{{2, 5, 4}, 6, 3, {2, 1, 6}, false, false, 0.4f},
        AttentionCase{{1, 4, 3, 5}, 4, 3, {}, true, false, 0.0f, 2}}) {
    std::mt19937 rng(7);
    const Problem p = makeProblem(c, AMP_DTYPE_F32, rng);
    const Results r = runKernels(p, rng);
    const std::vector<double> w = r.dout.values();
    auto loss = [&](const Inputs &in) {
      const std::vector<double> out = forwardF64(p, in).out;
      double sum = 0;
      for (size_t x = 0; x < out.size(); ++x)
        sum += out[x] * w[x];
      return sum;
    };
    const double h = 0x1p-20;
    auto check = [&](std::vector<double> Inputs::*which, const Tensor &grad,
                     const char *what) {
      Inputs in = inputsOf(p);
      std::vector<double> fd((in.*which).size()), tol(fd.size());
      for (size_t x = 0; x < fd.size(); ++x) {
        const double keep = (in.*which)[x];
        (in.*which)[x] = keep + h;
        const double up = loss(in);
        (in.*which)[x] = keep - h;
        const double down = loss(in);
        (in.*which)[x] = keep;
        fd[x] = (up - down) / (2 * h);
        tol[x] = 1e-5 + 1e-4 * std::fabs(fd[x]);
      }
      EXPECT_TRUE(allClose(grad, fd, tol, what)) << shapeName(c.q);
    };
    check(&Inputs::q, r.dq, "dq");
    check(&Inputs::k, r.dk, "dk");
    check(&Inputs::v, r.dv, "dv");
  }
}

TEST(Attention, FullyMaskedRowsGiveZeros) {
  // Row 1 of each problem masks every key; key 2 is masked for every row,
  // and holds an infinity and a NaN in v, which must not reach anything.
  for (amp_dtype_t dtype : floatDtypes()) {
    std::mt19937 rng(5);
    AttentionCase c{{2, 3, 4}, 4, 2, {1, 3, 4}, false, false};
    Problem p = makeProblem(c, dtype, rng);
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 4; ++j)
        p.mask.set(i * 4 + j, i == 1 || j == 2 ? -INFINITY : 0.5 * j);
    for (int64_t b = 0; b < 2; ++b) {
      p.v.set((b * 4 + 2) * 2, INFINITY);
      p.v.set((b * 4 + 2) * 2 + 1, NAN);
    }
    const Results r = runKernels(p, rng);
    const Inputs in = inputsOf(p);
    const Forward f = forwardF64(p, in);
    EXPECT_TRUE(allClose(r.out, f.out, f.outTol, "out"));
    EXPECT_TRUE(allClose(r.lse, f.lse, f.lseTol, "lse"));
    const Backward g = backwardF64(p, in, r.out, r.lse, r.dout);
    EXPECT_TRUE(allClose(r.dq, g.dq, g.dqTol, "dq"));
    EXPECT_TRUE(allClose(r.dk, g.dk, g.dkTol, "dk"));
    EXPECT_TRUE(allClose(r.dv, g.dv, g.dvTol, "dv"));
    for (int64_t b = 0; b < 2; ++b) {
      EXPECT_EQ(r.lse.get(b * 3 + 1), -INFINITY) << dtypeName(dtype);
      for (int64_t e = 0; e < 2; ++e)
        EXPECT_EQ(r.out.bits((b * 3 + 1) * 2 + e), 0u) << "+0";
      for (int64_t x = 0; x < 4; ++x) {
        EXPECT_EQ(r.dq.get((b * 3 + 1) * 4 + x), 0.0);
        EXPECT_EQ(r.dk.get((b * 4 + 2) * 4 + x), 0.0);
      }
      for (int64_t e = 0; e < 2; ++e)
        EXPECT_EQ(r.dv.get((b * 4 + 2) * 2 + e), 0.0);
    }
  }
}

TEST(Attention, NonFiniteValuesOfSkippedTermsStayOut) {
  // Terms of masked keys and of rows without keys are skipped, not
  // multiplied by 0, so an infinity or a NaN in them reaches nothing. One
  // causal problem each: v of key 10, past the diagonal of rows 0..9 (out);
  // q of row 5, whose keys past 5 must not see it (dk); dout of row 3,
  // whose every key is masked (dv and dk); k of key 20, past the diagonal
  // of rows 0..19 (dq). Rows 0..69 are two blocks of the cpu backend, which
  // zeroes such rows for its GEMMs and adds their live terms apart.
  for (amp_dtype_t dtype : floatDtypes()) {
    std::mt19937 rng(13);
    const AttentionCase c{{4, 70, 6}, 75, 4, {4, 70, 1}, true, false};
    Problem p = makeProblem(c, dtype, rng);
    for (int64_t i = 0; i < 4 * 70; ++i)
      p.mask.set(i, i == 2 * 70 + 3 ? -INFINITY : 0.25);
    p.v.set(10 * 4, INFINITY);
    p.v.set(10 * 4 + 1, NAN);
    p.q.set((70 + 5) * 6 + 2, -INFINITY);
    p.k.set((3 * 75 + 20) * 6 + 4, INFINITY);
    std::mt19937 doutRng(17);
    Results r = runKernels(p, doutRng);
    r.dout.set((2 * 70 + 3) * 4 + 1, NAN);
    ASSERT_TRUE(isOk(amp_attention_grad(
        r.dout.data(), p.q.data(), p.k.data(), p.v.data(), p.maskData(),
        r.out.data(), static_cast<const float *>(r.lse.data()), r.dq.data(),
        r.dk.data(), r.dv.data(), c.q.data(), 3, p.sk, p.dv, 1, p.maskDims(),
        dtype, p.maskDtype(), p.scale, 1, nullptr, 0.0f, nullptr)));
    const Inputs in = inputsOf(p);
    const Forward f = forwardF64(p, in);
    EXPECT_TRUE(allClose(r.out, f.out, f.outTol, "out")) << dtypeName(dtype);
    EXPECT_TRUE(allClose(r.lse, f.lse, f.lseTol, "lse")) << dtypeName(dtype);
    const Backward g = backwardF64(p, in, r.out, r.lse, r.dout);
    EXPECT_TRUE(allClose(r.dq, g.dq, g.dqTol, "dq")) << dtypeName(dtype);
    EXPECT_TRUE(allClose(r.dk, g.dk, g.dkTol, "dk")) << dtypeName(dtype);
    EXPECT_TRUE(allClose(r.dv, g.dv, g.dvTol, "dv")) << dtypeName(dtype);
    auto expectFinite = [&](const Tensor &t, int64_t begin, int64_t end,
                            const char *what) {
      for (int64_t x = begin; x < end; ++x)
        EXPECT_TRUE(std::isfinite(t.get(x)))
            << what << " " << x << " " << dtypeName(dtype);
    };
    expectFinite(r.out, 0, 10 * 4, "out");
    expectFinite(r.dk, (75 + 6) * 6, (75 + 70) * 6, "dk");
    expectFinite(r.dv, 2 * 75 * 4, 3 * 75 * 4, "dv");
    expectFinite(r.dk, 2 * 75 * 6, 3 * 75 * 6, "dk");
    expectFinite(r.dq, 3 * 70 * 6, (3 * 70 + 20) * 6, "dq");
  }
}

TEST(Attention, SameBitsAtAnyThreadCount) {
  // The cpu backend splits blocks of query rows (forward) and problems
  // (gradient) over its OpenMP threads; how many must not change a bit.
  // The process has OpenMP when the backend under test does (the reference
  // has none: nothing to vary).
  using SetThreads = void (*)(int);
  using MaxThreads = int (*)();
  const auto setThreads = reinterpret_cast<SetThreads>(
      ::dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  const auto maxThreads = reinterpret_cast<MaxThreads>(
      ::dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  if (!setThreads || !maxThreads)
    GTEST_SKIP() << "no OpenMP in this process";
  const int saved = maxThreads();
  const AttentionCase cases[] = {
      {{3, 5, 130, 16}, 100, 8, {3, 1, 1, 100}, true, false, 0.2f},
      // grouped-query: the gradient splits the key/value problems
      {{2, 6, 70, 16}, 90, 8, {2, 1, 1, 90}, true, false, 0.2f, 2}};
  for (const AttentionCase &c : cases)
    for (amp_dtype_t dtype : {AMP_DTYPE_F32, AMP_DTYPE_BF16}) {
      std::mt19937 rng(19);
      const Problem p = makeProblem(c, dtype, rng);
      Results first;
      for (int threads : {1, 2, 3, 4}) {
        setThreads(threads);
        std::mt19937 doutRng(23);
        Results r = runKernels(p, doutRng);
        if (threads == 1) {
          first = r;
          continue;
        }
        EXPECT_TRUE(r.out.sameBits(first.out)) << threads << " threads";
        EXPECT_TRUE(r.lse.sameBits(first.lse)) << threads << " threads";
        EXPECT_TRUE(r.dq.sameBits(first.dq)) << threads << " threads";
        EXPECT_TRUE(r.dk.sameBits(first.dk)) << threads << " threads";
        EXPECT_TRUE(r.dv.sameBits(first.dv)) << threads << " threads";
      }
    }
  setThreads(saved);
}

TEST(Attention, EmptyDims) {
  // Sk = 0: every row has no key (out 0, lse -inf, dq 0); Sq = 0: dk and dv
  // are sums over no rows (0); batch 0: nothing, NULL pointers.
  for (amp_dtype_t dtype : floatDtypes()) {
    std::mt19937 rng(1);
    const int64_t noKeys[] = {2, 3, 4};
    Tensor q = randomTensor(dtype, {2, 3, 4}, rng);
    Tensor out = sentinelTensor(dtype, {2, 3, 5});
    Tensor lse = sentinelTensor(AMP_DTYPE_F32, {2, 3});
    ASSERT_TRUE(isOk(amp_attention(
        q.data(), nullptr, nullptr, nullptr, out.data(),
        static_cast<float *>(lse.data()), noKeys, 3, 0, 5, 1, nullptr, dtype,
        AMP_DTYPE_F32, 0.5f, 0, nullptr, 0.0f, nullptr)));
    EXPECT_TRUE(allEqual(out, std::vector<double>(30, 0.0), "out"));
    EXPECT_TRUE(allEqual(lse, std::vector<double>(6, -INFINITY), "lse"));
    Tensor dout = sentinelTensor(dtype, {2, 3, 5});
    for (int64_t i = 0; i < dout.size(); ++i)
      dout.set(i, 1.0);
    Tensor dq = sentinelTensor(dtype, {2, 3, 4});
    ASSERT_TRUE(isOk(amp_attention_grad(
        dout.data(), q.data(), nullptr, nullptr, nullptr, out.data(),
        static_cast<const float *>(lse.data()), dq.data(), nullptr, nullptr,
        noKeys, 3, 0, 5, 1, nullptr, dtype, AMP_DTYPE_F32, 0.5f, 1, nullptr,
        0.0f, nullptr)));
    EXPECT_TRUE(allEqual(dq, std::vector<double>(24, 0.0), "dq"));

    const int64_t noQueries[] = {2, 0, 4};
    Tensor k = randomTensor(dtype, {2, 3, 4}, rng);
    Tensor v = randomTensor(dtype, {2, 3, 5}, rng);
    Tensor dk = sentinelTensor(dtype, {2, 3, 4});
    Tensor dv = sentinelTensor(dtype, {2, 3, 5});
    ASSERT_TRUE(isOk(amp_attention(
        nullptr, k.data(), v.data(), nullptr, nullptr, nullptr, noQueries, 3, 3,
        5, 1, nullptr, dtype, AMP_DTYPE_F32, 0.5f, 1, nullptr, 0.0f, nullptr)));
    ASSERT_TRUE(isOk(amp_attention_grad(
        nullptr, nullptr, k.data(), v.data(), nullptr, nullptr, nullptr,
        nullptr, dk.data(), dv.data(), noQueries, 3, 3, 5, 1, nullptr, dtype,
        AMP_DTYPE_F32, 0.5f, 0, nullptr, 0.0f, nullptr)));
    EXPECT_TRUE(allEqual(dk, std::vector<double>(24, 0.0), "dk"));
    EXPECT_TRUE(allEqual(dv, std::vector<double>(30, 0.0), "dv"));

    // No heads: any kv_group divides them (amp-kernel-args-fuzzer found
    // kv_group * Sq overflowing in the gradient's work estimate).
    const int64_t noHeads[] = {0, 4, 0};
    const int64_t hugeGroup = int64_t{1} << 61;
    EXPECT_TRUE(isOk(amp_attention(nullptr, nullptr, nullptr, nullptr, nullptr,
                                   nullptr, noHeads, 3, 5, 0, hugeGroup,
                                   nullptr, dtype, dtype, 0.5f, 0, nullptr,
                                   0.0f, nullptr)));
    EXPECT_TRUE(isOk(amp_attention_grad(
        nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
        nullptr, nullptr, noHeads, 3, 5, 0, hugeGroup, nullptr, dtype, dtype,
        0.5f, 1, nullptr, 0.0f, nullptr)));

    const int64_t noBatch[] = {0, 3, 3, 4}, maskDims[] = {0, 1, 3, 5};
    EXPECT_TRUE(isOk(amp_attention(
        nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, noBatch, 4, 5, 2,
        1, maskDims, dtype, dtype, 0.5f, 0, nullptr, 0.0f, nullptr)));
    EXPECT_TRUE(isOk(amp_attention_grad(
        nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
        nullptr, nullptr, noBatch, 4, 5, 2, 1, maskDims, dtype, dtype, 0.5f, 1,
        nullptr, 0.0f, nullptr)));
  }
}

TEST(Attention, AnyScaleIsAccepted) {
  alignas(8) float q[4] = {1, 2, 3, 4}, out[4], lse[2];
  const int64_t dims[] = {2, 2};
  for (float scale : {0.0f, -1.0f, INFINITY, NAN})
    EXPECT_TRUE(isOk(amp_attention(q, q, q, nullptr, out, lse, dims, 2, 2, 2, 1,
                                   nullptr, AMP_DTYPE_F32, AMP_DTYPE_F32, scale,
                                   0, nullptr, 0.0f, nullptr)))
        << scale;
}

/// Buffers for the error paths: q, k, v, out, dout, dq, dk, dv of [2, 3, 4]
/// f32 (Sq = Sk = 3, D = Dv = 4), lse [2, 3], and a mask [2, 1, 3].
struct ErrorBuffers {
  Tensor q, k, v, mask, out, lse, dout, dq, dk, dv;
  ErrorBuffers() {
    std::mt19937 rng(9);
    q = randomTensor(AMP_DTYPE_F32, {2, 3, 4}, rng);
    k = randomTensor(AMP_DTYPE_F32, {2, 3, 4}, rng);
    v = randomTensor(AMP_DTYPE_F32, {2, 3, 4}, rng);
    mask = randomTensor(AMP_DTYPE_F32, {2, 1, 3}, rng);
    dout = randomTensor(AMP_DTYPE_F32, {2, 3, 4}, rng);
    out = sentinelTensor(AMP_DTYPE_F32, {2, 3, 4});
    lse = sentinelTensor(AMP_DTYPE_F32, {2, 3});
    dq = sentinelTensor(AMP_DTYPE_F32, {2, 3, 4});
    dk = sentinelTensor(AMP_DTYPE_F32, {2, 3, 4});
    dv = sentinelTensor(AMP_DTYPE_F32, {2, 3, 4});
  }
  float *lsePtr() { return static_cast<float *>(lse.data()); }
};

TEST(Attention, RejectsBadArguments) {
  ErrorBuffers x;
  const ErrorBuffers before = x;
  const int64_t dims[] = {2, 3, 4}, maskDims[] = {2, 1, 3};
  /// The forward with every argument overridable.
  struct Call {
    const void *q, *k, *v, *mask;
    void *out;
    float *lse;
    const int64_t *dims;
    int32_t rank;
    int64_t sk, dv;
    const int64_t *maskDims;
    amp_dtype_t dtype, maskDtype;
    int32_t causal;
    const int64_t *seed;
    float rate;
    int64_t kvGroup = 1;
  };
  const int64_t seed = 42;
  const Call good{x.q.data(),
                  x.k.data(),
                  x.v.data(),
                  x.mask.data(),
                  x.out.data(),
                  x.lsePtr(),
                  dims,
                  3,
                  3,
                  4,
                  maskDims,
                  AMP_DTYPE_F32,
                  AMP_DTYPE_F32,
                  0,
                  &seed,
                  0.25f};
  auto forward = [](const Call &c) {
    return amp_attention(c.q, c.k, c.v, c.mask, c.out, c.lse, c.dims, c.rank,
                         c.sk, c.dv, c.kvGroup, c.maskDims, c.dtype,
                         c.maskDtype, 0.5f, c.causal, c.seed, c.rate, nullptr);
  };
  const int64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 3, 4};
  const int64_t negative[] = {2, -3, 4}, badMask[] = {2, 2, 3},
                wideMask[] = {2, 1, 4};
  char *odd = static_cast<char *>(x.q.data()) + 2;
  struct Bad {
    const char *what;
    Call call;
    amp_status_t status;
  };
  std::vector<Bad> bad;
  auto add = [&](const char *what, amp_status_t status, auto change) {
    Call c = good;
    change(c);
    bad.push_back({what, c, status});
  };
  const amp_status_t kInvalid = AMP_STATUS_INVALID_ARGUMENT,
                     kUnsupported = AMP_STATUS_NOT_SUPPORTED;
  add("amp_attention: q is NULL", kInvalid, [](Call &c) { c.q = nullptr; });
  add("amp_attention: k is NULL", kInvalid, [](Call &c) { c.k = nullptr; });
  add("amp_attention: v is NULL", kInvalid, [](Call &c) { c.v = nullptr; });
  add("amp_attention: out is NULL", kInvalid, [](Call &c) { c.out = nullptr; });
  add("amp_attention: lse is NULL", kInvalid, [](Call &c) { c.lse = nullptr; });
  add("amp_attention: dims of mask are NULL", kInvalid,
      [](Call &c) { c.maskDims = nullptr; });
  add("amp_attention: dims of q are NULL", kInvalid,
      [](Call &c) { c.dims = nullptr; });
  add("amp_attention: q (", kInvalid, [&](Call &c) { c.q = odd; });
  add("not aligned to its element size (4 bytes)", kInvalid,
      [&](Call &c) { c.q = odd; });
  add("amp_attention: q must have rank >= 2 [B..., Sq, D], got rank 1",
      kInvalid, [&](Call &c) {
        c.dims = dims + 2;
        c.rank = 1;
      });
  add("q must have rank >= 2", kInvalid, [](Call &c) { c.rank = 0; });
  add("rank of q (-1) is not in [0, 8]", kInvalid,
      [](Call &c) { c.rank = -1; });
  add("amp_attention: rank of q (9) is not in [0, 8]", kUnsupported,
      [&](Call &c) {
        c.dims = nine;
        c.rank = 9;
      });
  add("dimension 1 of q is negative (-3)", kInvalid,
      [&](Call &c) { c.dims = negative; });
  add("amp_attention: sk (-1) is out of range", kInvalid,
      [](Call &c) { c.sk = -1; });
  add("amp_attention: dv (-4) is out of range", kInvalid,
      [](Call &c) { c.dv = -4; });
  add("amp_attention: dimension 1 of mask (2) is neither 1 nor the scores' "
      "(3)",
      kInvalid, [&](Call &c) { c.maskDims = badMask; });
  add("dimension 2 of mask (4) is neither 1 nor the scores' (3)", kInvalid,
      [&](Call &c) { c.maskDims = wideMask; });
  add("amp_attention: dtype is i32; expected f32, f16 or bf16", kUnsupported,
      [](Call &c) { c.dtype = AMP_DTYPE_I32; });
  add("amp_attention: unknown dtype 7", kInvalid,
      [](Call &c) { c.dtype = badDtype(7); });
  add("amp_attention: mask_dtype is bool; expected f32, f16 or bf16",
      kUnsupported, [](Call &c) { c.maskDtype = AMP_DTYPE_BOOL; });
  add("amp_attention: unknown mask_dtype 6", kInvalid,
      [](Call &c) { c.maskDtype = badDtype(6); });
  add("amp_attention: mask_dtype is f16; it must be f32 or dtype (bf16)",
      kUnsupported, [](Call &c) {
        c.dtype = AMP_DTYPE_BF16;
        c.maskDtype = AMP_DTYPE_F16;
      });
  add("amp_attention: causal (2) is not 0 or 1", kInvalid,
      [](Call &c) { c.causal = 2; });
  add("amp_attention: causal (-1) is not 0 or 1", kInvalid,
      [](Call &c) { c.causal = -1; });
  add("amp_attention: out overlaps q", kInvalid,
      [&](Call &c) { c.out = x.q.data(); });
  add("amp_attention: out overlaps v", kInvalid,
      [&](Call &c) { c.out = x.v.data(); });
  add("amp_attention: lse overlaps mask", kInvalid,
      [&](Call &c) { c.lse = static_cast<float *>(x.mask.data()); });
  add("amp_attention: out overlaps lse", kInvalid,
      [&](Call &c) { c.lse = static_cast<float *>(c.out) + 18; });
  add("amp_attention: dropout_rate (0.25) is not 0, but dropout_seed is NULL",
      kInvalid, [](Call &c) { c.seed = nullptr; });
  add("amp_attention: dropout_rate (1) is not in [0, 1)", kInvalid,
      [](Call &c) { c.rate = 1.0f; });
  add("amp_attention: dropout_rate (-0.5) is not in [0, 1)", kInvalid,
      [](Call &c) { c.rate = -0.5f; });
  add("amp_attention: dropout_rate (nan) is not in [0, 1)", kInvalid,
      [](Call &c) { c.rate = NAN; });
  add("amp_attention: kv_group (0) is not >= 1", kInvalid,
      [](Call &c) { c.kvGroup = 0; });
  add("amp_attention: kv_group (-2) is not >= 1", kInvalid,
      [](Call &c) { c.kvGroup = -2; });
  add("amp_attention: kv_group (3) does not divide q's heads (dim 0, 2)",
      kInvalid, [](Call &c) { c.kvGroup = 3; });
  add("amp_attention: kv_group (2) groups q's heads, its last batch dim, but "
      "q has rank 2",
      kInvalid, [&](Call &c) {
        c.dims = dims + 1;
        c.rank = 2;
        c.mask = nullptr;
        c.kvGroup = 2;
      });
  add("amp_attention: dropout_seed (", kInvalid, [&](Call &c) {
    c.seed = reinterpret_cast<const int64_t *>(
        reinterpret_cast<const char *>(&seed) + 4);
  });
  for (const Bad &b : bad) {
    EXPECT_TRUE(failsWith(forward(b.call), b.status, b.what)) << b.what;
    EXPECT_TRUE(x.out.sameBits(before.out)) << b.what;
    EXPECT_TRUE(x.lse.sameBits(before.lse)) << b.what;
  }
  // The well-formed call passes; without a mask, mask_dims and mask_dtype
  // are ignored, and a seed with rate 0 drops nothing.
  Call noDrop = good;
  noDrop.rate = 0.0f;
  EXPECT_TRUE(isOk(forward(noDrop)));
  Call noMask = good;
  noMask.mask = nullptr;
  noMask.maskDims = badMask;
  noMask.maskDtype = badDtype(7);
  EXPECT_TRUE(isOk(forward(noMask)));
  EXPECT_TRUE(isOk(forward(good)));
}

TEST(Attention, GradRejectsBadArguments) {
  ErrorBuffers x;
  ASSERT_TRUE(isOk(amp_attention(
      x.q.data(), x.k.data(), x.v.data(), x.mask.data(), x.out.data(),
      x.lsePtr(), x.q.dims(), 3, 3, 4, 1, x.mask.dims(), AMP_DTYPE_F32,
      AMP_DTYPE_F32, 0.5f, 1, nullptr, 0.0f, nullptr)));
  const ErrorBuffers before = x;
  const int64_t maskDims[] = {2, 1, 3}, badMask[] = {3, 1, 3};
  struct Call {
    const void *dout, *q, *k, *v, *mask, *out;
    const float *lse;
    void *dq, *dk, *dv;
    int32_t rank;
    const int64_t *maskDims;
    amp_dtype_t dtype, maskDtype;
    int32_t causal;
    const int64_t *seed;
    float rate;
    int64_t kvGroup = 1;
  };
  const int64_t seed = 7;
  const Call good{x.dout.data(), x.q.data(),    x.k.data(), x.v.data(),
                  x.mask.data(), x.out.data(),  x.lsePtr(), x.dq.data(),
                  x.dk.data(),   x.dv.data(),   3,          maskDims,
                  AMP_DTYPE_F32, AMP_DTYPE_F32, 1,          &seed,
                  0.5f};
  auto grad = [&](const Call &c) {
    return amp_attention_grad(c.dout, c.q, c.k, c.v, c.mask, c.out, c.lse, c.dq,
                              c.dk, c.dv, x.q.dims(), c.rank, 3, 4, c.kvGroup,
                              c.maskDims, c.dtype, c.maskDtype, 0.5f, c.causal,
                              c.seed, c.rate, nullptr);
  };
  struct Bad {
    const char *what;
    Call call;
    amp_status_t status;
  };
  std::vector<Bad> bad;
  auto add = [&](const char *what, amp_status_t status, auto change) {
    Call c = good;
    change(c);
    bad.push_back({what, c, status});
  };
  const amp_status_t kInvalid = AMP_STATUS_INVALID_ARGUMENT;
  add("amp_attention_grad: dout is NULL", kInvalid,
      [](Call &c) { c.dout = nullptr; });
  add("amp_attention_grad: out is NULL", kInvalid,
      [](Call &c) { c.out = nullptr; });
  add("amp_attention_grad: lse is NULL", kInvalid,
      [](Call &c) { c.lse = nullptr; });
  add("amp_attention_grad: dq is NULL", kInvalid,
      [](Call &c) { c.dq = nullptr; });
  add("amp_attention_grad: dk is NULL", kInvalid,
      [](Call &c) { c.dk = nullptr; });
  add("amp_attention_grad: dv_out is NULL", kInvalid,
      [](Call &c) { c.dv = nullptr; });
  add("amp_attention_grad: k is NULL", kInvalid,
      [](Call &c) { c.k = nullptr; });
  add("amp_attention_grad: lse (", kInvalid, [](Call &c) {
    c.lse = reinterpret_cast<const float *>(
        reinterpret_cast<const char *>(c.lse) + 1);
  });
  add("amp_attention_grad: q must have rank >= 2", kInvalid,
      [](Call &c) { c.rank = 1; });
  add("amp_attention_grad: dimension 0 of mask (3) is neither 1 nor the "
      "scores' (2)",
      kInvalid, [&](Call &c) { c.maskDims = badMask; });
  add("amp_attention_grad: mask_dtype is f16; it must be f32 or dtype (f32)",
      AMP_STATUS_NOT_SUPPORTED, [](Call &c) { c.maskDtype = AMP_DTYPE_F16; });
  add("amp_attention_grad: kv_group (4) does not divide q's heads (dim 0, 2)",
      kInvalid, [](Call &c) { c.kvGroup = 4; });
  add("amp_attention_grad: causal (3) is not 0 or 1", kInvalid,
      [](Call &c) { c.causal = 3; });
  add("amp_attention_grad: dq overlaps dout", kInvalid,
      [&](Call &c) { c.dq = x.dout.data(); });
  add("amp_attention_grad: dk overlaps out", kInvalid,
      [&](Call &c) { c.dk = x.out.data(); });
  add("amp_attention_grad: dv_out overlaps v", kInvalid,
      [&](Call &c) { c.dv = x.v.data(); });
  add("amp_attention_grad: dq overlaps dk", kInvalid,
      [](Call &c) { c.dk = c.dq; });
  add("amp_attention_grad: dk overlaps dv_out", kInvalid,
      [&](Call &c) { c.dv = c.dk; });
  add("amp_attention_grad: dropout_rate (0.5) is not 0, but dropout_seed is "
      "NULL",
      kInvalid, [](Call &c) { c.seed = nullptr; });
  add("amp_attention_grad: dropout_rate (2) is not in [0, 1)", kInvalid,
      [](Call &c) { c.rate = 2.0f; });
  for (const Bad &b : bad) {
    EXPECT_TRUE(failsWith(grad(b.call), b.status, b.what)) << b.what;
    EXPECT_TRUE(x.dq.sameBits(before.dq)) << b.what;
    EXPECT_TRUE(x.dk.sameBits(before.dk)) << b.what;
    EXPECT_TRUE(x.dv.sameBits(before.dv)) << b.what;
    EXPECT_TRUE(x.dout.sameBits(before.dout)) << b.what;
    EXPECT_TRUE(x.out.sameBits(before.out)) << b.what;
  }
  EXPECT_TRUE(isOk(grad(good)));
}

} // namespace
