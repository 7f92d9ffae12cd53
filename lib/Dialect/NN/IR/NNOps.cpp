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
#include "llvm/Support/Format.h"

#include "amp_runtime/checked_size.h"

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

/// Numpy broadcasting of two shapes; nullopt when they do not broadcast.
static std::optional<Shape> tryBroadcast(ArrayRef<int64_t> a,
                                         ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    out[rank - 1 - i] = da == 1 ? db : da;
  }
  return out;
}

static FailureOr<Shape> broadcastShapes(Loc loc, ArrayRef<int64_t> a,
                                        ArrayRef<int64_t> b, StringRef what) {
  std::optional<Shape> out = tryBroadcast(a, b);
  if (!out)
    return emitOptionalError(loc, what, " ", fmtShape(a), " and ", fmtShape(b),
                             " are not broadcast-compatible");
  return *out;
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
AMP_NN_BINARY_INFER(MaximumOp)
AMP_NN_BINARY_INFER(MinimumOp)
AMP_NN_BINARY_INFER(PowfOp)
AMP_NN_BINARY_INFER(ModOp)
#undef AMP_NN_BINARY_INFER

/// The bounds of nn.clamp and nn.clamp_grad: at least one, neither NaN, and
/// min <= max.
static LogicalResult verifyClampBounds(Operation *op,
                                       std::optional<APFloat> min,
                                       std::optional<APFloat> max) {
  if (!min && !max)
    return op->emitOpError("requires at least one of min and max");
  if ((min && min->isNaN()) || (max && max->isNaN()))
    return op->emitOpError("min and max must not be NaN");
  if (min && max && max->compare(*min) == APFloat::cmpLessThan)
    return op->emitOpError()
           << "min = " << fmtFloat(min->convertToFloat())
           << " must be <= max = " << fmtFloat(max->convertToFloat());
  return success();
}

LogicalResult ClampOp::verify() {
  return verifyClampBounds(*this, getMin(), getMax());
}

LogicalResult ClampGradOp::verify() {
  return verifyClampBounds(*this, getMin(), getMax());
}

LogicalResult WhereOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  auto cond = tensorOf(adaptor.getCond()), l = tensorOf(adaptor.getLhs()),
       r = tensorOf(adaptor.getRhs());
  if (!cond || !l || !r)
    return emitOptionalError(loc, "expects ranked tensor operands");
  if (failed(requireSameElementType(loc, l, r, "lhs", "rhs")))
    return failure();
  std::optional<Shape> shape = tryBroadcast(l.getShape(), r.getShape());
  if (shape)
    shape = tryBroadcast(cond.getShape(), *shape);
  if (!shape)
    return emitOptionalError(loc, "cond ", fmtShape(cond.getShape()), ", lhs ",
                             fmtShape(l.getShape()), " and rhs ",
                             fmtShape(r.getShape()),
                             " are not broadcast-compatible");
  inferred.push_back(RankedTensorType::get(*shape, l.getElementType()));
  return success();
}

LogicalResult CompareOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  SmallVector<Type, 1> broadcast;
  if (failed(inferBroadcastBinary(loc, adaptor.getLhs(), adaptor.getRhs(),
                                  broadcast)))
    return failure();
  inferred.push_back(cast<RankedTensorType>(broadcast.front())
                         .clone(IntegerType::get(ctx, 1)));
  return success();
}

bool CompareOp::holds(ComparePredicate predicate, double lhs, double rhs) {
  switch (predicate) {
  case ComparePredicate::EQ:
    return lhs == rhs;
  case ComparePredicate::NE:
    return lhs != rhs;
  case ComparePredicate::LT:
    return lhs < rhs;
  case ComparePredicate::LE:
    return lhs <= rhs;
  case ComparePredicate::GT:
    return lhs > rhs;
  case ComparePredicate::GE:
    return lhs >= rhs;
  }
  llvm_unreachable("the verifier accepts only the six predicates");
}

LogicalResult ConvertOp::verify() {
  RankedTensorType in = getInput().getType(), out = getType();
  if (in.getShape() != out.getShape())
    return emitOpError("the result shape ")
           << fmtShape(out.getShape()) << " must be the input shape "
           << fmtShape(in.getShape());
  if (isa<FloatType>(in.getElementType()) &&
      isa<FloatType>(out.getElementType()))
    return emitOpError("converts ")
           << in.getElementType() << " to " << out.getElementType()
           << ": conversions between float types are the precision passes' "
              "(amp.cast); nn.convert needs an integer or i1 side";
  return success();
}

LogicalResult DropoutOp::verify() {
  return checkAttrUnitInterval(*this, "rate", getRate().convertToFloat(),
                               /*closedAbove=*/false);
}

/// Gradients of the broadcasting binary ops: lhs and rhs broadcast to dy's
/// shape, and both gradients have dy's type.
static LogicalResult inferBinaryGrad(Loc loc, Value dyV, Value lhsV, Value rhsV,
                                     SmallVectorImpl<Type> &inferred) {
  auto dy = tensorOf(dyV), l = tensorOf(lhsV), r = tensorOf(rhsV);
  if (!dy || !l || !r)
    return emitOptionalError(loc, "expects ranked tensor operands");
  if (failed(requireSameElementType(loc, l, r, "lhs", "rhs")) ||
      failed(requireSameElementType(loc, dy, l, "grad_output", "lhs")))
    return failure();
  FailureOr<Shape> shape =
      broadcastShapes(loc, l.getShape(), r.getShape(), "operand shapes");
  if (failed(shape))
    return failure();
  if (ArrayRef<int64_t>(*shape) != dy.getShape())
    return emitOptionalError(
        loc, "grad_output has shape ", fmtShape(dy.getShape()), " but lhs ",
        fmtShape(l.getShape()), " and rhs ", fmtShape(r.getShape()),
        " broadcast to ", fmtShape(*shape));
  inferred.append({dy, dy});
  return success();
}

#define AMP_NN_BINARY_GRAD_INFER(OP)                                           \
  LogicalResult OP::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,  \
                                     SmallVectorImpl<Type> &inferred) {        \
    return inferBinaryGrad(loc, adaptor.getGradOutput(), adaptor.getLhs(),     \
                           adaptor.getRhs(), inferred);                        \
  }
AMP_NN_BINARY_GRAD_INFER(MaximumGradOp)
AMP_NN_BINARY_GRAD_INFER(MinimumGradOp)
#undef AMP_NN_BINARY_GRAD_INFER

