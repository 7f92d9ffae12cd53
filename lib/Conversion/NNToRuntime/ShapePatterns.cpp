//===- ShapePatterns.cpp - shape ops to runtime calls ---------------------===//
//
// nn.reshape aliases its input (same elements in the same order, so no
// call); nn.transpose, nn.broadcast_to, nn.concat, nn.slice (and its
// gradient) and nn.pad copy.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "amp/Dialect/NN/IR/NNOps.h"

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

struct ReshapeLowering : TypedLowering<nn::ReshapeOp> {
  LogicalResult apply(Operation *op, BufferMap &buffers,
                      RuntimeBuilder &) const override {
    buffers.replace(op, buffers.lookup(cast<nn::ReshapeOp>(op).getInput()));
    return success();
  }
};

struct TransposeLowering : RuntimeOpLowering<nn::TransposeOp> {
  void lower(nn::TransposeOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value x = op.getInput();
    rb.call(RuntimeFn::amp_transpose,
            {adaptor.getInput(), results[0], rb.dims(x), rb.rank(x),
             rb.i64Array(op.getPerm()), rb.dtype(x.getType()), rb.stream()});
  }
};

struct BroadcastToLowering : RuntimeOpLowering<nn::BroadcastToOp> {
  void lower(nn::BroadcastToOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value x = op.getInput(), y = op.getResult();
    rb.call(RuntimeFn::amp_broadcast_to,
            {adaptor.getInput(), results[0], rb.dims(x), rb.rank(x),
             rb.dims(y), rb.rank(y), rb.dtype(x.getType()), rb.stream()});
  }
};

/// nn.concat: an array of the input buffers and their sizes along the axis.
struct ConcatLowering : RuntimeOpLowering<nn::ConcatOp> {
  void lower(nn::ConcatOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value y = op.getResult();
    int64_t axis = normalizeAxis(op.getAxis(), y);
    SmallVector<int64_t> sizes;
    for (Value x : op.getInputs())
      sizes.push_back(cast<RankedTensorType>(x.getType()).getDimSize(axis));
    rb.call(RuntimeFn::amp_concat,
            {rb.i32(sizes.size()), rb.ptrArray(adaptor.getInputs()), results[0],
             rb.dims(y), rb.rank(y), rb.i64Array(sizes), rb.dtype(y.getType()),
             rb.i64(axis), rb.stream()});
  }
};

/// nn.slice (x -> y) and nn.slice_grad (dy -> dx) share one argument list:
/// the operand, the result, then x's and y's shapes (the sliced tensor's and
/// the window's), offsets and strides.
template <typename Op, RuntimeFn Fn>
struct SliceLowering : RuntimeOpLowering<Op> {
  void lower(Op op, typename RuntimeOpLowering<Op>::Adaptor adaptor,
             RuntimeBuilder &rb, ValueRange results) const override {
    Value operand = op->getOperand(0), result = op.getResult();
    constexpr bool forward = std::is_same_v<Op, nn::SliceOp>;
    Value x = forward ? operand : result, y = forward ? result : operand;
    rb.call(Fn, {adaptor.getOperands()[0], results[0], rb.dims(x), rb.dims(y),
                 rb.rank(x), rb.i64Array(op.getOffsets()),
                 rb.i64Array(op.getStridesOrOnes()), rb.dtype(x.getType()),
                 rb.stream()});
  }
};

struct PadLowering : RuntimeOpLowering<nn::PadOp> {
  void lower(nn::PadOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value x = op.getInput();
    rb.call(RuntimeFn::amp_pad,
            {adaptor.getInput(), results[0], rb.dims(x), rb.rank(x),
             rb.i64Array(op.getLow()), rb.i64Array(op.getHigh()),
             rb.dtype(x.getType()), rb.f32(op.getValue().convertToDouble()),
             rb.stream()});
  }
};

} // namespace

void amp::addShapeLowerings(LoweringTable &table) {
  table.add<ReshapeLowering, TransposeLowering, BroadcastToLowering,
            ConcatLowering, SliceLowering<nn::SliceOp, RuntimeFn::amp_slice>,
            SliceLowering<nn::SliceGradOp, RuntimeFn::amp_slice_grad>,
            PadLowering>();
}
