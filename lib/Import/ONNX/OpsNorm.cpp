//===- OpsNorm.cpp - normalization and softmax ----------------------------===//
//
// BatchNormalization (inference: the running statistics are folded into
// constants, never params; trained (--train, or training_mode = 1): batch
// statistics and nn.running_stats_update), LayerNormalization (nn.layer_norm),
// RMSNormalization (nn ops), InstanceNormalization and GroupNormalization
// (nn.layer_norm of each instance's group of channels, then the per-channel
// scale and bias; PyTorch exports its GroupNorm as an InstanceNormalization of
// reshaped groups), Softmax and LogSoftmax (the flattening semantics of opset <
// 13), and LRN, built from nn ops (a channel-window mean is nn.avg_pool2d over
// a reshaped square), Hardmax (nn.argmax, compared with each position),
// LpNormalization and MeanVarianceNormalization (nn ops).
//
//===----------------------------------------------------------------------===//

#include "Formula.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include <cmath>

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

/// A running statistic (input 3 or 4) as a buffer argument (--train).
static FailureOr<Value> runningStatBuffer(NodeContext &nc, unsigned i,
                                          float init) {
  FailureOr<Tensor *> t = nc.input(i);
  if (failed(t))
    return failure();
  FailureOr<Value> buffer = nc.table.materializeBuffer(**t, init);
  if (failed(buffer))
    return nc.error() << "input " << i << " ('" << (*t)->name
                      << "', the running " << (i == 3 ? "mean" : "variance")
                      << ") must be a float initializer that no other node "
                         "uses: with --train it becomes a buffer the step "
                         "updates (--frozen-batch-norm keeps the running "
                         "statistics as constants instead)",
           failure();
  return buffer;
}

/// Batch statistics, as PyTorch's BatchNorm in training mode and ONNX's
/// training_mode = 1: nn.batch_norm, and nn.running_stats_update of the
/// running statistics (inputs 3 and 4) with ONNX's `momentum` (the op's is
/// 1 - momentum). With `buffers` (--train) the running statistics are
/// buffer arguments whose new values the loss function returns; outputs 1
/// and 2, when the node has them, are the new values either way.
static LogicalResult importBatchStatistics(NodeContext &nc, Value x, float eps,
                                           float momentum, bool unbiased,
                                           bool buffers) {
  if (!(momentum >= 0.0f && momentum <= 1.0f))
    return nc.error() << "momentum must be in [0, 1], got " << momentum,
           failure();
  llvm::SmallVector<int64_t> xs = shapeOf(x);
  if (xs.size() < 2)
    return nc.error() << "the input must have rank >= 2", failure();
  int64_t count =
      nn::BatchNormOp::valuesPerChannel(cast<RankedTensorType>(x.getType()));
  if (count < (unbiased ? 2 : 1))
    return nc.error() << "batch statistics need "
                      << (unbiased ? "more than one value" : "a value")
                      << " per channel; the input has " << count
                      << " (its shape's product without dim 1)"
                      << (buffers ? "; --frozen-batch-norm normalizes with "
                                    "the running statistics instead"
                                  : ""),
           failure();
  FailureOr<Value> scale = nc.floatValue(1);
  FailureOr<Value> bias = nc.floatValue(2);
  if (failed(scale) || failed(bias))
    return failure();
  FailureOr<Value> runningMean =
      buffers ? runningStatBuffer(nc, 3, 0.0f) : nc.floatValue(3);
  FailureOr<Value> runningVar =
      buffers ? runningStatBuffer(nc, 4, 1.0f) : nc.floatValue(4);
  if (failed(runningMean) || failed(runningVar))
    return failure();
  FailureOr<ValueRange> norm =
      nc.create(nn::BatchNormOp::getOperationName(), {x, *scale, *bias},
                {nc.named("epsilon", nc.builder.getF32FloatAttr(eps))}, 3);
  if (failed(norm))
    return failure();
  FailureOr<ValueRange> stats = nc.create(
      nn::RunningStatsUpdateOp::getOperationName(),
      {*runningMean, *runningVar, (*norm)[1], (*norm)[2]},
      {nc.named("count", nc.builder.getI64IntegerAttr(count)),
       nc.named("momentum", nc.builder.getF32FloatAttr(1.0f - momentum)),
       nc.named("epsilon", nc.builder.getF32FloatAttr(eps)),
       nc.named("unbiased", nc.builder.getBoolAttr(unbiased))},
      2);
  if (failed(stats) || failed(nc.setOutput(0, (*norm)[0])))
    return failure();
  for (unsigned i : {1u, 2u})
    if (nc.hasOutput(i) && failed(nc.setOutput(i, (*stats)[i - 1])))
      return failure();
  if (buffers) {
    nc.table.setBufferUpdate(*runningMean, (*stats)[0]);
    nc.table.setBufferUpdate(*runningVar, (*stats)[1]);
  }
  return success();
}

