//===- ShapePatterns.cpp - shape ops to runtime calls ---------------------===//
//
// nn.reshape aliases its input (same elements in the same order, so no
// call); nn.transpose and nn.broadcast_to copy.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "amp/Dialect/NN/IR/NNOps.h"

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

struct ReshapeLowering : OpConversionPattern<nn::ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(nn::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

struct TransposeLowering : RuntimeOpPattern<nn::TransposeOp> {
  using RuntimeOpPattern::RuntimeOpPattern;
  void lower(nn::TransposeOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value x = op.getInput();
    rb.call(RuntimeFn::amp_transpose,
            {adaptor.getInput(), results[0], rb.dims(x), rb.rank(x),
             rb.i64Array(op.getPerm()), rb.dtype(x.getType()), rb.stream()});
  }
};

struct BroadcastToLowering : RuntimeOpPattern<nn::BroadcastToOp> {
  using RuntimeOpPattern::RuntimeOpPattern;
  void lower(nn::BroadcastToOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value x = op.getInput(), y = op.getResult();
    rb.call(RuntimeFn::amp_broadcast_to,
            {adaptor.getInput(), results[0], rb.dims(x), rb.rank(x),
             rb.dims(y), rb.rank(y), rb.dtype(x.getType()), rb.stream()});
  }
};

} // namespace

void amp::populateShapeToRuntimePatterns(RewritePatternSet &patterns,
                                         const TypeConverter &converter) {
  patterns.add<ReshapeLowering, TransposeLowering, BroadcastToLowering>(
      converter, patterns.getContext());
}