LogicalResult WhereGradOp::inferReturnTypes(MLIRContext *, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  auto dy = tensorOf(adaptor.getGradOutput()),
       cond = tensorOf(adaptor.getCond());
  if (!dy || !cond)
    return emitOptionalError(loc, "expects ranked tensor operands");
  std::optional<Shape> shape = tryBroadcast(cond.getShape(), dy.getShape());
  if (!shape || ArrayRef<int64_t>(*shape) != dy.getShape())
    return emitOptionalError(loc, "cond ", fmtShape(cond.getShape()),
                             " does not broadcast to grad_output's shape ",
                             fmtShape(dy.getShape()));
  inferred.append({dy, dy});
  return success();
}

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
// Window geometry (conv2d, the pools and their gradients)
//===----------------------------------------------------------------------===//

/// Checks that `values` holds `count` positive entries.
static LogicalResult checkPositiveValues(Loc loc, StringRef name,
                                         ArrayRef<int64_t> values,
                                         size_t count = 2) {
  if (values.size() != count ||
      llvm::any_of(values, [](int64_t v) { return v <= 0; }))
    return emitOptionalError(loc, name, " must be ", count,
                             " positive values, got ", fmtShape(values));
  return success();
}

/// The attributes every 2-D window op shares.
static LogicalResult checkWindowAttrs(Loc loc, ArrayRef<int64_t> strides,
                                      ArrayRef<int64_t> padding,
                                      ArrayRef<int64_t> dilation) {
  if (failed(checkPositiveValues(loc, "strides", strides)) ||
      failed(checkPositiveValues(loc, "dilation", dilation)))
    return failure();
  if (padding.size() != 4 ||
      llvm::any_of(padding, [](int64_t p) { return p < 0; }))
    return emitOptionalError(loc,
                             "padding must be 4 non-negative values [top, "
                             "left, bottom, right], got ",
                             fmtShape(padding));
  return success();
}

/// The output extent of spatial dimension `dim` (0 = H, 1 = W) of a window
/// op: (in + lo + hi - dilation * (kernel - 1) - 1) / stride + 1. The
/// attributes are checked already; attribute values near the int64 limits
/// are reported instead of wrapping.
static FailureOr<int64_t> windowOutputExtent(Loc loc, int dim, int64_t in,
                                             int64_t padLo, int64_t padHi,
                                             int64_t kernel, int64_t stride,
                                             int64_t dilation) {
  amp::checked::WindowExtent e =
      amp::checked::windowExtent(in, padLo, padHi, kernel, stride, dilation);
  if (!e.padded)
    return emitOptionalError(loc, "padded input extent (", in, " + ", padLo,
                             " + ", padHi,
                             ") overflows int64 in spatial dimension ", dim);
  if (!e.window)
    return emitOptionalError(
        loc, "dilated kernel extent (", dilation, " * (", kernel,
        " - 1) + 1) overflows int64 in spatial dimension ", dim);
  if (!e.output)
    return emitOptionalError(loc, "dilated kernel extent ", *e.window,
                             " exceeds the padded input extent ", *e.padded,
                             " in spatial dimension ", dim);
  return *e.output;
}

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
  if (failed(checkWindowAttrs(loc, strides, padding, dilation)))
    return failure();
  if (groups <= 0)
    return emitOptionalError(loc, "groups must be positive, got ", groups);
  int64_t c = in[1], o = filter[0];
  if (c % groups != 0 || o % groups != 0)
    return emitOptionalError(loc, "groups = ", groups,
                             " must divide the input channels (", c,
                             ") and the output channels (", o, ")");
  if (filter[1] != c / groups) // not filter[1] * groups: that may overflow
    return emitOptionalError(loc, names.filter, " has ", filter[1],
                             " input channels per group but ", names.input,
                             " has ", c, " channels in ", groups, " group(s)");
  Shape out = {in[0], o, 0, 0};
  for (int i = 0; i < 2; ++i) {
    FailureOr<int64_t> extent =
        windowOutputExtent(loc, i, in[2 + i], padding[i], padding[2 + i],
                           filter[2 + i], strides[i], dilation[i]);
    if (failed(extent))
      return failure();
    out[2 + i] = *extent;
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
// Pooling
//===----------------------------------------------------------------------===//

namespace {
/// The window of a pool op; the average pools have no dilation.
struct PoolGeometry {
  ArrayRef<int64_t> kernel, strides, padding, dilation;
};
} // namespace

static constexpr int64_t kNoDilation[] = {1, 1};

template <typename OpOrAdaptor>
static PoolGeometry maxPoolGeometry(OpOrAdaptor op) {
  return {op.getKernel(), op.getStrides(), op.getPadding(), op.getDilation()};
}

template <typename OpOrAdaptor>
static PoolGeometry avgPoolGeometry(OpOrAdaptor op) {
  return {op.getKernel(), op.getStrides(), op.getPadding(), kNoDilation};
}

/// Output shape of a 2-D pool over an NCHW input, with every check on the
/// geometry attributes.
static FailureOr<Shape> inferPoolOutputShape(Loc loc, ArrayRef<int64_t> in,
                                             const PoolGeometry &g,
                                             StringRef inputName = "input") {
  if (in.size() != 4)
    return emitOptionalError(loc, inputName, " must be rank 4 (NCHW), got ",
                             fmtShape(in));
  if (failed(checkPositiveValues(loc, "kernel", g.kernel)) ||
      failed(checkWindowAttrs(loc, g.strides, g.padding, g.dilation)))
    return failure();
  Shape out = {in[0], in[1], 0, 0};
  for (int i = 0; i < 2; ++i) {
    FailureOr<int64_t> extent =
        windowOutputExtent(loc, i, in[2 + i], g.padding[i], g.padding[2 + i],
                           g.kernel[i], g.strides[i], g.dilation[i]);
    if (failed(extent))
      return failure();
    out[2 + i] = *extent;
  }
  return out;
}

static LogicalResult inferPool(Loc loc, Value inputV, const PoolGeometry &g,
                               SmallVectorImpl<Type> &inferred) {
  auto in = tensorOf(inputV);
  if (!in)
    return emitOptionalError(loc, "expects a ranked tensor input");
  FailureOr<Shape> out = inferPoolOutputShape(loc, in.getShape(), g);
  if (failed(out))
    return failure();
  inferred.push_back(RankedTensorType::get(*out, in.getElementType()));
  return success();
}

LogicalResult MaxPool2DOp::inferReturnTypes(MLIRContext *, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  return inferPool(loc, adaptor.getInput(), maxPoolGeometry(adaptor), inferred);
}

LogicalResult AvgPool2DOp::inferReturnTypes(MLIRContext *, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  return inferPool(loc, adaptor.getInput(), avgPoolGeometry(adaptor), inferred);
}

LogicalResult
GlobalAvgPoolOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  auto in = tensorOf(adaptor.getInput());
  if (!in)
    return emitOptionalError(loc, "expects a ranked tensor input");
  if (in.getRank() != 4)
    return emitOptionalError(loc, "input must be rank 4 (NCHW), got ",
                             fmtShape(in.getShape()));
  inferred.push_back(RankedTensorType::get(
      {in.getDimSize(0), in.getDimSize(1), 1, 1}, in.getElementType()));
  return success();
}

