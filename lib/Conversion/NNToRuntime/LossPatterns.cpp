//===- LossPatterns.cpp - embeddings and losses to runtime calls ----------===//
//
// nn.embedding, nn.embedding_grad, nn.cross_entropy and its gradient (the
// logits' leading dimensions are flattened into rows), nn.mse_loss and its
// gradient (over every element).
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include "amp_runtime/kernels.h"

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

struct EmbeddingLowering : RuntimeOpLowering<nn::EmbeddingOp> {
  void lower(nn::EmbeddingOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    RankedTensorType table = tensorType(op.getTable());
    rb.call(RuntimeFn::amp_embedding,
            {adaptor.getTable(), adaptor.getIds(), results[0],
             rb.i64(table.getDimSize(0)), rb.i64(table.getDimSize(1)),
             rb.i64(getNumElements(op.getIds())),
             rb.dtype(table), rb.dtype(op.getIds().getType()), rb.stream()});
  }
};

struct EmbeddingGradLowering : RuntimeOpLowering<nn::EmbeddingGradOp> {
  void lower(nn::EmbeddingGradOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    RankedTensorType table = tensorType(op.getResult());
    rb.call(RuntimeFn::amp_embedding_grad,
            {adaptor.getGradOutput(), adaptor.getIds(), results[0],
             rb.i64(table.getDimSize(0)), rb.i64(table.getDimSize(1)),
             rb.i64(getNumElements(op.getIds())),
             rb.dtype(op.getGradOutput().getType()),
             rb.dtype(op.getIds().getType()), rb.dtype(table), rb.stream()});
  }
};

/// Rows and classes of [..., classes] logits.
std::pair<int64_t, int64_t> rowsAndClasses(Value logits) {
  RankedTensorType type = tensorType(logits);
  int64_t classes = type.getShape().back();
  return {classes ? type.getNumElements() / classes : 0, classes};
}

/// The op's ignore_index, or AMP_IGNORE_NONE.
template <typename Op> Value ignoreIndex(Op op, RuntimeBuilder &rb) {
  return rb.i64(op.getIgnoreIndex().value_or(AMP_IGNORE_NONE));
}

/// The op's label_smoothing.
template <typename Op> Value labelSmoothing(Op op, RuntimeBuilder &rb) {
  return rb.f32(op.getLabelSmoothing().convertToDouble());
}

struct CrossEntropyLowering : RuntimeOpLowering<nn::CrossEntropyOp> {
  void lower(nn::CrossEntropyOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    auto [rows, classes] = rowsAndClasses(op.getLogits());
    rb.call(RuntimeFn::amp_cross_entropy,
            {adaptor.getLogits(), adaptor.getLabels(), results[0], rb.i64(rows),
             rb.i64(classes), ignoreIndex(op, rb), labelSmoothing(op, rb),
             rb.dtype(op.getLogits().getType()),
             rb.dtype(op.getLabels().getType()), rb.stream()});
  }
};

struct CrossEntropyGradLowering : RuntimeOpLowering<nn::CrossEntropyGradOp> {
  /// dlogits may equal logits.
  InPlaceOperands inPlaceOperands(nn::CrossEntropyGradOp op,
                                  unsigned) const override {
    return {op.getLogitsMutable().getOperandNumber()};
  }
  void lower(nn::CrossEntropyGradOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    auto [rows, classes] = rowsAndClasses(op.getLogits());
    rb.call(RuntimeFn::amp_cross_entropy_grad,
            {adaptor.getGradLoss(), adaptor.getLogits(), adaptor.getLabels(),
             results[0], rb.i64(rows), rb.i64(classes), ignoreIndex(op, rb),
             labelSmoothing(op, rb), rb.dtype(op.getGradLoss().getType()),
             rb.dtype(op.getLogits().getType()),
             rb.dtype(op.getLabels().getType()), rb.stream()});
  }
};

struct MseLossLowering : RuntimeOpLowering<nn::MseLossOp> {
  void lower(nn::MseLossOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value pred = op.getPred();
    rb.call(RuntimeFn::amp_mse_loss, {adaptor.getPred(), adaptor.getTarget(),
                                      results[0], rb.i64(getNumElements(pred)),
                                      rb.dtype(pred.getType()), rb.stream()});
  }
};

struct MseLossGradLowering : RuntimeOpLowering<nn::MseLossGradOp> {
  /// dpred may equal pred or target.
  InPlaceOperands inPlaceOperands(nn::MseLossGradOp op,
                                  unsigned) const override {
    return {op.getPredMutable().getOperandNumber(),
            op.getTargetMutable().getOperandNumber()};
  }
  void lower(nn::MseLossGradOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value pred = op.getPred();
    rb.call(RuntimeFn::amp_mse_loss_grad,
            {adaptor.getGradLoss(), adaptor.getPred(), adaptor.getTarget(),
             results[0], rb.i64(getNumElements(pred)),
             rb.dtype(op.getGradLoss().getType()), rb.dtype(pred.getType()),
             rb.stream()});
  }
};

} // namespace

void amp::addLossLowerings(LoweringTable &table) {
  table.add<EmbeddingLowering, EmbeddingGradLowering, CrossEntropyLowering,
            CrossEntropyGradLowering, MseLossLowering, MseLossGradLowering>();
}
