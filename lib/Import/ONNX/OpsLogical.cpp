//===- OpsLogical.cpp - comparisons and logical ONNX ops ------------------===//
//
// Equal, Less, LessOrEqual, Greater, GreaterOrEqual (nn.compare), Not, And,
// Or and Xor on BOOL tensors (nn.compare and nn.where on i1), each folded
// when its operands are known at import time: the masks PyTorch's
// exporters build from constants (a causal mask) fold, those built from the
// input ids (a padding mask, `ids == 0`) compute at run time. IsNaN and
// IsInf of FLOAT tensors compare x with itself or with infinity. OneHot:
// nn.compare of the indices (negative ones wrapped) with each position,
// nn.where of the on and off values. NonZero of a tensor known at import
// time folds; of one computed at run time it is an error, as its result's
// shape would be the data's.
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

/// Output 0 is `x predicate rhs`.
static LogicalResult compareWith(NodeContext &nc, Value x,
                                 nn::ComparePredicate predicate, Value rhs) {
  FailureOr<Value> y =
      nc.create<nn::CompareOp>({x, rhs}, {nc.predicate(predicate)});
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

/// Output 0 is `lhs predicate rhs` (inputs `lhs` and `rhs`, numpy
/// broadcasting): a BOOL constant when both are known, else nn.compare.
static LogicalResult compareInputs(NodeContext &nc,
                                   nn::ComparePredicate predicate) {
  if (nc.numInputs() != 2)
    return nc.error() << "needs 2 inputs", failure();
  FailureOr<Tensor *> lhs = nc.input(0), rhs = nc.input(1);
  if (failed(lhs) || failed(rhs))
    return failure();
  if ((*lhs)->dtype != (*rhs)->dtype)
    return nc.error() << "the operands differ in type ("
                      << dataTypeName((*lhs)->dtype) << " and "
                      << dataTypeName((*rhs)->dtype) << ")",
           failure();
  if (isFoldable(**lhs) && isFoldable(**rhs)) {
    const Const &a = *(*lhs)->constant, &b = *(*rhs)->constant;
    std::optional<Const> r = foldBinary(a, b, [&](double x, double y) {
      return nn::CompareOp::holds(predicate, x, y) ? 1.0 : 0.0;
    });
    if (!r)
      return foldFailure(nc, a, b);
    Const out;
    out.dtype = onnx::TensorProto::BOOL;
    out.shape = r->shape;
    for (int64_t k = 0, n = r->numel(); k < n; ++k)
      out.i.push_back(r->at(k) != 0);
    return nc.setOutput(0, std::move(out));
  }
  FailureOr<Value> a = nc.anyValue(0), b = nc.anyValue(1);
  if (failed(a) || failed(b))
    return failure();
  return compareWith(nc, *a, predicate, *b);
}

template <nn::ComparePredicate Predicate>
static LogicalResult importCompare(NodeContext &nc) {
  return compareInputs(nc, Predicate);
}

/// Input `i`, which must be BOOL.
static FailureOr<Tensor *> boolInput(NodeContext &nc, unsigned i) {
  FailureOr<Tensor *> t = nc.input(i);
  if (failed(t))
    return failure();
  if ((*t)->dtype != onnx::TensorProto::BOOL)
    return nc.error() << "input " << i << " ('" << nc.node.input(i)
                      << "') has element type " << dataTypeName((*t)->dtype)
                      << "; the operands must be BOOL",
           failure();
  return t;
}

/// A 0-d i1 constant.
static Value boolScalar(NodeContext &nc, bool value) {
  auto type = RankedTensorType::get({}, nc.builder.getI1Type());
  return arith::ConstantOp::create(nc.builder, nc.loc, type,
                                   DenseElementsAttr::get(type, value));
}

/// Not: a constant folds; else x == false.
static LogicalResult importNot(NodeContext &nc) {
  FailureOr<Tensor *> x = boolInput(nc, 0);
  if (failed(x))
    return failure();
  if (isFoldable(**x)) {
    Const out = *(*x)->constant;
    for (int64_t &v : out.i)
      v = v == 0;
    return nc.setOutput(0, std::move(out));
  }
  FailureOr<Value> v = nc.anyValue(0);
  if (failed(v))
    return failure();
  return compareWith(nc, *v, nn::ComparePredicate::EQ, boolScalar(nc, false));
}

enum class Logical { And, Or, Xor };

/// And, Or, Xor: folded on constants; else `a ? b : false`, `a ? true : b`
/// (nn.where on i1) and `a != b`.
template <Logical op> static LogicalResult importLogical(NodeContext &nc) {
  if (nc.numInputs() != 2)
    return nc.error() << "needs 2 inputs", failure();
  FailureOr<Tensor *> lhs = boolInput(nc, 0), rhs = boolInput(nc, 1);
  if (failed(lhs) || failed(rhs))
    return failure();
  if (op == Logical::Xor)
    return compareInputs(nc, nn::ComparePredicate::NE);
  if (isFoldable(**lhs) && isFoldable(**rhs)) {
    const Const &a = *(*lhs)->constant, &b = *(*rhs)->constant;
    std::optional<Const> r = foldBinary(a, b, [](double x, double y) {
      bool p = x != 0, q = y != 0;
      return double(op == Logical::And ? p && q : p || q);
    });
    if (!r)
      return foldFailure(nc, a, b);
    return nc.setOutput(0, std::move(*r));
  }
  FailureOr<Value> a = nc.anyValue(0), b = nc.anyValue(1);
  if (failed(a) || failed(b))
    return failure();
  FailureOr<Value> y =
      op == Logical::And
          ? nc.create<nn::WhereOp>({*a, *b, boolScalar(nc, false)})
          : nc.create<nn::WhereOp>({*a, boolScalar(nc, true), *b});
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

/// IsNaN: x != x, true only for NaN (PyTorch's exporters guard fully masked
/// attention rows with it).
static LogicalResult importIsNaN(NodeContext &nc) {
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(x))
    return failure();
  return compareWith(nc, *x, nn::ComparePredicate::NE, *x);
}

/// IsInf: x == +inf and/or x == -inf (detect_positive, detect_negative).
static LogicalResult importIsInf(NodeContext &nc) {
  FailureOr<int64_t> positive = nc.intAttr("detect_positive", 1);
  FailureOr<int64_t> negative = nc.intAttr("detect_negative", 1);
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(positive) || failed(negative) || failed(x))
    return failure();
  const float inf = std::numeric_limits<float>::infinity();
  if (*positive && *negative) {
    FailureOr<Value> a = nc.create<nn::AbsOp>({*x});
    return failed(a) ? failure()
                     : compareWith(nc, *a, nn::ComparePredicate::EQ,
                                   nc.splat({}, inf));
  }
  if (!*positive && !*negative) // never true: x < -inf
    return compareWith(nc, *x, nn::ComparePredicate::LT, nc.splat({}, -inf));
  return compareWith(nc, *x, nn::ComparePredicate::EQ,
                     nc.splat({}, *positive ? inf : -inf));
}