/// The consistency condition of both pool gradients: pooling an input of
/// shape `inputShape` produces grad_output's shape.
static LogicalResult checkPoolGrad(Loc loc, RankedTensorType dy,
                                   RankedTensorType input,
                                   const PoolGeometry &g, StringRef inputName) {
  if (failed(requireSameElementType(loc, dy, input, "grad_output", inputName)))
    return failure();
  FailureOr<Shape> out =
      inferPoolOutputShape(loc, input.getShape(), g, inputName);
  if (failed(out))
    return failure();
  if (ArrayRef<int64_t>(*out) != dy.getShape())
    return emitOptionalError(
        loc, "grad_output has shape ", fmtShape(dy.getShape()),
        " but the forward pooling of ", inputName, " ",
        fmtShape(input.getShape()), " produces ", fmtShape(*out));
  return success();
}

LogicalResult
MaxPool2DGradOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  auto dy = tensorOf(adaptor.getGradOutput()),
       in = tensorOf(adaptor.getInput());
  if (!dy || !in)
    return emitOptionalError(loc, "expects ranked tensor operands");
  if (failed(checkPoolGrad(loc, dy, in, maxPoolGeometry(adaptor), "input")))
    return failure();
  inferred.push_back(in);
  return success();
}

LogicalResult AvgPool2DGradOp::verify() {
  return checkPoolGrad(getLoc(), getGradOutput().getType(), getType(),
                       avgPoolGeometry(*this), "the result (input gradient)");
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

int64_t BatchNormOp::valuesPerChannel(RankedTensorType input) {
  int64_t channels = input.getDimSize(1);
  return channels ? input.getNumElements() / channels : 0;
}

double RunningStatsUpdateOp::getVarianceCorrection() {
  double count = static_cast<double>(getCountAttr().getInt());
  return getUnbiased() ? count / (count - 1) : 1.0;
}

LogicalResult RunningStatsUpdateOp::verify() {
  if (getRunningMean().getType().getRank() != 1)
    return emitOpError() << "the statistics must be 1-D (one value per "
                            "channel), got "
                         << getRunningMean().getType();
  if (failed(checkAttrUnitInterval(*this, "momentum",
                                   getMomentum().convertToFloat(),
                                   /*closedAbove=*/true)) ||
      failed(checkAttrLowerBound(*this, "epsilon",
                                 getEpsilon().convertToFloat(), 0.0f,
                                 /*strict=*/false)))
    return failure();
  // The attribute as written (getCount() would read -1 as 2^64 - 1).
  int64_t count = getCountAttr().getInt();
  int64_t minCount = getUnbiased() ? 2 : 1;
  if (count < minCount)
    return emitOpError() << "count must be >= " << minCount
                         << (getUnbiased() ? " for the unbiased variance" : "")
                         << ", got " << count;
  // The batch norm the statistics come from fixes count and epsilon.
  auto norm = getMean().getDefiningOp<BatchNormOp>();
  if (!norm || norm.getMean() != getMean() || norm.getInvstd() != getInvstd())
    return success();
  int64_t normCount = BatchNormOp::valuesPerChannel(
      cast<RankedTensorType>(norm.getInput().getType()));
  if (normCount != 0 && count != normCount)
    return emitOpError() << "count must be " << normCount
                         << ", the values per channel of the nn.batch_norm "
                            "its statistics come from; got "
                         << count;
  if (getEpsilon() != norm.getEpsilon())
    return emitOpError() << "epsilon must be the nn.batch_norm's ("
                         << fmtFloat(norm.getEpsilon().convertToFloat())
                         << "), got "
                         << fmtFloat(getEpsilon().convertToFloat());
  return success();
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
// Attention
//===----------------------------------------------------------------------===//

/// Checks nn.attention's operands (query [B..., H, Sq, D], key
/// [B..., Hkv, Sk, D], value [B..., Hkv, Sk, Dv] with Hkv = H or dividing
/// it, a mask that broadcasts to [B..., H, Sq, Sk]) and infers its output
/// and log-sum-exp types.
LogicalResult amp::nn::inferAttentionTypes(MLIRContext *ctx, Loc loc, Type qT,
                                           Type kT, Type vT, Type maskT,
                                           SmallVectorImpl<Type> &inferred) {
  auto q = dyn_cast<RankedTensorType>(qT), k = dyn_cast<RankedTensorType>(kT),
       v = dyn_cast<RankedTensorType>(vT);
  if (!q || !k || !v)
    return emitOptionalError(loc, "expects ranked tensor operands");
  if (q.getRank() < 2)
    return emitOptionalError(loc,
                             "query must have rank >= 2 ([..., Sq, D]), "
                             "got ",
                             fmtShape(q.getShape()));
  if (failed(requireSameElementType(loc, q, k, "query", "key")) ||
      failed(requireSameElementType(loc, q, v, "query", "value")))
    return failure();
  ArrayRef<int64_t> qs = q.getShape();
  int64_t rank = q.getRank(), sq = qs[rank - 2], d = qs[rank - 1];
  if (k.getRank() != rank || v.getRank() != rank)
    return emitOptionalError(loc,
                             "query, key and value must have the same "
                             "rank, got ",
                             fmtShape(qs), ", ", fmtShape(k.getShape()),
                             " and ", fmtShape(v.getShape()));
  int64_t sk = k.getShape()[rank - 2], dv = v.getShape().back();
  Shape batch(qs.drop_back(2));
  // Grouped-query attention: the key's heads (its last batch dimension)
  // may be fewer than the query's, each serving H / Hkv query heads.
  Shape keyShape(batch);
  if (rank >= 3) {
    int64_t heads = qs[rank - 3], kvHeads = k.getShape()[rank - 3];
    if (kvHeads != heads &&
        (kvHeads <= 0 || heads <= 0 || heads % kvHeads != 0))
      return emitOptionalError(loc, "key has ", kvHeads, " heads (dimension ",
                               rank - 3,
                               "), which neither equals nor divides the "
                               "query's ",
                               heads);
    keyShape.back() = kvHeads;
  }
  Shape valueShape(keyShape);
  keyShape.append({sk, d});
  valueShape.append({sk, dv});
  if (failed(requireShape(loc, k, keyShape, "key",
                          "the query's batch dimensions, then [Sk, D]; "
                          "its heads may divide the query's")) ||
      failed(requireShape(loc, v, valueShape, "value",
                          "the key's batch dimensions and Sk, then Dv")))
    return failure();
  if (maskT) {
    auto mask = dyn_cast<RankedTensorType>(maskT);
    if (!mask)
      return emitOptionalError(loc, "expects a ranked tensor mask");
    Type me = mask.getElementType();
    if (!me.isF32() && me != q.getElementType())
      return emitOptionalError(loc,
                               "mask must be f32 or the query's element "
                               "type ",
                               q.getElementType(), ", got ", me);
    Shape scores(batch);
    scores.append({sq, sk});
    ArrayRef<int64_t> ms = mask.getShape();
    bool fits = mask.getRank() <= rank;
    for (int64_t i = 1; fits && i <= mask.getRank(); ++i) {
      int64_t dim = ms[ms.size() - i];
      fits = dim == 1 || dim == scores[scores.size() - i];
    }
    if (!fits)
      return emitOptionalError(loc, "mask ", fmtShape(ms),
                               " does not broadcast to the scores' shape ",
                               fmtShape(scores));
  }
  Shape lseShape(qs.drop_back());
  Shape outShape(lseShape);
  outShape.push_back(dv);
  inferred.push_back(RankedTensorType::get(outShape, q.getElementType()));
  inferred.push_back(RankedTensorType::get(lseShape, Float32Type::get(ctx)));
  return success();
}

int64_t amp::nn::attentionKvGroup(Type query, Type key) {
  ArrayRef<int64_t> q = cast<ShapedType>(query).getShape(),
                    k = cast<ShapedType>(key).getShape();
  if (q.size() < 3 || k[q.size() - 3] == 0)
    return 1;
  return q[q.size() - 3] / k[q.size() - 3];
}

static Type typeOrNull(Value v) { return v ? v.getType() : Type(); }

/// `scale`, or 1/sqrt(D) (1 when D is 0: every score is 0 then).
static float attentionScale(FloatAttr scale, Value query) {
  if (scale)
    return scale.getValue().convertToFloat();
  int64_t d = cast<RankedTensorType>(query.getType()).getShape().back();
  return d > 0 ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(d)))
               : 1.0f;
}

