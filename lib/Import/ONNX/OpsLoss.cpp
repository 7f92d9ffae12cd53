//===- OpsLoss.cpp - ONNX's loss ops --------------------------------------===//
//
// SoftmaxCrossEntropyLoss and NegativeLogLikelihoodLoss on scores or
// log-probabilities [N, C, d1, ...] and integer labels [N, d1, ...], with
// optional class weights [C], ignore_index and reduction none, sum or mean.
// Both are built from nn ops, which nn-autodiff differentiates:
//   logp   = log_softmax(scores, axis 1)     (SoftmaxCrossEntropyLoss)
//   onehot = convert(labels[:, None] == iota(C))
//   w_i    = sum_c onehot * weights, times (labels != ignore_index)
//   loss_i = -sum_c onehot * logp * (weights), times the same mask
// and `mean` divides the sum by sum_i w_i (the count of kept positions
// without weights), as ONNX defines it. A label outside [0, C) that is not
// the ignore_index selects no class: its term and weight are 0.
// SoftmaxCrossEntropyLoss's usual form, mean without weights, is instead
// nn.cross_entropy (with its ignore_index) of the scores with the classes
// moved last: the fused kernel, which builds no [N, C, ...] one-hot (a
// language model's would be tokens x vocabulary floats) and rejects labels
// out of range at run time.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

namespace {
/// What the two losses share, read from the node.
struct LossInputs {
  Value logp, labels;
  std::optional<Value> weights;
  std::optional<int64_t> ignoreIndex;
  std::string reduction;
  SmallVector<int64_t> shape; // [N, C, d1, ...]
};
} // namespace

/// Checks the inputs (log-probabilities or scores in `x`, labels, optional
/// weights) and reads the attributes; `logp` is left to the caller.
static FailureOr<LossInputs> readLossInputs(NodeContext &nc, Value x) {
  LossInputs in;
  in.shape = shapeOf(x);
  if (in.shape.size() < 2)
    return nc.error() << "the input must be [N, C, d1, ...] (rank >= 2)",
           failure();
  FailureOr<Value> labels = nc.anyValue(1);
  if (failed(labels))
    return failure();
  auto labelType = cast<RankedTensorType>(labels->getType());
  SmallVector<int64_t> want(in.shape);
  want.erase(want.begin() + 1);
  if (!labelType.getElementType().isInteger(32) &&
      !labelType.getElementType().isInteger(64))
    return nc.error() << "the labels must be INT32 or INT64", failure();
  if (SmallVector<int64_t>(labelType.getShape()) != want)
    return nc.error() << "the labels are " << labelType
                      << "; the input [N, C, d1, ...] takes [N, d1, ...]",
           failure();
  in.labels = *labels;
  if (nc.hasInput(2)) {
    FailureOr<Value> w = nc.floatValue(2);
    if (failed(w))
      return failure();
    if (shapeOf(*w) != SmallVector<int64_t>{in.shape[1]})
      return nc.error() << "the weights must be [C] = [" << in.shape[1] << "]",
             failure();
    in.weights = *w;
  }
  if (nc.attr("ignore_index")) {
    FailureOr<int64_t> ii = nc.intAttr("ignore_index", 0);
    if (failed(ii))
      return failure();
    in.ignoreIndex = *ii;
  }
  FailureOr<std::string> reduction = nc.stringAttr("reduction", "mean");
  if (failed(reduction))
    return failure();
  if (*reduction != "mean" && *reduction != "sum" && *reduction != "none")
    return nc.error() << "reduction '" << *reduction
                      << "' is not none, sum or mean",
           failure();
  in.reduction = *reduction;
  return in;
}

/// An integer constant of `type`'s element type and shape [1, C, 1, ...]
/// holding 0 .. C-1.
static Value classIota(NodeContext &nc, Type elementType,
                       ArrayRef<int64_t> shape) {
  SmallVector<int64_t> iotaShape(shape.size(), 1);
  iotaShape[1] = shape[1];
  auto type = RankedTensorType::get(iotaShape, elementType);
  SmallVector<APInt> values;
  for (int64_t c = 0; c < shape[1]; ++c)
    values.push_back(APInt(elementType.getIntOrFloatBitWidth(), c));
  return arith::ConstantOp::create(nc.builder, nc.loc, type,
                                   DenseElementsAttr::get(type, values));
}

/// sum over the class axis (1) of a * b.
static FailureOr<Value> classSum(NodeContext &nc, Value a, Value b) {
  FailureOr<Value> ab = nc.create<nn::MulOp>({a, b});
  if (failed(ab))
    return failure();
  return nc.create<nn::ReduceSumOp>({*ab},
                                    {nc.named("axes", nc.i64Array({1}))});
}

