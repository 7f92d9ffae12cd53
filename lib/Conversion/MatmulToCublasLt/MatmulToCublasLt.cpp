//===- MatmulToCublasLt.cpp - nn.matmul and its epilogues to amp.gemm -----===//
//
// amp-lower-matmul-to-cublaslt: low-precision nn.matmul becomes amp.gemm,
// and the ops around it that a runtime GEMM epilogue computes (bias, relu,
// gelu, their gradients, bias gradients, a C accumulator, a scale) are
// folded into it. Each fusion is a pattern rooted either at the op it
// removes, which the greedy driver revisits whenever an operand of it is
// replaced by a new amp.gemm, or at the new amp.gemm itself, so one greedy
// rewrite reaches the same fixed point in any visiting order.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/MatmulToCublasLt/MatmulToCublasLt.h"

#include "OpOrder.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Dialect/NN/IR/NNOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SmallVector.h"

#include <cmath>

namespace amp {
#define GEN_PASS_DEF_LOWERMATMULTOCUBLASLT
#include "amp/Conversion/Passes.h.inc"
} // namespace amp

using namespace mlir;
using namespace amp;

using Options = LowerMatmulToCublasLtOptions;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static Type elementType(Value v) {
  return cast<ShapedType>(v.getType()).getElementType();
}

/// Whether the pass lowers, and fuses into, GEMMs whose operands have
/// element type `elem`.
static bool isLowered(Type elem, const Options &opts) {
  return elem.isF16() || elem.isBF16() || (elem.isF32() && opts.f32Gemm);
}

/// The amp.gemm whose result `d` is `v`, in `block`, if the pass fuses into
/// it.
static GemmOp gemmProducing(Value v, Block *block, const Options &opts) {
  auto gemm = v.getDefiningOp<GemmOp>();
  if (!gemm || gemm.getD() != v || gemm->getBlock() != block ||
      !isLowered(elementType(gemm.getA()), opts))
    return nullptr;
  return gemm;
}

/// As gemmProducing, when `user` is the only user of `v`: the value
/// disappears into the epilogue.
static GemmOp gemmProducingOnlyFor(Value v, Operation *user,
                                   const Options &opts) {
  if (!v.hasOneUse())
    return nullptr;
  return gemmProducing(v, user->getBlock(), opts);
}

/// Whether `a` comes before `b` in their block: through `order` when the
/// pass keeps one, else the ops' own order indices.
static bool isBefore(OpOrder *order, Operation *a, Operation *b) {
  return order ? order->isBefore(a, b) : a->isBeforeInBlock(b);
}

/// Whether `v` can be used right before `at`: it is a block argument of, or
/// is defined before `at` in, a block enclosing `at`.
static bool isAvailableBefore(Value v, Operation *at, OpOrder *order) {
  Operation *ancestor = v.getParentBlock()->findAncestorOpInBlock(*at);
  if (!ancestor)
    return false;
  Operation *def = v.getDefiningOp();
  return !def || (def != ancestor && isBefore(order, def, ancestor));
}

/// Whether a value created right before `at` can replace `v`: every user of
/// `v` other than those in `removed` comes after `at`.
static bool canReplaceFrom(Value v, Operation *at,
                           ArrayRef<Operation *> removed, OpOrder *order) {
  return llvm::all_of(v.getUsers(), [&](Operation *user) {
    if (llvm::is_contained(removed, user))
      return true;
    Operation *ancestor = at->getBlock()->findAncestorOpInBlock(*user);
    return ancestor && ancestor != at && isBefore(order, at, ancestor);
  });
}

namespace {
/// The operands and attributes of an amp.gemm, to build another one with a
/// different epilogue.
struct GemmSpec {
  Value a, b, bias, c, aux;
  bool transposeA = false, transposeB = false;
  GemmEpilogue epilogue = GemmEpilogue::none;
  float alpha = 1.0f, beta = 1.0f;
  RankedTensorType dType;
  /// The bias_grad type, for the bias-gradient epilogues.
  RankedTensorType biasGradType;

