//===- LossPatterns.cpp - embeddings and losses to runtime calls ----------===//
//
// nn.embedding, nn.embedding_grad, nn.cross_entropy and its gradient (the
// logits' leading dimensions are flattened into rows), the elementwise losses
// (nn.mse_loss, nn.l1_loss, nn.huber_loss, nn.bce_with_logits_loss) and their
// gradients (over every element).
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
             rb.i64(op.getPaddingIdx().value_or(AMP_IGNORE_NONE)),
             rb.i32(op.getScaleGradByFreq()),
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

static_assert(static_cast<int>(nn::ElementwiseLossKind::Mse) == AMP_LOSS_MSE &&
                  static_cast<int>(nn::ElementwiseLossKind::L1) ==
                      AMP_LOSS_L1 &&
                  static_cast<int>(nn::ElementwiseLossKind::Huber) ==
                      AMP_LOSS_HUBER &&
                  static_cast<int>(nn::ElementwiseLossKind::BceWithLogits) ==
                      AMP_LOSS_BCE_WITH_LOGITS,
              "the elementwise losses' kinds are the runtime's "
              "amp_elementwise_loss_t");

/// nn.mse_loss ... nn.bce_with_logits_loss: amp_elementwise_loss with the
/// op's kind, parameter and divisor, over every element.
template <typename Op> struct ElementwiseLossLowering : RuntimeOpLowering<Op> {
  void lower(Op op, typename RuntimeOpLowering<Op>::Adaptor adaptor,
             RuntimeBuilder &rb, ValueRange results) const override {
    Value pred = op.getPred();
    rb.call(RuntimeFn::amp_elementwise_loss,
            {rb.i32(static_cast<int32_t>(op.getLossKind())),
             rb.f32(op.getLossParam()), adaptor.getPred(), adaptor.getTarget(),
             results[0], rb.i64(getNumElements(pred)),
             rb.i64(op.getReductionDivisor()), rb.dtype(pred.getType()),
             rb.stream()});
  }
};

/// Their gradients: amp_elementwise_loss_grad.
template <typename Op>
struct ElementwiseLossGradLowering : RuntimeOpLowering<Op> {
  /// dpred may equal pred or target.
  InPlaceOperands inPlaceOperands(Op op, unsigned) const override {
    return {op.getPredMutable().getOperandNumber(),
            op.getTargetMutable().getOperandNumber()};
  }
  void lower(Op op, typename RuntimeOpLowering<Op>::Adaptor adaptor,
             RuntimeBuilder &rb, ValueRange results) const override {
    Value pred = op.getPred();
    rb.call(RuntimeFn::amp_elementwise_loss_grad,
            {rb.i32(static_cast<int32_t>(op.getLossKind())),
             rb.f32(op.getLossParam()), adaptor.getGradLoss(),
             adaptor.getPred(), adaptor.getTarget(), results[0],
             rb.i64(getNumElements(pred)), rb.i64(op.getReductionDivisor()),
             rb.dtype(op.getGradLoss().getType()), rb.dtype(pred.getType()),
             rb.stream()});
  }
};

} // namespace

void amp::addLossLowerings(LoweringTable &table) {
  table.add<EmbeddingLowering, EmbeddingGradLowering, CrossEntropyLowering,
            CrossEntropyGradLowering>();
  table.add<ElementwiseLossLowering<nn::MseLossOp>,
            ElementwiseLossLowering<nn::L1LossOp>,
            ElementwiseLossLowering<nn::HuberLossOp>,
            ElementwiseLossLowering<nn::BceWithLogitsLossOp>,
            ElementwiseLossGradLowering<nn::MseLossGradOp>,
            ElementwiseLossGradLowering<nn::L1LossGradOp>,
            ElementwiseLossGradLowering<nn::HuberLossGradOp>,
            ElementwiseLossGradLowering<nn::BceWithLogitsLossGradOp>>();
}