LogicalResult AttentionOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  return inferAttentionTypes(
      ctx, loc, adaptor.getQuery().getType(), adaptor.getKey().getType(),
      adaptor.getValue().getType(), typeOrNull(adaptor.getMask()), inferred);
}

float AttentionOp::getScaleValue() {
  return attentionScale(getScaleAttr(), getQuery());
}

/// An attention's dropout: a seed and a rate in [0, 1), both or neither.
static LogicalResult verifyAttentionDropout(Operation *op, Value seed,
                                            FloatAttr rate) {
  if (seed && !rate)
    return op->emitOpError("has a dropout seed but no dropout_rate");
  if (rate && !seed)
    return op->emitOpError("has a dropout_rate but no dropout seed");
  if (!rate)
    return success();
  return checkAttrUnitInterval(op, "dropout_rate",
                               rate.getValue().convertToFloat(),
                               /*closedAbove=*/false);
}

LogicalResult AttentionOp::verify() {
  return verifyAttentionDropout(*this, getDropout(), getDropoutRateAttr());
}

LogicalResult AttentionGradOp::verify() {
  return verifyAttentionDropout(*this, getDropout(), getDropoutRateAttr());
}

LogicalResult
AttentionGradOp::inferReturnTypes(MLIRContext *ctx, Loc loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  SmallVector<Type, 2> forward;
  if (failed(inferAttentionTypes(ctx, loc, adaptor.getQuery().getType(),
                                 adaptor.getKey().getType(),
                                 adaptor.getValue().getType(),
                                 typeOrNull(adaptor.getMask()), forward)))
    return failure();
  auto dy = tensorOf(adaptor.getGradOutput()),
       out = tensorOf(adaptor.getOutput()),
       lse = tensorOf(adaptor.getLogsumexp());
  if (!dy || !out || !lse)
    return emitOptionalError(loc, "expects ranked tensor operands");
  if (out != forward[0])
    return emitOptionalError(loc,
                             "output must have the forward result's "
                             "type ",
                             forward[0], ", got ", out);
  if (dy != out)
    return emitOptionalError(loc, "grad_output must have the output's type ",
                             out, ", got ", dy);
  if (lse != forward[1])
    return emitOptionalError(loc, "logsumexp must have type ", forward[1],
                             " (the query's leading dimensions, f32), got ",
                             lse);
  inferred.append({adaptor.getQuery().getType(), adaptor.getKey().getType(),
                   adaptor.getValue().getType()});
  return success();
}

float AttentionGradOp::getScaleValue() {
  return attentionScale(getScaleAttr(), getQuery());
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

LogicalResult CumsumOp::verify() {
  return normalizeAxis(getLoc(), getAxis(), getType().getRank());
}

/// The ranked input of a scan along one axis (nn.argmax, nn.topk) and its
/// normalized axis, or an error.
static FailureOr<std::pair<RankedTensorType, int64_t>>
scanInput(Loc loc, Value input, int64_t axisAttr) {
  auto in = tensorOf(input);
  if (!in)
    return emitOptionalError(loc, "expects a ranked tensor operand");
  FailureOr<int64_t> axis = normalizeAxis(loc, axisAttr, in.getRank());
  if (failed(axis))
    return failure();
  return std::make_pair(in, *axis);
}

LogicalResult ArgMaxOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  auto scan = scanInput(loc, adaptor.getInput(), adaptor.getAxis());
  if (failed(scan))
    return failure();
  auto [in, axis] = *scan;
  if (in.getDimSize(axis) == 0)
    return emitOptionalError(loc, "argmax along axis ", axis,
                             ", which is empty");
  Shape shape(in.getShape());
  if (adaptor.getKeepDims())
    shape[axis] = 1;
  else
    shape.erase(shape.begin() + axis);
  inferred.push_back(RankedTensorType::get(shape, IntegerType::get(ctx, 64)));
  return success();
}

LogicalResult TopKOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  auto scan = scanInput(loc, adaptor.getInput(), adaptor.getAxis());
  if (failed(scan))
    return failure();
  auto [in, axis] = *scan;
  const int64_t k = adaptor.getK(), len = in.getDimSize(axis);
  if (k < 0 || k > len)
    return emitOptionalError(loc, "topk of k = ", k, " along axis ", axis,
                             " of size ", len, "; k must be in [0, ", len, "]");
  Shape shape(in.getShape());
  shape[axis] = k;
  inferred.push_back(RankedTensorType::get(shape, IntegerType::get(ctx, 64)));
  return success();
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

