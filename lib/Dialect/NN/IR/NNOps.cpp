//===- NNOps.cpp - nn dialect operations ----------------------------------===//
//
// Result-type inference and verification of the nn ops. Shape rules that an
// op's result type depends on live in its inferReturnTypes, so that builders,
// the verifier and rewrites that re-infer types all apply the same checks.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/NN/IR/NNOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

#include <cmath>
#include <sstream>

using namespace mlir;
using namespace amp::nn;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

namespace {
using Shape = SmallVector<int64_t>;
using Loc = std::optional<Location>;
} // namespace

/// Formats a static shape as `[4, 8]`.
static std::string fmtShape(ArrayRef<int64_t> shape) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(shape, os);
  os << "]";
  return s;
}

static RankedTensorType tensorOf(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}

/// Returns `axis` in [0, rank), accepting negative axes counted from the end.
static FailureOr<int64_t> normalizeAxis(Loc loc, int64_t axis, int64_t rank,
                                        StringRef what = "axis") {
  if (axis < -rank || axis >= rank)
    return emitOptionalError(
        loc, what, " ", axis, " is out of range for a rank-", rank,
        " tensor (expected ", -rank, " <= ", what, " < ", rank, ")");
  return axis < 0 ? axis + rank : axis;
}

/// Numpy broadcasting of two shapes.
static FailureOr<Shape> broadcastShapes(Loc loc, ArrayRef<int64_t> a,
                                        ArrayRef<int64_t> b, StringRef what) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1)
      return emitOptionalError(loc, what, " ", fmtShape(a), " and ",
                               fmtShape(b), " are not broadcast-compatible");
    out[rank - 1 - i] = da == 1 ? db : da;
  }
  return out;
}

static LogicalResult requireSameElementType(Loc loc, Type a, Type b,
                                            StringRef aName, StringRef bName) {
  Type ea = getElementTypeOrSelf(a), eb = getElementTypeOrSelf(b);
  if (ea != eb)
    return emitOptionalError(loc, aName, " and ", bName,
                             " must have the same element type, got ", ea,
                             " and ", eb);
  return success();
}

static LogicalResult requireShape(Loc loc, RankedTensorType t,
                                  ArrayRef<int64_t> expected, StringRef name,
                                  StringRef why) {
  if (t.getShape() != expected)
    return emitOptionalError(loc, name, " must have shape ", fmtShape(expected),
                             " (", why, "), got ", fmtShape(t.getShape()));
  return success();
}

/// Accumulating ops (matmul, conv, reductions) may store their f32
/// accumulator: the result is compatible when the shapes agree and the
/// element type is the inferred one or f32.
static bool isAccumulatorCompatible(TypeRange inferred, TypeRange actual) {
  if (inferred.size() != actual.size())
    return false;
  for (auto [i, a] : llvm::zip(inferred, actual)) {
    auto ti = dyn_cast<RankedTensorType>(i);
    auto ta = dyn_cast<RankedTensorType>(a);
    if (!ti || !ta || ti.getShape() != ta.getShape())
      return false;
    if (ti.getElementType() != ta.getElementType() &&
        !ta.getElementType().isF32())
      return false;
  }
  return true;
}

static LogicalResult verifyAccumulatorResult(Operation *op, Type operandElem,
                                             Type result) {
  Type re = getElementTypeOrSelf(result);
  if (re != operandElem && !re.isF32())
    return op->emitOpError("result element type must be ")
           << operandElem << " or f32 (f32 accumulation), got " << re;
  return success();
}

