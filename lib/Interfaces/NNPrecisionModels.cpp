//===- NNPrecisionModels.cpp - MixedPrecisionOpInterface for nn ops -------===//
//
// External models that tell the precision passes how each nn op is retyped.
// Kept out of the dialect so that the dialect does not depend on the passes,
// and so that embedders attach models to their own ops the same way.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/NN/IR/NNOps.h"
#include "amp/Interfaces/MixedPrecisionOpInterface.h"

using namespace mlir;
using namespace amp;
using namespace amp::nn;

namespace {
/// Every float tensor operand and result follows the op's precision.
template <typename OpT>
struct ElementwiseModel
    : MixedPrecisionOpInterface::ExternalModel<ElementwiseModel<OpT>, OpT> {};

/// Matmul, conv, reductions, weight gradients: low-precision operands, and a
/// result that may keep the f32 accumulator.
template <typename OpT>
struct AccumulatorModel
    : MixedPrecisionOpInterface::ExternalModel<AccumulatorModel<OpT>, OpT> {
  bool hasF32Accumulator(Operation *) const { return true; }
};

/// Only operand 0 and result 0 follow the op: normalizations keep their
/// scale, bias and statistics in f32; embeddings keep integer ids.
template <typename OpT, bool Accumulates = false>
struct FirstOperandModel
    : MixedPrecisionOpInterface::ExternalModel<
          FirstOperandModel<OpT, Accumulates>, OpT> {
  SmallVector<unsigned> getPrecisionOperands(Operation *) const { return {0}; }
  SmallVector<unsigned> getPrecisionResults(Operation *) const { return {0}; }
  bool hasF32Accumulator(Operation *) const { return Accumulates; }
};

/// Optimizer updates (and the running statistics' update) always read and
/// write f32 masters and state: nothing is retyped, and they take no part in
/// propagation.
template <typename OpT>
struct OptimizerModel
    : MixedPrecisionOpInterface::ExternalModel<OptimizerModel<OpT>, OpT> {
  SmallVector<unsigned> getPrecisionOperands(Operation *) const { return {}; }
  SmallVector<unsigned> getPrecisionResults(Operation *) const { return {}; }
};

/// The forward op `ForwardT` that uses `v` (and, when given, for which
/// `matches` holds), if any.
template <typename ForwardT>
Operation *forwardUserOf(Value v,
                         llvm::function_ref<bool(ForwardT)> matches = {}) {
  for (Operation *user : v.getUsers())
    if (auto forward = dyn_cast<ForwardT>(user))
      if (!matches || matches(forward))
        return forward;
  return nullptr;
}

/// A gradient whose operand `Saved` is its forward op's input (relu_grad's
/// x, where_grad's cond ...): the forward op is the ForwardT that reads it.
template <typename OpT, typename ForwardT, unsigned Saved = 1>
struct InputGradModel : MixedPrecisionOpInterface::ExternalModel<
                            InputGradModel<OpT, ForwardT, Saved>, OpT> {
  Operation *getTiedForwardOp(Operation *op) const {
    return forwardUserOf<ForwardT>(op->getOperand(Saved));
  }
};

/// A gradient whose operand `Saved` is its forward op's output (tanh_grad's
/// y, reduce_max_grad's max ...): the forward op is its producer.
template <typename OpT, typename ForwardT, unsigned Saved = 1>
struct OutputGradModel : MixedPrecisionOpInterface::ExternalModel<
                             OutputGradModel<OpT, ForwardT, Saved>, OpT> {
  Operation *getTiedForwardOp(Operation *op) const {
    return op->getOperand(Saved).getDefiningOp<ForwardT>();
  }
};

/// maximum_grad and minimum_grad: the forward op with the same operands.
template <typename OpT, typename ForwardT>
struct BinaryGradModel
    : MixedPrecisionOpInterface::ExternalModel<BinaryGradModel<OpT, ForwardT>,
                                               OpT> {
  Operation *getTiedForwardOp(Operation *op) const {
    auto grad = cast<OpT>(op);
    return forwardUserOf<ForwardT>(grad.getLhs(), [&](ForwardT forward) {
      return forward.getRhs() == grad.getRhs();
    });
  }
};

/// The input may be pooled several times (inception blocks): the forward
/// op is the one with the same window.
struct MaxPool2DGradModel
    : MixedPrecisionOpInterface::ExternalModel<MaxPool2DGradModel,
                                               MaxPool2DGradOp> {
  Operation *getTiedForwardOp(Operation *op) const {
    auto grad = cast<MaxPool2DGradOp>(op);
    return forwardUserOf<MaxPool2DOp>(grad.getInput(), [&](MaxPool2DOp pool) {
      return pool.getKernel() == grad.getKernel() &&
             pool.getStrides() == grad.getStrides() &&
             pool.getPadding() == grad.getPadding() &&
             pool.getDilation() == grad.getDilation();
    });
  }
};

/// Normalization gradients: dy and x follow the op, dx is the only retyped
/// result; the forward op is the producer of the saved mean.
template <typename OpT, typename ForwardT>
struct NormGradModel
    : MixedPrecisionOpInterface::ExternalModel<NormGradModel<OpT, ForwardT>,
                                               OpT> {
  SmallVector<unsigned> getPrecisionOperands(Operation *) const {
    return {0, 1};
  }
  SmallVector<unsigned> getPrecisionResults(Operation *) const { return {0}; }
  Operation *getTiedForwardOp(Operation *op) const {
    return cast<OpT>(op).getMean().template getDefiningOp<ForwardT>();
  }
};

/// Attention: query, key and value follow the op, with its result; the
/// mask keeps its type (the kernel reads f32 or the op's) and the saved
/// log-sum-exp is f32.
struct AttentionModel
    : MixedPrecisionOpInterface::ExternalModel<AttentionModel, AttentionOp> {
  SmallVector<unsigned> getPrecisionOperands(Operation *) const {
    return {0, 1, 2};
  }
  SmallVector<unsigned> getPrecisionResults(Operation *) const { return {0}; }
};

/// Its gradient: the output gradient, query, key, value and output follow
/// the op, with the three gradients; the forward op is the producer of the
/// saved log-sum-exp.
struct AttentionGradModel
    : MixedPrecisionOpInterface::ExternalModel<AttentionGradModel,
                                               AttentionGradOp> {
  SmallVector<unsigned> getPrecisionOperands(Operation *) const {
    return {0, 1, 2, 3, 4};
  }
  SmallVector<unsigned> getPrecisionResults(Operation *) const {
    return {0, 1, 2};
  }
  Operation *getTiedForwardOp(Operation *op) const {
    return cast<AttentionGradOp>(op)
        .getLogsumexp()
        .getDefiningOp<AttentionOp>();
  }
};

/// Losses are always f32: only their inputs (`Operands`) follow the op.
template <typename OpT, unsigned... Operands>
struct LossModel
    : MixedPrecisionOpInterface::ExternalModel<LossModel<OpT, Operands...>,
                                               OpT> {
  SmallVector<unsigned> getPrecisionOperands(Operation *) const {
    return {Operands...};
  }
  SmallVector<unsigned> getPrecisionResults(Operation *) const { return {}; }
};

/// A loss gradient reads the 0-d loss gradient (the seed, scaled under loss
/// scaling: it keeps its type), then the loss's operands; it follows the
/// loss that reads the same prediction (operand 1).
template <typename OpT, typename ForwardT, unsigned... Operands>
struct LossGradModel : MixedPrecisionOpInterface::ExternalModel<
                           LossGradModel<OpT, ForwardT, Operands...>, OpT> {
  SmallVector<unsigned> getPrecisionOperands(Operation *) const {
    return {Operands...};
  }
  SmallVector<unsigned> getPrecisionResults(Operation *) const { return {0}; }
  Operation *getTiedForwardOp(Operation *op) const {
    return forwardUserOf<ForwardT>(op->getOperand(1));
  }
};

template <typename... OpTs> void attachElementwise(MLIRContext *ctx) {
  (OpTs::template attachInterface<ElementwiseModel<OpTs>>(*ctx), ...);
}
template <typename... OpTs> void attachAccumulator(MLIRContext *ctx) {
  (OpTs::template attachInterface<AccumulatorModel<OpTs>>(*ctx), ...);
}
template <typename... OpTs> void attachOptimizer(MLIRContext *ctx) {
  (OpTs::template attachInterface<OptimizerModel<OpTs>>(*ctx), ...);
}
template <typename OpT, typename ForwardT, unsigned Saved = 1>
void attachInputGrad(MLIRContext *ctx) {
  OpT::template attachInterface<InputGradModel<OpT, ForwardT, Saved>>(*ctx);
}
template <typename OpT, typename ForwardT, unsigned Saved = 1>
void attachOutputGrad(MLIRContext *ctx) {
  OpT::template attachInterface<OutputGradModel<OpT, ForwardT, Saved>>(*ctx);
}
/// An elementwise loss (pred, target) and its gradient (grad_loss, pred,
/// target).
template <typename OpT, typename GradT>
void attachElementwiseLoss(MLIRContext *ctx) {
  OpT::template attachInterface<LossModel<OpT, 0, 1>>(*ctx);
  GradT::template attachInterface<LossGradModel<GradT, OpT, 1, 2>>(*ctx);
}
} // namespace