LogicalResult
ReduceMaxGradOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  auto dy = tensorOf(adaptor.getGradOutput()),
       in = tensorOf(adaptor.getInput()), out = tensorOf(adaptor.getOutput());
  if (!dy || !in || !out)
    return emitOptionalError(loc, "expects ranked tensor operands");
  SmallVector<Type, 1> reduced;
  if (failed(inferReduction(loc, adaptor.getInput(), adaptor.getAxes(),
                            adaptor.getKeepDims(), reduced)) ||
      failed(requireSameElementType(loc, dy, in, "grad_output", "input")) ||
      failed(requireSameElementType(loc, out, in, "output", "input")))
    return failure();
  ArrayRef<int64_t> shape = cast<RankedTensorType>(reduced[0]).getShape();
  StringRef why = "the reduced shape of the input";
  if (failed(requireShape(loc, dy, shape, "grad_output", why)) ||
      failed(requireShape(loc, out, shape, "output", why)))
    return failure();
  inferred.push_back(in);
  return success();
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  RankedTensorType in = getInput().getType(), out = getType();
  if (failed(requireSameElementType(getLoc(), in, out, "input", "result")))
    return failure();
  // Both counts fit: every nn op's tensors have a byte size that fits int64
  // (TensorSizesFitInt64, verified before this).
  std::optional<int64_t> inCount = amp::checked::elementCount(
      in.getShape().data(), in.getRank());
  std::optional<int64_t> outCount = amp::checked::elementCount(
      out.getShape().data(), out.getRank());
  assert(inCount && outCount && "the size trait runs first");
  if (*inCount != *outCount)
    return emitOpError("cannot reshape ")
           << fmtShape(in.getShape()) << " (" << *inCount << " elements) to "
           << fmtShape(out.getShape()) << " (" << *outCount << " elements)";
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

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *, Loc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return emitOptionalError(loc, "expects at least one input");
  auto first = tensorOf(inputs.front());
  if (!first)
    return emitOptionalError(loc, "expects ranked tensor inputs");
  FailureOr<int64_t> axis =
      normalizeAxis(loc, adaptor.getAxis(), first.getRank());
  if (failed(axis))
    return failure();
  Shape out(first.getShape());
  for (auto [i, v] : llvm::enumerate(inputs.drop_front())) {
    auto t = tensorOf(v);
    if (!t)
      return emitOptionalError(loc, "expects ranked tensor inputs");
    std::string name = "input #" + std::to_string(i + 1);
    if (failed(requireSameElementType(loc, first, t, "input #0", name)))
      return failure();
    ArrayRef<int64_t> shape = t.getShape();
    if (t.getRank() != first.getRank())
      return emitOptionalError(loc, name, " has rank ", t.getRank(), " (",
                               fmtShape(shape), ") but input #0 has rank ",
                               first.getRank(), " (",
                               fmtShape(first.getShape()), ")");
    for (int64_t d = 0, e = t.getRank(); d < e; ++d)
      if (d != *axis && shape[d] != out[d])
        return emitOptionalError(
            loc, name, " has shape ", fmtShape(shape), " but input #0 has ",
            fmtShape(first.getShape()), ": they differ in dimension ", d,
            ", which is not the concatenation axis ", *axis);
    std::optional<int64_t> sum = amp::checked::add(out[*axis], shape[*axis]);
    if (!sum)
      return emitOptionalError(loc, "the concatenated extent of axis ", *axis,
                               " overflows int64");
    out[*axis] = *sum;
  }
  inferred.push_back(RankedTensorType::get(out, first.getElementType()));
  return success();
}

/// The rule shared by nn.slice and nn.slice_grad: `slice` is the window of
/// `source` at `offsets` with `strides`, and every index it covers is in
/// bounds.
static LogicalResult verifyStridedSlice(Operation *op, RankedTensorType source,
                                        RankedTensorType slice,
                                        ArrayRef<int64_t> offsets,
                                        ArrayRef<int64_t> strides,
                                        StringRef sourceName,
                                        StringRef sliceName) {
  if (failed(requireSameElementType(op->getLoc(), source, slice, sourceName,
                                    sliceName)))
    return failure();
  ArrayRef<int64_t> src = source.getShape(), dst = slice.getShape();
  if (src.size() != dst.size())
    return op->emitOpError()
           << sliceName << " " << fmtShape(dst) << " must have the rank of "
           << sourceName << " " << fmtShape(src);
  for (auto [name, values] : {std::pair(StringRef("offsets"), offsets),
                              std::pair(StringRef("strides"), strides)})
    if (values.size() != src.size())
      return op->emitOpError() << name << " must have one entry per dimension ("
                               << src.size() << "), got " << fmtShape(values);
  if (llvm::is_contained(strides, 0))
    return op->emitOpError("strides must be non-zero, got ")
           << fmtShape(strides);
  for (size_t d = 0; d < src.size(); ++d) {
    if (dst[d] == 0)
      continue; // reads nothing
    auto describe = [&](InFlightDiagnostic &diag) -> InFlightDiagnostic & {
      return diag << " (offset " << offsets[d] << ", size " << dst[d]
                  << ", stride " << strides[d] << ")";
    };
    std::optional<int64_t> last =
        amp::checked::mulAdd(dst[d] - 1, strides[d], offsets[d]);
    if (!last) {
      InFlightDiagnostic diag = op->emitOpError() << "the slice of dimension "
                                                  << d << " overflows int64";
      return describe(diag);
    }
    for (int64_t index : {offsets[d], *last}) {
      if (index >= 0 && index < src[d])
        continue;
      InFlightDiagnostic diag =
          op->emitOpError() << "the slice of dimension " << d << " reads index "
                            << index << ", outside [0, " << src[d] << ") of "
                            << sourceName << " " << fmtShape(src);
      return describe(diag);
    }
  }
  return success();
}

LogicalResult SliceOp::verify() {
  return verifyStridedSlice(*this, getInput().getType(), getType(),
                            getOffsets(), getStridesOrOnes(), "input",
                            "result");
}