  static GemmSpec of(GemmOp op) {
    GemmSpec s;
    s.a = op.getA();
    s.b = op.getB();
    s.bias = op.getBias();
    s.c = op.getC();
    s.aux = op.getAux();
    s.transposeA = op.getTransposeA();
    s.transposeB = op.getTransposeB();
    s.epilogue = op.getEpilogue();
    s.alpha = op.getAlpha().convertToFloat();
    s.beta = op.getBeta().convertToFloat();
    s.dType = op.getD().getType();
    if (Value g = op.getBiasGrad())
      s.biasGradType = cast<RankedTensorType>(g.getType());
    return s;
  }

  SmallVector<Value> operands() const {
    SmallVector<Value> all = {a, b};
    for (Value v : {bias, c, aux})
      if (v)
        all.push_back(v);
    return all;
  }

  GemmOp build(OpBuilder &builder, Location loc) const {
    Type auxOut = GemmOp::hasAuxOutput(epilogue) ? Type(dType) : Type();
    Type biasGrad =
        GemmOp::hasBiasGradOutput(epilogue) ? Type(biasGradType) : Type();
    UnitAttr unit = builder.getUnitAttr();
    return GemmOp::create(
        builder, loc, dType, auxOut, biasGrad, a, b, bias, c, aux,
        transposeA ? unit : UnitAttr(), transposeB ? unit : UnitAttr(),
        GemmEpilogueAttr::get(builder.getContext(), epilogue),
        builder.getF32FloatAttr(alpha), builder.getF32FloatAttr(beta));
  }
};
} // namespace

/// Creates the GEMM of `spec` right before the first of `candidates` where
/// its operands are available and from where its results can replace those
/// of `gemm` and `root` (the two ops it removes); returns null when there is
/// no such place. The caller replaces the results.
static GemmOp createFused(PatternRewriter &rewriter, const GemmSpec &spec,
                          GemmOp gemm, Operation *root,
                          ArrayRef<Operation *> candidates, OpOrder *order) {
  SmallVector<Value> operands = spec.operands();
  SmallVector<Operation *> removed = {gemm, root};
  for (Operation *at : candidates) {
    bool ok = llvm::all_of(
        operands, [&](Value v) { return isAvailableBefore(v, at, order); });
    for (Operation *op : removed)
      for (Value r : op->getResults())
        ok = ok && canReplaceFrom(r, at, removed, order);
    if (!ok)
      continue;
    rewriter.setInsertionPoint(at);
    Location loc = rewriter.getFusedLoc({gemm.getLoc(), root->getLoc()});
    return spec.build(rewriter, loc);
  }
  return nullptr;
}

/// Redirects the extra results of `gemm` (aux_out, bias_grad) to those of
/// `fused` and erases it; its `d` must already be unused.
static void replaceGemm(PatternRewriter &rewriter, GemmOp gemm, GemmOp fused) {
  if (Value aux = gemm.getAuxOut())
    rewriter.replaceAllUsesWith(aux, fused.getAuxOut());
  if (Value grad = gemm.getBiasGrad())
    rewriter.replaceAllUsesWith(grad, fused.getBiasGrad());
  rewriter.replaceAllUsesWith(gemm.getD(), fused.getD());
  rewriter.eraseOp(gemm);
}

namespace {
/// Which result of the fused GEMM replaces the op it absorbs.
enum class RootBecomes { D, BiasGrad };
} // namespace

/// Replaces `gemm` and the single-result op `root` it absorbs with the GEMM
/// of `spec`, created as createFused says.
static LogicalResult fuse(PatternRewriter &rewriter, const GemmSpec &spec,
                          GemmOp gemm, Operation *root,
                          ArrayRef<Operation *> candidates,
                          RootBecomes rootBecomes, OpOrder *order) {
  GemmOp fused = createFused(rewriter, spec, gemm, root, candidates, order);
  if (!fused)
    return failure();
  rewriter.replaceOp(root, rootBecomes == RootBecomes::D ? fused.getD()
                                                         : fused.getBiasGrad());
  replaceGemm(rewriter, gemm, fused);
  return success();
}

namespace {
template <typename OpTy> struct GemmPattern : OpRewritePattern<OpTy> {
  GemmPattern(MLIRContext *ctx, const Options &opts, OpOrder *order)
      : OpRewritePattern<OpTy>(ctx), opts(opts), order(order) {}
  Options opts;
  /// The pass's order of ops, or null (the ops' own).
  OpOrder *order;
};
} // namespace

