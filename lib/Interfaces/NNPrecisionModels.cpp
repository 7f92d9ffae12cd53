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

/// Optimizer updates always read and write f32 masters and state: nothing
/// is retyped, and they take no part in propagation.
template <typename OpT>
struct OptimizerModel
    : MixedPrecisionOpInterface::ExternalModel<OptimizerModel<OpT>, OpT> {
  SmallVector<unsigned> getPrecisionOperands(Operation *) const { return {}; }
  SmallVector<unsigned> getPrecisionResults(Operation *) const { return {}; }
};

/// The forward op `ForwardT` that uses `v`, if any.
template <typename ForwardT> Operation *forwardUserOf(Value v) {
  for (Operation *user : v.getUsers())
    if (isa<ForwardT>(user))
      return user;
  return nullptr;
}

struct ReluGradModel
    : MixedPrecisionOpInterface::ExternalModel<ReluGradModel, ReluGradOp> {
  Operation *getTiedForwardOp(Operation *op) const {
    return forwardUserOf<ReluOp>(cast<ReluGradOp>(op).getInput());
  }
};

struct GeluGradModel
    : MixedPrecisionOpInterface::ExternalModel<GeluGradModel, GeluGradOp> {
  Operation *getTiedForwardOp(Operation *op) const {
    return forwardUserOf<GeluOp>(cast<GeluGradOp>(op).getInput());
  }
};

struct SoftmaxGradModel
    : MixedPrecisionOpInterface::ExternalModel<SoftmaxGradModel, SoftmaxGradOp> {
  Operation *getTiedForwardOp(Operation *op) const {
    return cast<SoftmaxGradOp>(op).getOutput().getDefiningOp<SoftmaxOp>();
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

/// The loss is always f32; only the logits follow the op.
struct CrossEntropyModel
    : MixedPrecisionOpInterface::ExternalModel<CrossEntropyModel,
                                               CrossEntropyOp> {
  SmallVector<unsigned> getPrecisionOperands(Operation *) const { return {0}; }
  SmallVector<unsigned> getPrecisionResults(Operation *) const { return {}; }
};

struct CrossEntropyGradModel
    : MixedPrecisionOpInterface::ExternalModel<CrossEntropyGradModel,
                                               CrossEntropyGradOp> {
  SmallVector<unsigned> getPrecisionOperands(Operation *) const { return {1}; }
  SmallVector<unsigned> getPrecisionResults(Operation *) const { return {0}; }
  Operation *getTiedForwardOp(Operation *op) const {
    return forwardUserOf<CrossEntropyOp>(cast<CrossEntropyGradOp>(op).getLogits());
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
} // namespace

void amp::registerNNPrecisionModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, NNDialect *) {
    attachElementwise<AddOp, SubOp, MulOp, DivOp, NegOp, ExpOp, LogOp, SqrtOp,
                      RsqrtOp, TanhOp, SigmoidOp, ReluOp, GeluOp, SoftmaxOp,
                      LogSoftmaxOp, ReshapeOp, TransposeOp, BroadcastToOp,
                      GradSeedOp>(ctx);
    attachAccumulator<MatmulOp, Conv2DOp, Conv2DGradInputOp,
                      Conv2DGradFilterOp, ReduceSumOp, ReduceMeanOp,
                      ReduceMaxOp>(ctx);
    attachOptimizer<SgdUpdateOp, AdamUpdateOp, ClipGradNormOp>(ctx);
    BatchNormOp::attachInterface<FirstOperandModel<BatchNormOp>>(*ctx);
    LayerNormOp::attachInterface<FirstOperandModel<LayerNormOp>>(*ctx);
    EmbeddingOp::attachInterface<FirstOperandModel<EmbeddingOp>>(*ctx);
    EmbeddingGradOp::attachInterface<
        FirstOperandModel<EmbeddingGradOp, /*Accumulates=*/true>>(*ctx);
    ReluGradOp::attachInterface<ReluGradModel>(*ctx);
    GeluGradOp::attachInterface<GeluGradModel>(*ctx);
    SoftmaxGradOp::attachInterface<SoftmaxGradModel>(*ctx);
    LayerNormGradOp::attachInterface<NormGradModel<LayerNormGradOp, LayerNormOp>>(
        *ctx);
    BatchNormGradOp::attachInterface<NormGradModel<BatchNormGradOp, BatchNormOp>>(
        *ctx);
    CrossEntropyOp::attachInterface<CrossEntropyModel>(*ctx);
    CrossEntropyGradOp::attachInterface<CrossEntropyGradModel>(*ctx);
  });
}
