//===- ConvPatterns.cpp - convolutions to runtime calls -------------------===//
//
// nn.conv2d and its two gradients share one argument list: the two operands,
// the result, then the shapes of x, w and y (whichever of them is the
// operand or the result), dtypes and the window attributes.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "amp/Dialect/NN/IR/NNOps.h"

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

template <typename Op> struct ConvLowering : RuntimeOpLowering<Op> {
  using Adaptor = typename RuntimeOpLowering<Op>::Adaptor;

  void lower(Op op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    auto [fn, x, w, y] = roles(op);
    Value a = op->getOperand(0), b = op->getOperand(1);
    rb.call(fn, {adaptor.getOperands()[0], adaptor.getOperands()[1],
                 results[0], rb.dims(x), rb.dims(w), rb.dims(y),
                 rb.dtype(a.getType()), rb.dtype(op.getResult().getType()),
                 rb.i64Array(op.getStrides()), rb.i64Array(op.getPadding()),
                 rb.i64Array(op.getDilation()), rb.i64(op.getGroups()),
                 rb.stream()});
    (void)b;
  }

  /// The runtime function and the values that carry x's, w's and y's shapes.
  static std::tuple<RuntimeFn, Value, Value, Value> roles(nn::Conv2DOp op) {
    return {RuntimeFn::amp_conv2d, op.getInput(), op.getFilter(),
            op.getResult()};
  }
  static std::tuple<RuntimeFn, Value, Value, Value>
  roles(nn::Conv2DGradInputOp op) {
    return {RuntimeFn::amp_conv2d_grad_input, op.getResult(), op.getFilter(),
            op.getGradOutput()};
  }
  static std::tuple<RuntimeFn, Value, Value, Value>
  roles(nn::Conv2DGradFilterOp op) {
    return {RuntimeFn::amp_conv2d_grad_filter, op.getInput(), op.getResult(),
            op.getGradOutput()};
  }
};

} // namespace

void amp::addConvLowerings(LoweringTable &table) {
  table.add<ConvLowering<nn::Conv2DOp>, ConvLowering<nn::Conv2DGradInputOp>,
            ConvLowering<nn::Conv2DGradFilterOp>>();
}