/// Formats an attribute value the way a user writes it: `0`, `0.9`, `1e-05`,
/// `inf`, `nan`.
static std::string fmtFloat(float v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

/// Rejects NaN, infinities (unless `allowInf`) and values below `lo` (or
/// <= lo when `strict`).
static LogicalResult checkAttrLowerBound(Operation *op, StringRef name,
                                         float value, float lo, bool strict,
                                         bool allowInf = false) {
  bool ok = strict ? value > lo : value >= lo;
  if (!ok || std::isnan(value) || (!allowInf && std::isinf(value)))
    return op->emitOpError()
           << name << " must be " << (allowInf ? "" : "a finite value ")
           << (strict ? "> " : ">= ") << fmtFloat(lo) << ", got "
           << fmtFloat(value);
  return success();
}

static LogicalResult checkAttrUnitInterval(Operation *op, StringRef name,
                                           float value, bool closedAbove) {
  bool ok = value >= 0.0f && (closedAbove ? value <= 1.0f : value < 1.0f);
  if (!ok)
    return op->emitOpError()
           << name << " must be in [0, 1" << (closedAbove ? "]" : ")")
           << ", got " << fmtFloat(value);
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

static LogicalResult inferBroadcastBinary(Loc loc, Value lhs, Value rhs,
                                          SmallVectorImpl<Type> &inferred) {
  auto l = tensorOf(lhs), r = tensorOf(rhs);
  if (!l || !r)
    return emitOptionalError(loc, "expects ranked tensor operands");
  if (failed(requireSameElementType(loc, l, r, "lhs", "rhs")))
    return failure();
  FailureOr<Shape> shape =
      broadcastShapes(loc, l.getShape(), r.getShape(), "operand shapes");
  if (failed(shape))
    return failure();
  inferred.push_back(RankedTensorType::get(*shape, l.getElementType()));
  return success();
}

#define AMP_NN_BINARY_INFER(OP)                                                \
  LogicalResult OP::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,  \
                                     SmallVectorImpl<Type> &inferred) {        \
    return inferBroadcastBinary(loc, adaptor.getLhs(), adaptor.getRhs(),       \
                                inferred);                                     \
  }
AMP_NN_BINARY_INFER(AddOp)
AMP_NN_BINARY_INFER(SubOp)
AMP_NN_BINARY_INFER(MulOp)
AMP_NN_BINARY_INFER(DivOp)
#undef AMP_NN_BINARY_INFER

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *, Loc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  auto a = tensorOf(adaptor.getLhs()), b = tensorOf(adaptor.getRhs());
  if (!a || !b)
    return emitOptionalError(loc, "expects ranked tensor operands");
  if (a.getRank() < 2 || b.getRank() < 2)
    return emitOptionalError(loc, "operands must have rank >= 2, got lhs ",
                             fmtShape(a.getShape()), " and rhs ",
                             fmtShape(b.getShape()));
  if (failed(requireSameElementType(loc, a, b, "lhs", "rhs")))
    return failure();
  ArrayRef<int64_t> as = a.getShape(), bs = b.getShape();
  bool ta = adaptor.getTransposeA(), tb = adaptor.getTransposeB();
  int64_t m = ta ? as.back() : as[as.size() - 2];
  int64_t ka = ta ? as[as.size() - 2] : as.back();
  int64_t kb = tb ? bs.back() : bs[bs.size() - 2];
  int64_t n = tb ? bs[bs.size() - 2] : bs.back();
  if (ka != kb)
    return emitOptionalError(loc, "contraction dimensions differ: lhs ",
                             fmtShape(as), (ta ? " (transposed)" : ""),
                             " has K = ", ka, " but rhs ", fmtShape(bs),
                             (tb ? " (transposed)" : ""), " has K = ", kb);
  FailureOr<Shape> batch = broadcastShapes(loc, as.drop_back(2),
                                           bs.drop_back(2), "batch dimensions");
  if (failed(batch))
    return failure();
  batch->push_back(m);
  batch->push_back(n);
  inferred.push_back(RankedTensorType::get(*batch, a.getElementType()));
  return success();
}

bool MatmulOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return isAccumulatorCompatible(l, r);
}

//===----------------------------------------------------------------------===//
// Convolution geometry (conv2d and its gradients)
//===----------------------------------------------------------------------===//

namespace {
/// What the diagnostics call the convolution's input and filter: for the
/// gradients one of them is the op's result.
struct ConvNames {
  StringRef input = "input";
  StringRef filter = "filter";
};
} // namespace