/// OneHot(indices, depth, values): `values[1]` where the index (INT64,
/// INT32, or FLOAT truncated to INT64; a negative one plus depth) equals
/// the position along the new `axis`, `values[0]` elsewhere (an index
/// outside [-depth, depth) matches none). The depth is known at import
/// time; the values (FLOAT, INT64 or INT32) may be computed.
static LogicalResult importOneHot(NodeContext &nc) {
  using TP = onnx::TensorProto;
  FailureOr<int64_t> axisAttr = nc.intAttr("axis", -1);
  FailureOr<Tensor *> indices = nc.input(0);
  FailureOr<const Const *> depthC = nc.constInput(1, "the depth");
  FailureOr<Tensor *> values = nc.input(2);
  if (failed(axisAttr) || failed(indices) || failed(depthC) || failed(values))
    return failure();
  const int32_t idxType = (*indices)->dtype, valType = (*values)->dtype;
  if (idxType != TP::INT64 && idxType != TP::INT32 && idxType != TP::FLOAT)
    return nc.error() << "the indices must be INT64, INT32 or FLOAT, got "
                      << dataTypeName(idxType),
           failure();
  if (valType != TP::FLOAT && valType != TP::INT64 && valType != TP::INT32)
    return nc.error() << "the values must be FLOAT, INT64 or INT32, got "
                      << dataTypeName(valType),
           failure();
  if ((*depthC)->numel() != 1 || (*values)->shape != llvm::ArrayRef<int64_t>{2})
    return nc.error() << "depth must hold one value and values two (off, "
                         "on), got ["
                      << (*depthC)->shape << "] and [" << (*values)->shape
                      << "]",
           failure();
  const int64_t depth = toInt64((*depthC)->at(0));
  llvm::SmallVector<int64_t> shape((*indices)->shape);
  FailureOr<int64_t> axis =
      nc.normalizeAxis(*axisAttr, shape.size() + 1, "axis");
  if (failed(axis))
    return failure();
  if (depth < 1)
    return nc.error() << "depth must be >= 1, got " << depth, failure();
  // The positions are a constant of `depth` ids.
  std::optional<int64_t> count = constElementCount({depth}, TP::INT64);
  if (!count)
    return nc.error() << "depth " << depth
                      << " is over the importer's limit on constants",
           failure();
  if (failed(nc.reserveFoldedBytes(*count * int64_t(sizeof(int64_t)))))
    return failure();
  FailureOr<Value> idx = nc.anyValue(0);
  FailureOr<Value> vals = failed(idx) ? idx : nc.anyValue(2);
  if (failed(vals))
    return failure();
  Formula f(nc);
  Value ids = *idx;
  Type i64 = nc.builder.getI64Type();
  if (idxType != TP::INT64) {
    FailureOr<Value> converted = nc.convert(ids, i64);
    if (failed(converted))
      return failure();
    ids = *converted;
  }
  Value negative =
      f.compare(ids, nn::ComparePredicate::LT, nc.intScalar(i64, 0));
  Value wrapped = f.op<nn::AddOp>({ids, nc.intScalar(i64, depth)});
  ids = f.op<nn::WhereOp>({negative, wrapped, ids});
  llvm::SmallVector<int64_t> idsShape(shape), posShape(shape.size() + 1, 1);
  idsShape.insert(idsShape.begin() + *axis, 1);
  posShape[*axis] = depth;
  Value positions =
      nc.constant(posShape, llvm::to_vector(llvm::seq<int64_t>(0, depth)));
  Value hit =
      f.compare(f.reshape(ids, idsShape), nn::ComparePredicate::EQ, positions);
  Value off = f.reshape(f.slice(*vals, {0}, {1}), {});
  Value on = f.reshape(f.slice(*vals, {1}, {1}), {});
  if (failed(f.setOutput(f.op<nn::WhereOp>({hit, on, off}))))
    return failure();
  nc.declareType(0, (*values)->declaredType());
  return success();
}

