//===- LossScalePatterns.cpp - loss-scale ops to runtime calls ------------===//
//
// amp.unscale_and_check (one call over every gradient buffer, in place of
// each gradient that dies there; the found_inf flag is zeroed first, since
// the kernel only ever sets it) and
// amp.update_scale (the state machine on state in memory). The scaled seed
// is elementwise (ElementwisePatterns.cpp).
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"

#include <limits>

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

struct UnscaleAndCheckLowering : RuntimeOpLowering<UnscaleAndCheckOp> {
  void lower(UnscaleAndCheckOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    size_t n = op.getGrads().size();
    Value foundInf = results[n];
    rb.call(RuntimeFn::amp_memset,
            {foundInf, rb.i32(0),
             rb.i64(getRuntimeBufferBytes(
                 cast<RankedTensorType>(op.getFoundInf().getType()))),
             rb.stream()});
    RuntimeBuilder::BufferLists l =
        rb.bufferLists(op.getGrads(), adaptor.getGrads(), results.take_front(n));
    rb.call(RuntimeFn::amp_unscale_and_check,
            {l.count, l.inputs, l.outputs, l.sizes, l.dtypes,
             adaptor.getScale(), foundInf, rb.stream()});
  }
  /// unscaled[i] may be grads[i] (operand i + 1, after the scale).
  InPlaceOperands inPlaceOperands(UnscaleAndCheckOp op,
                                  unsigned result) const override {
    if (result >= op.getGrads().size())
      return {};
    return {op.getGrads().getBeginOperandIndex() + result};
  }
};

struct UpdateScaleLowering : RuntimeOpLowering<UpdateScaleOp> {
  void lower(UpdateScaleOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value hysteresis = adaptor.getHysteresisTracker();
    float maxScale = op.getMaxScaleAttr()
                         ? op.getMaxScaleAttr().getValue().convertToFloat()
                         : std::numeric_limits<float>::infinity();
    rb.call(RuntimeFn::amp_update_scale,
            {adaptor.getScale(), adaptor.getGrowthTracker(),
             hysteresis ? hysteresis : rb.null(), adaptor.getFoundInf(),
             results[0], results[1],
             results.size() > 2 ? results[2] : rb.null(),
             rb.f64(op.getGrowthFactor().convertToDouble()),
             rb.f64(op.getBackoffFactor().convertToDouble()),
             rb.i32(op.getGrowthInterval()),
             rb.f32(op.getMinScale().convertToDouble()), rb.f32(maxScale),
             rb.i32(op.getHysteresis()), rb.stream()});
  }
};

} // namespace

void amp::addLossScaleLowerings(LoweringTable &table) {
  table.add<UnscaleAndCheckLowering, UpdateScaleLowering>();
}