LogicalResult SliceGradOp::verify() {
  return verifyStridedSlice(*this, getType(), getGradOutput().getType(),
                            getOffsets(), getStridesOrOnes(),
                            "the result (input gradient)", "grad_output");
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  auto in = tensorOf(adaptor.getInput());
  if (!in)
    return emitOptionalError(loc, "expects a ranked tensor input");
  ArrayRef<int64_t> shape = in.getShape(), low = adaptor.getLow(),
                    high = adaptor.getHigh();
  for (auto [name, values] :
       {std::pair(StringRef("low"), low), std::pair(StringRef("high"), high)})
    if (values.size() != shape.size() ||
        llvm::any_of(values, [](int64_t v) { return v < 0; }))
      return emitOptionalError(loc, name, " must be ", shape.size(),
                               " non-negative values (one per dimension of "
                               "the input ",
                               fmtShape(shape), "), got ", fmtShape(values));
  Shape out(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    std::optional<int64_t> extent = amp::checked::add(low[d], shape[d]);
    if (extent)
      extent = amp::checked::add(*extent, high[d]);
    if (!extent)
      return emitOptionalError(loc, "the padded extent of dimension ", d,
                               " overflows int64 (low ", low[d], ", size ",
                               shape[d], ", high ", high[d], ")");
    out[d] = *extent;
  }
  inferred.push_back(RankedTensorType::get(out, in.getElementType()));
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

/// padding_idx, when set, names a row of the V-row table.
static LogicalResult checkPaddingIdx(Operation *op,
                                     std::optional<int64_t> paddingIdx,
                                     int64_t rows) {
  if (paddingIdx && (*paddingIdx < 0 || *paddingIdx >= rows))
    return op->emitOpError("padding_idx must be a row of the table, in [0, ")
           << rows << "), got " << *paddingIdx;
  return success();
}

LogicalResult EmbeddingOp::verify() {
  RankedTensorType table = getTable().getType();
  if (table.getRank() != 2) // inferReturnTypes reports it
    return success();
  return checkPaddingIdx(*this, getPaddingIdx(), table.getDimSize(0));
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
  if (failed(checkPaddingIdx(*this, getPaddingIdx(), out.getDimSize(0))))
    return failure();
  return verifyAccumulatorResult(*this, dy.getElementType(), out);
}

/// logits [..., C] against labels [...].
static LogicalResult checkLogitsAndLabels(Loc loc, RankedTensorType logits,
                                          RankedTensorType labels) {
  if (logits.getRank() < 1)
    return emitOptionalError(loc, "logits must have rank >= 1 [..., C]");
  if (logits.getShape().back() < 1)
    return emitOptionalError(loc, "logits ", logits,
                             " have no classes: the class dimension C must "
                             "be >= 1");
  if (labels.getShape() != logits.getShape().drop_back())
    return emitOptionalError(loc, "labels must have shape ",
                             fmtShape(logits.getShape().drop_back()),
                             " (the logits' shape without the class "
                             "dimension), got ",
                             fmtShape(labels.getShape()));
  return success();
}

/// label_smoothing is a probability, as PyTorch requires.
static LogicalResult checkLabelSmoothing(Operation *op, APFloat smoothing) {
  double e = smoothing.convertToDouble();
  if (e >= 0.0 && e <= 1.0)
    return success();
  std::string value;
  llvm::raw_string_ostream(value) << llvm::format("%g", e);
  return op->emitOpError("label_smoothing must be in [0, 1], got ") << value;
}

LogicalResult CrossEntropyOp::verify() {
  if (failed(checkLabelSmoothing(*this, getLabelSmoothing())))
    return failure();
  return checkLogitsAndLabels(getLoc(), getLogits().getType(),
                              getLabels().getType());
}

LogicalResult CrossEntropyGradOp::verify() {
  return checkLabelSmoothing(*this, getLabelSmoothing());
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

/// pred and target of an elementwise loss and of its gradient have one
/// type, and Huber's delta is finite and > 0.
static LogicalResult checkElementwiseLoss(Loc loc, Value predV, Value targetV,
                                          std::optional<APFloat> delta) {
  auto pred = tensorOf(predV), target = tensorOf(targetV);
  if (!pred || !target)
    return emitOptionalError(loc, "expects ranked tensor operands");
  if (pred.getShape() != target.getShape())
    return emitOptionalError(
        loc, "pred and target must have the same shape, got ",
        fmtShape(pred.getShape()), " and ", fmtShape(target.getShape()));
  if (delta && (!delta->isFiniteNonZero() || delta->isNegative()))
    return emitOptionalError(loc, "delta must be finite and > 0, got ",
                             delta->convertToDouble());
  return requireSameElementType(loc, pred, target, "pred", "target");
}

template <typename Op>
static LogicalResult
verifyElementwiseLoss(Op op, std::optional<APFloat> delta = std::nullopt) {
  return checkElementwiseLoss(op.getLoc(), op.getPred(), op.getTarget(), delta);
}

template <typename Adaptor>
static LogicalResult
inferElementwiseLossGrad(Loc loc, Adaptor adaptor,
                         SmallVectorImpl<Type> &inferred,
                         std::optional<APFloat> delta = std::nullopt) {
  if (failed(checkElementwiseLoss(loc, adaptor.getPred(), adaptor.getTarget(),
                                  delta)))
    return failure();
  inferred.push_back(adaptor.getPred().getType());
  return success();
}

LogicalResult MseLossOp::verify() { return verifyElementwiseLoss(*this); }
LogicalResult L1LossOp::verify() { return verifyElementwiseLoss(*this); }
LogicalResult HuberLossOp::verify() {
  return verifyElementwiseLoss(*this, getDelta());
}
LogicalResult BceWithLogitsLossOp::verify() {
  return verifyElementwiseLoss(*this);
}

Value amp::nn::createElementwiseLoss(OpBuilder &b, Location loc,
                                     ElementwiseLossKind kind, float param,
                                     LossReduction reduction, Value pred,
                                     Value target) {
  Type loss = RankedTensorType::get({}, b.getF32Type());
  switch (kind) {
  case ElementwiseLossKind::Mse:
    return MseLossOp::create(b, loc, loss, pred, target, reduction);
  case ElementwiseLossKind::L1:
    return L1LossOp::create(b, loc, loss, pred, target, reduction);
  case ElementwiseLossKind::Huber:
    return HuberLossOp::create(
        b, loc, loss, pred, target, b.getF32FloatAttr(param),
        LossReductionAttr::get(b.getContext(), reduction));
  case ElementwiseLossKind::BceWithLogits:
    return BceWithLogitsLossOp::create(b, loc, loss, pred, target, reduction);
  }
  llvm_unreachable("unknown elementwise loss");
}

LogicalResult MseLossGradOp::inferReturnTypes(MLIRContext *, Loc loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  return inferElementwiseLossGrad(loc, adaptor, inferred);
}
LogicalResult L1LossGradOp::inferReturnTypes(MLIRContext *, Loc loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  return inferElementwiseLossGrad(loc, adaptor, inferred);
}
LogicalResult
HuberLossGradOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  return inferElementwiseLossGrad(loc, adaptor, inferred, adaptor.getDelta());
}
LogicalResult BceWithLogitsLossGradOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &inferred) {
  return inferElementwiseLossGrad(loc, adaptor, inferred);
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

LrSchedule LrScheduleOp::getSchedule() {
  LrSchedule schedule;
  schedule.kind = getKind();
  schedule.warmupSteps = getWarmupStepsAttr().getInt();
  schedule.warmupStartFactor = getWarmupStartFactor().convertToDouble();
  if (IntegerAttr total = getTotalStepsAttr())
    schedule.totalSteps = total.getInt();
  if (FloatAttr b = getFinalFactorAttr())
    schedule.finalFactor = b.getValueAsDouble();
  if (IntegerAttr size = getStepSizeAttr())
    schedule.stepSize = size.getInt();
  if (FloatAttr gamma = getGammaAttr())
    schedule.gamma = gamma.getValueAsDouble();
  if (FloatAttr power = getPowerAttr())
    schedule.power = power.getValueAsDouble();
  if (std::optional<ArrayRef<int64_t>> milestones = getMilestones())
    schedule.milestones.emplace(milestones->begin(), milestones->end());
  return schedule;
}

LogicalResult LrScheduleOp::verify() {
  std::string error =
      getSchedule().check([](StringRef name) { return name.str(); });
  if (!error.empty())
    return emitOpError(error);
  return success();
}

/// Attributes of an optimizer update that must be finite and >= 0 (lr,
/// eps, weight_decay, momentum), in order.
static LogicalResult checkNonNegativeAttrs(
    Operation *op, std::initializer_list<std::pair<StringRef, APFloat>> attrs) {
  for (const auto &[name, value] : attrs)
    if (failed(
            checkAttrLowerBound(op, name, value.convertToFloat(), 0.0f, false)))
      return failure();
  return success();
}

/// An update's momentum buffer operand is present exactly when momentum > 0.
static LogicalResult verifyMomentumBuffer(Operation *op, float momentum,
                                          Value buffer) {
  if ((momentum > 0.0f) == static_cast<bool>(buffer))
    return success();
  return op->emitOpError(buffer
                             ? "has a momentum buffer but momentum = 0; drop "
                               "the buffer or set momentum > 0"
                             : "momentum > 0 requires a momentum buffer "
                               "operand");
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
  if (failed(checkNonNegativeAttrs(
          *this, {{"lr", getLr()}, {"momentum", getMomentum()}})) ||
      failed(checkAttrUnitInterval(*this, "dampening",
                                   getDampening().convertToFloat(), true)) ||
      failed(
          checkNonNegativeAttrs(*this, {{"weight_decay", getWeightDecay()}})))
    return failure();
  if (failed(verifyMomentumBuffer(*this, momentum, getMomentumBuffer())))
    return failure();
  if (getNesterov() &&
      (momentum <= 0.0f || getDampening().convertToFloat() != 0.0f))
    return emitOpError("nesterov requires momentum > 0 and dampening = 0");
  return success();
}

/// The results of an Adam-family update (Adam, RAdam): the param, both
/// moments (the param's type) and the step counter.
template <typename Adaptor>
static LogicalResult inferAdamResults(Loc loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  Type param = adaptor.getParam().getType();
  if (failed(requireParamType(loc, adaptor.getGrad(), param, "grad")) ||
      failed(requireParamType(loc, adaptor.getExpAvg(), param, "exp_avg")) ||
      failed(requireParamType(loc, adaptor.getExpAvgSq(), param, "exp_avg_sq")))
    return failure();
  inferred.append({param, param, param, adaptor.getStep().getType()});
  return success();
}

/// An Adam-family update's attributes: lr, eps and weight_decay finite and
/// >= 0, beta1 and beta2 in [0, 1).
template <typename Op> static LogicalResult verifyAdamAttrs(Op op) {
  if (failed(checkNonNegativeAttrs(op, {{"lr", op.getLr()}})) ||
      failed(checkAttrUnitInterval(op, "beta1", op.getBeta1().convertToFloat(),
                                   false)) ||
      failed(checkAttrUnitInterval(op, "beta2", op.getBeta2().convertToFloat(),
                                   false)))
    return failure();
  return checkNonNegativeAttrs(
      op, {{"eps", op.getEps()}, {"weight_decay", op.getWeightDecay()}});
}

LogicalResult AdamUpdateOp::inferReturnTypes(MLIRContext *, Loc loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  Type param = adaptor.getParam().getType();
  if (failed(inferAdamResults(loc, adaptor, inferred)))
    return failure();
  if (Value vmax = adaptor.getMaxExpAvgSq()) {
    if (failed(requireParamType(loc, vmax, param, "max_exp_avg_sq")))
      return failure();
    inferred.push_back(param);
  }
  return success();
}

/// An update's optional state operand `name` is present exactly when the
/// option `option` is on (`wanted`).
static LogicalResult verifyOptionalState(Operation *op, bool wanted,
                                         Value state, StringRef name,
                                         StringRef option) {
  if (wanted == static_cast<bool>(state))
    return success();
  if (state)
    return op->emitOpError("has a ") << name << " operand without " << option
                                     << "; drop it or set " << option;
  return op->emitOpError() << option << " requires a " << name << " operand";
}

LogicalResult AdamUpdateOp::verify() {
  if (failed(verifyAdamAttrs(*this)))
    return failure();
  return verifyOptionalState(*this, getAmsgrad(), getMaxExpAvgSq(),
                             "max_exp_avg_sq", "amsgrad");
}

LogicalResult RadamUpdateOp::inferReturnTypes(MLIRContext *, Loc loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  return inferAdamResults(loc, adaptor, inferred);
}

LogicalResult RadamUpdateOp::verify() { return verifyAdamAttrs(*this); }

LogicalResult
RmspropUpdateOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  Type param = adaptor.getParam().getType();
  if (failed(requireParamType(loc, adaptor.getGrad(), param, "grad")) ||
      failed(
          requireParamType(loc, adaptor.getSquareAvg(), param, "square_avg")))
    return failure();
  inferred.append({param, param});
  for (auto [v, name] :
       {std::pair(adaptor.getMomentumBuffer(), StringRef("momentum_buffer")),
        std::pair(adaptor.getGradAvg(), StringRef("grad_avg"))})
    if (v) {
      if (failed(requireParamType(loc, v, param, name)))
        return failure();
      inferred.push_back(param);
    }
  return success();
}