/// NonZero: the positions of the nonzero elements of a tensor known at
/// import time, INT64 [rank, count], in row-major order (a 0-d input gives
/// [0, count], as ONNX's reference). A tensor computed at run time (a mask
/// of the labels, a router's choice of experts) or a param would give a
/// result whose shape is the data's: an error that says so.
static LogicalResult importNonZero(NodeContext &nc) {
  FailureOr<const Const *> c =
      nc.constInput(0, "the input",
                    "its count of nonzero elements is the result's shape, "
                    "and amp's shapes are static");
  if (failed(c))
    return failure();
  if (!isFoldable(**nc.input(0)))
    return nc.error() << "the input ('" << nc.node.input(0)
                      << "') is a param: the result's shape would change as "
                         "it trains",
           failure();
  const Const &in = **c;
  const int64_t rank = in.shape.size(), n = in.numel();
  std::vector<int64_t> hits;
  for (int64_t k = 0; k < n; ++k)
    if (in.at(k) != 0) // NaN included
      hits.push_back(k);
  Const out;
  out.dtype = onnx::TensorProto::INT64;
  out.shape = {rank, int64_t(hits.size())};
  out.i.resize(rank * hits.size());
  llvm::SmallVector<int64_t> strides = stridesOf(in.shape);
  for (int64_t j = 0, count = hits.size(); j < count; ++j)
    for (int64_t d = 0; d < rank; ++d)
      out.i[d * count + j] = hits[j] / strides[d] % in.shape[d];
  return nc.setOutput(0, std::move(out));
}

void amp::onnx_import::registerLogicalOps(OpTable &t) {
  t["Equal"] = {importCompare<nn::ComparePredicate::EQ>, {}};
  t["Less"] = {importCompare<nn::ComparePredicate::LT>, {}};
  t["LessOrEqual"] = {importCompare<nn::ComparePredicate::LE>, {}};
  t["Greater"] = {importCompare<nn::ComparePredicate::GT>, {}};
  t["GreaterOrEqual"] = {importCompare<nn::ComparePredicate::GE>, {}};
  t["Not"] = {importNot, {}};
  t["And"] = {importLogical<Logical::And>, {}};
  t["Or"] = {importLogical<Logical::Or>, {}};
  t["Xor"] = {importLogical<Logical::Xor>, {}};
  t["IsNaN"] = {importIsNaN, {}};
  t["IsInf"] = {importIsInf, {"detect_positive", "detect_negative"}};
  t["OneHot"] = {importOneHot, {"axis"}};
  t["NonZero"] = {importNonZero, {}};
}
