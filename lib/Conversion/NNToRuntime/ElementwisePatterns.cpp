//===- ElementwisePatterns.cpp - elementwise ops to runtime calls ---------===//
//
// nn unary and binary ops (amp_unary, amp_binary with numpy broadcasting),
// the pointwise ops with attributes (pow, clamp) and the pointwise
// gradients, the selections (where, maximum/minimum gradients), nn.compare,
// dropout, amp.cast and nn.convert, and the gradient seeds.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Dialect/NN/IR/NNOps.h"

#include "amp_runtime/kernels.h"

#include <limits>

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

/// The f32 attributes that a pointwise call takes after the dtype: pow's
/// exponent, clamp's bounds (a missing one is -inf / +inf), or none.
template <typename Op>
SmallVector<Value> pointwiseAttrs(Op op, RuntimeBuilder &rb) {
  if constexpr (llvm::is_one_of<Op, nn::PowOp, nn::PowGradOp>::value) {
    return {rb.f32(op.getExponent().convertToDouble())};
  } else if constexpr (llvm::is_one_of<Op, nn::ClampOp,
                                       nn::ClampGradOp>::value) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    std::optional<APFloat> min = op.getMin(), max = op.getMax();
    return {rb.f32(min ? min->convertToDouble() : -inf),
            rb.f32(max ? max->convertToDouble() : inf)};
  } else {
    return {};
  }
}

/// nn.neg ... nn.gelu, nn.abs: amp_unary with the op's code.
template <typename Op, amp_unary_op_t Code>
struct UnaryLowering : RuntimeOpLowering<Op> {
  /// y may equal x.
  InPlaceOperands inPlaceOperands(Op, unsigned) const override { return {0}; }
  void lower(Op op, typename RuntimeOpLowering<Op>::Adaptor adaptor,
             RuntimeBuilder &rb, ValueRange results) const override {
    Value x = op->getOperand(0);
    rb.call(RuntimeFn::amp_unary,
            {rb.i32(Code), adaptor.getOperands()[0], results[0],
             rb.i64(getNumElements(x)), rb.dtype(x.getType()), rb.stream()});
  }
};

/// nn.add ... nn.div, nn.maximum, nn.minimum, nn.powf, nn.mod: amp_binary
/// with all three shapes; `codeOf` gives the op's amp_binary_op_t.
template <typename Op, amp_binary_op_t (*codeOf)(Op)>
struct BinaryLoweringOf : RuntimeOpLowering<Op> {
  /// out may equal lhs or rhs of out's shape (an operand of the result's
  /// type).
  InPlaceOperands inPlaceOperands(Op, unsigned) const override {
    return {0, 1};
  }
  void lower(Op op, typename RuntimeOpLowering<Op>::Adaptor adaptor,
             RuntimeBuilder &rb, ValueRange results) const override {
    Value l = op->getOperand(0), r = op->getOperand(1), y = op->getResult(0);
    rb.call(RuntimeFn::amp_binary,
            {rb.i32(codeOf(op)), adaptor.getOperands()[0],
             adaptor.getOperands()[1], results[0], rb.dims(l), rb.rank(l),
             rb.dims(r), rb.rank(r), rb.dims(y), rb.rank(y),
             rb.dtype(y.getType()), rb.stream()});
  }
};

template <typename Op, amp_binary_op_t Code> amp_binary_op_t fixedCode(Op) {
  return Code;
}

template <typename Op, amp_binary_op_t Code>
using BinaryLowering = BinaryLoweringOf<Op, fixedCode<Op, Code>>;

/// nn.mod: C's fmod with `fmod`, else Python's remainder.
amp_binary_op_t modCode(nn::ModOp op) {
  return op.getFmod() ? AMP_BINARY_FMOD : AMP_BINARY_MOD;
}