static LogicalResult importBatchNorm(NodeContext &nc) {
  FailureOr<float> eps = nc.floatAttr("epsilon", 1e-5f);
  FailureOr<float> momentum = nc.floatAttr("momentum", 0.9f);
  FailureOr<int64_t> training = nc.intAttr("training_mode", 0);
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(eps) || failed(momentum) || failed(training) || failed(x))
    return failure();
  // Batch statistics: with --train (unless frozen) as PyTorch's BatchNorm
  // in training mode (the unbiased variance updates the running one),
  // whatever mode the node was exported in; otherwise in ONNX's training
  // mode (the biased variance).
  const bool train = nc.options.train;
  if (train ? !nc.options.frozenBatchNorm : *training != 0)
    return importBatchStatistics(nc, *x, *eps, *momentum, /*unbiased=*/train,
                                 /*buffers=*/train);
  // Frozen: the running statistics stay what they are.
  for (unsigned i : {1u, 2u}) {
    FailureOr<Tensor *> stat = nc.input(i + 2);
    if (nc.hasOutput(i) && (failed(stat) || failed(nc.setOutput(i, **stat))))
      return failure();
  }
  llvm::SmallVector<int64_t> xs = shapeOf(*x);
  if (xs.size() < 2)
    return nc.error() << "the input must have rank >= 2", failure();
  int64_t channels = xs[1];
  // Per-channel operands broadcast as C x 1 x ... (rank - 1 dims).
  llvm::SmallVector<int64_t> bshape(xs.size() - 1, 1);
  bshape[0] = channels;
  for (unsigned i = 1; i <= 4; ++i) {
    FailureOr<Tensor *> t = nc.input(i);
    if (failed(t))
      return failure();
    if ((*t)->shape != llvm::SmallVector<int64_t>{channels})
      return nc.error() << "input " << i << " must have shape [" << channels
                        << "]",
             failure();
  }
  // The running statistics: constants when known (folded invstd).
  Value mean, invstd;
  Tensor *meanT = *nc.input(3), *varT = *nc.input(4);
  if (meanT->constant && meanT->isFloat())
    mean = nc.constant(bshape, meanT->constant->f);
  if (varT->constant && varT->isFloat()) {
    std::vector<float> inv;
    for (float v : varT->constant->f)
      inv.push_back(float(1.0 / std::sqrt(double(v) + double(*eps))));
    invstd = nc.constant(bshape, inv);
  }
  if (!mean) {
    FailureOr<Value> m = nc.floatValue(3);
    if (failed(m) || failed(m = nc.reshape(*m, bshape)))
      return failure();
    mean = *m;
  }
  if (!invstd) {
    FailureOr<Value> v = nc.floatValue(4);
    if (failed(v) || failed(v = nc.reshape(*v, bshape)))
      return failure();
    FailureOr<Value> ve = nc.create<nn::AddOp>({*v, nc.splat({}, *eps)});
    if (failed(ve))
      return failure();
    FailureOr<Value> r = nc.create<nn::RsqrtOp>({*ve});
    if (failed(r))
      return failure();
    invstd = *r;
  }
  FailureOr<Value> scale = nc.floatValue(1);
  FailureOr<Value> bias = nc.floatValue(2);
  if (failed(scale) || failed(bias) ||
      failed(scale = nc.reshape(*scale, bshape)) ||
      failed(bias = nc.reshape(*bias, bshape)))
    return failure();
  FailureOr<Value> y = nc.create<nn::SubOp>({*x, mean});
  if (failed(y) || failed(y = nc.create<nn::MulOp>({*y, invstd})) ||
      failed(y = nc.create<nn::MulOp>({*y, *scale})) ||
      failed(y = nc.create<nn::AddOp>({*y, *bias})))
    return failure();
  return nc.setOutput(0, *y);
}

