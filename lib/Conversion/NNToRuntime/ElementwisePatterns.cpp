//===- ElementwisePatterns.cpp - elementwise ops to runtime calls ---------===//
//
// nn unary and binary ops (amp_unary, amp_binary with numpy broadcasting),
// the activation gradients, amp.cast and the gradient seeds.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Dialect/NN/IR/NNOps.h"

#include "amp_runtime/kernels.h"

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

/// nn.neg ... nn.gelu: amp_unary with the op's code.
template <typename Op, amp_unary_op_t Code>
struct UnaryLowering : RuntimeOpPattern<Op> {
  using RuntimeOpPattern<Op>::RuntimeOpPattern;
  void lower(Op op, typename RuntimeOpPattern<Op>::Adaptor adaptor,
             RuntimeBuilder &rb, ValueRange results) const override {
    Value x = op->getOperand(0);
    rb.call(RuntimeFn::amp_unary,
            {rb.i32(Code), adaptor.getOperands()[0], results[0],
             rb.i64(getNumElements(x)), rb.dtype(x.getType()), rb.stream()});
  }
};

/// nn.add ... nn.div: amp_binary with all three shapes.
template <typename Op, amp_binary_op_t Code>
struct BinaryLowering : RuntimeOpPattern<Op> {
  using RuntimeOpPattern<Op>::RuntimeOpPattern;
  void lower(Op op, typename RuntimeOpPattern<Op>::Adaptor adaptor,
             RuntimeBuilder &rb, ValueRange results) const override {
    Value l = op->getOperand(0), r = op->getOperand(1), y = op->getResult(0);
    rb.call(RuntimeFn::amp_binary,
            {rb.i32(Code), adaptor.getOperands()[0], adaptor.getOperands()[1],
             results[0], rb.dims(l), rb.rank(l), rb.dims(r), rb.rank(r),
             rb.dims(y), rb.rank(y), rb.dtype(y.getType()), rb.stream()});
  }
};

/// nn.relu_grad / nn.gelu_grad (dy, x) -> dx.
template <typename Op, RuntimeFn Fn>
struct ActivationGradLowering : RuntimeOpPattern<Op> {
  using RuntimeOpPattern<Op>::RuntimeOpPattern;
  void lower(Op op, typename RuntimeOpPattern<Op>::Adaptor adaptor,
             RuntimeBuilder &rb, ValueRange results) const override {
    Value x = op->getOperand(1);
    rb.call(Fn, {adaptor.getOperands()[0], adaptor.getOperands()[1],
                 results[0], rb.i64(getNumElements(x)), rb.dtype(x.getType()),
                 rb.stream()});
  }
};

struct CastLowering : RuntimeOpPattern<CastOp> {
  using RuntimeOpPattern::RuntimeOpPattern;
  void lower(CastOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    rb.call(RuntimeFn::amp_cast,
            {adaptor.getInput(), results[0], rb.i64(getNumElements(op.getInput())),
             rb.dtype(op.getInput().getType()),
             rb.dtype(op.getResult().getType()), rb.stream()});
  }
};

/// nn.grad_seed: ones like the loss.
struct GradSeedLowering : RuntimeOpPattern<nn::GradSeedOp> {
  using RuntimeOpPattern::RuntimeOpPattern;
  void lower(nn::GradSeedOp op, Adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    rb.call(RuntimeFn::amp_fill,
            {results[0], rb.i64(getNumElements(op.getResult())),
             rb.dtype(op.getResult().getType()), rb.f32(1.0), rb.stream()});
  }
};

/// amp.scaled_grad_seed: the scale, read on the device.
struct ScaledGradSeedLowering : RuntimeOpPattern<ScaledGradSeedOp> {
  using RuntimeOpPattern::RuntimeOpPattern;
  void lower(ScaledGradSeedOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    rb.call(RuntimeFn::amp_scaled_grad_seed,
            {adaptor.getScale(), results[0],
             rb.i64(getNumElements(op.getResult())),
             rb.dtype(op.getResult().getType()), rb.stream()});
  }
};

} // namespace

void amp::populateElementwiseToRuntimePatterns(RewritePatternSet &patterns,
                                               const TypeConverter &converter) {
  patterns.add<UnaryLowering<nn::NegOp, AMP_UNARY_NEG>,
               UnaryLowering<nn::ExpOp, AMP_UNARY_EXP>,
               UnaryLowering<nn::LogOp, AMP_UNARY_LOG>,
               UnaryLowering<nn::SqrtOp, AMP_UNARY_SQRT>,
               UnaryLowering<nn::RsqrtOp, AMP_UNARY_RSQRT>,
               UnaryLowering<nn::TanhOp, AMP_UNARY_TANH>,
               UnaryLowering<nn::SigmoidOp, AMP_UNARY_SIGMOID>,
               UnaryLowering<nn::ReluOp, AMP_UNARY_RELU>,
               UnaryLowering<nn::GeluOp, AMP_UNARY_GELU>,
               BinaryLowering<nn::AddOp, AMP_BINARY_ADD>,
               BinaryLowering<nn::SubOp, AMP_BINARY_SUB>,
               BinaryLowering<nn::MulOp, AMP_BINARY_MUL>,
               BinaryLowering<nn::DivOp, AMP_BINARY_DIV>,
               ActivationGradLowering<nn::ReluGradOp, RuntimeFn::amp_relu_grad>,
               ActivationGradLowering<nn::GeluGradOp, RuntimeFn::amp_gelu_grad>,
               CastLowering, GradSeedLowering, ScaledGradSeedLowering>(
      converter, patterns.getContext());
}