/// Same-shape pointwise calls (operands..., result, n, dtype,
/// attributes...): nn.pow and nn.clamp (x -> y), and the gradients (dy, x or
/// y -> dx), from x for relu, gelu, abs, pow and clamp, from the forward
/// output y for tanh, sigmoid, sqrt and rsqrt.
template <typename Op, RuntimeFn Fn>
struct PointwiseLowering : RuntimeOpLowering<Op> {
  /// The result may equal any operand: y over x, dx over dy, x or y.
  InPlaceOperands inPlaceOperands(Op op, unsigned) const override {
    InPlaceOperands all;
    for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i)
      all.push_back(i);
    return all;
  }
  void lower(Op op, typename RuntimeOpLowering<Op>::Adaptor adaptor,
             RuntimeBuilder &rb, ValueRange results) const override {
    Value x = op->getOperand(0);
    SmallVector<Value> args(adaptor.getOperands());
    args.append({results[0], rb.i64(getNumElements(x)), rb.dtype(x.getType())});
    llvm::append_range(args, pointwiseAttrs(op, rb));
    args.push_back(rb.stream());
    rb.call(Fn, args);
  }
};

/// nn.maximum_grad / nn.minimum_grad: both gradients have dy's shape.
template <typename Op, RuntimeFn Fn>
struct BinaryGradLowering : RuntimeOpLowering<Op> {
  void lower(Op op, typename RuntimeOpLowering<Op>::Adaptor adaptor,
             RuntimeBuilder &rb, ValueRange results) const override {
    Value dy = op.getGradOutput(), l = op.getLhs(), r = op.getRhs();
    rb.call(Fn, {adaptor.getGradOutput(), adaptor.getLhs(), adaptor.getRhs(),
                 results[0], results[1], rb.dims(dy), rb.rank(dy), rb.dims(l),
                 rb.rank(l), rb.dims(r), rb.rank(r), rb.dtype(dy.getType()),
                 rb.stream()});
  }
};

/// nn.where: the i1 condition is a bool buffer and has no dtype argument.
struct WhereLowering : RuntimeOpLowering<nn::WhereOp> {
  /// out may equal lhs or rhs of out's shape, never cond.
  InPlaceOperands inPlaceOperands(nn::WhereOp op, unsigned) const override {
    return {op.getLhsMutable().getOperandNumber(),
            op.getRhsMutable().getOperandNumber()};
  }
  void lower(nn::WhereOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value c = op.getCond(), l = op.getLhs(), r = op.getRhs(),
          y = op.getResult();
    rb.call(RuntimeFn::amp_where,
            {adaptor.getCond(), adaptor.getLhs(), adaptor.getRhs(), results[0],
             rb.dims(c), rb.rank(c), rb.dims(l), rb.rank(l), rb.dims(r),
             rb.rank(r), rb.dims(y), rb.rank(y), rb.dtype(y.getType()),
             rb.stream()});
  }
};

struct WhereGradLowering : RuntimeOpLowering<nn::WhereGradOp> {
  void lower(nn::WhereGradOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value dy = op.getGradOutput(), c = op.getCond();
    rb.call(RuntimeFn::amp_where_grad,
            {adaptor.getGradOutput(), adaptor.getCond(), results[0], results[1],
             rb.dims(dy), rb.rank(dy), rb.dims(c), rb.rank(c),
             rb.dtype(dy.getType()), rb.stream()});
  }
};

/// nn.dropout: the seed is read from its buffer (no host sync).
struct DropoutLowering : RuntimeOpLowering<nn::DropoutOp> {
  /// y may equal x.
  InPlaceOperands inPlaceOperands(nn::DropoutOp op, unsigned) const override {
    return {op.getInputMutable().getOperandNumber()};
  }
  void lower(nn::DropoutOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value x = op.getInput();
    rb.call(RuntimeFn::amp_dropout,
            {adaptor.getInput(), adaptor.getSeed(), results[0],
             rb.i64(getNumElements(x)), rb.dtype(x.getType()),
             rb.f32(op.getRate().convertToDouble()), rb.i32(op.getTraining()),
             rb.stream()});
  }
};