/// stash_type must be 1: nn.layer_norm's statistics are f32.
static LogicalResult checkStashType(NodeContext &nc, int64_t stash) {
  if (stash != 1)
    return nc.error() << "stash_type = " << stash
                      << " is not supported (statistics are f32)";
  return success();
}

static LogicalResult importLayerNorm(NodeContext &nc) {
  FailureOr<int64_t> axisAttr = nc.intAttr("axis", -1);
  FailureOr<float> eps = nc.floatAttr("epsilon", 1e-5f);
  FailureOr<int64_t> stash = nc.intAttr("stash_type", 1);
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(axisAttr) || failed(eps) || failed(stash) || failed(x))
    return failure();
  if (failed(checkStashType(nc, *stash)))
    return failure();
  llvm::SmallVector<int64_t> xs = shapeOf(*x);
  FailureOr<int64_t> axis = nc.normalizeAxis(*axisAttr, xs.size(), "axis");
  if (failed(axis))
    return failure();
  llvm::SmallVector<int64_t> normalized(xs.begin() + *axis, xs.end());
  auto normType = RankedTensorType::get(normalized, nc.builder.getF32Type());
  auto toNormalized = [&](Value v) -> FailureOr<Value> {
    if (shapeOf(v) == normalized)
      return v;
    return nc.createTyped<nn::BroadcastToOp>(normType, {v});
  };
  FailureOr<Value> scale = nc.floatValue(1);
  if (failed(scale) || failed(scale = toNormalized(*scale)))
    return failure();
  FailureOr<Value> bias = nc.hasInput(2)
                              ? nc.floatValue(2)
                              : FailureOr<Value>(nc.splat(normalized, 0.0f));
  if (failed(bias) || failed(bias = toNormalized(*bias)))
    return failure();
  FailureOr<ValueRange> r =
      nc.create(nn::LayerNormOp::getOperationName(), {*x, *scale, *bias},
                {nc.named("axis", nc.builder.getI64IntegerAttr(*axis)),
                 nc.named("epsilon", nc.builder.getF32FloatAttr(*eps))},
                3);
  if (failed(r))
    return failure();
  // Mean and InvStdDev keep the normalized dims as 1s.
  llvm::SmallVector<int64_t> statShape(xs.begin(), xs.begin() + *axis);
  statShape.append(xs.size() - *axis, 1);
  Value y = (*r)[0], mean = (*r)[1], rstd = (*r)[2];
  if (failed(nc.setOutput(0, y)))
    return failure();
  for (unsigned i : {1u, 2u}) {
    if (!nc.hasOutput(i))
      continue;
    FailureOr<Value> s = nc.reshape(i == 1 ? mean : rstd, statShape);
    if (failed(s) || failed(nc.setOutput(i, *s)))
      return failure();
  }
  return success();
}

