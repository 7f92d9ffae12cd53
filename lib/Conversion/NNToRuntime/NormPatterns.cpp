//===- NormPatterns.cpp - normalizations to runtime calls -----------------===//
//
// nn.layer_norm and nn.batch_norm (with their saved statistics) and their
// gradients; nn.running_stats_update.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "amp/Dialect/NN/IR/NNOps.h"

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

struct LayerNormLowering : RuntimeOpLowering<nn::LayerNormOp> {
  /// y may equal x.
  InPlaceOperands inPlaceOperands(nn::LayerNormOp op,
                                  unsigned result) const override {
    if (result != 0)
      return {};
    return {op.getInputMutable().getOperandNumber()};
  }
  void lower(nn::LayerNormOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value x = op.getInput();
    rb.call(RuntimeFn::amp_layer_norm,
            {adaptor.getInput(), adaptor.getScale(), adaptor.getBias(),
             results[0], results[1], results[2], rb.dims(x), rb.rank(x),
             rb.dtype(x.getType()), rb.dtype(op.getScale().getType()),
             rb.dtype(op.getBias().getType()),
             rb.i64(normalizeAxis(op.getAxis(), x)),
             rb.f32(op.getEpsilon().convertToDouble()), rb.stream()});
  }
};

struct LayerNormGradLowering : RuntimeOpLowering<nn::LayerNormGradOp> {
  /// dx may equal dy or x.
  InPlaceOperands inPlaceOperands(nn::LayerNormGradOp op,
                                  unsigned result) const override {
    if (result != 0)
      return {};
    return {op.getGradOutputMutable().getOperandNumber(),
            op.getInputMutable().getOperandNumber()};
  }
  void lower(nn::LayerNormGradOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value x = op.getInput();
    rb.call(RuntimeFn::amp_layer_norm_grad,
            {adaptor.getGradOutput(), adaptor.getInput(), adaptor.getMean(),
             adaptor.getRstd(), adaptor.getScale(), results[0], results[1],
             results[2], rb.dims(x), rb.rank(x), rb.dtype(x.getType()),
             rb.dtype(op.getScale().getType()),
             rb.i64(normalizeAxis(op.getAxis(), x)), rb.stream()});
  }
};

struct BatchNormLowering : RuntimeOpLowering<nn::BatchNormOp> {
  /// y may equal x.
  InPlaceOperands inPlaceOperands(nn::BatchNormOp op,
                                  unsigned result) const override {
    if (result != 0)
      return {};
    return {op.getInputMutable().getOperandNumber()};
  }
  void lower(nn::BatchNormOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value x = op.getInput();
    rb.call(RuntimeFn::amp_batch_norm,
            {adaptor.getInput(), adaptor.getScale(), adaptor.getBias(),
             results[0], results[1], results[2], rb.dims(x), rb.rank(x),
             rb.dtype(x.getType()), rb.dtype(op.getScale().getType()),
             rb.dtype(op.getBias().getType()),
             rb.f32(op.getEpsilon().convertToDouble()), rb.stream()});
  }
};

struct BatchNormGradLowering : RuntimeOpLowering<nn::BatchNormGradOp> {
  void lower(nn::BatchNormGradOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value x = op.getInput();
    rb.call(RuntimeFn::amp_batch_norm_grad,
            {adaptor.getGradOutput(), adaptor.getInput(), adaptor.getMean(),
             adaptor.getInvstd(), adaptor.getScale(), results[0], results[1],
             results[2], rb.dims(x), rb.rank(x), rb.dtype(x.getType()),
             rb.dtype(op.getScale().getType()), rb.stream()});
  }
};

struct RunningStatsUpdateLowering
    : RuntimeOpLowering<nn::RunningStatsUpdateOp> {
  void lower(nn::RunningStatsUpdateOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    rb.call(RuntimeFn::amp_running_stats_update,
            {adaptor.getRunningMean(), adaptor.getRunningVar(),
             adaptor.getMean(), adaptor.getInvstd(), results[0], results[1],
             rb.i64(op.getRunningMean().getType().getNumElements()),
             rb.f32(op.getMomentum().convertToDouble()),
             rb.f32(op.getEpsilon().convertToDouble()),
             rb.f32(op.getVarianceCorrection()), rb.stream()});
  }
};

} // namespace

void amp::addNormLowerings(LoweringTable &table) {
  table.add<LayerNormLowering, LayerNormGradLowering, BatchNormLowering,
            BatchNormGradLowering, RunningStatsUpdateLowering>();
}