/// nn.compare: amp_compare with the predicate (ComparePredicate's values are
/// amp_compare_op_t's) and all three shapes; the dtype is the operands'.
struct CompareLowering : RuntimeOpLowering<nn::CompareOp> {
  static_assert(
      static_cast<int>(nn::ComparePredicate::EQ) == AMP_COMPARE_EQ &&
          static_cast<int>(nn::ComparePredicate::NE) == AMP_COMPARE_NE &&
          static_cast<int>(nn::ComparePredicate::LT) == AMP_COMPARE_LT &&
          static_cast<int>(nn::ComparePredicate::LE) == AMP_COMPARE_LE &&
          static_cast<int>(nn::ComparePredicate::GT) == AMP_COMPARE_GT &&
          static_cast<int>(nn::ComparePredicate::GE) == AMP_COMPARE_GE,
      "nn.compare's predicates are the runtime's amp_compare_op_t");

  void lower(nn::CompareOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value l = op.getLhs(), r = op.getRhs(), y = op.getResult();
    rb.call(RuntimeFn::amp_compare,
            {rb.i32(static_cast<int32_t>(op.getPredicate())), adaptor.getLhs(),
             adaptor.getRhs(), results[0], rb.dims(l), rb.rank(l), rb.dims(r),
             rb.rank(r), rb.dims(y), rb.rank(y), rb.dtype(l.getType()),
             rb.stream()});
  }
};

/// amp.cast and nn.convert: amp_cast converts between any two dtypes.
template <typename Op> struct CastLowering : RuntimeOpLowering<Op> {
  void lower(Op op, typename RuntimeOpLowering<Op>::Adaptor adaptor,
             RuntimeBuilder &rb, ValueRange results) const override {
    rb.call(RuntimeFn::amp_cast,
            {adaptor.getInput(), results[0],
             rb.i64(getNumElements(op.getInput())),
             rb.dtype(op.getInput().getType()),
             rb.dtype(op.getResult().getType()), rb.stream()});
  }
};

/// nn.grad_seed: ones like the loss.
struct GradSeedLowering : RuntimeOpLowering<nn::GradSeedOp> {
  void lower(nn::GradSeedOp op, Adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    rb.call(RuntimeFn::amp_fill,
            {results[0], rb.i64(getNumElements(op.getResult())),
             rb.dtype(op.getResult().getType()), rb.f32(1.0), rb.stream()});
  }
};

/// amp.scaled_grad_seed: the scale, read on the device.
struct ScaledGradSeedLowering : RuntimeOpLowering<ScaledGradSeedOp> {
  void lower(ScaledGradSeedOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    rb.call(RuntimeFn::amp_scaled_grad_seed,
            {adaptor.getScale(), results[0],
             rb.i64(getNumElements(op.getResult())),
             rb.dtype(op.getResult().getType()), rb.stream()});
  }
};

} // namespace