/// RMSNormalization (opset 23): x / sqrt(mean(x^2 over [axis, rank)) +
/// epsilon) * scale, built of nn ops (nn has no RMS norm op; the AMP policy
/// keeps the mean and the rsqrt f32), as PyTorch's nn.RMSNorm exports.
static LogicalResult importRMSNorm(NodeContext &nc) {
  FailureOr<int64_t> axisAttr = nc.intAttr("axis", -1);
  FailureOr<float> eps = nc.floatAttr("epsilon", 1e-5f);
  FailureOr<int64_t> stash = nc.intAttr("stash_type", 1);
  FailureOr<Value> x = nc.floatValue(0);
  FailureOr<Value> scale = failed(x) ? x : nc.floatValue(1);
  if (failed(axisAttr) || failed(eps) || failed(stash) || failed(scale) ||
      failed(checkStashType(nc, *stash)))
    return failure();
  int64_t rank = shapeOf(*x).size();
  FailureOr<int64_t> axis = nc.normalizeAxis(*axisAttr, rank, "axis");
  if (failed(axis))
    return failure();
  llvm::SmallVector<int64_t> axes;
  for (int64_t d = *axis; d < rank; ++d)
    axes.push_back(d);
  Formula f(nc);
  Value sq = f.op<nn::MulOp>({*x, *x});
  Value mean = f.op<nn::ReduceMeanOp>(
      {sq}, {nc.named("axes", nc.i64Array(axes)),
             nc.named("keep_dims", nc.builder.getUnitAttr())});
  Value shifted = f.op<nn::AddOp>({mean, f.constant(*eps)});
  Value inv = f.op<nn::RsqrtOp>({shifted});
  Value normalized = f.op<nn::MulOp>({*x, inv});
  Value y = f.op<nn::MulOp>({normalized, *scale});
  if (y && shapeOf(y) != shapeOf(*x))
    return nc.error() << "the scale of shape [" << shapeOf(*scale)
                      << "] does not broadcast to the input's [" << shapeOf(*x)
                      << "]",
           failure();
  return f.setOutput(y);
}

/// `v`, a per-channel vector of `channels` values, shaped to broadcast
/// against [N, C, D1, ...] of rank `rank`: [C, 1, ..., 1].
static FailureOr<Value> perChannel(NodeContext &nc, Value v, int64_t channels,
                                   int64_t rank) {
  if (shapeOf(v) != llvm::SmallVector<int64_t>{channels})
    return nc.error() << "the scale and bias must have shape [" << channels
                      << "]",
           failure();
  llvm::SmallVector<int64_t> shape(rank - 1, 1);
  shape[0] = channels;
  return nc.reshape(v, shape);
}

/// y = scale * normalize(x) + bias, normalized over each instance's group of
/// C / groups channels and all of their positions, with per-channel scale
/// and bias ([C] values): nn.layer_norm of x as [N, groups, rest].
static LogicalResult groupNorm(NodeContext &nc, Value x, int64_t groups,
                               float eps, Value scale, Value bias) {
  llvm::SmallVector<int64_t> xs = shapeOf(x);
  if (xs.size() < 2)
    return nc.error() << "the input must have rank >= 2 (N, C, ...)", failure();
  const int64_t n = xs[0], c = xs[1];
  if (groups < 1 || c % groups != 0)
    return nc.error() << "num_groups = " << groups << " does not divide the "
                      << c << " channels",
           failure();
  int64_t rest = c / groups;
  for (size_t d = 2; d < xs.size(); ++d)
    rest *= xs[d];
  FailureOr<Value> grouped = nc.reshape(x, {n, groups, rest});
  if (failed(grouped))
    return failure();
  FailureOr<ValueRange> r =
      nc.create(nn::LayerNormOp::getOperationName(),
                {*grouped, nc.splat({rest}, 1.0f), nc.splat({rest}, 0.0f)},
                {nc.named("axis", nc.builder.getI64IntegerAttr(2)),
                 nc.named("epsilon", nc.builder.getF32FloatAttr(eps))},
                3);
  if (failed(r))
    return failure();
  FailureOr<Value> y = nc.reshape((*r)[0], xs);
  FailureOr<Value> s =
      failed(y) ? y : perChannel(nc, scale, c, int64_t(xs.size()));
  FailureOr<Value> b =
      failed(s) ? s : perChannel(nc, bias, c, int64_t(xs.size()));
  if (failed(b))
    return failure();
  y = nc.create<nn::MulOp>({*y, *s});
  if (succeeded(y))
    y = nc.create<nn::AddOp>({*y, *b});
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

/// InstanceNormalization: one group per channel.
static LogicalResult importInstanceNorm(NodeContext &nc) {
  FailureOr<float> eps = nc.floatAttr("epsilon", 1e-5f);
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(eps) || failed(x))
    return failure();
  FailureOr<Value> scale = nc.floatValue(1);
  FailureOr<Value> bias = failed(scale) ? scale : nc.floatValue(2);
  if (failed(bias))
    return failure();
  llvm::SmallVector<int64_t> xs = shapeOf(*x);
  return groupNorm(nc, *x, xs.size() < 2 ? 1 : xs[1], *eps, *scale, *bias);
}

