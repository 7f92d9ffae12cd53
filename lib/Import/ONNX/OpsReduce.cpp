//===- OpsReduce.cpp - reductions -----------------------------------------===//
//
// ReduceSum, ReduceMean, ReduceMax (nn.reduce_*), ReduceMin (-max(-x)),
// ReduceSumSquare and ReduceL2, with the axes as an attribute (before opset
// 13 for ReduceSum, 18 for the others) or a constant input, keepdims and
// noop_with_empty_axes. A max or min over an empty set is ONNX's -inf or
// +inf, a constant.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include <limits>

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

enum class Reduce { Sum, Mean, Max, Min, SumSquare, L2 };

template <Reduce kind> static LogicalResult importReduce(NodeContext &nc) {
  FailureOr<Value> x = nc.floatValue(0);
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
      return nc.setOutput(0, *x);
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

  // A max or min over no elements is ONNX's -inf or +inf: a constant of the
  // output's shape (the runtime refuses an empty max).
  llvm::SmallVector<int64_t> xs = shapeOf(*x);
  if ((kind == Reduce::Max || kind == Reduce::Min) &&
      llvm::any_of(axes, [&](int64_t a) { return xs[a] == 0; })) {
    llvm::SmallVector<int64_t> shape;
    for (int64_t d = 0; d < rank; ++d) {
      if (!llvm::is_contained(axes, d))
        shape.push_back(xs[d]);
      else if (*keep)
        shape.push_back(1);
    }
    float inf = std::numeric_limits<float>::infinity();
    return nc.setOutput(0, nc.splat(shape, kind == Reduce::Max ? -inf : inf));
  }

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
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

void amp::onnx_import::registerReduceOps(OpTable &t) {
  std::vector<std::string> attrs = {"axes", "keepdims", "noop_with_empty_axes"};
  t["ReduceSum"] = {importReduce<Reduce::Sum>, attrs};
  t["ReduceMean"] = {importReduce<Reduce::Mean>, attrs};
  t["ReduceMax"] = {importReduce<Reduce::Max>, attrs};
  t["ReduceMin"] = {importReduce<Reduce::Min>, attrs};
  t["ReduceSumSquare"] = {importReduce<Reduce::SumSquare>, attrs};
  t["ReduceL2"] = {importReduce<Reduce::L2>, attrs};
}