void amp::addElementwiseLowerings(LoweringTable &table) {
  table.add<UnaryLowering<nn::NegOp, AMP_UNARY_NEG>,
            UnaryLowering<nn::ExpOp, AMP_UNARY_EXP>,
            UnaryLowering<nn::LogOp, AMP_UNARY_LOG>,
            UnaryLowering<nn::SqrtOp, AMP_UNARY_SQRT>,
            UnaryLowering<nn::RsqrtOp, AMP_UNARY_RSQRT>,
            UnaryLowering<nn::TanhOp, AMP_UNARY_TANH>,
            UnaryLowering<nn::SigmoidOp, AMP_UNARY_SIGMOID>,
            UnaryLowering<nn::ReluOp, AMP_UNARY_RELU>,
            UnaryLowering<nn::GeluOp, AMP_UNARY_GELU>,
            UnaryLowering<nn::GeluErfOp, AMP_UNARY_GELU_ERF>,
            UnaryLowering<nn::SinOp, AMP_UNARY_SIN>,
            UnaryLowering<nn::CosOp, AMP_UNARY_COS>,
            UnaryLowering<nn::ErfOp, AMP_UNARY_ERF>,
            UnaryLowering<nn::FloorOp, AMP_UNARY_FLOOR>,
            UnaryLowering<nn::CeilOp, AMP_UNARY_CEIL>,
            UnaryLowering<nn::RoundOp, AMP_UNARY_ROUND>,
            UnaryLowering<nn::SignOp, AMP_UNARY_SIGN>,
            UnaryLowering<nn::TanOp, AMP_UNARY_TAN>,
            UnaryLowering<nn::AsinOp, AMP_UNARY_ASIN>,
            UnaryLowering<nn::AcosOp, AMP_UNARY_ACOS>,
            UnaryLowering<nn::AtanOp, AMP_UNARY_ATAN>,
            UnaryLowering<nn::SinhOp, AMP_UNARY_SINH>,
            UnaryLowering<nn::CoshOp, AMP_UNARY_COSH>,
            UnaryLowering<nn::AsinhOp, AMP_UNARY_ASINH>,
            UnaryLowering<nn::AcoshOp, AMP_UNARY_ACOSH>,
            UnaryLowering<nn::AtanhOp, AMP_UNARY_ATANH>,
            UnaryLowering<nn::AbsOp, AMP_UNARY_ABS>>();
  table.add<BinaryLowering<nn::AddOp, AMP_BINARY_ADD>,
            BinaryLowering<nn::SubOp, AMP_BINARY_SUB>,
            BinaryLowering<nn::MulOp, AMP_BINARY_MUL>,
            BinaryLowering<nn::DivOp, AMP_BINARY_DIV>,
            BinaryLowering<nn::MaximumOp, AMP_BINARY_MAX>,
            BinaryLowering<nn::MinimumOp, AMP_BINARY_MIN>,
            BinaryLowering<nn::PowfOp, AMP_BINARY_POW>,
            BinaryLoweringOf<nn::ModOp, modCode>>();
  table.add<PointwiseLowering<nn::PowOp, RuntimeFn::amp_pow>,
            PointwiseLowering<nn::ClampOp, RuntimeFn::amp_clamp>,
            PointwiseLowering<nn::ReluGradOp, RuntimeFn::amp_relu_grad>,
            PointwiseLowering<nn::GeluGradOp, RuntimeFn::amp_gelu_grad>,
            PointwiseLowering<nn::GeluErfGradOp, RuntimeFn::amp_gelu_erf_grad>,
            PointwiseLowering<nn::ErfGradOp, RuntimeFn::amp_erf_grad>,
            PointwiseLowering<nn::TanhGradOp, RuntimeFn::amp_tanh_grad>,
            PointwiseLowering<nn::SigmoidGradOp, RuntimeFn::amp_sigmoid_grad>,
            PointwiseLowering<nn::SqrtGradOp, RuntimeFn::amp_sqrt_grad>,
            PointwiseLowering<nn::RsqrtGradOp, RuntimeFn::amp_rsqrt_grad>,
            PointwiseLowering<nn::AbsGradOp, RuntimeFn::amp_abs_grad>,
            PointwiseLowering<nn::PowGradOp, RuntimeFn::amp_pow_grad>,
            PointwiseLowering<nn::ClampGradOp, RuntimeFn::amp_clamp_grad>>();
  table.add<BinaryGradLowering<nn::MaximumGradOp, RuntimeFn::amp_maximum_grad>,
            BinaryGradLowering<nn::MinimumGradOp, RuntimeFn::amp_minimum_grad>,
            WhereLowering, WhereGradLowering, CompareLowering, DropoutLowering,
            CastLowering<CastOp>, CastLowering<nn::ConvertOp>, GradSeedLowering,
            ScaledGradSeedLowering>();
}