/// GroupNormalization: opset 21's scale and bias are per channel; opset
/// 18's per group, repeated over the group's channels here.
static LogicalResult importGroupNorm(NodeContext &nc) {
  FailureOr<float> eps = nc.floatAttr("epsilon", 1e-5f);
  FailureOr<int64_t> groups = nc.intAttr("num_groups", 0);
  FailureOr<int64_t> stash = nc.intAttr("stash_type", 1);
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(eps) || failed(groups) || failed(stash) || failed(x))
    return failure();
  if (!nc.attr("num_groups"))
    return nc.error() << "num_groups is required", failure();
  if (failed(checkStashType(nc, *stash)))
    return failure();
  FailureOr<Value> scale = nc.floatValue(1);
  FailureOr<Value> bias = failed(scale) ? scale : nc.floatValue(2);
  if (failed(bias))
    return failure();
  llvm::SmallVector<int64_t> xs = shapeOf(*x);
  if (nc.opset < 21 && xs.size() >= 2 && *groups >= 1 && xs[1] % *groups == 0) {
    // [G] -> [G, 1] -> [G, C / G] -> [C].
    const int64_t c = xs[1], g = *groups;
    auto perGroup = [&](Value v) -> FailureOr<Value> {
      if (shapeOf(v) != llvm::SmallVector<int64_t>{g})
        return nc.error() << "the scale and bias must have shape [" << g
                          << "] (num_groups) before opset 21",
               failure();
      FailureOr<Value> col = nc.reshape(v, {g, 1});
      if (failed(col))
        return failure();
      FailureOr<Value> spread = nc.createTyped<nn::BroadcastToOp>(
          RankedTensorType::get({g, c / g}, nc.builder.getF32Type()), {*col});
      return failed(spread) ? spread : nc.reshape(*spread, {c});
    };
    scale = perGroup(*scale);
    bias = failed(scale) ? scale : perGroup(*bias);
    if (failed(bias))
      return failure();
  }
  return groupNorm(nc, *x, *groups, *eps, *scale, *bias);
}

/// `build` applied along the node's `axis` of input 0: Softmax, LogSoftmax
/// and Hardmax. Before opset 13 the axis (default 1) flattens the dims
/// [axis, rank) into one, over which `build` applies.
static LogicalResult
importAlongAxis(NodeContext &nc,
                llvm::function_ref<Value(Formula &, Value, int64_t)> build) {
  FailureOr<Value> x = nc.floatValue(0);
  FailureOr<int64_t> axisAttr = nc.intAttr("axis", nc.opset < 13 ? 1 : -1);
  if (failed(x) || failed(axisAttr))
    return failure();
  llvm::SmallVector<int64_t> xs = shapeOf(*x);
  if (xs.empty())
    return nc.error() << "the input must have rank >= 1", failure();
  FailureOr<int64_t> axis = nc.normalizeAxis(*axisAttr, xs.size(), "axis");
  if (failed(axis))
    return failure();
  Formula f(nc);
  if (nc.opset >= 13 || *axis == int64_t(xs.size()) - 1)
    return f.setOutput(build(f, *x, *axis));
  // Before opset 13: over the dims [axis, rank) flattened together.
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < xs.size(); ++d)
    (int64_t(d) < *axis ? outer : inner) *= xs[d];
  Value flat = f.reshape(*x, {outer, inner});
  Value y = flat ? build(f, flat, 1) : Value();
  return f.setOutput(f.reshape(y, xs));
}

template <typename OpTy> static LogicalResult importSoftmax(NodeContext &nc) {
  return importAlongAxis(nc, [&](Formula &f, Value x, int64_t axis) {
    return f.op<OpTy>({x},
                      {nc.named("axis", nc.builder.getI64IntegerAttr(axis))});
  });
}