/// Output shape of an NCHW x OIHW convolution, with every check on the
/// geometry attributes and on channel/group consistency.
static FailureOr<Shape>
inferConvOutputShape(Loc loc, ArrayRef<int64_t> in, ArrayRef<int64_t> filter,
                     ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
                     ArrayRef<int64_t> dilation, int64_t groups,
                     ConvNames names = {}) {
  if (in.size() != 4)
    return emitOptionalError(loc, names.input, " must be rank 4 (NCHW), got ",
                             fmtShape(in));
  if (filter.size() != 4)
    return emitOptionalError(loc, names.filter, " must be rank 4 (OIHW), got ",
                             fmtShape(filter));
  if (filter[2] < 1 || filter[3] < 1)
    return emitOptionalError(loc, names.filter,
                             " must have a kernel of at least 1x1, got ",
                             fmtShape(filter));
  if (strides.size() != 2 ||
      llvm::any_of(strides, [](int64_t s) { return s <= 0; }))
    return emitOptionalError(loc, "strides must be 2 positive values, got ",
                             fmtShape(strides));
  if (dilation.size() != 2 ||
      llvm::any_of(dilation, [](int64_t s) { return s <= 0; }))
    return emitOptionalError(loc, "dilation must be 2 positive values, got ",
                             fmtShape(dilation));
  if (padding.size() != 4 ||
      llvm::any_of(padding, [](int64_t p) { return p < 0; }))
    return emitOptionalError(loc,
                             "padding must be 4 non-negative values [top, "
                             "left, bottom, right], got ",
                             fmtShape(padding));
  if (groups <= 0)
    return emitOptionalError(loc, "groups must be positive, got ", groups);
  int64_t c = in[1], o = filter[0];
  if (c % groups != 0 || o % groups != 0)
    return emitOptionalError(loc, "groups = ", groups,
                             " must divide the input channels (", c,
                             ") and the output channels (", o, ")");
  if (filter[1] * groups != c)
    return emitOptionalError(loc, names.filter, " has ", filter[1],
                             " input channels per group but ", names.input,
                             " has ", c, " channels in ", groups, " group(s)");
  Shape out = {in[0], o, 0, 0};
  for (int i = 0; i < 2; ++i) {
    int64_t padded = in[2 + i] + padding[i] + padding[2 + i];
    int64_t window = dilation[i] * (filter[2 + i] - 1) + 1;
    if (window > padded)
      return emitOptionalError(loc, "dilated kernel extent ", window,
                               " exceeds the padded input extent ", padded,
                               " in spatial dimension ", i);
    out[2 + i] = (padded - window) / strides[i] + 1;
  }
  return out;
}

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *, Loc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  auto in = tensorOf(adaptor.getInput()), f = tensorOf(adaptor.getFilter());
  if (!in || !f)
    return emitOptionalError(loc, "expects ranked tensor operands");
  if (failed(requireSameElementType(loc, in, f, "input", "filter")))
    return failure();
  FailureOr<Shape> out = inferConvOutputShape(
      loc, in.getShape(), f.getShape(), adaptor.getStrides(),
      adaptor.getPadding(), adaptor.getDilation(), adaptor.getGroups());
  if (failed(out))
    return failure();
  inferred.push_back(RankedTensorType::get(*out, in.getElementType()));
  return success();
}

bool Conv2DOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return isAccumulatorCompatible(l, r);
}

/// Checks that a convolution with the given input and filter shapes produces
/// `gradOutput`'s shape: the consistency condition of both conv gradients.
template <typename GradOp>
static LogicalResult verifyConvGrad(GradOp op, ArrayRef<int64_t> inputShape,
                                    ArrayRef<int64_t> filterShape,
                                    Type operandElem, ConvNames names) {
  FailureOr<Shape> out = inferConvOutputShape(
      op.getLoc(), inputShape, filterShape, op.getStrides(), op.getPadding(),
      op.getDilation(), op.getGroups(), names);
  if (failed(out))
    return failure();
  ArrayRef<int64_t> dy = op.getGradOutput().getType().getShape();
  if (ArrayRef<int64_t>(*out) != dy)
    return op.emitOpError("grad_output has shape ")
           << fmtShape(dy) << " but the forward convolution of input "
           << fmtShape(inputShape) << " with filter " << fmtShape(filterShape)
           << " produces " << fmtShape(*out);
  return verifyAccumulatorResult(op, operandElem, op.getType());
}

LogicalResult Conv2DGradInputOp::verify() {
  if (failed(requireSameElementType(getLoc(), getGradOutput().getType(),
                                    getFilter().getType(), "grad_output",
                                    "filter")))
    return failure();
  return verifyConvGrad(*this, getType().getShape(),
                        getFilter().getType().getShape(),
                        getFilter().getType().getElementType(),
                        {"the result (input gradient)", "filter"});
}

