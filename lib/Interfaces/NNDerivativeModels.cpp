//===- NNDerivativeModels.cpp - derivative rules of the nn ops ------------===//
//
// The reverse-mode rule of every differentiable nn op, attached as external
// models of DifferentiableOpInterface: given the gradients of an op's
// results, build the gradients of its float operands with nn ops. The
// rules reuse forward activations (a relu_grad reads the relu's input) and
// leave broadcasting to Rule::set, which sums a gradient back to its
// operand's shape. Backward-only and optimizer ops have no rule; amp.cast
// has one, so that a model's own casts differentiate.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Dialect/NN/IR/NNOps.h"
#include "amp/Interfaces/DifferentiableOpInterface.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace amp;
using namespace amp::nn;

namespace {

/// What one rule works with: the gradients of the op's results, which
/// operands want one, and where to put them.
class Rule {
public:
  Rule(Operation *op, GradientBuilder &gb, ArrayRef<Value> resultGrads,
       ArrayRef<bool> needed, SmallVectorImpl<Value> &operandGrads)
      : op(op), gb(gb), resultGrads(resultGrads), needed(needed),
        operandGrads(operandGrads) {
    operandGrads.assign(op->getNumOperands(), Value());
  }

  /// The gradient of result `i` (null: the loss does not depend on it).
  Value dy(unsigned i = 0) const { return resultGrads[i]; }
  bool need(unsigned i) const { return needed[i]; }
  GradientBuilder &b() { return gb; }

  /// Records the gradient of operand `i`: summed over broadcast dimensions
  /// and cast to the operand's element type when they differ.
  void set(unsigned i, Value grad) {
    if (!need(i) || !grad)
      return;
    auto type = cast<RankedTensorType>(op->getOperand(i).getType());
    grad = gb.reduceToShape(grad, type);
    if (cast<RankedTensorType>(grad.getType()).getElementType() !=
        type.getElementType())
      grad = gb.create<CastOp>(type, grad);
    operandGrads[i] = grad;
  }