/// Hardmax: 1 at the first largest element along the axis (nn.argmax),
/// 0 elsewhere, as nn.compare of the position with each index. No
/// gradient passes (PyTorch's one_hot of an argmax).
static LogicalResult importHardmax(NodeContext &nc) {
  return importAlongAxis(nc, [&](Formula &f, Value x, int64_t axis) {
    llvm::SmallVector<int64_t> xs = shapeOf(x), shape(xs.size(), 1);
    shape[axis] = xs[axis];
    std::optional<int64_t> count =
        constElementCount({xs[axis]}, onnx::TensorProto::INT64);
    if (!count) {
      nc.error() << "the axis of " << xs[axis]
                 << " positions is over the importer's limit on constants";
      return Value();
    }
    if (failed(nc.reserveFoldedBytes(*count * int64_t(sizeof(int64_t)))))
      return Value();
    Value at = f.op<nn::ArgMaxOp>(
        {x}, {nc.named("axis", nc.builder.getI64IntegerAttr(axis)),
              nc.named("keep_dims", nc.builder.getUnitAttr())});
    Value ids =
        nc.constant(shape, llvm::to_vector(llvm::seq<int64_t>(0, xs[axis])));
    Value hit = f.compare(at, nn::ComparePredicate::EQ, ids);
    return f.op<nn::WhereOp>({hit, f.constant(1.0f), f.constant(0.0f)});
  });
}

/// y = x / (bias + alpha / size * sum of x^2 over a window of channels)^beta.
static LogicalResult importLRN(NodeContext &nc) {
  FailureOr<float> alpha = nc.floatAttr("alpha", 1e-4f);
  FailureOr<float> beta = nc.floatAttr("beta", 0.75f);
  FailureOr<float> bias = nc.floatAttr("bias", 1.0f);
  FailureOr<int64_t> size = nc.intAttr("size", -1);
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(alpha) || failed(beta) || failed(bias) || failed(size) ||
      failed(x))
    return failure();
  if (*size <= 0)
    return nc.error() << "attribute 'size' must be given and positive",
           failure();
  llvm::SmallVector<int64_t> xs = shapeOf(*x);
  if (xs.size() < 3)
    return nc.error() << "the input must have rank >= 3 (N x C x ...)",
           failure();
  int64_t spatial = 1;
  for (size_t d = 2; d < xs.size(); ++d)
    spatial *= xs[d];
  FailureOr<Value> sq = nc.create<nn::MulOp>({*x, *x});
  if (failed(sq) || failed(sq = nc.reshape(*sq, {xs[0], 1, xs[1], spatial})))
    return failure();
  int64_t before = (*size - 1) / 2, after = *size - 1 - before;
  FailureOr<Value> avg = nc.create<nn::AvgPool2DOp>(
      {*sq}, {nc.named("kernel", nc.i64Array({*size, 1})),
              nc.named("strides", nc.i64Array({1, 1})),
              nc.named("padding", nc.i64Array({before, 0, after, 0})),
              nc.named("count_include_pad", nc.builder.getUnitAttr())});
  if (failed(avg) || failed(avg = nc.reshape(*avg, xs)))
    return failure();
  FailureOr<Value> t = nc.create<nn::MulOp>({*avg, nc.splat({}, *alpha)});
  if (failed(t) || failed(t = nc.create<nn::AddOp>({*t, nc.splat({}, *bias)})))
    return failure();
  FailureOr<Value> p = nc.create<nn::PowOp>(
      {*t}, {nc.named("exponent", nc.builder.getF32FloatAttr(-*beta))});
  if (failed(p))
    return failure();
  FailureOr<Value> y = nc.create<nn::MulOp>({*x, *p});
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