LogicalResult RmspropUpdateOp::verify() {
  float momentum = getMomentum().convertToFloat();
  if (failed(checkNonNegativeAttrs(*this, {{"lr", getLr()}})) ||
      failed(checkAttrUnitInterval(*this, "alpha", getAlpha().convertToFloat(),
                                   true)) ||
      failed(checkNonNegativeAttrs(*this, {{"eps", getEps()},
                                           {"weight_decay", getWeightDecay()},
                                           {"momentum", getMomentum()}})))
    return failure();
  if (failed(verifyMomentumBuffer(*this, momentum, getMomentumBuffer())))
    return failure();
  return verifyOptionalState(*this, getCentered(), getGradAvg(), "grad_avg",
                             "centered");
}

LogicalResult
AdagradUpdateOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  Type param = adaptor.getParam().getType();
  if (failed(requireParamType(loc, adaptor.getGrad(), param, "grad")) ||
      failed(requireParamType(loc, adaptor.getStateSum(), param, "state_sum")))
    return failure();
  inferred.append({param, param});
  if (Value step = adaptor.getStep())
    inferred.push_back(step.getType());
  return success();
}

LogicalResult AdagradUpdateOp::verify() {
  if (failed(
          checkNonNegativeAttrs(*this, {{"lr", getLr()},
                                        {"lr_decay", getLrDecay()},
                                        {"eps", getEps()},
                                        {"weight_decay", getWeightDecay()}})))
    return failure();
  return verifyOptionalState(*this, getLrDecay().convertToFloat() > 0.0f,
                             getStep(), "step", "lr_decay > 0");
}

