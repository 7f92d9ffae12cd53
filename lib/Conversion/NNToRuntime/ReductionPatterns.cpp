//===- ReductionPatterns.cpp - reductions and softmax to runtime calls ----===//
//
// nn.reduce_{sum,mean,max} (amp_reduce over normalized axes) and
// nn.softmax, nn.log_softmax, nn.softmax_grad along one axis.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include "amp_runtime/kernels.h"

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

template <typename Op, amp_reduce_op_t Code>
struct ReduceLowering : RuntimeOpPattern<Op> {
  using RuntimeOpPattern<Op>::RuntimeOpPattern;
  void lower(Op op, typename RuntimeOpPattern<Op>::Adaptor adaptor,
             RuntimeBuilder &rb, ValueRange results) const override {
    Value x = op.getInput(), y = op.getResult();
    SmallVector<int64_t> axes;
    for (int64_t a : op.getAxes())
      axes.push_back(normalizeAxis(a, x));
    rb.call(RuntimeFn::amp_reduce,
            {rb.i32(Code), adaptor.getInput(), results[0], rb.dims(x),
             rb.rank(x), rb.i64Array(axes), rb.i32(axes.size()),
             rb.dtype(x.getType()), rb.dtype(y.getType()), rb.stream()});
  }
};

template <typename Op, RuntimeFn Fn>
struct SoftmaxLowering : RuntimeOpPattern<Op> {
  using RuntimeOpPattern<Op>::RuntimeOpPattern;
  void lower(Op op, typename RuntimeOpPattern<Op>::Adaptor adaptor,
             RuntimeBuilder &rb, ValueRange results) const override {
    Value x = op.getInput();
    rb.call(Fn, {adaptor.getInput(), results[0], rb.dims(x), rb.rank(x),
                 rb.dtype(x.getType()),
                 rb.i64(normalizeAxis(op.getAxis(), x)), rb.stream()});
  }
};

struct SoftmaxGradLowering : RuntimeOpPattern<nn::SoftmaxGradOp> {
  using RuntimeOpPattern::RuntimeOpPattern;
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

void amp::populateReductionToRuntimePatterns(RewritePatternSet &patterns,
                                             const TypeConverter &converter) {
  patterns.add<ReduceLowering<nn::ReduceSumOp, AMP_REDUCE_SUM>,
               ReduceLowering<nn::ReduceMeanOp, AMP_REDUCE_MEAN>,
               ReduceLowering<nn::ReduceMaxOp, AMP_REDUCE_MAX>,
               SoftmaxLowering<nn::SoftmaxOp, RuntimeFn::amp_softmax>,
               SoftmaxLowering<nn::LogSoftmaxOp, RuntimeFn::amp_log_softmax>,
               SoftmaxGradLowering>(converter, patterns.getContext());
}