//===----------------------------------------------------------------------===//
// nn.matmul -> amp.gemm
//===----------------------------------------------------------------------===//

namespace {
/// Any batch and transpose form. An operand whose batch dims neither
/// broadcast entirely nor match the result's cannot be addressed with one
/// batch stride, so it is materialized with nn.broadcast_to first.
struct MatmulToGemm : GemmPattern<nn::MatmulOp> {
  using GemmPattern::GemmPattern;

  LogicalResult matchAndRewrite(nn::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (!isLowered(elementType(op.getLhs()), opts))
      return rewriter.notifyMatchFailure(op, "f32 matmul (f32-gemm=false)");
    auto resultType = cast<RankedTensorType>(op.getType());
    for (Value v : {op.getLhs(), op.getRhs(), op.getResult()})
      if (llvm::is_contained(cast<ShapedType>(v.getType()).getShape(), 0))
        return rewriter.notifyMatchFailure(op, "empty matmul");

    ArrayRef<int64_t> batch = resultType.getShape().drop_back(2);
    int64_t batches = ShapedType::getNumElements(batch);
    auto fitBatch = [&](Value v) -> Value {
      auto type = cast<RankedTensorType>(v.getType());
      int64_t own = ShapedType::getNumElements(type.getShape().drop_back(2));
      if (own == 1 || own == batches)
        return v;
      SmallVector<int64_t> shape(batch);
      llvm::append_range(shape, type.getShape().take_back(2));
      return nn::BroadcastToOp::create(
          rewriter, op.getLoc(),
          RankedTensorType::get(shape, type.getElementType()), v);
    };

    GemmSpec spec;
    spec.a = fitBatch(op.getLhs());
    spec.b = fitBatch(op.getRhs());
    spec.transposeA = op.getTransposeA();
    spec.transposeB = op.getTransposeB();
    spec.dType = resultType;
    rewriter.replaceOp(op, spec.build(rewriter, op.getLoc()).getD());
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Forward epilogues
//===----------------------------------------------------------------------===//

namespace {
/// A commutative binary op of a GEMM's result and another value, where the
/// GEMM's result has no other user: `absorb` says how the GEMM takes the
/// other value, if it can; the fused GEMM replaces the op.
template <typename OpTy> struct FuseBinary : GemmPattern<OpTy> {
  using GemmPattern<OpTy>::GemmPattern;

  virtual bool absorb(GemmOp gemm, Value other, GemmSpec &spec) const = 0;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::pair<Value, Value> sides[] = {{op.getLhs(), op.getRhs()},
                                       {op.getRhs(), op.getLhs()}};
    // When both operands are GEMMs, the later one takes the earlier, so a
    // sum of GEMMs accumulates in program order whatever order the driver
    // visits the ops in.
    GemmOp lhsGemm = gemmProducingOnlyFor(op.getLhs(), op, this->opts);
    GemmOp rhsGemm = gemmProducingOnlyFor(op.getRhs(), op, this->opts);
    if (lhsGemm && rhsGemm && lhsGemm->getBlock() == rhsGemm->getBlock() &&
        isBefore(this->order, lhsGemm, rhsGemm))
      std::swap(sides[0], sides[1]);
    for (auto [side, other] : sides) {
      GemmOp gemm = gemmProducingOnlyFor(side, op, this->opts);
      // The result keeps the GEMM's type: `other` broadcasts into it.
      if (!gemm || op.getType() != gemm.getD().getType())
        continue;
      GemmSpec spec = GemmSpec::of(gemm);
      if (!absorb(gemm, other, spec))
        continue;
      // At the op: `other` may be defined after the GEMM.
      if (succeeded(fuse(rewriter, spec, gemm, op, {op}, RootBecomes::D,
                         this->order)))
        return success();
    }
    return failure();
  }
};

/// nn.add(gemm, bias[N]) -> bias; nn.add(gemm, x) with x of the result's
/// type -> c (beta = 1).
struct FuseAdd : FuseBinary<nn::AddOp> {
  using FuseBinary::FuseBinary;

  bool absorb(GemmOp gemm, Value other, GemmSpec &spec) const override {
    RankedTensorType dType = gemm.getD().getType();
    auto otherType = cast<RankedTensorType>(other.getType());
    GemmEpilogue e = gemm.getEpilogue();
    if (otherType.getRank() == 1 &&
        otherType.getDimSize(0) == dType.getShape().back()) {
      // nn.add's operands share the element type, so the bias has the
      // result's, as the runtime requires.
      if (e != GemmEpilogue::none)
        return false;
      spec.bias = other;
      spec.epilogue = GemmEpilogue::bias;
      return true;
    }
    // C enters T before the epilogue, so only epilogues that leave T as it
    // is (plus a bias) can take it afterwards.
    if (otherType != dType || spec.c ||
        !llvm::is_contained({GemmEpilogue::none, GemmEpilogue::bias,
                             GemmEpilogue::bgrada, GemmEpilogue::bgradb},
                            e))
      return false;
    spec.c = other;
    spec.beta = 1.0f;
    return true;
  }
};

/// Multiplies spec.alpha by `factor` when `gemm` has nothing but the
/// product in its result yet (no bias, c or activation), `factor` is a
/// splat constant and the new alpha is finite.
static bool scaleAlpha(GemmOp gemm, Value factor, GemmSpec &spec) {
  DenseFPElementsAttr splat;
  if (gemm.getEpilogue() != GemmEpilogue::none || gemm.getC() ||
      !matchPattern(factor, m_Constant(&splat)) || !splat.isSplat())
    return false;
  double alpha = spec.alpha * splat.getSplatValue<APFloat>().convertToDouble();
  if (!std::isfinite(static_cast<float>(alpha)))
    return false;
  spec.alpha = static_cast<float>(alpha);
  return true;
}

/// nn.mul(gemm, splat constant) -> alpha, when nothing but the product is
/// in the result yet (no bias, c or activation).
struct FuseScale : FuseBinary<nn::MulOp> {
  using FuseBinary::FuseBinary;

  bool absorb(GemmOp gemm, Value other, GemmSpec &spec) const override {
    return scaleAlpha(gemm, other, spec);
  }
};

/// nn.mul(nn.softmax_grad(gemm, y), splat constant) -> the GEMM's alpha,
/// when the GEMM is the output gradient's only producer (no bias, c or
/// activation) and the mul the softmax gradient's only user: the gradient
/// is linear in its output gradient, so the scale moves into the GEMM and
/// the mul's pass over the [..., S, S] tensor and its buffer go (the
/// backward of attention's scaled scores). With a power-of-two scale, as
/// 1/sqrt(64), every rounding scales exactly and the result is the same;
/// otherwise it may differ in the last bit, as FuseScale's does.
struct FuseScaleThroughSoftmaxGrad : GemmPattern<nn::MulOp> {
  using GemmPattern::GemmPattern;

  LogicalResult matchAndRewrite(nn::MulOp op,
                                PatternRewriter &rewriter) const override {
    for (auto [side, other] : {std::pair(op.getLhs(), op.getRhs()),
                               std::pair(op.getRhs(), op.getLhs())}) {
      auto grad = side.getDefiningOp<nn::SoftmaxGradOp>();
      if (!grad || !side.hasOneUse() || op.getType() != grad.getType())
        continue;
      GemmOp gemm = gemmProducingOnlyFor(grad.getGradOutput(), grad, opts);
      if (!gemm || gemm.getD().getType() != grad.getType())
        continue;
      GemmSpec spec = GemmSpec::of(gemm);
      if (!scaleAlpha(gemm, other, spec))
        continue;
      rewriter.setInsertionPoint(gemm);
      GemmOp scaled = spec.build(
          rewriter, rewriter.getFusedLoc({gemm.getLoc(), op.getLoc()}));
      replaceGemm(rewriter, gemm, scaled);
      rewriter.replaceOp(op, grad.getResult());
      return success();
    }
    return failure();
  }
};

/// Whether `use` of a pre-activation x can read relu(x) instead: it only
/// tests x > 0, which holds exactly when relu(x) > 0 (NaN fails both).
static bool readsOnlySign(OpOperand &use) {
  Operation *owner = use.getOwner();
  if (auto grad = dyn_cast<nn::ReluGradOp>(owner))
    return &use == &grad.getInputMutable();
  if (auto gemm = dyn_cast<GemmOp>(owner)) {
    MutableOperandRange aux = gemm.getAuxMutable();
    return (gemm.getEpilogue() == GemmEpilogue::drelu ||
            gemm.getEpilogue() == GemmEpilogue::drelu_bgrad) &&
           aux.size() == 1 && &aux[0] == &use;
  }
  return false;
}

/// nn.relu / nn.gelu of a GEMM (with or without a bias). The pre-activation
/// may have other users when the fused GEMM can serve them: relu's sign
/// tests read its output; gelu writes the pre-activation as aux_out.
template <typename OpTy, bool IsRelu>
struct FuseActivation : GemmPattern<OpTy> {
  using GemmPattern<OpTy>::GemmPattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value pre = op.getInput();
    GemmOp gemm = gemmProducing(pre, op->getBlock(), this->opts);
    if (!gemm || (gemm.getEpilogue() != GemmEpilogue::none &&
                  gemm.getEpilogue() != GemmEpilogue::bias))
      return failure();
    SmallVector<OpOperand *> others;
    for (OpOperand &use : pre.getUses()) {
      if (use.getOwner() == op)
        continue;
      // The same activation again (nn-recompute's clone in the backward
      // pass): the first one is fused, and the later ones read aux_out.
      if (isa<OpTy>(use.getOwner()) &&
          use.getOwner()->getBlock() == op->getBlock() &&
          isBefore(this->order, use.getOwner(), op))
        return rewriter.notifyMatchFailure(
            op, "an earlier activation of the pre-activation is fused");
      if (IsRelu && !readsOnlySign(use))
        return rewriter.notifyMatchFailure(
            op, "the pre-activation has a user that needs it");
      others.push_back(&use);
    }

    GemmSpec spec = GemmSpec::of(gemm);
    bool bias = gemm.getEpilogue() == GemmEpilogue::bias;
    if (IsRelu)
      spec.epilogue = bias ? GemmEpilogue::relu_bias : GemmEpilogue::relu;
    else if (others.empty())
      spec.epilogue = bias ? GemmEpilogue::gelu_bias : GemmEpilogue::gelu;
    else
      spec.epilogue =
          bias ? GemmEpilogue::gelu_aux_bias : GemmEpilogue::gelu_aux;
    // At the GEMM, so that the pre-activation's other users (which may
    // come before the activation) see the fused results.
    GemmOp fused = createFused(rewriter, spec, gemm, op, {gemm}, this->order);
    if (!fused)
      return failure();
    Value served = IsRelu ? fused.getD() : fused.getAuxOut();
    for (OpOperand *use : others)
      rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(served); });
    rewriter.replaceOp(op, fused.getD());
    rewriter.eraseOp(gemm);
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Backward epilogues
//===----------------------------------------------------------------------===//

namespace {
/// nn.relu_grad / nn.gelu_grad whose output gradient is a GEMM's result ->
/// drelu / dgelu with the forward input as aux.
template <typename OpTy, GemmEpilogue Epilogue>
struct FuseActivationGrad : GemmPattern<OpTy> {
  using GemmPattern<OpTy>::GemmPattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    GemmOp gemm = gemmProducingOnlyFor(op.getGradOutput(), op, this->opts);
    if (!gemm || gemm.getEpilogue() != GemmEpilogue::none)
      return failure();
    GemmSpec spec = GemmSpec::of(gemm);
    spec.aux = op.getInput();
    spec.epilogue = Epilogue;
    return fuse(rewriter, spec, gemm, op, {op}, RootBecomes::D,
                this->order);
  }
};

/// Whether `reduce` sums `x` over `axes` alone (in any order, negative axes
/// counted from the end) into a 1-D tensor of element type `elem`.
static bool isSumOver(nn::ReduceSumOp reduce, ArrayRef<int64_t> axes,
                      Type elem) {
  auto resultType = cast<RankedTensorType>(reduce.getType());
  if (reduce.getKeepDims() || resultType.getRank() != 1 ||
      resultType.getElementType() != elem)
    return false;
  int64_t rank = cast<ShapedType>(reduce.getInput().getType()).getRank();
  SmallVector<int64_t> got;
  for (int64_t axis : reduce.getAxes())
    got.push_back(axis < 0 ? axis + rank : axis);
  llvm::sort(got);
  return ArrayRef<int64_t>(got) == axes;
}

/// Whether `reduce` is the bias gradient a weight-gradient GEMM with result
/// element type `dElem` can produce from its a (isA) or b operand: the sum
/// of that rank-2 operand over the GEMM's K axis, which is a's columns or
/// b's rows unless transposed.
static bool isSumOverK(nn::ReduceSumOp reduce, bool isA, bool transposed,
                       Type dElem) {
  int64_t kAxis = isA != transposed ? 1 : 0;
  return isSumOver(reduce, {kAxis}, dElem);
}

/// Whether `user`, an nn.matmul the pass lowers or an amp.gemm without an
/// epilogue, reading `x`, can take `reduce` as its bgrada/bgradb.
static bool canTakeBiasGrad(Operation *user, Value x, nn::ReduceSumOp reduce,
                            const Options &opts) {
  Value a, b, d;
  bool transposeA, transposeB;
  if (auto matmul = dyn_cast<nn::MatmulOp>(user)) {
    a = matmul.getLhs();
    b = matmul.getRhs();
    d = matmul.getResult();
    transposeA = matmul.getTransposeA();
    transposeB = matmul.getTransposeB();
  } else if (auto gemm = dyn_cast<GemmOp>(user);
             gemm && gemm.getEpilogue() == GemmEpilogue::none) {
    a = gemm.getA();
    b = gemm.getB();
    d = gemm.getD();
    transposeA = gemm.getTransposeA();
    transposeB = gemm.getTransposeB();
  } else {
    return false;
  }
  if (!isLowered(elementType(a), opts) ||
      cast<ShapedType>(a.getType()).getRank() != 2 ||
      cast<ShapedType>(b.getType()).getRank() != 2)
    return false;
  Type dElem = elementType(d);
  return (a == x && isSumOverK(reduce, true, transposeA, dElem)) ||
         (b == x && isSumOverK(reduce, false, transposeB, dElem));
}

/// Weight-gradient GEMM dW = op(a) op(b) whose a or b is also summed over
/// the tokens (K) -> bgrada / bgradb, producing that sum: the bias gradient
/// of the layer. With bgrad-through-cast, a sum of the f32 value that `a` or
/// `b` is an amp.cast of counts too.
struct FuseWeightGradBias : GemmPattern<GemmOp> {
  using GemmPattern::GemmPattern;