LogicalResult Conv2DGradFilterOp::verify() {
  if (failed(requireSameElementType(getLoc(), getGradOutput().getType(),
                                    getInput().getType(), "grad_output",
                                    "input")))
    return failure();
  return verifyConvGrad(*this, getInput().getType().getShape(),
                        getType().getShape(),
                        getInput().getType().getElementType(),
                        {"input", "the result (filter gradient)"});
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

/// Scale and bias of a normalization are f32 or the input's element type.
static LogicalResult checkAffineParam(Loc loc, RankedTensorType param,
                                      RankedTensorType input,
                                      ArrayRef<int64_t> shape, StringRef name,
                                      StringRef why) {
  if (failed(requireShape(loc, param, shape, name, why)))
    return failure();
  Type e = param.getElementType();
  if (e != input.getElementType() && !e.isF32())
    return emitOptionalError(loc, name,
                             " element type must be f32 or the "
                             "input's (",
                             input.getElementType(), "), got ", e);
  return success();
}

/// The statistics shape of a batch norm ([C]) or a layer norm (leading dims).
static FailureOr<std::pair<Shape, Shape>>
normStatShapes(Loc loc, RankedTensorType in, bool isBatchNorm, int64_t axis) {
  ArrayRef<int64_t> s = in.getShape();
  if (isBatchNorm) {
    if (in.getRank() < 2)
      return emitOptionalError(loc,
                               "input must have rank >= 2 (N, C, ...), "
                               "got ",
                               fmtShape(s));
    return std::make_pair(Shape{s[1]}, Shape{s[1]});
  }
  FailureOr<int64_t> a = normalizeAxis(loc, axis, in.getRank());
  if (failed(a))
    return failure();
  return std::make_pair(Shape(s.take_front(*a)), Shape(s.drop_front(*a)));
}

/// Shared by both normalizations: the output has the input's type, the two
/// statistics are f32 with the statistics shape, and scale and bias have the
/// normalized shape.
static LogicalResult inferNorm(MLIRContext *ctx, Loc loc, bool isBatchNorm,
                               int64_t axis, Value inputV, Value scaleV,
                               Value biasV, SmallVectorImpl<Type> &inferred) {
  auto in = tensorOf(inputV);
  if (!in)
    return emitOptionalError(loc, "expects a ranked tensor input");
  auto shapes = normStatShapes(loc, in, isBatchNorm, axis);
  StringRef why = isBatchNorm ? "[C]" : "the normalized shape";
  if (failed(shapes) ||
      failed(checkAffineParam(loc, tensorOf(scaleV), in, shapes->second,
                              "scale", why)) ||
      failed(checkAffineParam(loc, tensorOf(biasV), in, shapes->second, "bias",
                              why)))
    return failure();
  auto stat = RankedTensorType::get(shapes->first, Float32Type::get(ctx));
  inferred.append({in, stat, stat});
  return success();
}

LogicalResult BatchNormOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  return inferNorm(ctx, loc, /*isBatchNorm=*/true, 0, adaptor.getInput(),
                   adaptor.getScale(), adaptor.getBias(), inferred);
}

LogicalResult BatchNormOp::verify() {
  return checkAttrLowerBound(*this, "epsilon", getEpsilon().convertToFloat(),
                             0.0f, /*strict=*/false);
}

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  return inferNorm(ctx, loc, /*isBatchNorm=*/false, adaptor.getAxis(),
                   adaptor.getInput(), adaptor.getScale(), adaptor.getBias(),
                   inferred);
}

LogicalResult LayerNormOp::verify() {
  return checkAttrLowerBound(*this, "epsilon", getEpsilon().convertToFloat(),
                             0.0f, /*strict=*/false);
}

