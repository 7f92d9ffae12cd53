//===- OpsReduce.cpp - reductions -----------------------------------------===//
//
// ReduceSum, ReduceMean, ReduceMax (nn.reduce_*), ReduceMin (-max(-x)),
// ReduceProd (halves multiplied, log2(n) steps per axis), ReduceSumSquare,
// ReduceL2, ReduceL1, ReduceLogSum and ReduceLogSumExp (shifted by the
// maximum), ReduceSum of integers too (the last element of nn.cumsum), with the
// axes as an attribute (before opset 13 for ReduceSum, 18 for the others) or a
// constant input, keepdims and noop_with_empty_axes. A max or min over an empty
// set is ONNX's -inf or +inf, a constant; of BOOL (any, all) they reduce the
// values as f32 0 and 1. CumSum (nn.cumsum; folded on
// constants) with a constant axis. ArgMax (nn.argmax) and ArgMin (nn.argmax of
// -x, FLOAT).
//
//===----------------------------------------------------------------------===//

#include "Folding.h"
#include "Formula.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <limits>

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

enum class Reduce {
  Sum,
  Mean,
  Max,
  Min,
  Prod,
  SumSquare,
  L2,
  L1,
  LogSum,
  LogSumExp
};

/// ReduceSum of INT64 or INT32 values (a count of the tokens that are no
/// padding: mBART's end-token position), wrapping as nn's integer ops: per
/// axis the last element of its nn.cumsum (zeros for an empty axis), then
/// the output's shape.
static LogicalResult intReduceSum(NodeContext &nc, Value x,
                                  llvm::ArrayRef<int64_t> axes, bool keep) {
  llvm::SmallVector<int64_t> shape = shapeOf(x), out;
  for (int64_t d = 0; d < int64_t(shape.size()); ++d)
    if (!llvm::is_contained(axes, d) || keep)
      out.push_back(llvm::is_contained(axes, d) ? 1 : shape[d]);
  auto type = cast<RankedTensorType>(x.getType());
  if (llvm::any_of(axes, [&](int64_t a) { return shape[a] == 0; })) {
    auto zeros = type.clone(out);
    return nc.setOutput(
        0, arith::ConstantOp::create(
               nc.builder, nc.loc, zeros,
               DenseElementsAttr::get(
                   zeros, APInt::getZero(type.getElementTypeBitWidth())))
               .getResult());
  }
  Value y = x;
  for (int64_t a : axes) {
    FailureOr<Value> sums = nc.create<nn::CumsumOp>(
        {y}, {nc.named("axis", nc.builder.getI64IntegerAttr(a))});
    if (failed(sums))
      return failure();
    llvm::SmallVector<int64_t> offsets(shape.size(), 0);
    offsets[a] = shape[a] - 1;
    shape[a] = 1;
    FailureOr<Value> last = nc.slice(*sums, offsets, shape);
    if (failed(last))
      return failure();
    y = *last;
  }
  FailureOr<Value> r = nc.reshape(y, out);
  return failed(r) ? failure() : nc.setOutput(0, *r);
}

/// log(sum(exp(x))) over `axes` (ReduceLogSumExp), shifted by the maximum
/// m so that exp never overflows: log(sum(exp(x - m))) + m, with an
/// infinite m taken as 0 (all -inf: -inf; a +inf: +inf, not NaN). The
/// result has `outShape`.
static LogicalResult logSumExp(NodeContext &nc, Value x,
                               llvm::ArrayRef<int64_t> axes,
                               llvm::ArrayRef<int64_t> outShape) {
  Formula f(nc);
  float inf = std::numeric_limits<float>::infinity();
  Value m = f.op<nn::ReduceMaxOp>(
      {x}, {nc.named("axes", nc.i64Array(axes)),
            nc.named("keep_dims", nc.builder.getUnitAttr())});
  Value infinite = f.compare(f.op<nn::AbsOp>({m}), nn::ComparePredicate::EQ,
                             f.constant(inf));
  m = f.op<nn::WhereOp>({infinite, f.constant(0.0f), m});
  Value e = f.op<nn::ExpOp>({f.op<nn::SubOp>({x, m})});
  Value sum = f.op<nn::ReduceSumOp>(
      {e}, {nc.named("axes", nc.i64Array(axes)),
            nc.named("keep_dims", nc.builder.getUnitAttr())});
  Value y = f.op<nn::AddOp>({f.op<nn::LogOp>({sum}), m});
  return f.setOutput(f.reshape(y, outShape));
}

