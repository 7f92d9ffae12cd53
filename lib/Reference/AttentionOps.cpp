//===- AttentionOps.cpp - f64 evaluators of the fused attention -----------===//
//
// nn.attention and nn.attention_grad, computed the plain way: each query's
// scores are formed whole (no blocking, no online softmax), so that the
// kernels' blocked and recomputing forms are checked against the textbook
// definition.
//
//===----------------------------------------------------------------------===//

#include "Evaluators.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace amp::nn;
using namespace amp::reference;

namespace {

/// The geometry of one attention: `batch` independent problems of `sq`
/// queries and `sk` keys, head sizes `d` (query, key) and `dv` (value);
/// problem b reads the keys and values of problem b / kvGroup (grouped-query
/// attention: the key has fewer heads).
struct Geometry {
  int64_t batch, sq, sk, d, dv, kvGroup;
  double scale;
  bool causal;
  /// The mask broadcast to [batch, sq, sk], or empty.
  std::vector<double> mask;
  /// Whether the probabilities are dropped, with which seed and rate.
  bool drops = false;
  uint64_t seed = 0;
  float rate = 0.0f;

  Geometry(Value query, Value key, Value value, Value maskValue,
           const RefTensor *maskData, double scale, bool causal)
      : scale(scale), causal(causal) {
    ArrayRef<int64_t> qs = shapeOf(query);
    sq = qs[qs.size() - 2];
    d = qs.back();
    sk = shapeOf(key)[qs.size() - 2];
    dv = shapeOf(value).back();
    batch = getNumElements(qs.drop_back(2));
    kvGroup = attentionKvGroup(query.getType(), key.getType());
    if (maskValue) {
      SmallVector<int64_t> scores(qs.drop_back(2));
      scores.append({sq, sk});
      mask = broadcastData(*maskData, scores);
    }
  }

  /// The element offset of key (or value) row j of problem b, whose rows
  /// hold `width` elements.
  int64_t kvRow(int64_t b, int64_t j, int64_t width) const {
    return (b / kvGroup * sk + j) * width;
  }

  /// The scores of query `i` of problem `b` (-inf where masked out).
  std::vector<double> scores(const RefTensor &q, const RefTensor &k, int64_t b,
                             int64_t i) const {
    std::vector<double> s(sk);
    for (int64_t j = 0; j < sk; ++j) {
      if (causal && j > i) {
        s[j] = -std::numeric_limits<double>::infinity();
        continue;
      }
      double dot = 0;
      for (int64_t c = 0; c < d; ++c)
        dot += q.data[(b * sq + i) * d + c] * k.data[kvRow(b, j, d) + c];
      s[j] = scale * dot + (mask.empty() ? 0.0 : mask[(b * sq + i) * sk + j]);
    }
    return s;
  }

