//===- LossPatterns.cpp - embeddings and losses to runtime calls ----------===//
//
// nn.embedding, nn.embedding_grad, nn.cross_entropy and its gradient (the
// logits' leading dimensions are flattened into rows), nn.mse_loss and its
// gradient (over every element).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "amp/Dialect/NN/IR/NNOps.h"

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

struct EmbeddingLowering : RuntimeOpPattern<nn::EmbeddingOp> {
  using RuntimeOpPattern::RuntimeOpPattern;
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

struct EmbeddingGradLowering : RuntimeOpPattern<nn::EmbeddingGradOp> {
  using RuntimeOpPattern::RuntimeOpPattern;
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

struct CrossEntropyLowering : RuntimeOpPattern<nn::CrossEntropyOp> {
  using RuntimeOpPattern::RuntimeOpPattern;
  void lower(nn::CrossEntropyOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    auto [rows, classes] = rowsAndClasses(op.getLogits());
    rb.call(RuntimeFn::amp_cross_entropy,
            {adaptor.getLogits(), adaptor.getLabels(), results[0],
             rb.i64(rows), rb.i64(classes), rb.dtype(op.getLogits().getType()),
             rb.dtype(op.getLabels().getType()), rb.stream()});
  }
};

struct CrossEntropyGradLowering : RuntimeOpPattern<nn::CrossEntropyGradOp> {
  using RuntimeOpPattern::RuntimeOpPattern;
  void lower(nn::CrossEntropyGradOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    auto [rows, classes] = rowsAndClasses(op.getLogits());
    rb.call(RuntimeFn::amp_cross_entropy_grad,
            {adaptor.getGradLoss(), adaptor.getLogits(), adaptor.getLabels(),
             results[0], rb.i64(rows), rb.i64(classes),
             rb.dtype(op.getGradLoss().getType()),
             rb.dtype(op.getLogits().getType()),
             rb.dtype(op.getLabels().getType()), rb.stream()});
  }
};

struct MseLossLowering : RuntimeOpPattern<nn::MseLossOp> {
  using RuntimeOpPattern::RuntimeOpPattern;
  void lower(nn::MseLossOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value pred = op.getPred();
    rb.call(RuntimeFn::amp_mse_loss, {adaptor.getPred(), adaptor.getTarget(),
                                      results[0], rb.i64(getNumElements(pred)),
                                      rb.dtype(pred.getType()), rb.stream()});
  }
};

struct MseLossGradLowering : RuntimeOpPattern<nn::MseLossGradOp> {
  using RuntimeOpPattern::RuntimeOpPattern;
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

void amp::populateLossToRuntimePatterns(RewritePatternSet &patterns,
                                        const TypeConverter &converter) {
  patterns.add<EmbeddingLowering, EmbeddingGradLowering, CrossEntropyLowering,
               CrossEntropyGradLowering, MseLossLowering, MseLossGradLowering>(
      converter, patterns.getContext());
}