/// The param's type with dimension `fromEnd` (1: the last) set to 1, or
/// the type itself below rank 2.
static Type withUnitDimFromEnd(Type param, int64_t fromEnd) {
  auto type = dyn_cast<RankedTensorType>(param);
  if (!type || type.getRank() < 2)
    return param;
  SmallVector<int64_t> shape(type.getShape());
  shape[shape.size() - fromEnd] = 1;
  return type.clone(shape);
}

Type amp::nn::adafactorRowVarType(Type param) {
  return withUnitDimFromEnd(param, 1);
}

Type amp::nn::adafactorColVarType(Type param) {
  return withUnitDimFromEnd(param, 2);
}

LogicalResult
AdafactorUpdateOp::inferReturnTypes(MLIRContext *, Loc, Adaptor adaptor,
                                    SmallVectorImpl<Type> &inferred) {
  inferred.push_back(adaptor.getParam().getType());
  for (Value state :
       {adaptor.getRowVar(), adaptor.getColVar(), adaptor.getVariance()})
    if (state)
      inferred.push_back(state.getType());
  inferred.push_back(adaptor.getStep().getType());
  return success();
}

LogicalResult AdafactorUpdateOp::verify() {
  if (failed(
          checkNonNegativeAttrs(*this, {{"lr", getLr()},
                                        {"eps1", getEps1()},
                                        {"eps2", getEps2()},
                                        {"weight_decay", getWeightDecay()}})))
    return failure();
  float beta2Decay = getBeta2Decay().convertToFloat();
  if (!(beta2Decay <= 0.0f) || std::isinf(beta2Decay))
    return emitOpError("beta2_decay must be a finite value <= 0, got ")
           << fmtFloat(beta2Decay);
  if (failed(checkAttrLowerBound(*this, "d", getD().convertToFloat(), 1.0f,
                                 /*strict=*/false)))
    return failure();
  auto param = cast<RankedTensorType>(getParam().getType());
  if (param.getNumElements() == 0)
    return emitOpError("needs a param with elements (Adafactor scales by its "
                       "root mean square)");
  bool factor = param.getRank() >= 2;
  if (static_cast<bool>(getRowVar()) != static_cast<bool>(getColVar()))
    return emitOpError("needs both row_var and col_var, or neither");
  if (factor && !isFactored())
    return emitOpError("factors a param of rank >= 2: it needs row_var and "
                       "col_var (factored(...)), not variance");
  if (!factor && !getVariance())
    return emitOpError("keeps the whole second moment of a param of rank 0 "
                       "or 1: it needs variance(...), not factored(...)");
  if (factor && getVariance())
    return emitOpError("has both factored(...) and variance(...)");
  return success();
}

/// A clipping op's clipped gradients: one of each gradient's type.
static LogicalResult inferClippedTypes(Loc loc, ValueRange grads,
                                       SmallVectorImpl<Type> &inferred) {
  if (grads.empty())
    return emitOptionalError(loc, "expects at least one gradient");
  llvm::append_range(inferred, grads.getTypes());
  return success();
}

LogicalResult
ClipGradNormOp::inferReturnTypes(MLIRContext *ctx, Loc loc, Adaptor adaptor,
                                 SmallVectorImpl<Type> &inferred) {
  if (failed(inferClippedTypes(loc, adaptor.getGrads(), inferred)))
    return failure();
  inferred.push_back(RankedTensorType::get({}, Float32Type::get(ctx)));
  return success();
}

LogicalResult ClipGradNormOp::verify() {
  // max_norm = inf is allowed: the op then only measures the norm.
  if (failed(checkAttrLowerBound(*this, "max_norm",
                                 getMaxNorm().convertToFloat(), 0.0f,
                                 /*strict=*/true, /*allowInf=*/true)))
    return failure();
  // PyTorch's p-norms (p > 0) and the max norm (inf); 0 and -inf would
  // count or take the smallest element, which is no clipping norm.
  return checkAttrLowerBound(*this, "norm_type", getNormType().convertToFloat(),
                             0.0f, /*strict=*/true, /*allowInf=*/true);
}

LogicalResult
ClipGradValueOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  return inferClippedTypes(loc, adaptor.getGrads(), inferred);
}

LogicalResult ClipGradValueOp::verify() {
  // clip_value = inf is allowed (the op keeps every finite value).
  return checkAttrLowerBound(*this, "clip_value",
                             getClipValue().convertToFloat(), 0.0f,
                             /*strict=*/true, /*allowInf=*/true);
}

LogicalResult EmaUpdateOp::verify() {
  if (getAverages().empty())
    return emitOpError("expects at least one average");
  return success();
}

#include "amp/Dialect/NN/IR/ElementwiseLossOpInterface.cpp.inc"
#include "amp/Dialect/NN/IR/GradientClipOpInterface.cpp.inc"
#include "amp/Dialect/NN/IR/OptimizerUpdateOpInterface.cpp.inc"

#define GET_OP_CLASSES
#include "amp/Dialect/NN/IR/NNOps.cpp.inc"