  /// What dropout multiplies problem b's p[i, j] by: 1 / (1 - rate) where
  /// nn.dropout of the [batch, sq, sk] probabilities keeps it, else 0; 1
  /// without dropout.
  double dropFactor(int64_t b, int64_t i, int64_t j) const {
    if (!drops)
      return 1.0;
    return dropoutKeeps(seed, static_cast<uint64_t>((b * sq + i) * sk + j),
                        rate)
               ? 1.0 / (1.0 - static_cast<double>(rate))
               : 0.0;
  }
};

/// The attention's dropout seed (the operand after q, k, v and the mask
/// at `first`) and rate into `g`.
template <typename OpT>
void readDropout(OpT op, Operands in, unsigned first, Geometry &g) {
  if (!op.getDropout())
    return;
  g.drops = true;
  g.seed = seedBits(in[first + (op.getMask() ? 1 : 0)]->data[0]);
  g.rate = op.getDropoutRateAttr().getValue().convertToFloat();
}

/// log(sum(exp(s))), -inf when every score is -inf.
double logSumExp(const std::vector<double> &s) {
  double m = -std::numeric_limits<double>::infinity();
  for (double v : s)
    m = std::max(m, v);
  if (m == -std::numeric_limits<double>::infinity())
    return m;
  double sum = 0;
  for (double v : s)
    sum += std::exp(v - m);
  return m + std::log(sum);
}

/// The probabilities exp(s - lse); 0 for a query that sees no key.
std::vector<double> probabilities(std::vector<double> s, double lse) {
  for (double &v : s)
    v = std::isinf(lse) && lse < 0 ? 0.0 : std::exp(v - lse);
  return s;
}

Geometry geometryOf(AttentionOp op, Operands in) {
  Geometry g(op.getQuery(), op.getKey(), op.getValue(), op.getMask(),
             op.getMask() ? in[3] : nullptr, op.getScaleValue(),
             op.getCausal());
  readDropout(op, in, 3, g);
  return g;
}

Results evalAttention(AttentionOp op, Operands in) {
  const RefTensor &q = *in[0], &k = *in[1], &v = *in[2];
  Geometry g = geometryOf(op, in);
  Results results{resultLike(op, 0), resultLike(op, 1)};
  RefTensor &out = results[0], &lse = results[1];
  for (int64_t b = 0; b < g.batch; ++b)
    for (int64_t i = 0; i < g.sq; ++i) {
      std::vector<double> s = g.scores(q, k, b, i);
      double l = logSumExp(s);
      lse.data[b * g.sq + i] = l;
      std::vector<double> p = probabilities(std::move(s), l);
      for (int64_t c = 0; c < g.dv; ++c) {
        double sum = 0;
        for (int64_t j = 0; j < g.sk; ++j)
          sum += p[j] * g.dropFactor(b, i, j) * v.data[g.kvRow(b, j, g.dv) + c];
        out.data[(b * g.sq + i) * g.dv + c] = sum;
      }
    }
  return results;
}

/// The textbook backward: with P the probabilities and F the dropout
/// factors, dP = F * (dO V^T), dS = P * (dP - rowsum(dO * O)),
/// dQ = scale dS K, dK = scale dS^T Q, dV = (P * F)^T dO. The log-sum-exp is
/// recomputed here, not read: the interpreter checks the saved one
/// separately, as nn.attention's result.
Results evalAttentionGrad(AttentionGradOp op, Operands in) {
  const RefTensor &dout = *in[0], &q = *in[1], &k = *in[2], &v = *in[3],
                  &out = *in[4];
  Geometry g(op.getQuery(), op.getKey(), op.getValue(), op.getMask(),
             op.getMask() ? in[6] : nullptr, op.getScaleValue(),
             op.getCausal());
  readDropout(op, in, 6, g);
  Results results{resultLike(op, 0), resultLike(op, 1), resultLike(op, 2)};
  RefTensor &dq = results[0], &dk = results[1], &dv = results[2];
  for (int64_t b = 0; b < g.batch; ++b)
    for (int64_t i = 0; i < g.sq; ++i) {
      std::vector<double> s = g.scores(q, k, b, i);
      double l = logSumExp(s);
      std::vector<double> p = probabilities(std::move(s), l);
      const double *doRow = &dout.data[(b * g.sq + i) * g.dv];
      const double *oRow = &out.data[(b * g.sq + i) * g.dv];
      double delta = 0;
      for (int64_t c = 0; c < g.dv; ++c)
        delta += doRow[c] * oRow[c];
      for (int64_t j = 0; j < g.sk; ++j) {
        const double *vRow = &v.data[g.kvRow(b, j, g.dv)];
        double dp = 0;
        for (int64_t c = 0; c < g.dv; ++c)
          dp += doRow[c] * vRow[c];
        const double f = g.dropFactor(b, i, j);
        double ds = p[j] * (f * dp - delta);
        for (int64_t c = 0; c < g.d; ++c) {
          dq.data[(b * g.sq + i) * g.d + c] +=
              g.scale * ds * k.data[g.kvRow(b, j, g.d) + c];
          dk.data[g.kvRow(b, j, g.d) + c] +=
              g.scale * ds * q.data[(b * g.sq + i) * g.d + c];
        }
        for (int64_t c = 0; c < g.dv; ++c)
          dv.data[g.kvRow(b, j, g.dv) + c] += p[j] * f * doRow[c];
      }
    }
  return results;
}

} // namespace

void amp::reference::registerAttentionOps(EvaluatorTable &table) {
  table.add<AttentionOp>(evalAttention);
  table.add<AttentionGradOp>(evalAttentionGrad);
}