  LogicalResult matchAndRewrite(GemmOp gemm,
                                PatternRewriter &rewriter) const override {
    if (!isLowered(elementType(gemm.getA()), opts) ||
        gemm.getEpilogue() != GemmEpilogue::none ||
        gemm.getA().getType().getRank() != 2 ||
        gemm.getB().getType().getRank() != 2)
      return failure();
    Type dElem = gemm.getD().getType().getElementType();
    for (bool isA : {true, false}) {
      Value x = isA ? gemm.getA() : gemm.getB();
      bool transposed = isA ? gemm.getTransposeA() : gemm.getTransposeB();
      SmallVector<Value> summed = {x};
      if (auto cast = x.getDefiningOp<CastOp>();
          cast && opts.bgradThroughCast && elementType(cast.getInput()).isF32())
        summed.push_back(cast.getInput());

      nn::ReduceSumOp first;
      for (Value v : summed)
        for (Operation *user : v.getUsers()) {
          auto reduce = dyn_cast<nn::ReduceSumOp>(user);
          if (!reduce || reduce->getBlock() != gemm->getBlock() ||
              !isSumOverK(reduce, isA, transposed, dElem))
            continue;
          if (!first || isBefore(order, reduce, first))
            first = reduce;
        }
      if (!first)
        continue;
      GemmSpec spec = GemmSpec::of(gemm);
      spec.epilogue = isA ? GemmEpilogue::bgrada : GemmEpilogue::bgradb;
      spec.biasGradType = cast<RankedTensorType>(first.getType());
      if (succeeded(fuse(rewriter, spec, gemm, first, {gemm, first},
                         RootBecomes::BiasGrad, order)))
        return success();
    }
    return failure();
  }
};

/// drelu / dgelu GEMM whose result is summed over its rows ->
/// drelu_bgrad / dgelu_bgrad. Only when no weight-gradient GEMM reading the
/// result can take the sum as bgrada/bgradb: that one is preferred, as the
/// runtime docs do, and FuseWeightGradBias fuses it whichever GEMM the
/// greedy driver visits first.
struct FuseActivationGradBias : GemmPattern<GemmOp> {
  using GemmPattern::GemmPattern;