/// The product of x over `axes` (ReduceProd), of `outShape`: along each
/// axis the two halves multiply (an odd length's last element carried on)
/// until one element is left, so that the product takes log2(n) steps of
/// nn ops and its gradient is exact where an element is zero, unlike
/// exp(sum(log(x))).
static LogicalResult product(NodeContext &nc, Value x,
                             llvm::ArrayRef<int64_t> axes,
                             llvm::ArrayRef<int64_t> outShape) {
  Formula f(nc);
  llvm::SmallVector<int64_t> shape = shapeOf(x);
  llvm::SmallVector<int64_t> offsets(shape.size(), 0);
  for (int64_t a : axes) {
    while (shape[a] > 1) {
      const int64_t n = shape[a], half = n / 2;
      llvm::SmallVector<int64_t> sizes(shape);
      sizes[a] = half;
      offsets[a] = half;
      Value y = f.op<nn::MulOp>(
          {f.slice(x, llvm::SmallVector<int64_t>(shape.size(), 0), sizes),
           f.slice(x, offsets, sizes)});
      if (n % 2) {
        sizes[a] = 1;
        offsets[a] = n - 1;
        y = f.concat({y, f.slice(x, offsets, sizes)}, a);
      }
      offsets[a] = 0;
      shape[a] = half + n % 2;
      x = y;
    }
  }
  return f.setOutput(f.reshape(x, outShape));
}

