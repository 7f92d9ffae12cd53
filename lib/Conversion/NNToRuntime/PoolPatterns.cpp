//===- PoolPatterns.cpp - pooling to runtime calls ------------------------===//
//
// nn.max_pool2d, nn.avg_pool2d and their gradients share one argument list:
// the operands, the result, then the shapes of x and y (whichever of them
// is an operand or the result), the dtype and the window geometry; the max
// pools end it with their dilation, the average pools with
// count_include_pad. nn.global_avg_pool takes x's shape only.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "amp/Dialect/NN/IR/NNOps.h"

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

template <typename Op> struct PoolLowering : RuntimeOpLowering<Op> {
  using Adaptor = typename RuntimeOpLowering<Op>::Adaptor;

  void lower(Op op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    auto [fn, x, y] = roles(op);
    SmallVector<Value> args(adaptor.getOperands());
    args.append({results[0], rb.dims(x), rb.dims(y), rb.dtype(x.getType()),
                 rb.i64Array(op.getKernel()), rb.i64Array(op.getStrides()),
                 rb.i64Array(op.getPadding())});
    if constexpr (llvm::is_one_of<Op, nn::MaxPool2DOp,
                                  nn::MaxPool2DGradOp>::value)
      args.push_back(rb.i64Array(op.getDilation()));
    else
      args.push_back(rb.i32(op.getCountIncludePad()));
    args.push_back(rb.stream());
    rb.call(fn, args);
  }

  /// The runtime function and the values that carry x's and y's shapes.
  static std::tuple<RuntimeFn, Value, Value> roles(nn::MaxPool2DOp op) {
    return {RuntimeFn::amp_max_pool2d, op.getInput(), op.getResult()};
  }
  static std::tuple<RuntimeFn, Value, Value> roles(nn::MaxPool2DGradOp op) {
    return {RuntimeFn::amp_max_pool2d_grad, op.getInput(), op.getGradOutput()};
  }
  static std::tuple<RuntimeFn, Value, Value> roles(nn::AvgPool2DOp op) {
    return {RuntimeFn::amp_avg_pool2d, op.getInput(), op.getResult()};
  }
  static std::tuple<RuntimeFn, Value, Value> roles(nn::AvgPool2DGradOp op) {
    return {RuntimeFn::amp_avg_pool2d_grad, op.getResult(), op.getGradOutput()};
  }
};

struct GlobalAvgPoolLowering : RuntimeOpLowering<nn::GlobalAvgPoolOp> {
  void lower(nn::GlobalAvgPoolOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value x = op.getInput();
    rb.call(RuntimeFn::amp_global_avg_pool,
            {adaptor.getInput(), results[0], rb.dims(x), rb.dtype(x.getType()),
             rb.stream()});
  }
};

} // namespace

void amp::addPoolLowerings(LoweringTable &table) {
  table.add<PoolLowering<nn::MaxPool2DOp>, PoolLowering<nn::MaxPool2DGradOp>,
            PoolLowering<nn::AvgPool2DOp>, PoolLowering<nn::AvgPool2DGradOp>,
            GlobalAvgPoolLowering>();
}