/// Output 0 is the loss of `in`.
static LogicalResult importLossOf(NodeContext &nc, const LossInputs &in) {
  SmallVector<int64_t> column(in.shape);
  column[1] = 1;
  FailureOr<Value> labels = nc.reshape(in.labels, column);
  if (failed(labels))
    return failure();
  Type intType = getElementTypeOrSelf(in.labels.getType());
  FailureOr<Value> hot =
      nc.create<nn::CompareOp>({*labels, classIota(nc, intType, in.shape)},
                               {nc.predicate(nn::ComparePredicate::EQ)});
  if (failed(hot) || failed(hot = nc.convert(*hot, nc.builder.getF32Type())))
    return failure();
  FailureOr<Value> picked = classSum(nc, *hot, in.logp);
  if (failed(picked) || failed(picked = nc.create<nn::NegOp>({*picked})))
    return failure();

  // Each position's weight: its class's, zero where ignored.
  std::optional<Value> weight;
  if (in.weights) {
    SmallVector<int64_t> wShape(in.shape.size(), 1);
    wShape[1] = in.shape[1];
    FailureOr<Value> w = nc.reshape(*in.weights, wShape);
    if (failed(w) || failed(w = classSum(nc, *hot, *w)))
      return failure();
    weight = *w;
  }
  if (in.ignoreIndex) {
    Value ii = nc.intScalar(intType, *in.ignoreIndex);
    FailureOr<Value> keep = nc.create<nn::CompareOp>(
        {in.labels, ii}, {nc.predicate(nn::ComparePredicate::NE)});
    if (failed(keep) ||
        failed(keep = nc.convert(*keep, nc.builder.getF32Type())))
      return failure();
    if (weight) {
      FailureOr<Value> w = nc.create<nn::MulOp>({*weight, *keep});
      if (failed(w))
        return failure();
      weight = *w;
    } else {
      weight = *keep;
    }
  }
  Value loss = *picked;
  if (weight) {
    FailureOr<Value> weighted = nc.create<nn::MulOp>({loss, *weight});
    if (failed(weighted))
      return failure();
    loss = *weighted;
  }
  if (in.reduction == "none")
    return nc.setOutput(0, loss);

  SmallVector<int64_t> all;
  for (int64_t d = 0, r = shapeOf(loss).size(); d < r; ++d)
    all.push_back(d);
  auto sumAll = [&](Value v) {
    return nc.create<nn::ReduceSumOp>({v},
                                      {nc.named("axes", nc.i64Array(all))});
  };
  FailureOr<Value> total = sumAll(loss);
  if (failed(total))
    return failure();
  if (in.reduction == "mean") {
    // Without weights or ignore_index, every position counts.
    int64_t positions = 1;
    for (int64_t d : shapeOf(loss))
      positions *= d;
    FailureOr<Value> count =
        weight ? sumAll(*weight)
               : FailureOr<Value>(nc.splat({}, float(positions)));
    if (failed(count) || failed(total = nc.create<nn::DivOp>({*total, *count})))
      return failure();
  }
  return nc.setOutput(0, *total);
}

/// Output 0 is nn.cross_entropy of `scores` [N, C, d1, ...] (moved to
/// [N, d1, ..., C]) and the labels.
static LogicalResult importFusedCrossEntropy(NodeContext &nc, Value scores,
                                             const LossInputs &in) {
  SmallVector<int64_t> perm = {0};
  for (int64_t d = 2, r = in.shape.size(); d < r; ++d)
    perm.push_back(d);
  perm.push_back(1);
  FailureOr<Value> logits =
      perm.size() == 2 ? FailureOr<Value>(scores)
                       : nc.create<nn::TransposeOp>(
                             {scores}, {nc.named("perm", nc.i64Array(perm))});
  if (failed(logits))
    return failure();
  SmallVector<NamedAttribute> attrs;
  if (in.ignoreIndex)
    attrs.push_back(nc.named("ignore_index",
                             nc.builder.getI64IntegerAttr(*in.ignoreIndex)));
  FailureOr<Value> loss =
      nc.create<nn::CrossEntropyOp>({*logits, in.labels}, attrs);
  return failed(loss) ? failure() : nc.setOutput(0, *loss);
}

static LogicalResult importSoftmaxCrossEntropyLoss(NodeContext &nc) {
  FailureOr<Value> scores = nc.floatValue(0);
  if (failed(scores))
    return failure();
  FailureOr<LossInputs> in = readLossInputs(nc, *scores);
  if (failed(in))
    return failure();
  // The log-probabilities, when the composition or the log_prob output
  // needs them.
  const bool fused = in->reduction == "mean" && !in->weights;
  if (!fused || nc.hasOutput(1)) {
    FailureOr<Value> logp = nc.create<nn::LogSoftmaxOp>(
        {*scores}, {nc.named("axis", nc.builder.getI64IntegerAttr(1))});
    if (failed(logp))
      return failure();
    in->logp = *logp;
  }
  if (failed(fused ? importFusedCrossEntropy(nc, *scores, *in)
                   : importLossOf(nc, *in)))
    return failure();
  // The optional second output: the log-probabilities.
  return nc.hasOutput(1) ? nc.setOutput(1, in->logp) : success();
}

static LogicalResult importNegativeLogLikelihoodLoss(NodeContext &nc) {
  FailureOr<Value> logp = nc.floatValue(0);
  if (failed(logp))
    return failure();
  FailureOr<LossInputs> in = readLossInputs(nc, *logp);
  if (failed(in))
    return failure();
  in->logp = *logp;
  return importLossOf(nc, *in);
}

void amp::onnx_import::registerLossOps(OpTable &t) {
  t["SoftmaxCrossEntropyLoss"] = {importSoftmaxCrossEntropyLoss,
                                  {"ignore_index", "reduction"}};
  t["NegativeLogLikelihoodLoss"] = {importNegativeLogLikelihoodLoss,
                                    {"ignore_index", "reduction"}};
}
