//===- ReductionPatterns.cpp - reductions and softmax to runtime calls ----===//
//
// nn.reduce_{sum,mean,max} (amp_reduce over normalized axes),
// nn.reduce_max_grad, and nn.cumsum, nn.argmax, nn.topk, nn.softmax,
// nn.log_softmax, nn.softmax_grad along one axis.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include "amp_runtime/kernels.h"

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

/// The reduced axes of `x`, counted from the front.
SmallVector<int64_t> normalizeAxes(ArrayRef<int64_t> axes, Value x) {
  return llvm::map_to_vector(axes,
                             [&](int64_t a) { return normalizeAxis(a, x); });
}

template <typename Op, amp_reduce_op_t Code>
struct ReduceLowering : RuntimeOpLowering<Op> {
  void lower(Op op, typename RuntimeOpLowering<Op>::Adaptor adaptor,
             RuntimeBuilder &rb, ValueRange results) const override {
    Value x = op.getInput(), y = op.getResult();
    SmallVector<int64_t> axes = normalizeAxes(op.getAxes(), x);
    rb.call(RuntimeFn::amp_reduce,
            {rb.i32(Code), adaptor.getInput(), results[0], rb.dims(x),
             rb.rank(x), rb.i64Array(axes), rb.i32(axes.size()),
             rb.dtype(x.getType()), rb.dtype(y.getType()), rb.stream()});
  }
};

/// nn.reduce_max_grad: the input's shape and the axes, as the forward
/// amp_reduce took them (keep_dims does not change the layout).
struct ReduceMaxGradLowering : RuntimeOpLowering<nn::ReduceMaxGradOp> {
  void lower(nn::ReduceMaxGradOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value x = op.getInput(), y = op.getOutput();
    SmallVector<int64_t> axes = normalizeAxes(op.getAxes(), x);
    rb.call(RuntimeFn::amp_reduce_max_grad,
            {adaptor.getGradOutput(), adaptor.getInput(), adaptor.getOutput(),
             results[0], rb.dims(x), rb.rank(x), rb.i64Array(axes),
             rb.i32(axes.size()), rb.dtype(x.getType()), rb.dtype(y.getType()),
             rb.stream()});
  }
};

/// nn.cumsum: amp_cumsum along the normalized axis.
struct CumsumLowering : RuntimeOpLowering<nn::CumsumOp> {
  void lower(nn::CumsumOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value x = op.getInput();
    rb.call(RuntimeFn::amp_cumsum,
            {adaptor.getInput(), results[0], rb.dims(x), rb.rank(x),
             rb.i64(normalizeAxis(op.getAxis(), x)), rb.i32(op.getExclusive()),
             rb.i32(op.getReverse()), rb.dtype(x.getType()), rb.stream()});
  }
};

/// nn.argmax: amp_argmax along the normalized axis (keep_dims does not
/// change the layout).
struct ArgMaxLowering : RuntimeOpLowering<nn::ArgMaxOp> {
  void lower(nn::ArgMaxOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value x = op.getInput();
    rb.call(RuntimeFn::amp_argmax,
            {adaptor.getInput(), results[0], rb.dims(x), rb.rank(x),
             rb.i64(normalizeAxis(op.getAxis(), x)), rb.i32(op.getSelectLast()),
             rb.dtype(x.getType()), rb.stream()});
  }
};

/// nn.topk: amp_topk along the normalized axis.
struct TopKLowering : RuntimeOpLowering<nn::TopKOp> {
  void lower(nn::TopKOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value x = op.getInput();
    rb.call(RuntimeFn::amp_topk,
            {adaptor.getInput(), results[0], rb.dims(x), rb.rank(x),
             rb.i64(normalizeAxis(op.getAxis(), x)), rb.i64(op.getK()),
             rb.i32(op.getSmallest()), rb.dtype(x.getType()), rb.stream()});
  }
};

template <typename Op, RuntimeFn Fn>
struct SoftmaxLowering : RuntimeOpLowering<Op> {
  /// y may equal x.
  InPlaceOperands inPlaceOperands(Op op, unsigned) const override {
    return {op.getInputMutable().getOperandNumber()};
  }
  void lower(Op op, typename RuntimeOpLowering<Op>::Adaptor adaptor,
             RuntimeBuilder &rb, ValueRange results) const override {
    Value x = op.getInput();
    rb.call(Fn, {adaptor.getInput(), results[0], rb.dims(x), rb.rank(x),
                 rb.dtype(x.getType()),
                 rb.i64(normalizeAxis(op.getAxis(), x)), rb.stream()});
  }
};

struct SoftmaxGradLowering : RuntimeOpLowering<nn::SoftmaxGradOp> {
  /// dx may equal dy or y.
  InPlaceOperands inPlaceOperands(nn::SoftmaxGradOp op,
                                  unsigned) const override {
    return {op.getGradOutputMutable().getOperandNumber(),
            op.getOutputMutable().getOperandNumber()};
  }
  void lower(nn::SoftmaxGradOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value y = op.getOutput();
    rb.call(RuntimeFn::amp_softmax_grad,
            {adaptor.getGradOutput(), adaptor.getOutput(), results[0],
             rb.dims(y), rb.rank(y), rb.dtype(y.getType()),
             rb.i64(normalizeAxis(op.getAxis(), y)), rb.stream()});
  }
};

} // namespace

void amp::addReductionLowerings(LoweringTable &table) {
  table.add<ReduceLowering<nn::ReduceSumOp, AMP_REDUCE_SUM>,
            ReduceLowering<nn::ReduceMeanOp, AMP_REDUCE_MEAN>,
            ReduceLowering<nn::ReduceMaxOp, AMP_REDUCE_MAX>,
            ReduceMaxGradLowering, CumsumLowering, ArgMaxLowering, TopKLowering,
            SoftmaxLowering<nn::SoftmaxOp, RuntimeFn::amp_softmax>,
            SoftmaxLowering<nn::LogSoftmaxOp, RuntimeFn::amp_log_softmax>,
            SoftmaxGradLowering>();
}
