//===- NormOps.cpp - f64 evaluators of the norms and softmax --------------===//
//
// nn.layer_norm and nn.batch_norm (biased variance) with their gradients,
// nn.running_stats_update, nn.softmax, nn.log_softmax and nn.softmax_grad. Both
// norms normalize groups of elements (a row of the trailing dims; a channel
// over batch and space) and differ only in how elements map to groups and to
// scale/bias entries, so one forward and one backward serve both.
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

/// How a norm splits its input: `numGroups` groups of `groupSize` elements;
/// element e of group g is at `offset(g, e)` and uses scale/bias entry
/// `param(g, e)`.
struct NormLayout {
  int64_t numGroups, groupSize;
  std::function<int64_t(int64_t, int64_t)> offset, param;
};

/// Layer norm over dims axis..rank-1: a group is a row, the params are
/// indexed by the position in it.
NormLayout layerNormLayout(ArrayRef<int64_t> shape, int64_t axis) {
  axis = normalizeAxis(axis, shape.size());
  int64_t rowSize = getNumElements(shape.drop_front(axis));
  return {getNumElements(shape.take_front(axis)), rowSize,
          [rowSize](int64_t g, int64_t e) { return g * rowSize + e; },
          [](int64_t, int64_t e) { return e; }};
}

/// Batch norm of [N, C, spatial...]: a group is a channel.
NormLayout batchNormLayout(ArrayRef<int64_t> shape) {
  int64_t channels = shape[1];
  int64_t spatial = getNumElements(shape.drop_front(2));
  return {channels, shape[0] * spatial,
          [channels, spatial](int64_t g, int64_t e) {
            return (e / spatial * channels + g) * spatial + e % spatial;
          },
          [](int64_t g, int64_t) { return g; }};
}

/// y = (x - mean) * rstd * scale + bias, with the biased variance.
Results normForward(Operation *op, const NormLayout &layout, Operands in,
                    double epsilon) {
  const RefTensor &x = *in[0], &scale = *in[1], &bias = *in[2];
  Results results{resultLike(op, 0), resultLike(op, 1), resultLike(op, 2)};
  RefTensor &y = results[0], &mean = results[1], &rstd = results[2];
  double size = static_cast<double>(layout.groupSize);
  for (int64_t g = 0; g < layout.numGroups; ++g) {
    double sum = 0, squares = 0;
    for (int64_t e = 0; e < layout.groupSize; ++e)
      sum += x.data[layout.offset(g, e)];
    double mu = sum / size;
    for (int64_t e = 0; e < layout.groupSize; ++e) {
      double d = x.data[layout.offset(g, e)] - mu;
      squares += d * d;
    }
    double r = 1 / std::sqrt(squares / size + epsilon);
    for (int64_t e = 0; e < layout.groupSize; ++e) {
      int64_t i = layout.offset(g, e), p = layout.param(g, e);
      y.data[i] = (x.data[i] - mu) * r * scale.data[p] + bias.data[p];
    }
    mean.data[g] = mu;
    rstd.data[g] = r;
  }
  return results;
}

/// The exact gradient of normForward given the saved mean and rstd: with
/// xhat = (x - mean) rstd and t = dy * scale,
/// dx = rstd (t - mean(t) - xhat mean(t xhat)), dscale = sum dy xhat,
/// dbias = sum dy.
Results normBackward(Operation *op, const NormLayout &layout, Operands in) {
  const RefTensor &dy = *in[0], &x = *in[1], &mean = *in[2], &rstd = *in[3],
                  &scale = *in[4];
  Results results{resultLike(op, 0), resultLike(op, 1), resultLike(op, 2)};
  RefTensor &dx = results[0], &dscale = results[1], &dbias = results[2];
  double size = static_cast<double>(layout.groupSize);
  for (int64_t g = 0; g < layout.numGroups; ++g) {
    double mu = mean.data[g], r = rstd.data[g];
    double sumT = 0, sumTXhat = 0;
    for (int64_t e = 0; e < layout.groupSize; ++e) {
      int64_t i = layout.offset(g, e), p = layout.param(g, e);
      double xhat = (x.data[i] - mu) * r;
      double t = dy.data[i] * scale.data[p];
      sumT += t;
      sumTXhat += t * xhat;
      dscale.data[p] += dy.data[i] * xhat;
      dbias.data[p] += dy.data[i];
    }
    for (int64_t e = 0; e < layout.groupSize; ++e) {
      int64_t i = layout.offset(g, e), p = layout.param(g, e);
      double xhat = (x.data[i] - mu) * r;
      double t = dy.data[i] * scale.data[p];
      dx.data[i] = r * (t - sumT / size - xhat * sumTXhat / size);
    }
  }
  return results;
}