/// LpNormalization: x / ||x||_p along `axis` (p 1: the sum of |x|; p 2:
/// the square root of the sum of x^2), without an epsilon; a line of
/// zeros stays zeros (its norm taken as 1), as ONNX 1.23's reference
/// gives.
static LogicalResult importLpNormalization(NodeContext &nc) {
  FailureOr<int64_t> axisAttr = nc.intAttr("axis", -1);
  FailureOr<int64_t> p = nc.intAttr("p", 2);
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(axisAttr) || failed(p) || failed(x))
    return failure();
  if (*p != 1 && *p != 2)
    return nc.error() << "p must be 1 or 2, got " << *p, failure();
  FailureOr<int64_t> axis =
      nc.normalizeAxis(*axisAttr, shapeOf(*x).size(), "axis");
  if (failed(axis))
    return failure();
  Formula f(nc);
  Value terms = *p == 1 ? f.op<nn::AbsOp>({*x}) : f.op<nn::MulOp>({*x, *x});
  Value sum = f.op<nn::ReduceSumOp>(
      {terms}, {nc.named("axes", nc.i64Array({*axis})),
                nc.named("keep_dims", nc.builder.getUnitAttr())});
  Value norm = *p == 1 ? sum : f.op<nn::SqrtOp>({sum});
  Value zero = f.compare(norm, nn::ComparePredicate::EQ, f.constant(0.0f));
  norm = f.op<nn::WhereOp>({zero, f.constant(1.0f), norm});
  return f.setOutput(f.op<nn::DivOp>({*x, norm}));
}

/// MeanVarianceNormalization: (x - mean) / (sqrt(var) + 1e-9) over `axes`
/// (default [0, 2, 3]), as ONNX's function body, with the variance taken
/// as the mean of (x - mean)^2 (never negative, unlike E[x^2] - mean^2).
static LogicalResult importMeanVarianceNormalization(NodeContext &nc) {
  FailureOr<std::optional<llvm::SmallVector<int64_t>>> axesAttr =
      nc.intsAttr("axes");
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(axesAttr) || failed(x))
    return failure();
  int64_t rank = shapeOf(*x).size();
  llvm::SmallVector<int64_t> axes;
  for (int64_t a :
       *axesAttr ? **axesAttr : llvm::SmallVector<int64_t>{0, 2, 3}) {
    FailureOr<int64_t> axis = nc.normalizeAxis(a, rank, "axis");
    if (failed(axis))
      return failure();
    if (llvm::is_contained(axes, *axis))
      return nc.error() << "axis " << a << " is given twice", failure();
    axes.push_back(*axis);
  }
  Formula f(nc);
  auto mean = [&](Value v) {
    return f.op<nn::ReduceMeanOp>(
        {v}, {nc.named("axes", nc.i64Array(axes)),
              nc.named("keep_dims", nc.builder.getUnitAttr())});
  };
  Value centered = f.op<nn::SubOp>({*x, mean(*x)});
  Value var = mean(f.op<nn::MulOp>({centered, centered}));
  Value std = f.op<nn::AddOp>({f.op<nn::SqrtOp>({var}), f.constant(1e-9f)});
  return f.setOutput(f.op<nn::DivOp>({centered, std}));
}

void amp::onnx_import::registerNormOps(OpTable &t) {
  t["BatchNormalization"] = {importBatchNorm,
                             {"epsilon", "momentum", "training_mode"}};
  t["LayerNormalization"] = {importLayerNorm,
                             {"axis", "epsilon", "stash_type"}};
  t["RMSNormalization"] = {importRMSNorm, {"axis", "epsilon", "stash_type"}};
  t["InstanceNormalization"] = {importInstanceNorm, {"epsilon"}};
  t["GroupNormalization"] = {importGroupNorm,
                             {"epsilon", "num_groups", "stash_type"}};
  t["Softmax"] = {importSoftmax<nn::SoftmaxOp>, {"axis"}};
  t["LogSoftmax"] = {importSoftmax<nn::LogSoftmaxOp>, {"axis"}};
  t["Hardmax"] = {importHardmax, {"axis"}};
  t["LpNormalization"] = {importLpNormalization, {"axis", "p"}};
  t["MeanVarianceNormalization"] = {importMeanVarianceNormalization, {"axes"}};
  t["LRN"] = {importLRN, {"alpha", "beta", "bias", "size"}};
}