  /// Fails when a gradient reaches a result that has no derivative (saved
  /// statistics of the norms).
  LogicalResult requireNoGradient(unsigned i, StringRef what) {
    if (!dy(i))
      return success();
    return op->emitOpError() << "result #" << i << " (" << what
                             << ") has no derivative, but the loss depends "
                                "on it";
  }

private:
  Operation *op;
  GradientBuilder &gb;
  ArrayRef<Value> resultGrads;
  ArrayRef<bool> needed;
  SmallVectorImpl<Value> &operandGrads;
};

RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// `shaped`'s shape with `elementType`.
RankedTensorType withElementType(Value shaped, Type elementType) {
  return RankedTensorType::get(typeOf(shaped).getShape(), elementType);
}

Type elementTypeOf(Value v) { return typeOf(v).getElementType(); }

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult rule(AddOp, Rule &r) {
  r.set(0, r.dy());
  r.set(1, r.dy());
  return success();
}

LogicalResult rule(SubOp, Rule &r) {
  r.set(0, r.dy());
  if (r.need(1))
    r.set(1, r.b().create<NegOp>(r.dy()));
  return success();
}

LogicalResult rule(MulOp op, Rule &r) {
  if (r.need(0))
    r.set(0, r.b().create<MulOp>(r.dy(), op.getRhs()));
  if (r.need(1))
    r.set(1, r.b().create<MulOp>(r.dy(), op.getLhs()));
  return success();
}

/// y = a / b: da = dy / b, db = -dy * a / b^2 = -(dy / b) * y.
LogicalResult rule(DivOp op, Rule &r) {
  Value q = r.b().create<DivOp>(r.dy(), op.getRhs());
  r.set(0, q);
  if (r.need(1))
    r.set(1, r.b().create<NegOp>(r.b().create<MulOp>(q, op.getResult())));
  return success();
}

/// y = a^b, PyTorch's pow_backward: da = dy * b * a^(b - 1), 0 where
/// b == 0 (where 0 * a^-1 would be NaN at a = 0); db = dy * y * log(a), 0
/// where a == 0 and b >= 0 (where 0 * log(0) would be NaN).
LogicalResult rule(PowfOp op, Rule &r) {
  GradientBuilder &b = r.b();
  Value a = op.getLhs(), e = op.getRhs();
  Value zero = b.scalar(0.0, elementTypeOf(a));
  if (r.need(0)) {
    Value p = b.create<PowfOp>(
        a, b.create<SubOp>(e, b.scalar(1.0, elementTypeOf(e))));
    Value g = b.create<MulOp>(r.dy(), b.create<MulOp>(e, p));
    Value atZero = b.create<CompareOp>(ComparePredicate::EQ, e, zero);
    r.set(0, b.create<WhereOp>(atZero, zero, g));
  }
  if (r.need(1)) {
    Value g = b.create<MulOp>(
        r.dy(), b.create<MulOp>(op.getResult(), b.create<LogOp>(a)));
    Value baseZero = b.create<CompareOp>(ComparePredicate::EQ, a, zero);
    Value nonNegative = b.create<CompareOp>(ComparePredicate::GE, e, zero);
    // baseZero and nonNegative: where(baseZero, nonNegative, false).
    Value both = b.create<WhereOp>(baseZero, nonNegative, baseZero);
    r.set(1, b.create<WhereOp>(both, zero, g));
  }
  return success();
}

/// y = mod(a, b), PyTorch's rule: da = dy; db = -dy * q, where q is a / b
/// rounded toward zero (fmod) or down (remainder).
LogicalResult rule(ModOp op, Rule &r) {
  r.set(0, r.dy());
  if (!r.need(1))
    return success();
  GradientBuilder &b = r.b();
  Value q = b.create<DivOp>(op.getLhs(), op.getRhs());
  Value whole = b.create<FloorOp>(q);
  if (op.getFmod()) {
    Value zero = b.scalar(0.0, elementTypeOf(q));
    Value below = b.create<CompareOp>(ComparePredicate::LT, q, zero);
    whole = b.create<WhereOp>(below, b.create<CeilOp>(q), whole);
  }
  r.set(1, b.create<NegOp>(b.create<MulOp>(r.dy(), whole)));
  return success();
}

LogicalResult rule(NegOp, Rule &r) {
  r.set(0, r.b().create<NegOp>(r.dy()));
  return success();
}

/// d exp(x) = exp(x) dx: the forward output is reused.
LogicalResult rule(ExpOp op, Rule &r) {
  r.set(0, r.b().create<MulOp>(r.dy(), op.getResult()));
  return success();
}

LogicalResult rule(LogOp op, Rule &r) {
  r.set(0, r.b().create<DivOp>(r.dy(), op.getInput()));
  return success();
}

/// tanh, sigmoid, sqrt and rsqrt: one fused grad op from the forward
/// output, e.g. tanh_grad = dy * (1 - y^2).
template <typename GradOpT, typename OpT>
LogicalResult outputGradRule(OpT op, Rule &r) {
  r.set(0, r.b().create<GradOpT>(r.dy(), op.getResult()));
  return success();
}

LogicalResult rule(SqrtOp op, Rule &r) {
  return outputGradRule<SqrtGradOp>(op, r);
}

LogicalResult rule(RsqrtOp op, Rule &r) {
  return outputGradRule<RsqrtGradOp>(op, r);
}

LogicalResult rule(TanhOp op, Rule &r) {
  return outputGradRule<TanhGradOp>(op, r);
}

LogicalResult rule(SigmoidOp op, Rule &r) {
  return outputGradRule<SigmoidGradOp>(op, r);
}

LogicalResult rule(ReluOp op, Rule &r) {
  r.set(0, r.b().create<ReluGradOp>(r.dy(), op.getInput()));
  return success();
}

LogicalResult rule(GeluOp op, Rule &r) {
  r.set(0, r.b().create<GeluGradOp>(r.dy(), op.getInput()));
  return success();
}

LogicalResult rule(GeluErfOp op, Rule &r) {
  r.set(0, r.b().create<GeluErfGradOp>(r.dy(), op.getInput()));
  return success();
}

/// d sin(x) = cos(x) dx and d cos(x) = -sin(x) dx, as PyTorch computes
/// them (two ops: nn has no fused grad op for either).
LogicalResult rule(SinOp op, Rule &r) {
  r.set(0, r.b().create<MulOp>(r.dy(), r.b().create<CosOp>(op.getInput())));
  return success();
}

LogicalResult rule(CosOp op, Rule &r) {
  Value sin = r.b().create<SinOp>(op.getInput());
  r.set(0, r.b().create<NegOp>(r.b().create<MulOp>(r.dy(), sin)));
  return success();
}

/// The other trigonometric and hyperbolic functions, with PyTorch's
/// formulas (derivatives.yaml), of nn ops:
///   tan:   dy * (1 + y^2)           asin:  dy * rsqrt(1 - x^2)
///   acos:  -(dy * rsqrt(1 - x^2))   atan:  dy / (1 + x^2)
///   sinh:  dy * cosh(x)             cosh:  dy * sinh(x)
///   asinh: dy * rsqrt(x^2 + 1)      acosh: dy * rsqrt(x^2 - 1)
///   atanh: dy / (1 - x^2)
/// `xx` is x * x; `one` is 1 in x's element type.
struct SquareTerms {
  Value xx, one;
  SquareTerms(GradientBuilder &b, Value x)
      : xx(b.create<MulOp>(x, x)), one(b.scalar(1.0, elementTypeOf(x))) {}
};

LogicalResult rule(TanOp op, Rule &r) {
  GradientBuilder &b = r.b();
  Value y = op.getResult();
  Value one = b.scalar(1.0, elementTypeOf(y));
  Value d = b.create<AddOp>(one, b.create<MulOp>(y, y));
  r.set(0, b.create<MulOp>(r.dy(), d));
  return success();
}

LogicalResult rule(AsinOp op, Rule &r) {
  GradientBuilder &b = r.b();
  SquareTerms t(b, op.getInput());
  Value d = b.create<RsqrtOp>(b.create<SubOp>(t.one, t.xx));
  r.set(0, b.create<MulOp>(r.dy(), d));
  return success();
}

LogicalResult rule(AcosOp op, Rule &r) {
  GradientBuilder &b = r.b();
  SquareTerms t(b, op.getInput());
  Value d = b.create<RsqrtOp>(b.create<SubOp>(t.one, t.xx));
  r.set(0, b.create<NegOp>(b.create<MulOp>(r.dy(), d)));
  return success();
}

LogicalResult rule(AtanOp op, Rule &r) {
  GradientBuilder &b = r.b();
  SquareTerms t(b, op.getInput());
  r.set(0, b.create<DivOp>(r.dy(), b.create<AddOp>(t.xx, t.one)));
  return success();
}

LogicalResult rule(SinhOp op, Rule &r) {
  r.set(0, r.b().create<MulOp>(r.dy(), r.b().create<CoshOp>(op.getInput())));
  return success();
}

LogicalResult rule(CoshOp op, Rule &r) {
  r.set(0, r.b().create<MulOp>(r.dy(), r.b().create<SinhOp>(op.getInput())));
  return success();
}

LogicalResult rule(AsinhOp op, Rule &r) {
  GradientBuilder &b = r.b();
  SquareTerms t(b, op.getInput());
  Value d = b.create<RsqrtOp>(b.create<AddOp>(t.xx, t.one));
  r.set(0, b.create<MulOp>(r.dy(), d));
  return success();
}

LogicalResult rule(AcoshOp op, Rule &r) {
  GradientBuilder &b = r.b();
  SquareTerms t(b, op.getInput());
  Value d = b.create<RsqrtOp>(b.create<SubOp>(t.xx, t.one));
  r.set(0, b.create<MulOp>(r.dy(), d));
  return success();
}

LogicalResult rule(AtanhOp op, Rule &r) {
  GradientBuilder &b = r.b();
  SquareTerms t(b, op.getInput());
  r.set(0, b.create<DivOp>(r.dy(), b.create<SubOp>(t.one, t.xx)));
  return success();
}

LogicalResult rule(ErfOp op, Rule &r) {
  r.set(0, r.b().create<ErfGradOp>(r.dy(), op.getInput()));
  return success();
}

LogicalResult rule(AbsOp op, Rule &r) {
  r.set(0, r.b().create<AbsGradOp>(r.dy(), op.getInput()));
  return success();
}

LogicalResult rule(PowOp op, Rule &r) {
  r.set(0, r.b().create<PowGradOp>(r.dy(), op.getInput(),
                                   op.getExponentAttr()));
  return success();
}

LogicalResult rule(ClampOp op, Rule &r) {
  r.set(0, r.b().create<ClampGradOp>(r.dy(), op.getInput(), op.getMinAttr(),
                                     op.getMaxAttr()));
  return success();
}

/// Dropout is linear with a mask fixed by the seed: its gradient is the same
/// dropout of dy.
LogicalResult rule(DropoutOp op, Rule &r) {
  r.set(0, r.b().create<DropoutOp>(r.dy(), op.getSeed(), op.getRateAttr(),
                                   op.getTrainingAttr()));
  return success();
}

/// maximum / minimum: the grad op routes dy in the broadcast shape (ties
/// split in half, as PyTorch does); Rule::set sums it back per operand.
template <typename GradOpT, typename OpT>
LogicalResult selectRule(OpT op, Rule &r) {
  auto grad = r.b().create<GradOpT>(r.dy(), op.getLhs(), op.getRhs());
  r.set(0, grad.getGradLhs());
  r.set(1, grad.getGradRhs());
  return success();
}

LogicalResult rule(MaximumOp op, Rule &r) {
  return selectRule<MaximumGradOp>(op, r);
}

LogicalResult rule(MinimumOp op, Rule &r) {
  return selectRule<MinimumGradOp>(op, r);
}

/// where(cond, lhs, rhs): the i1 condition gets no gradient.
LogicalResult rule(WhereOp op, Rule &r) {
  auto grad = r.b().create<WhereGradOp>(r.dy(), op.getCond());
  r.set(1, grad.getGradLhs());
  r.set(2, grad.getGradRhs());
  return success();
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

/// C = op(A) op(B), op transposing the last two dims when the flag is set:
/// d op(A) = dC op(B)^T and d op(B) = op(A)^T dC, written with the
/// transpose flags so that no transpose is materialized. A gradient whose
/// operand was broadcast over batch dims is summed back by Rule::set.
LogicalResult rule(MatmulOp op, Rule &r) {
  GradientBuilder &b = r.b();
  OpBuilder &ob = b.getBuilder();
  bool ta = op.getTransposeA(), tb = op.getTransposeB();
  Value a = op.getLhs(), bm = op.getRhs(), dc = r.dy();
  auto flag = [&](bool set) { return set ? ob.getUnitAttr() : UnitAttr(); };
  auto matmul = [&](Value x, Value y, bool tx, bool ty) -> Value {
    return b.create<MatmulOp>(x, y, flag(tx), flag(ty));
  };
  if (r.need(0))
    r.set(0, ta ? matmul(bm, dc, tb, true) : matmul(dc, bm, false, !tb));
  if (r.need(1))
    r.set(1, tb ? matmul(dc, a, true, ta) : matmul(a, dc, !ta, false));
  return success();
}

LogicalResult rule(Conv2DOp op, Rule &r) {
  GradientBuilder &b = r.b();
  if (r.need(0))
    r.set(0, b.create<Conv2DGradInputOp>(
                 withElementType(op.getInput(), elementTypeOf(r.dy())), r.dy(),
                 op.getFilter(), op.getStridesAttr(), op.getPaddingAttr(),
                 op.getDilationAttr(), op.getGroupsAttr()));
  if (r.need(1))
    r.set(1, b.create<Conv2DGradFilterOp>(
                 withElementType(op.getFilter(), elementTypeOf(r.dy())),
                 r.dy(), op.getInput(), op.getStridesAttr(),
                 op.getPaddingAttr(), op.getDilationAttr(),
                 op.getGroupsAttr()));
  return success();
}

/// y = conv2d_grad_input(g, W), a transposed convolution (ONNX's
/// ConvTranspose), is linear in g and in W: dg is the forward convolution of
/// dy with W, and dW the filter gradient of the convolution whose output
/// gradient is g and whose input is dy, both with the same geometry.
LogicalResult rule(Conv2DGradInputOp op, Rule &r) {
  GradientBuilder &b = r.b();
  if (r.need(0))
    r.set(0,
          b.create<Conv2DOp>(
              withElementType(op.getGradOutput(), elementTypeOf(r.dy())),
              r.dy(), op.getFilter(), op.getStridesAttr(), op.getPaddingAttr(),
              op.getDilationAttr(), op.getGroupsAttr()));
  if (r.need(1))
    r.set(1,
          b.create<Conv2DGradFilterOp>(
              withElementType(op.getFilter(), elementTypeOf(r.dy())),
              op.getGradOutput(), r.dy(), op.getStridesAttr(),
              op.getPaddingAttr(), op.getDilationAttr(), op.getGroupsAttr()));
  return success();
}

//===----------------------------------------------------------------------===//
// Normalization and softmax
//===----------------------------------------------------------------------===//

/// The norms' saved statistics (results 1 and 2) have no derivative; the
/// grad op gives input, scale and bias gradients.
template <typename GradOpT, typename NormOpT, typename... Attrs>
LogicalResult normRule(NormOpT op, Rule &r, Attrs... attrs) {
  if (failed(r.requireNoGradient(1, "the saved mean")) ||
      failed(r.requireNoGradient(2, "the saved inverse standard deviation")))
    return failure();
  auto grad = r.b().create<GradOpT>(r.dy(0), op.getInput(),
                                    op->getResult(1), op->getResult(2),
                                    op.getScale(), attrs...);
  r.set(0, grad.getGradInput());
  r.set(1, grad.getGradScale());
  r.set(2, grad.getGradBias());
  return success();
}

LogicalResult rule(LayerNormOp op, Rule &r) {
  return normRule<LayerNormGradOp>(op, r, op.getAxisAttr());
}

LogicalResult rule(BatchNormOp op, Rule &r) {
  return normRule<BatchNormGradOp>(op, r);
}

/// The fused attention's log-sum-exp (result 1) is saved for the backward
/// and has no derivative; the mask (operand 3) gets none either, since the
/// fused backward never forms the [..., Sq, Sk] gradient it would need. The
/// gradient drops with the forward's dropout seed and rate.
LogicalResult rule(AttentionOp op, Rule &r) {
  if (failed(r.requireNoGradient(1, "the saved log-sum-exp")))
    return failure();
  if (op.getMask() && r.need(3))
    return op.emitOpError()
           << "the loss depends on the mask, but nn.attention's mask has no "
              "derivative (apply a learned bias before the attention "
              "unfused)";
  if (!r.dy(0))
    return success();
  auto grad = r.b().create<AttentionGradOp>(
      r.dy(0), op.getQuery(), op.getKey(), op.getValue(), op.getResult(),
      op.getLogsumexp(), op.getMask(), op.getDropout(), op.getScaleAttr(),
      op.getCausalAttr(), op.getDropoutRateAttr());
  r.set(0, grad.getGradQuery());
  r.set(1, grad.getGradKey());
  r.set(2, grad.getGradValue());
  return success();
}

LogicalResult rule(SoftmaxOp op, Rule &r) {
  r.set(0, r.b().create<SoftmaxGradOp>(r.dy(), op.getResult(),
                                       op.getAxisAttr()));
  return success();
}

/// y = log_softmax(x): dx = dy - exp(y) * sum(dy, axis).
LogicalResult rule(LogSoftmaxOp op, Rule &r) {
  GradientBuilder &b = r.b();
  int64_t rank = typeOf(op.getInput()).getRank();
  int64_t axis = op.getAxisAttr().getInt();
  if (axis < 0)
    axis += rank;
  OpBuilder &ob = b.getBuilder();
  Value sum = b.create<ReduceSumOp>(r.dy(), ob.getDenseI64ArrayAttr({axis}),
                                    ob.getUnitAttr());
  Value softmax = b.create<ExpOp>(op.getResult());
  r.set(0, b.create<SubOp>(r.dy(), b.create<MulOp>(softmax, sum)));
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// The reduced axes of `op`, in [0, rank).
template <typename ReduceOpT>
SmallVector<int64_t> reducedAxes(ReduceOpT op) {
  int64_t rank = typeOf(op.getInput()).getRank();
  SmallVector<int64_t> axes;
  for (int64_t axis : op.getAxes())
    axes.push_back(axis < 0 ? axis + rank : axis);
  return axes;
}

/// dy broadcast back over the reduced axes to the input's shape.
template <typename ReduceOpT>
Value broadcastBack(ReduceOpT op, Rule &r) {
  GradientBuilder &b = r.b();
  Value dy = r.dy();
  Type elementType = elementTypeOf(dy);
  if (!op.getKeepDims()) {
    SmallVector<int64_t> kept(typeOf(op.getInput()).getShape());
    for (int64_t axis : reducedAxes(op))
      kept[axis] = 1;
    dy = b.create<ReshapeOp>(RankedTensorType::get(kept, elementType), dy);
  }
  return b.create<BroadcastToOp>(withElementType(op.getInput(), elementType),
                                 dy);
}

LogicalResult rule(ReduceSumOp op, Rule &r) {
  r.set(0, broadcastBack(op, r));
  return success();
}

LogicalResult rule(ReduceMeanOp op, Rule &r) {
  int64_t count = 1;
  ArrayRef<int64_t> shape = typeOf(op.getInput()).getShape();
  for (int64_t axis : reducedAxes(op))
    count *= shape[axis];
  // Dividing by N (exact in f32 up to 2^24) rather than multiplying by a
  // rounded 1/N keeps the gradient exactly dy / N.
  GradientBuilder &b = r.b();
  Value n = b.scalar(static_cast<double>(count), elementTypeOf(r.dy()));
  r.set(0, b.create<DivOp>(broadcastBack(op, r), n));
  return success();
}

/// Each input element reaches the outputs on its own side of the scan, so
/// dx is the cumsum of dy in the other direction (exclusive as the forward).
LogicalResult rule(CumsumOp op, Rule &r) {
  UnitAttr reverse =
      op.getReverse() ? UnitAttr() : UnitAttr::get(op.getContext());
  r.set(0, r.b().create<CumsumOp>(r.dy(), op.getAxisAttr(),
                                  op.getExclusiveAttr(), reverse));
  return success();
}

LogicalResult rule(ReduceMaxOp op, Rule &r) {
  r.set(0, r.b().create<ReduceMaxGradOp>(r.dy(), op.getInput(), op.getResult(),
                                         op.getAxesAttr(), op.getKeepDimsAttr()));
  return success();
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

LogicalResult rule(MaxPool2DOp op, Rule &r) {
  r.set(0, r.b().create<MaxPool2DGradOp>(
               r.dy(), op.getInput(), op.getKernelAttr(), op.getStridesAttr(),
               op.getPaddingAttr(), op.getDilationAttr()));
  return success();
}

LogicalResult rule(AvgPool2DOp op, Rule &r) {
  r.set(0, r.b().create<AvgPool2DGradOp>(
               withElementType(op.getInput(), elementTypeOf(r.dy())), r.dy(),
               op.getKernelAttr(), op.getStridesAttr(), op.getPaddingAttr(),
               op.getCountIncludePadAttr()));
  return success();
}

/// A global average pool is an average pool whose window is the image.
LogicalResult rule(GlobalAvgPoolOp op, Rule &r) {
  ArrayRef<int64_t> shape = typeOf(op.getInput()).getShape();
  OpBuilder &ob = r.b().getBuilder();
  r.set(0, r.b().create<AvgPool2DGradOp>(
               withElementType(op.getInput(), elementTypeOf(r.dy())), r.dy(),
               ob.getDenseI64ArrayAttr({shape[2], shape[3]}),
               DenseI64ArrayAttr(), DenseI64ArrayAttr(), UnitAttr()));
  return success();
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

/// Each input's gradient is its slice of dy along the axis.
LogicalResult rule(ConcatOp op, Rule &r) {
  int64_t rank = typeOf(op.getResult()).getRank();
  int64_t axis = op.getAxisAttr().getInt();
  if (axis < 0)
    axis += rank;
  SmallVector<int64_t> offsets(rank, 0);
  for (auto [i, input] : llvm::enumerate(op.getInputs())) {
    if (r.need(i))
      r.set(i, r.b().create<SliceOp>(
                   withElementType(input, elementTypeOf(r.dy())), r.dy(),
                   r.b().getBuilder().getDenseI64ArrayAttr(offsets),
                   DenseI64ArrayAttr()));
    offsets[axis] += typeOf(input).getDimSize(axis);
  }
  return success();
}

LogicalResult rule(SliceOp op, Rule &r) {
  r.set(0, r.b().create<SliceGradOp>(
               withElementType(op.getInput(), elementTypeOf(r.dy())), r.dy(),
               op.getOffsetsAttr(), op.getStridesAttr()));
  return success();
}

/// The gradient of a constant pad is the unpadded window of dy.
LogicalResult rule(PadOp op, Rule &r) {
  r.set(0, r.b().create<SliceOp>(
               withElementType(op.getInput(), elementTypeOf(r.dy())), r.dy(),
               op.getLowAttr(), DenseI64ArrayAttr()));
  return success();
}

LogicalResult rule(ReshapeOp op, Rule &r) {
  r.set(0, r.b().create<ReshapeOp>(
               withElementType(op.getInput(), elementTypeOf(r.dy())), r.dy()));
  return success();
}

LogicalResult rule(TransposeOp op, Rule &r) {
  ArrayRef<int64_t> perm = op.getPerm();
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  OpBuilder &ob = r.b().getBuilder();
  r.set(0, r.b().create<TransposeOp>(r.dy(), ob.getDenseI64ArrayAttr(inverse)));
  return success();
}

/// Rule::set sums the broadcast dimensions.
LogicalResult rule(BroadcastToOp, Rule &r) {
  r.set(0, r.dy());
  return success();
}

//===----------------------------------------------------------------------===//
// Embedding and loss
//===----------------------------------------------------------------------===//

/// The scatter-add of dy at the ids, leaving out the padding row's and
/// scaled by the ids' counts as the lookup says.
LogicalResult rule(EmbeddingOp op, Rule &r) {
  r.set(0,
        r.b().create<EmbeddingGradOp>(
            withElementType(op.getTable(), elementTypeOf(r.dy())), r.dy(),
            op.getIds(), op.getPaddingIdxAttr(), op.getScaleGradByFreqAttr()));
  return success();
}

/// The scatter-add into the table is linear in grad_output: its derivative
/// gathers the table's gradient back at the ids (PyTorch's scatter_add
/// backward, `grad.gather(dim, index)`), divided by each id's count with
/// scale_grad_by_freq, and zero at the ids that padding_idx left out. In a
/// forward model it is the importer's ScatterElements at run-time indices
/// (a router's gates).
LogicalResult rule(EmbeddingGradOp op, Rule &r) {
  GradientBuilder &b = r.b();
  Value table = r.dy();
  if (op.getScaleGradByFreq()) {
    // Each row's count: the scatter-add of ones at the ids (at least 1, so
    // that rows no id names stay finite; they are not gathered). Exact up
    // to 2^24 in f32 (2048 in f16, 256 in bf16).
    Type element = elementTypeOf(table);
    SmallVector<int64_t> column(typeOf(op.getIds()).getShape());
    column.push_back(1);
    Value ones = b.splat(1.0, RankedTensorType::get(column, element));
    Value counts = b.create<EmbeddingGradOp>(
        RankedTensorType::get({typeOf(table).getDimSize(0), 1}, element), ones,
        op.getIds(), IntegerAttr(), UnitAttr());
    counts = b.create<MaximumOp>(counts, b.scalar(1.0, element));
    table = b.create<DivOp>(table, counts);
  }
  Value gathered =
      b.create<EmbeddingOp>(table, op.getIds(), IntegerAttr(), UnitAttr());
  if (std::optional<int64_t> padding = op.getPaddingIdx()) {
    // ids == p, as [ids..., 1] to broadcast over the rows' D columns.
    Value ids = op.getIds();
    Value isPadding = b.create<CompareOp>(
        ComparePredicate::EQ, ids,
        b.scalar(static_cast<double>(*padding), elementTypeOf(ids)));
    SmallVector<int64_t> column(typeOf(ids).getShape());
    column.push_back(1);
    isPadding = b.create<ReshapeOp>(
        RankedTensorType::get(column, b.getBuilder().getI1Type()), isPadding);
    gathered = b.create<WhereOp>(
        isPadding, b.scalar(0.0, elementTypeOf(gathered)), gathered);
  }
  r.set(0, gathered);
  return success();
}

/// A loss of d = p - t (MSE, L1, Huber): dp from its gradient op, dt = -dp.
template <typename GradOp, typename Op>
LogicalResult differenceLossRule(Op op, Rule &r) {
  // The gradient op takes the loss's attributes (Huber's delta).
  Value dp = r.b().create<GradOp>(
      ValueRange{r.dy(), op.getPred(), op.getTarget()}, op->getAttrs());
  r.set(0, dp);
  if (r.need(1))
    r.set(1, r.b().create<NegOp>(dp));
  return success();
}

LogicalResult rule(MseLossOp op, Rule &r) {
  return differenceLossRule<MseLossGradOp>(op, r);
}
LogicalResult rule(L1LossOp op, Rule &r) {
  return differenceLossRule<L1LossGradOp>(op, r);
}
LogicalResult rule(HuberLossOp op, Rule &r) {
  return differenceLossRule<HuberLossGradOp>(op, r);
}

/// mean((1 - t) x - log_sigmoid(x)): dx = (sigmoid(x) - t) dl / n and
/// dt = -x dl / n (PyTorch's target gradient), with n 1 for the sum.
LogicalResult rule(BceWithLogitsLossOp op, Rule &r) {
  GradientBuilder &b = r.b();
  Value x = op.getPred();
  r.set(0, b.create<BceWithLogitsLossGradOp>(
               ValueRange{r.dy(), x, op.getTarget()}, op->getAttrs()));
  if (!r.need(1))
    return success();
  Type elementType = elementTypeOf(x);
  Value dl = r.dy();
  if (elementTypeOf(dl) != elementType)
    return op.emitOpError()
           << "cannot differentiate the target: its gradient needs the "
              "loss's gradient in the logits' type ("
           << elementType << ")";
  Value dt = b.create<MulOp>(b.create<NegOp>(x), dl);
  if (int64_t divisor = op.getReductionDivisor(); divisor != 1)
    dt = b.create<DivOp>(dt,
                         b.scalar(static_cast<double>(divisor), elementType));
  r.set(1, dt);
  return success();
}

LogicalResult rule(CrossEntropyOp op, Rule &r) {
  r.set(0, r.b().create<CrossEntropyGradOp>(
               r.dy(), op.getLogits(), op.getLabels(), op.getIgnoreIndexAttr(),
               op.getLabelSmoothingAttr()));
  return success();
}

//===----------------------------------------------------------------------===//
// amp.cast
//===----------------------------------------------------------------------===//

/// dx = dy converted back to x's type (Rule::set): PyTorch's autograd of
/// `.half()` and `.float()`. An imported ONNX Cast to FLOAT16 (an f32 ->
/// f16 -> f32 round trip) so rounds its gradient as it rounds its value.
LogicalResult rule(CastOp, Rule &r) {
  r.set(0, r.dy());
  return success();
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

template <typename OpT>
struct DerivativeModel
    : DifferentiableOpInterface::ExternalModel<DerivativeModel<OpT>, OpT> {
  LogicalResult buildGradients(Operation *op, GradientBuilder &builder,
                               ArrayRef<Value> resultGrads,
                               ArrayRef<bool> needed,
                               SmallVectorImpl<Value> &operandGrads) const {
    Rule r(op, builder, resultGrads, needed, operandGrads);
    return rule(cast<OpT>(op), r);
  }
};

} // namespace

void amp::registerNNDerivativeModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, NNDialect *) {
#define AMP_NN_DIFFERENTIABLE_OP(CLASS)                                        \
  CLASS::attachInterface<DerivativeModel<CLASS>>(*ctx);
#include "amp/Dialect/NN/IR/NNDifferentiableOps.def"
  });
  registry.addExtension(+[](MLIRContext *ctx, AMPDialect *) {
    CastOp::attachInterface<DerivativeModel<CastOp>>(*ctx);
  });
}