/// One line along an axis: element i is data[base + i * stride].
struct Line {
  double &operator[](int64_t i) const { return data[base + i * stride]; }
  std::vector<double> &data;
  int64_t base, stride, length;
};

/// Calls `fn(line)` for every line of `t` along the op's axis.
template <typename OpT, typename Fn>
void forEachAxisLine(OpT op, RefTensor &t, Fn fn) {
  int64_t axis = normalizeAxis(op.getAxis(), t.getRank());
  forEachLine(t.shape, axis, [&](int64_t base, int64_t stride) {
    fn(Line{t.data, base, stride, t.shape[axis]});
  });
}

/// The max of a line and sum exp(x - max): softmax = exp(x - max) / sum.
std::pair<double, double> maxAndSumExp(const Line &x) {
  double m = -std::numeric_limits<double>::infinity();
  for (int64_t i = 0; i < x.length; ++i)
    m = std::max(m, x[i]);
  double s = 0;
  for (int64_t i = 0; i < x.length; ++i)
    s += std::exp(x[i] - m);
  return {m, s};
}

RefTensor evalSoftmax(SoftmaxOp op, Operands in) {
  RefTensor y = *in[0];
  forEachAxisLine(op, y, [](const Line &x) {
    auto [m, s] = maxAndSumExp(x);
    for (int64_t i = 0; i < x.length; ++i)
      x[i] = std::exp(x[i] - m) / s;
  });
  return y;
}

RefTensor evalLogSoftmax(LogSoftmaxOp op, Operands in) {
  RefTensor y = *in[0];
  forEachAxisLine(op, y, [](const Line &x) {
    auto [m, s] = maxAndSumExp(x);
    for (int64_t i = 0; i < x.length; ++i)
      x[i] = (x[i] - m) - std::log(s);
  });
  return y;
}

/// dx = y (dy - sum(dy y)); computed in place on a copy of dy.
RefTensor evalSoftmaxGrad(SoftmaxGradOp op, Operands in) {
  RefTensor dx = *in[0], y = *in[1];
  forEachAxisLine(op, dx, [&](const Line &d) {
    Line out{y.data, d.base, d.stride, d.length};
    double dot = 0;
    for (int64_t i = 0; i < d.length; ++i)
      dot += d[i] * out[i];
    for (int64_t i = 0; i < d.length; ++i)
      d[i] = out[i] * (d[i] - dot);
  });
  return dx;
}

/// The momentum update of the running statistics from a batch's mean and
/// invstd (the variance recovered as 1/invstd^2 - epsilon).
Results evalRunningStatsUpdate(RunningStatsUpdateOp op, Operands in) {
  Results results{*in[0], *in[1]};
  const RefTensor &mean = *in[2], &invstd = *in[3];
  double m = op.getMomentumAttr().getValueAsDouble();
  double eps = op.getEpsilonAttr().getValueAsDouble();
  double correction = op.getVarianceCorrection();
  for (size_t c = 0; c < mean.data.size(); ++c) {
    double var = 1.0 / (invstd.data[c] * invstd.data[c]) - eps;
    results[0].data[c] = (1 - m) * results[0].data[c] + m * mean.data[c];
    results[1].data[c] = (1 - m) * results[1].data[c] + m * var * correction;
  }
  return results;
}

} // namespace

void amp::reference::registerNormOps(EvaluatorTable &table) {
  table.add<LayerNormOp>([](LayerNormOp op, Operands in) {
    return normForward(op, layerNormLayout(in[0]->shape, op.getAxis()), in,
                       op.getEpsilonAttr().getValueAsDouble());
  });
  table.add<LayerNormGradOp>([](LayerNormGradOp op, Operands in) {
    return normBackward(op, layerNormLayout(in[1]->shape, op.getAxis()), in);
  });
  table.add<BatchNormOp>([](BatchNormOp op, Operands in) {
    return normForward(op, batchNormLayout(in[0]->shape), in,
                       op.getEpsilonAttr().getValueAsDouble());
  });
  table.add<BatchNormGradOp>([](BatchNormGradOp op, Operands in) {
    return normBackward(op, batchNormLayout(in[1]->shape), in);
  });
  table.add<RunningStatsUpdateOp>(evalRunningStatsUpdate);
  table.add<SoftmaxOp>(evalSoftmax);
  table.add<LogSoftmaxOp>(evalLogSoftmax);
  table.add<SoftmaxGradOp>(evalSoftmaxGrad);
}