/// Shared by both normalization gradients: dy and x agree, the saved
/// statistics and the scale have the forward op's shapes.
static LogicalResult inferNormGrad(Loc loc, bool isBatchNorm, int64_t axis,
                                   Value dyV, Value xV, Value meanV,
                                   Value statV, StringRef statName,
                                   Value scaleV,
                                   SmallVectorImpl<Type> &inferred) {
  auto dy = tensorOf(dyV), x = tensorOf(xV), mean = tensorOf(meanV),
       stat = tensorOf(statV), scale = tensorOf(scaleV);
  if (!dy || !x || !mean || !stat || !scale)
    return emitOptionalError(loc, "expects ranked tensor operands");
  if (dy != x)
    return emitOptionalError(loc, "grad_output must have the input's type ", x,
                             ", got ", dy);
  auto shapes = normStatShapes(loc, x, isBatchNorm, axis);
  if (failed(shapes))
    return failure();
  StringRef statWhy = isBatchNorm ? "[C]" : "the input's leading dimensions";
  if (failed(requireShape(loc, mean, shapes->first, "mean", statWhy)) ||
      failed(requireShape(loc, stat, shapes->first, statName, statWhy)) ||
      failed(checkAffineParam(loc, scale, x, shapes->second, "scale",
                              isBatchNorm ? "[C]" : "the normalized shape")))
    return failure();
  inferred.append({x, scale, scale});
  return success();
}

LogicalResult
LayerNormGradOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  return inferNormGrad(loc, /*isBatchNorm=*/false, adaptor.getAxis(),
                       adaptor.getGradOutput(), adaptor.getInput(),
                       adaptor.getMean(), adaptor.getRstd(), "rstd",
                       adaptor.getScale(), inferred);
}

LogicalResult
BatchNormGradOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  return inferNormGrad(loc, /*isBatchNorm=*/true, 0, adaptor.getGradOutput(),
                       adaptor.getInput(), adaptor.getMean(),
                       adaptor.getInvstd(), "invstd", adaptor.getScale(),
                       inferred);
}

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxOp::verify() {
  return normalizeAxis(getLoc(), getAxis(), getType().getRank());
}

LogicalResult LogSoftmaxOp::verify() {
  return normalizeAxis(getLoc(), getAxis(), getType().getRank());
}

LogicalResult SoftmaxGradOp::verify() {
  return normalizeAxis(getLoc(), getAxis(), getType().getRank());
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

static LogicalResult inferReduction(Loc loc, Value inputV,
                                    ArrayRef<int64_t> axes, bool keepDims,
                                    SmallVectorImpl<Type> &inferred) {
  auto in = tensorOf(inputV);
  if (!in)
    return emitOptionalError(loc, "expects a ranked tensor input");
  if (axes.empty())
    return emitOptionalError(loc, "axes must not be empty");
  llvm::SmallSet<int64_t, 4> reduced;
  for (int64_t axis : axes) {
    FailureOr<int64_t> a = normalizeAxis(loc, axis, in.getRank());
    if (failed(a))
      return failure();
    if (!reduced.insert(*a).second)
      return emitOptionalError(loc, "axis ", axis,
                               " is reduced more than once in axes ",
                               fmtShape(axes));
  }
  Shape out;
  for (auto [i, d] : llvm::enumerate(in.getShape())) {
    if (!reduced.contains(i))
      out.push_back(d);
    else if (keepDims)
      out.push_back(1);
  }
  inferred.push_back(RankedTensorType::get(out, in.getElementType()));
  return success();
}

#define AMP_NN_REDUCE_INFER(OP)                                                \
  LogicalResult OP::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,  \
                                     SmallVectorImpl<Type> &inferred) {        \
    return inferReduction(loc, adaptor.getInput(), adaptor.getAxes(),          \
                          adaptor.getKeepDims(), inferred);                    \
  }                                                                            \
  bool OP::isCompatibleReturnTypes(TypeRange l, TypeRange r) {                 \
    return isAccumulatorCompatible(l, r);                                      \
  }