  LogicalResult matchAndRewrite(GemmOp gemm,
                                PatternRewriter &rewriter) const override {
    GemmEpilogue e = gemm.getEpilogue();
    if (!isLowered(elementType(gemm.getA()), opts) ||
        (e != GemmEpilogue::drelu && e != GemmEpilogue::dgelu) ||
        gemm.getLayout().batchCount != 1)
      return failure();
    Value d = gemm.getD();
    RankedTensorType dType = gemm.getD().getType();
    SmallVector<int64_t> rows =
        llvm::to_vector(llvm::seq<int64_t>(0, dType.getRank() - 1));
    nn::ReduceSumOp first;
    for (Operation *user : d.getUsers()) {
      auto reduce = dyn_cast<nn::ReduceSumOp>(user);
      if (!reduce || reduce->getBlock() != gemm->getBlock() ||
          !isSumOver(reduce, rows, dType.getElementType()))
        continue;
      if (!first || isBefore(order, reduce, first))
        first = reduce;
    }
    if (!first)
      return failure();
    if (llvm::any_of(d.getUsers(), [&](Operation *user) {
          return canTakeBiasGrad(user, d, first, opts);
        }))
      return rewriter.notifyMatchFailure(
          gemm, "a weight-gradient GEMM takes the bias gradient");
    GemmSpec spec = GemmSpec::of(gemm);
    spec.epilogue = e == GemmEpilogue::drelu ? GemmEpilogue::drelu_bgrad
                                             : GemmEpilogue::dgelu_bgrad;
    spec.biasGradType = cast<RankedTensorType>(first.getType());
    return fuse(rewriter, spec, gemm, first, {gemm}, RootBecomes::BiasGrad,
                order);
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

/// The patterns, asking `order` (when not null) which of two ops comes
/// first.
static void populatePatterns(RewritePatternSet &patterns,
                             const Options &options, OpOrder *order) {
  patterns
      .add<MatmulToGemm, FuseAdd, FuseScale, FuseScaleThroughSoftmaxGrad,
           FuseActivation<nn::ReluOp, true>, FuseActivation<nn::GeluOp, false>,
           FuseActivationGrad<nn::ReluGradOp, GemmEpilogue::drelu>,
           FuseActivationGrad<nn::GeluGradOp, GemmEpilogue::dgelu>,
           FuseWeightGradBias, FuseActivationGradBias>(patterns.getContext(),
                                                       options, order);
}

void amp::populateMatmulToCublasLtPatterns(RewritePatternSet &patterns,
                                           const Options &options) {
  populatePatterns(patterns, options, /*order=*/nullptr);
}

namespace {
struct LowerMatmulToCublasLtPass
    : amp::impl::LowerMatmulToCublasLtBase<LowerMatmulToCublasLtPass> {
  using LowerMatmulToCublasLtBase::LowerMatmulToCublasLtBase;

  void runOnOperation() override {
    Options options;
    options.f32Gemm = f32Gemm;
    options.bgradThroughCast = bgradThroughCast;
    // Only the patterns: no folding or region simplification of the
    // surrounding program, which is not this pass's business.
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
        .enableFolding(false)
        .enableConstantCSE(false);
    // The fusions ask which of two ops comes first after every fusion, and
    // each fusion inserts an op: OpOrder answers without renumbering the
    // block (see OpOrder.h), kept current as the driver's listener.
    OpOrder order;
    config.setListener(&order);
    RewritePatternSet patterns(&getContext());
    populatePatterns(patterns, options, &order);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config))) {
      getOperation().emitError("amp-lower-matmul-to-cublaslt did not "
                               "converge");
      signalPassFailure();
    }
  }
};
} // namespace