void amp::registerNNPrecisionModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, NNDialect *) {
    // Only the float operands and results follow the op (the default):
    // where's cond, compare's, argmax's and topk's results, convert's integer
    // or i1 side and the shape ops' ids and masks keep their types.
    attachElementwise<AddOp, SubOp, MulOp, DivOp, ModOp, MaximumOp, MinimumOp,
                      NegOp, ExpOp, LogOp, SqrtOp, RsqrtOp, TanhOp, SigmoidOp,
                      ReluOp, GeluOp, GeluErfOp, SinOp, CosOp, ErfOp, TanOp,
                      AsinOp, AcosOp, AtanOp, SinhOp, CoshOp, AsinhOp, AcoshOp,
                      AtanhOp, FloorOp, CeilOp, RoundOp, SignOp, AbsOp, PowOp,
                      PowfOp, ClampOp, WhereOp, CompareOp, ConvertOp, CumsumOp,
                      ArgMaxOp, TopKOp, SoftmaxOp, LogSoftmaxOp, MaxPool2DOp,
                      AvgPool2DOp, GlobalAvgPoolOp, ReshapeOp, TransposeOp,
                      BroadcastToOp, ConcatOp, SliceOp, PadOp, GradSeedOp>(ctx);
    // Nothing in their operands names the forward op: they follow their
    // neighbours.
    attachElementwise<AvgPool2DGradOp, SliceGradOp>(ctx);
    attachAccumulator<MatmulOp, Conv2DOp, Conv2DGradInputOp,
                      Conv2DGradFilterOp, ReduceSumOp, ReduceMeanOp,
                      ReduceMaxOp>(ctx);
    attachOptimizer<SgdUpdateOp, AdamUpdateOp, RadamUpdateOp, RmspropUpdateOp,
                    AdagradUpdateOp, AdafactorUpdateOp, ClipGradNormOp,
                    ClipGradValueOp, EmaUpdateOp, LrScheduleOp,
                    RunningStatsUpdateOp>(ctx);
    BatchNormOp::attachInterface<FirstOperandModel<BatchNormOp>>(*ctx);
    LayerNormOp::attachInterface<FirstOperandModel<LayerNormOp>>(*ctx);
    EmbeddingOp::attachInterface<FirstOperandModel<EmbeddingOp>>(*ctx);
    EmbeddingGradOp::attachInterface<
        FirstOperandModel<EmbeddingGradOp, /*Accumulates=*/true>>(*ctx);
    // The seed is an i64 counter, never retyped.
    DropoutOp::attachInterface<FirstOperandModel<DropoutOp>>(*ctx);
    attachInputGrad<ReluGradOp, ReluOp>(ctx);
    attachInputGrad<GeluGradOp, GeluOp>(ctx);
    attachInputGrad<GeluErfGradOp, GeluErfOp>(ctx);
    attachInputGrad<ErfGradOp, ErfOp>(ctx);
    attachInputGrad<AbsGradOp, AbsOp>(ctx);
    attachInputGrad<PowGradOp, PowOp>(ctx);
    attachInputGrad<ClampGradOp, ClampOp>(ctx);
    attachOutputGrad<SoftmaxGradOp, SoftmaxOp>(ctx);
    attachOutputGrad<TanhGradOp, TanhOp>(ctx);
    attachOutputGrad<SigmoidGradOp, SigmoidOp>(ctx);
    attachOutputGrad<SqrtGradOp, SqrtOp>(ctx);
    attachOutputGrad<RsqrtGradOp, RsqrtOp>(ctx);
    attachOutputGrad<ReduceMaxGradOp, ReduceMaxOp, /*Saved=*/2>(ctx);
    // Only dy follows the op (the default: float operands); cond stays i1.
    attachInputGrad<WhereGradOp, WhereOp>(ctx);
    MaximumGradOp::attachInterface<BinaryGradModel<MaximumGradOp, MaximumOp>>(
        *ctx);
    MinimumGradOp::attachInterface<BinaryGradModel<MinimumGradOp, MinimumOp>>(
        *ctx);
    MaxPool2DGradOp::attachInterface<MaxPool2DGradModel>(*ctx);
    LayerNormGradOp::attachInterface<NormGradModel<LayerNormGradOp, LayerNormOp>>(
        *ctx);
    BatchNormGradOp::attachInterface<NormGradModel<BatchNormGradOp, BatchNormOp>>(
        *ctx);
    AttentionOp::attachInterface<AttentionModel>(*ctx);
    AttentionGradOp::attachInterface<AttentionGradModel>(*ctx);
    CrossEntropyOp::attachInterface<LossModel<CrossEntropyOp, 0>>(*ctx);
    CrossEntropyGradOp::attachInterface<
        LossGradModel<CrossEntropyGradOp, CrossEntropyOp, 1>>(*ctx);
    attachElementwiseLoss<MseLossOp, MseLossGradOp>(ctx);
    attachElementwiseLoss<L1LossOp, L1LossGradOp>(ctx);
    attachElementwiseLoss<HuberLossOp, HuberLossGradOp>(ctx);
    attachElementwiseLoss<BceWithLogitsLossOp, BceWithLogitsLossGradOp>(ctx);
  });
}