AMP_NN_REDUCE_INFER(ReduceSumOp)
AMP_NN_REDUCE_INFER(ReduceMeanOp)
AMP_NN_REDUCE_INFER(ReduceMaxOp)
#undef AMP_NN_REDUCE_INFER

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  RankedTensorType in = getInput().getType(), out = getType();
  if (failed(requireSameElementType(getLoc(), in, out, "input", "result")))
    return failure();
  if (in.getNumElements() != out.getNumElements())
    return emitOpError("cannot reshape ")
           << fmtShape(in.getShape()) << " (" << in.getNumElements()
           << " elements) to " << fmtShape(out.getShape()) << " ("
           << out.getNumElements() << " elements)";
  return success();
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  auto in = tensorOf(adaptor.getInput());
  if (!in)
    return emitOptionalError(loc, "expects a ranked tensor input");
  ArrayRef<int64_t> perm = adaptor.getPerm();
  int64_t rank = in.getRank();
  SmallVector<bool> seen(rank, false);
  bool valid = static_cast<int64_t>(perm.size()) == rank;
  for (int64_t p : perm) {
    if (!valid || p < 0 || p >= rank || seen[p]) {
      valid = false;
      break;
    }
    seen[p] = true;
  }
  if (!valid)
    return emitOptionalError(loc, "perm ", fmtShape(perm),
                             " is not a permutation of the ", rank,
                             " dimensions of the input");
  Shape out;
  for (int64_t p : perm)
    out.push_back(in.getDimSize(p));
  inferred.push_back(RankedTensorType::get(out, in.getElementType()));
  return success();
}

LogicalResult BroadcastToOp::verify() {
  RankedTensorType in = getInput().getType(), out = getType();
  if (failed(requireSameElementType(getLoc(), in, out, "input", "result")))
    return failure();
  FailureOr<Shape> shape =
      broadcastShapes(getLoc(), in.getShape(), out.getShape(), "shapes");
  if (failed(shape))
    return failure();
  if (ArrayRef<int64_t>(*shape) != out.getShape())
    return emitOpError("cannot broadcast ")
           << fmtShape(in.getShape()) << " to " << fmtShape(out.getShape())
           << ": the result must be at least as large in every dimension";
  return success();
}

//===----------------------------------------------------------------------===//
// Embedding and loss
//===----------------------------------------------------------------------===//

LogicalResult EmbeddingOp::inferReturnTypes(MLIRContext *, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  auto table = tensorOf(adaptor.getTable()), ids = tensorOf(adaptor.getIds());
  if (!table || !ids)
    return emitOptionalError(loc, "expects ranked tensor operands");
  if (table.getRank() != 2)
    return emitOptionalError(loc, "table must be rank 2 [V, D], got ",
                             fmtShape(table.getShape()));
  Shape out(ids.getShape());
  out.push_back(table.getDimSize(1));
  inferred.push_back(RankedTensorType::get(out, table.getElementType()));
  return success();
}

LogicalResult EmbeddingGradOp::verify() {
  RankedTensorType dy = getGradOutput().getType(), ids = getIds().getType(),
                   out = getType();
  if (dy.getRank() != ids.getRank() + 1 ||
      dy.getShape().drop_back() != ids.getShape())
    return emitOpError("grad_output must have shape ids.shape + [D] = ")
           << fmtShape(ids.getShape()) << " + [D], got "
           << fmtShape(dy.getShape());
  if (out.getRank() != 2 || out.getDimSize(1) != dy.getShape().back())
    return emitOpError("result must be the table shape [V, ")
           << dy.getShape().back() << "], got " << fmtShape(out.getShape());
  return verifyAccumulatorResult(*this, dy.getElementType(), out);
}

/// logits [..., C] against labels [...].
static LogicalResult checkLogitsAndLabels(Loc loc, RankedTensorType logits,
                                          RankedTensorType labels) {
  if (logits.getRank() < 1)
    return emitOptionalError(loc, "logits must have rank >= 1 [..., C]");
  if (labels.getShape() != logits.getShape().drop_back())
    return emitOptionalError(loc, "labels must have shape ",
                             fmtShape(logits.getShape().drop_back()),
                             " (the logits' shape without the class "
                             "dimension), got ",
                             fmtShape(labels.getShape()));
  return success();
}

LogicalResult CrossEntropyOp::verify() {
  return checkLogitsAndLabels(getLoc(), getLogits().getType(),
                              getLabels().getType());
}

LogicalResult
CrossEntropyGradOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                     SmallVectorImpl<Type> &inferred) {
  auto logits = tensorOf(adaptor.getLogits()),
       labels = tensorOf(adaptor.getLabels());
  if (!logits || !labels)
    return emitOptionalError(loc, "expects ranked tensor operands");
  if (failed(checkLogitsAndLabels(loc, logits, labels)))
    return failure();
  inferred.push_back(logits);
  return success();
}