template <Reduce kind> static LogicalResult importReduce(NodeContext &nc) {
  // ReduceMax and ReduceMin of BOOL (opset 20) are any and all: the max and
  // min of the values as f32 0 and 1, converted back.
  FailureOr<Tensor *> in0 = nc.input(0);
  if (failed(in0))
    return failure();
  const bool boolean = (kind == Reduce::Max || kind == Reduce::Min) &&
                       (*in0)->dtype == onnx::TensorProto::BOOL;
  FailureOr<Value> x = kind == Reduce::Sum ? nc.numericValue(0)
                       : boolean           ? nc.anyValue(0)
                                           : nc.floatValue(0);
  if (succeeded(x) && boolean)
    x = nc.convert(*x, nc.builder.getF32Type());
  // The output, back to i1 for BOOL.
  auto setOutput = [&](FailureOr<Value> y) -> LogicalResult {
    if (succeeded(y) && boolean)
      y = nc.convert(*y, nc.builder.getI1Type());
    return failed(y) ? failure() : nc.setOutput(0, *y);
  };
  FailureOr<int64_t> keep = nc.intAttr("keepdims", 1);
  FailureOr<int64_t> noop = nc.intAttr("noop_with_empty_axes", 0);
  if (failed(x) || failed(keep) || failed(noop))
    return failure();
  int64_t rank = shapeOf(*x).size();
  llvm::SmallVector<int64_t> axes;
  bool axesFromInput = nc.opset >= (kind == Reduce::Sum ? 13 : 18);
  if (axesFromInput) {
    if (nc.attr("axes"))
      return nc.error() << "attribute 'axes' is an input from opset "
                        << (kind == Reduce::Sum ? 13 : 18),
             failure();
    if (nc.hasInput(1)) {
      FailureOr<const Const *> c = nc.constInput(1, "the axes");
      if (failed(c))
        return failure();
      for (int64_t a : (*c)->ints())
        axes.push_back(a);
    }
  } else {
    FailureOr<std::optional<llvm::SmallVector<int64_t>>> a =
        nc.intsAttr("axes");
    if (failed(a))
      return failure();
    if (*a)
      axes = **a;
  }
  if (axes.empty()) {
    if (*noop)
      return setOutput(*x);
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  for (int64_t &a : axes) {
    FailureOr<int64_t> n = nc.normalizeAxis(a, rank, "axis");
    if (failed(n))
      return failure();
    a = *n;
  }
  llvm::sort(axes);
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    return nc.error() << "the axes repeat a dimension", failure();

  if (!cast<RankedTensorType>(x->getType()).getElementType().isF32())
    return intReduceSum(nc, *x, axes, *keep);

  // A max or min over no elements is ONNX's -inf or +inf (of BOOL false or
  // true), a log-sum (of exponentials) -inf, a product 1: a constant of the
  // output's shape (the runtime refuses an empty max).
  llvm::SmallVector<int64_t> xs = shapeOf(*x);
  llvm::SmallVector<int64_t> outShape;
  for (int64_t d = 0; d < rank; ++d) {
    if (!llvm::is_contained(axes, d))
      outShape.push_back(xs[d]);
    else if (*keep)
      outShape.push_back(1);
  }
  if ((kind == Reduce::Max || kind == Reduce::Min || kind == Reduce::LogSum ||
       kind == Reduce::LogSumExp) &&
      llvm::any_of(axes, [&](int64_t a) { return xs[a] == 0; })) {
    const float inf = std::numeric_limits<float>::infinity();
    const float empty =
        kind == Reduce::Min ? (boolean ? 1.0f : inf) : (boolean ? 0.0f : -inf);
    return setOutput(nc.splat(outShape, empty));
  }
  if (kind == Reduce::Prod &&
      llvm::any_of(axes, [&](int64_t a) { return xs[a] == 0; }))
    return nc.setOutput(0, nc.splat(outShape, 1.0f));
  if (kind == Reduce::LogSumExp)
    return logSumExp(nc, *x, axes, outShape);
  if (kind == Reduce::Prod)
    return product(nc, *x, axes, outShape);

  llvm::SmallVector<NamedAttribute> attrs = {
      nc.named("axes", nc.i64Array(axes))};
  if (*keep)
    attrs.push_back(nc.named("keep_dims", nc.builder.getUnitAttr()));
  Value in = *x;
  if (kind == Reduce::SumSquare || kind == Reduce::L2) {
    FailureOr<Value> sq = nc.create<nn::MulOp>({in, in});
    if (failed(sq))
      return failure();
    in = *sq;
  } else if (kind == Reduce::L1) {
    FailureOr<Value> abs = nc.create<nn::AbsOp>({in});
    if (failed(abs))
      return failure();
    in = *abs;
  } else if (kind == Reduce::Min) {
    FailureOr<Value> neg = nc.create<nn::NegOp>({in});
    if (failed(neg))
      return failure();
    in = *neg;
  }
  FailureOr<Value> y;
  switch (kind) {
  case Reduce::Mean:
    y = nc.create<nn::ReduceMeanOp>({in}, attrs);
    break;
  case Reduce::Max:
  case Reduce::Min:
    y = nc.create<nn::ReduceMaxOp>({in}, attrs);
    break;
  default:
    y = nc.create<nn::ReduceSumOp>({in}, attrs);
    break;
  }
  if (failed(y))
    return failure();
  if (kind == Reduce::Min)
    y = nc.create<nn::NegOp>({*y});
  else if (kind == Reduce::L2)
    y = nc.create<nn::SqrtOp>({*y});
  else if (kind == Reduce::LogSum)
    y = nc.create<nn::LogOp>({*y});
  return setOutput(y);
}

/// CumSum of a constant, as nn.cumsum computes it: FLOAT sums in f32 in scan
/// order, INT64 and INT32 wrap.
static Const foldCumsum(Const c, int64_t axis, bool exclusive, bool reverse) {
  int64_t inner = 1;
  for (size_t d = axis + 1; d < c.shape.size(); ++d)
    inner *= c.shape[d];
  const int64_t len = c.shape[axis];
  const int64_t lines = len == 0 ? 0 : c.numel() / len;
  const bool isInt32 = c.dtype == onnx::TensorProto::INT32;
  for (int64_t line = 0; line < lines; ++line) {
    const int64_t base = (line / inner) * len * inner + line % inner;
    float fsum = 0;
    uint64_t isum = 0;
    for (int64_t k = 0; k < len; ++k) {
      const int64_t at = base + (reverse ? len - 1 - k : k) * inner;
      if (c.isFloat()) {
        const float v = c.f[at];
        c.f[at] = exclusive ? fsum : fsum + v;
        fsum += v;
      } else {
        const uint64_t v = uint64_t(c.i[at]);
        const uint64_t sum = exclusive ? isum : isum + v;
        c.i[at] = isInt32 ? int64_t(int32_t(uint32_t(sum))) : int64_t(sum);
        isum += v;
      }
    }
  }
  return c;
}

/// CumSum: nn.cumsum along the constant axis (a scalar or one-element
/// INT64/INT32 tensor), exclusive and reverse as ONNX's; folded when x is a
/// constant.
static LogicalResult importCumSum(NodeContext &nc) {
  FailureOr<int64_t> exclusive = nc.intAttr("exclusive", 0);
  FailureOr<int64_t> reverse = nc.intAttr("reverse", 0);
  FailureOr<Tensor *> x = nc.input(0);
  FailureOr<const Const *> axisIn = nc.constInput(1, "the axis");
  if (failed(exclusive) || failed(reverse) || failed(x) || failed(axisIn))
    return failure();
  const Const &a = **axisIn;
  if (a.isFloat() || a.numel() != 1 || a.shape.size() > 1)
    return nc.error() << "the axis must be one INT64 or INT32 value", failure();
  FailureOr<int64_t> axis = nc.normalizeAxis(a.ints()[0], (*x)->rank(), "axis");
  if (failed(axis))
    return failure();
  const int32_t dtype = (*x)->dtype;
  if (isFoldable(**x) &&
      (dtype == onnx::TensorProto::FLOAT || dtype == onnx::TensorProto::INT64 ||
       dtype == onnx::TensorProto::INT32))
    return nc.setOutput(
        0, foldCumsum(*(*x)->constant, *axis, *exclusive != 0, *reverse != 0));
  FailureOr<Value> in = nc.numericValue(0);
  if (failed(in))
    return failure();
  llvm::SmallVector<NamedAttribute> attrs = {
      nc.named("axis", nc.builder.getI64IntegerAttr(*axis))};
  if (*exclusive)
    attrs.push_back(nc.named("exclusive", nc.builder.getUnitAttr()));
  if (*reverse)
    attrs.push_back(nc.named("reverse", nc.builder.getUnitAttr()));
  FailureOr<Value> y = nc.create<nn::CumsumOp>({*in}, attrs);
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

/// ArgMax, or ArgMin as the ArgMax of -x (FLOAT only: nn.neg is float;
/// negation keeps the order of ties and NaN's rank): nn.argmax with
/// `axis`, `keepdims` and `select_last_index`.
template <bool isMin> static LogicalResult importArgMax(NodeContext &nc) {
  FailureOr<int64_t> axisAttr = nc.intAttr("axis", 0);
  FailureOr<int64_t> keep = nc.intAttr("keepdims", 1);
  FailureOr<int64_t> last = nc.intAttr("select_last_index", 0);
  FailureOr<Value> x = isMin ? nc.floatValue(0) : nc.numericValue(0);
  if (failed(axisAttr) || failed(keep) || failed(last) || failed(x))
    return failure();
  FailureOr<int64_t> axis =
      nc.normalizeAxis(*axisAttr, shapeOf(*x).size(), "axis");
  if (failed(axis))
    return failure();
  Value in = *x;
  if (isMin) {
    FailureOr<Value> neg = nc.create<nn::NegOp>({in});
    if (failed(neg))
      return failure();
    in = *neg;
  }
  llvm::SmallVector<NamedAttribute> attrs = {
      nc.named("axis", nc.builder.getI64IntegerAttr(*axis))};
  if (*keep)
    attrs.push_back(nc.named("keep_dims", nc.builder.getUnitAttr()));
  if (*last)
    attrs.push_back(nc.named("select_last", nc.builder.getUnitAttr()));
  FailureOr<Value> y = nc.create<nn::ArgMaxOp>({in}, attrs);
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

void amp::onnx_import::registerReduceOps(OpTable &t) {
  std::vector<std::string> attrs = {"axes", "keepdims", "noop_with_empty_axes"};
  t["ReduceSum"] = {importReduce<Reduce::Sum>, attrs};
  t["ReduceMean"] = {importReduce<Reduce::Mean>, attrs};
  t["ReduceMax"] = {importReduce<Reduce::Max>, attrs};
  t["ReduceMin"] = {importReduce<Reduce::Min>, attrs};
  t["ReduceProd"] = {importReduce<Reduce::Prod>, attrs};
  t["ReduceSumSquare"] = {importReduce<Reduce::SumSquare>, attrs};
  t["ReduceL2"] = {importReduce<Reduce::L2>, attrs};
  t["ReduceL1"] = {importReduce<Reduce::L1>, attrs};
  t["ReduceLogSum"] = {importReduce<Reduce::LogSum>, attrs};
  t["ReduceLogSumExp"] = {importReduce<Reduce::LogSumExp>, attrs};
  t["CumSum"] = {importCumSum, {"exclusive", "reverse"}};
  std::vector<std::string> argAttrs = {"axis", "keepdims", "select_last_index"};
  t["ArgMax"] = {importArgMax<false>, argAttrs};
  t["ArgMin"] = {importArgMax<true>, argAttrs};
}
