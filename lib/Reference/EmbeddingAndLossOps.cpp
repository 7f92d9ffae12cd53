//===- EmbeddingAndLossOps.cpp - f64 evaluators of lookups and the loss ---===//
//
// nn.embedding (row gather) and nn.embedding_grad (scatter-add), and
// nn.cross_entropy (mean over rows of -log_softmax(logits)[label]) and the
// elementwise losses (nn.mse_loss, nn.l1_loss, nn.huber_loss,
// nn.bce_with_logits_loss: the mean of loss(pred, target)) with their
// gradients. Ids and
// labels outside their range are an error at the op, as in the runtime.
//
//===----------------------------------------------------------------------===//

#include "Evaluators.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace amp::nn;
using namespace amp::reference;

namespace {

/// Checks every element of `indices` against [0, limit).
LogicalResult checkIndices(Operation *op, StringRef what,
                           const RefTensor &indices, int64_t limit) {
  for (auto [i, v] : llvm::enumerate(indices.data))
    if (failed(checkIndex(op, what, v, i, limit)))
      return failure();
  return success();
}

FailureOr<Results> evalEmbedding(EmbeddingOp op, Operands in) {
  const RefTensor &table = *in[0], &ids = *in[1];
  int64_t dim = table.shape[1];
  if (failed(checkIndices(op, "id", ids, table.shape[0])))
    return failure();
  Results results{resultLike(op)};
  for (auto [i, id] : llvm::enumerate(ids.data))
    std::copy_n(table.data.begin() + static_cast<int64_t>(id) * dim, dim,
                results[0].data.begin() + i * dim);
  return results;
}

FailureOr<Results> evalEmbeddingGrad(EmbeddingGradOp op, Operands in) {
  const RefTensor &dy = *in[0], &ids = *in[1];
  Results results{resultLike(op)};
  RefTensor &table = results[0];
  int64_t dim = table.shape[1];
  if (failed(checkIndices(op, "id", ids, table.shape[0])))
    return failure();
  std::optional<int64_t> padding = op.getPaddingIdx();
  // Each id's count, the divisor of its additions with scale_grad_by_freq.
  std::vector<double> count(table.shape[0], 1.0);
  if (op.getScaleGradByFreq()) {
    std::fill(count.begin(), count.end(), 0.0);
    for (double id : ids.data)
      count[static_cast<int64_t>(id)] += 1.0;
  }
  for (auto [i, id] : llvm::enumerate(ids.data))
    for (int64_t d = 0; d < dim && id != padding; ++d)
      table.data[static_cast<int64_t>(id) * dim + d] +=
          dy.data[i * dim + d] / count[static_cast<int64_t>(id)];
  return results;
}

/// Per row r of logits [rows, classes]: calls fn(r, row, max, sum exp).
template <typename Fn> void forEachRow(const RefTensor &logits, Fn fn) {
  int64_t classes = logits.shape.back();
  int64_t rows = logits.getNumElements() / std::max<int64_t>(classes, 1);
  for (int64_t r = 0; r < rows; ++r) {
    const double *row = logits.data.data() + r * classes;
    double m = *std::max_element(row, row + classes);
    double s = 0;
    for (int64_t c = 0; c < classes; ++c)
      s += std::exp(row[c] - m);
    fn(r, row, m, s);
  }
}

/// Checks the labels of a cross-entropy (each ignore_index or a class) and
/// returns, per row, whether it is kept, and their count in `kept`.
template <typename Op>
FailureOr<std::vector<bool>> keptRows(Op op, const RefTensor &labels,
                                      int64_t classes, int64_t &kept) {
  std::optional<int64_t> ignore = op.getIgnoreIndex();
  std::vector<bool> keep(labels.data.size());
  kept = 0;
  for (auto [i, v] : llvm::enumerate(labels.data)) {
    if (ignore && v == static_cast<double>(*ignore))
      continue;
    if (failed(checkIndex(op, "label", v, i, classes)))
      return failure();
    keep[i] = true;
    ++kept;
  }
  return keep;
}

/// mean over the kept rows of -log_softmax(logits) . target, with target
/// (1 - e) onehot(label) + e / C for label smoothing e.
FailureOr<Results> evalCrossEntropy(CrossEntropyOp op, Operands in) {
  const RefTensor &logits = *in[0], &labels = *in[1];
  int64_t classes = logits.shape.back(), kept;
  FailureOr<std::vector<bool>> keep = keptRows(op, labels, classes, kept);
  if (failed(keep))
    return failure();
  double e = op.getLabelSmoothing().convertToDouble();
  double total = 0;
  forEachRow(logits, [&](int64_t r, const double *row, double m, double s) {
    if (!(*keep)[r])
      return;
    double logS = std::log(s);
    double nll = logS - (row[static_cast<int64_t>(labels.data[r])] - m);
    double smooth = 0;
    for (int64_t c = 0; c < classes; ++c)
      smooth += logS - (row[c] - m);
    total += (1 - e) * nll + e / static_cast<double>(classes) * smooth;
  });
  Results results{resultLike(op)};
  results[0].data[0] = total / static_cast<double>(kept);
  return results;
}

/// dlogits = grad_loss (softmax(logits) - target) / kept on the kept rows,
/// 0 on the ignored ones, target = (1 - e) onehot(labels) + e / C.
FailureOr<Results> evalCrossEntropyGrad(CrossEntropyGradOp op, Operands in) {
  const RefTensor &gradLoss = *in[0], &logits = *in[1], &labels = *in[2];
  int64_t classes = logits.shape.back(), kept;
  FailureOr<std::vector<bool>> keep = keptRows(op, labels, classes, kept);
  if (failed(keep))
    return failure();
  Results results{resultLike(op)};
  double g = gradLoss.data[0] / static_cast<double>(kept);
  double e = op.getLabelSmoothing().convertToDouble();
  double spread = e / static_cast<double>(classes);
  forEachRow(logits, [&](int64_t r, const double *row, double m, double s) {
    double *out = results[0].data.data() + r * classes;
    if (!(*keep)[r]) {
      std::fill_n(out, classes, 0.0);
      return;
    }
    for (int64_t c = 0; c < classes; ++c)
      out[c] = g * (std::exp(row[c] - m) / s - spread);
    out[static_cast<int64_t>(labels.data[r])] -= g * (1 - e);
  });
  return results;
}

/// loss(p, t) of one element of an elementwise loss.
double elementLoss(ElementwiseLossKind kind, double delta, double p, double t) {
  const double d = p - t;
  switch (kind) {
  case ElementwiseLossKind::Mse:
    return d * d;
  case ElementwiseLossKind::L1:
    return std::abs(d);
  case ElementwiseLossKind::Huber:
    return std::abs(d) < delta ? 0.5 * d * d
                               : delta * (std::abs(d) - 0.5 * delta);
  case ElementwiseLossKind::BceWithLogits:
    // -log(sigmoid(p)) = log1p(exp(-p)), written to stay finite.
    return (1 - t) * p + std::max(-p, 0.0) + std::log1p(std::exp(-std::abs(p)));
  }
  llvm_unreachable("unknown elementwise loss");
}

/// d loss(p, t) / dp of one element.
double elementSlope(ElementwiseLossKind kind, double delta, double p,
                    double t) {
  const double d = p - t;
  switch (kind) {
  case ElementwiseLossKind::Mse:
    return 2 * d;
  case ElementwiseLossKind::L1:
    return d > 0 ? 1 : d < 0 ? -1 : d;
  case ElementwiseLossKind::Huber:
    return std::isnan(d) ? d : std::clamp(d, -delta, delta);
  case ElementwiseLossKind::BceWithLogits:
    return 1 / (1 + std::exp(-p)) - t;
  }
  llvm_unreachable("unknown elementwise loss");
}

/// The mean (or sum) of loss(pred, target); 0 / 0 = NaN for no elements.
template <typename Op> RefTensor evalElementwiseLoss(Op op, Operands in) {
  const RefTensor &pred = *in[0], &target = *in[1];
  const double param = op.getLossParam();
  double total = 0;
  for (auto [p, t] : llvm::zip_equal(pred.data, target.data))
    total += elementLoss(op.getLossKind(), param, p, t);
  RefTensor loss = resultLike(op);
  loss.data[0] = total / static_cast<double>(op.getReductionDivisor());
  return loss;
}

/// dpred = grad_loss * d loss / dp / the divisor.
template <typename Op> RefTensor evalElementwiseLossGrad(Op op, Operands in) {
  const RefTensor &gradLoss = *in[0], &pred = *in[1], &target = *in[2];
  const double param = op.getLossParam();
  RefTensor dpred = resultLike(op);
  const double n = static_cast<double>(op.getReductionDivisor());
  for (auto [d, p, t] : llvm::zip_equal(dpred.data, pred.data, target.data))
    d = gradLoss.data[0] * elementSlope(op.getLossKind(), param, p, t) / n;
  return dpred;
}

} // namespace

void amp::reference::registerEmbeddingAndLossOps(EvaluatorTable &table) {
  table.add<EmbeddingOp>(evalEmbedding);
  table.add<EmbeddingGradOp>(evalEmbeddingGrad);
  table.add<CrossEntropyOp>(evalCrossEntropy);
  table.add<CrossEntropyGradOp>(evalCrossEntropyGrad);
  table.add<MseLossOp>(evalElementwiseLoss<MseLossOp>);
  table.add<L1LossOp>(evalElementwiseLoss<L1LossOp>);
  table.add<HuberLossOp>(evalElementwiseLoss<HuberLossOp>);
  table.add<BceWithLogitsLossOp>(evalElementwiseLoss<BceWithLogitsLossOp>);
  table.add<MseLossGradOp>(evalElementwiseLossGrad<MseLossGradOp>);
  table.add<L1LossGradOp>(evalElementwiseLossGrad<L1LossGradOp>);
  table.add<HuberLossGradOp>(evalElementwiseLossGrad<HuberLossGradOp>);
  table.add<BceWithLogitsLossGradOp>(
      evalElementwiseLossGrad<BceWithLogitsLossGradOp>);
}