//===----------------------------------------------------------------------===//
// Optimizers
//===----------------------------------------------------------------------===//

static LogicalResult requireParamType(Loc loc, Value v, Type param,
                                      StringRef name) {
  if (v.getType() != param)
    return emitOptionalError(loc, name, " must have the param's type ", param,
                             ", got ", v.getType());
  return success();
}

LogicalResult SgdUpdateOp::inferReturnTypes(MLIRContext *, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  Type param = adaptor.getParam().getType();
  if (failed(requireParamType(loc, adaptor.getGrad(), param, "grad")))
    return failure();
  inferred.push_back(param);
  if (Value buf = adaptor.getMomentumBuffer()) {
    if (failed(requireParamType(loc, buf, param, "momentum_buffer")))
      return failure();
    inferred.push_back(param);
  }
  return success();
}

LogicalResult SgdUpdateOp::verify() {
  float momentum = getMomentum().convertToFloat();
  if (failed(checkAttrLowerBound(*this, "lr", getLr().convertToFloat(), 0.0f,
                                 false)) ||
      failed(checkAttrLowerBound(*this, "momentum", momentum, 0.0f, false)) ||
      failed(checkAttrUnitInterval(*this, "dampening",
                                   getDampening().convertToFloat(), true)) ||
      failed(checkAttrLowerBound(*this, "weight_decay",
                                 getWeightDecay().convertToFloat(), 0.0f,
                                 false)))
    return failure();
  bool hasBuffer = static_cast<bool>(getMomentumBuffer());
  if ((momentum > 0.0f) != hasBuffer)
    return emitOpError(hasBuffer
                           ? "has a momentum buffer but momentum = 0; drop "
                             "the buffer or set momentum > 0"
                           : "momentum > 0 requires a momentum buffer operand");
  if (getNesterov() &&
      (momentum <= 0.0f || getDampening().convertToFloat() != 0.0f))
    return emitOpError("nesterov requires momentum > 0 and dampening = 0");
  return success();
}

LogicalResult AdamUpdateOp::inferReturnTypes(MLIRContext *, Loc loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  Type param = adaptor.getParam().getType();
  if (failed(requireParamType(loc, adaptor.getGrad(), param, "grad")) ||
      failed(requireParamType(loc, adaptor.getExpAvg(), param, "exp_avg")) ||
      failed(requireParamType(loc, adaptor.getExpAvgSq(), param, "exp_avg_sq")))
    return failure();
  inferred.append({param, param, param, adaptor.getStep().getType()});
  return success();
}

LogicalResult AdamUpdateOp::verify() {
  if (failed(checkAttrLowerBound(*this, "lr", getLr().convertToFloat(), 0.0f,
                                 false)) ||
      failed(checkAttrUnitInterval(*this, "beta1", getBeta1().convertToFloat(),
                                   false)) ||
      failed(checkAttrUnitInterval(*this, "beta2", getBeta2().convertToFloat(),
                                   false)) ||
      failed(checkAttrLowerBound(*this, "eps", getEps().convertToFloat(), 0.0f,
                                 false)) ||
      failed(checkAttrLowerBound(*this, "weight_decay",
                                 getWeightDecay().convertToFloat(), 0.0f,
                                 false)))
    return failure();
  return success();
}

LogicalResult
ClipGradNormOp::inferReturnTypes(MLIRContext *ctx, Loc loc, Adaptor adaptor,
                                 SmallVectorImpl<Type> &inferred) {
  if (adaptor.getGrads().empty())
    return emitOptionalError(loc, "expects at least one gradient");
  llvm::append_range(inferred, adaptor.getGrads().getTypes());
  inferred.push_back(RankedTensorType::get({}, Float32Type::get(ctx)));
  return success();
}

LogicalResult ClipGradNormOp::verify() {
  // max_norm = inf is allowed: the op then only measures the norm.
  return checkAttrLowerBound(*this, "max_norm", getMaxNorm().convertToFloat(),
                             0.0f, /*strict=*/true, /*allowInf=*/true);
}

#define GET_OP_CLASSES
#include "amp/Dialect/NN/IR/NNOps.cpp.inc"
