//===- OpsScatter.cpp - ScatterND and ScatterElements ---------------------===//
//
// A copy of the data with updates written at constant indices, optionally
// combined with what is there (reduction add, mul, max, min). Both ops
// view the data as rows: ScatterND's index tuples address the rows of
// prod(data.shape[:k]), each a slice of data.shape[k:]; ScatterElements'
// indices address single elements. Folded on constants. Of tensors
// computed at run time (Hugging Face's encoder-decoders shift their labels
// right into the decoder's ids with two ScatterNDs: `ids[:, 1:] = ...`,
// `ids[:, 0] = start`):
//  - a ScatterND whose tuples cover a box in order is nn.slice of the data
//    around the box and nn.concat, one axis at a time;
//  - otherwise the rows come from runs of consecutive rows of the data and
//    of the updates: nn.slice and nn.concat (any element type), or, past
//    kMaxRuns runs, nn.embedding of the data's and the updates' rows as
//    one table (FLOAT, INT64, INT32).
// A reduction combines, layer by layer (the first update of each row,
// then the second, ...), the data with the rows placed so
// (nn.add/nn.mul/nn.maximum/nn.minimum, nn.where). Gradients flow to the
// data and the updates through these ops. ScatterElements of FLOAT data at
// indices computed at run time (a mixture of experts' gates), reduction
// none or add: nn.embedding_grad of the updates into the data's elements
// as a one-column table, added, or put where an update lands.
//
//===----------------------------------------------------------------------===//

#include "Folding.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include "amp_runtime/checked_size.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

/// The most nn.slice runs (or reduction layers) one scatter becomes, as
/// Gather's constant indices.
static constexpr int64_t kMaxRuns = 64;

namespace {
enum class Reduction { None, Add, Mul, Max, Min };

/// Where each update row goes, in the data viewed as [rows, rowSize].
struct ScatterPlan {
  int64_t rows = 0, rowSize = 1;
  /// The target row of each update row, in the updates' order.
  std::vector<int64_t> target;
  Reduction reduction = Reduction::None;
};
} // namespace

static FailureOr<Reduction> reductionAttr(NodeContext &nc) {
  FailureOr<std::string> r = nc.stringAttr("reduction", "none");
  if (failed(r))
    return failure();
  if (*r == "none")
    return Reduction::None;
  if (*r == "add")
    return Reduction::Add;
  if (*r == "mul")
    return Reduction::Mul;
  if (*r == "max" && nc.opset >= 18)
    return Reduction::Max;
  if (*r == "min" && nc.opset >= 18)
    return Reduction::Min;
  return nc.error() << "reduction '" << *r << "' is not supported (none, add, "
                    << "mul" << (nc.opset >= 18 ? ", max, min" : "") << ")",
         failure();
}

/// The checks both ops share: a supported reduction (into `reduction`),
/// integer indices, and updates of the data's element type. Returns the
/// indices.
static FailureOr<Tensor *> scatterInputs(NodeContext &nc,
                                         Reduction &reduction) {
  FailureOr<Reduction> r = reductionAttr(nc);
  if (failed(r))
    return failure();
  reduction = *r;
  FailureOr<Tensor *> data = nc.input(0);
  FailureOr<Tensor *> indices = nc.input(1);
  FailureOr<Tensor *> updates = nc.input(2);
  if (failed(data) || failed(indices) || failed(updates))
    return failure();
  if ((*indices)->dtype != onnx::TensorProto::INT64 &&
      (*indices)->dtype != onnx::TensorProto::INT32)
    return nc.error() << "the indices must be INT64 or INT32", failure();
  if ((*updates)->dtype != (*data)->dtype)
    return nc.error() << "the updates have element type "
                      << dataTypeName((*updates)->dtype) << ", the data "
                      << dataTypeName((*data)->dtype),
           failure();
  return indices;
}

/// `a` combined with `b` by `r` in the element type `dtype` (integers wrap
/// as two's complement in their width; floats round to f32).
static void combine(Reduction r, int32_t dtype, float &a, float b) {
  switch (r) {
  case Reduction::None:
    a = b;
    return;
  case Reduction::Add:
    a += b;
    return;
  case Reduction::Mul:
    a *= b;
    return;
  case Reduction::Max:
    a = std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
    return;
  case Reduction::Min:
    a = std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
    return;
  }
}
static void combine(Reduction r, int32_t dtype, int64_t &a, int64_t b) {
  uint64_t x = uint64_t(a), y = uint64_t(b);
  switch (r) {
  case Reduction::None:
    a = b;
    return;
  case Reduction::Add:
    a = int64_t(x + y);
    break;
  case Reduction::Mul:
    a = int64_t(x * y);
    break;
  case Reduction::Max:
    a = std::max(a, b);
    return;
  case Reduction::Min:
    a = std::min(a, b);
    return;
  }
  if (dtype == onnx::TensorProto::INT32)
    a = int32_t(uint32_t(uint64_t(a)));
}

/// The scatter of two constants.
static LogicalResult foldScatter(NodeContext &nc, const ScatterPlan &plan) {
  Const y = *(*nc.input(0))->constant;
  const Const &u = *(*nc.input(2))->constant;
  if (plan.reduction != Reduction::None && y.dtype == onnx::TensorProto::BOOL)
    return nc.error() << "a reduction needs FLOAT, INT64 or INT32 data",
           failure();
  for (size_t t = 0; t < plan.target.size(); ++t)
    for (int64_t e = 0; e < plan.rowSize; ++e) {
      int64_t at = plan.target[t] * plan.rowSize + e;
      int64_t from = int64_t(t) * plan.rowSize + e;
      if (y.isFloat())
        combine(plan.reduction, y.dtype, y.f[at], u.f[from]);
      else
        combine(plan.reduction, y.dtype, y.i[at], u.i[from]);
    }
  return nc.setOutput(0, std::move(y));
}

/// nn.slice of `count` rows of the [n, rowSize] `rows` from row `start`.
static FailureOr<Value> sliceRows(NodeContext &nc, Value rows, int64_t start,
                                  int64_t count) {
  llvm::SmallVector<int64_t> shape = shapeOf(rows);
  shape[0] = count;
  return nc.slice(rows, {start, 0}, shape);
}

/// `base` [rows, rowSize] with each row p for which src[p] >= 0 replaced by
/// row src[p] of `updates` [n, rowSize].
static FailureOr<Value> placeRows(NodeContext &nc, Value base, Value updates,
                                  llvm::ArrayRef<int64_t> src) {
  struct Run {
    bool fromUpdates;
    int64_t start, count;
  };
  std::vector<Run> runs;
  for (int64_t p = 0; p < int64_t(src.size()) && runs.size() <= kMaxRuns; ++p) {
    bool fromUpdates = src[p] >= 0;
    int64_t start = fromUpdates ? src[p] : p;
    if (!runs.empty() && runs.back().fromUpdates == fromUpdates &&
        runs.back().start + runs.back().count == start) {
      ++runs.back().count;
      continue;
    }
    runs.push_back({fromUpdates, start, 1});
  }
  if (runs.size() <= kMaxRuns) {
    llvm::SmallVector<Value> parts;
    for (const Run &run : runs) {
      FailureOr<Value> part =
          sliceRows(nc, run.fromUpdates ? updates : base, run.start, run.count);
      if (failed(part))
        return failure();
      parts.push_back(*part);
    }
    if (parts.size() == 1)
      return parts[0];
    return nc.create<nn::ConcatOp>(
        parts, {nc.named("axis", nc.builder.getI64IntegerAttr(0))});
  }
  auto type = cast<RankedTensorType>(base.getType());
  if (type.getElementType().isInteger(1))
    return nc.error() << "scattering into more than " << kMaxRuns
                      << " runs of consecutive positions is supported only "
                         "for FLOAT, INT64 and INT32 data",
           failure();
  // One table of the base's rows, then the updates' rows.
  const int64_t rows = type.getDimSize(0);
  FailureOr<Value> table = nc.create<nn::ConcatOp>(
      {base, updates}, {nc.named("axis", nc.builder.getI64IntegerAttr(0))});
  if (failed(table))
    return failure();
  std::vector<int64_t> ids(src.size());
  for (size_t p = 0; p < src.size(); ++p)
    ids[p] = src[p] >= 0 ? rows + src[p] : int64_t(p);
  return nc.create<nn::EmbeddingOp>(
      {*table, nc.constant({rows}, llvm::ArrayRef<int64_t>(ids))});
}

/// The result of `r` of `a` and `b`, elementwise.
static FailureOr<Value> reduce(NodeContext &nc, Reduction r, Value a, Value b) {
  switch (r) {
  case Reduction::Add:
    return nc.create<nn::AddOp>({a, b});
  case Reduction::Mul:
    return nc.create<nn::MulOp>({a, b});
  case Reduction::Max:
    return nc.create<nn::MaximumOp>({a, b});
  case Reduction::Min:
    return nc.create<nn::MinimumOp>({a, b});
  case Reduction::None:
    break;
  }
  return b;
}

/// The scatter of tensors computed at run time (or params), as rows.
static LogicalResult scatterRows(NodeContext &nc, const ScatterPlan &plan) {
  FailureOr<Tensor *> data = nc.input(0);
  if (failed(data))
    return failure();
  llvm::SmallVector<int64_t> shape = (*data)->shape;
  const int64_t n = plan.target.size();
  if (plan.reduction != Reduction::None &&
      (*data)->dtype == onnx::TensorProto::BOOL)
    return nc.error() << "a reduction needs FLOAT, INT64 or INT32 data",
           failure();
  if (failed(nc.reserveFoldedBytes(plan.rows * int64_t(sizeof(int64_t)))))
    return failure();
  FailureOr<Value> x = nc.anyValue(0);
  FailureOr<Value> u = nc.anyValue(2);
  if (failed(x) || failed(u) ||
      failed(x = nc.reshape(*x, {plan.rows, plan.rowSize})) ||
      failed(u = nc.reshape(*u, {n, plan.rowSize})))
    return failure();
  // Layer j places the j-th update of every row.
  std::vector<int64_t> layerOf(n), seen(plan.rows, 0);
  int64_t layers = n ? 1 : 0;
  for (int64_t t = 0; t < n; ++t) {
    layerOf[t] = seen[plan.target[t]]++;
    layers = std::max(layers, layerOf[t] + 1);
  }
  if (layers > 1 && plan.reduction == Reduction::None)
    return nc.error() << "the indices address a position more than once, "
                         "which ONNX leaves undefined without a reduction",
           failure();
  if (layers > kMaxRuns)
    return nc.error() << "the indices address a position " << layers
                      << " times; at most " << kMaxRuns << " are supported",
           failure();
  Value y = *x;
  for (int64_t layer = 0; layer < layers; ++layer) {
    std::vector<int64_t> src(plan.rows, -1);
    for (int64_t t = 0; t < n; ++t)
      if (layerOf[t] == layer)
        src[plan.target[t]] = t;
    FailureOr<Value> placed = placeRows(nc, y, *u, src);
    if (failed(placed))
      return failure();
    if (plan.reduction == Reduction::None) {
      y = *placed;
      continue;
    }
    FailureOr<Value> combined = reduce(nc, plan.reduction, y, *placed);
    if (failed(combined))
      return failure();
    auto maskType =
        RankedTensorType::get({plan.rows, 1}, nc.builder.getI1Type());
    llvm::SmallVector<bool> mask;
    for (int64_t s : src)
      mask.push_back(s >= 0);
    Value maskValue = arith::ConstantOp::create(
        nc.builder, nc.loc, maskType, DenseElementsAttr::get(maskType, mask));
    FailureOr<Value> next = nc.create<nn::WhereOp>({maskValue, *combined, y});
    if (failed(next))
      return failure();
    y = *next;
  }
  FailureOr<Value> out = nc.reshape(y, shape);
  return failed(out) ? failure() : nc.setOutput(0, *out);
}

/// ScatterND whose index tuples (`tuples`, k per update row) cover the box
/// lo + [0, ext) of the data's first k dims in row-major order: the data
/// around the box along each axis, then the updates inside it. Fails
/// silently (std::nullopt) when the tuples are no such box.
static std::optional<FailureOr<Value>>
scatterBox(NodeContext &nc, llvm::ArrayRef<int64_t> ds,
           llvm::ArrayRef<int64_t> tuples, int64_t k) {
  const int64_t n = k ? int64_t(tuples.size()) / k : 0;
  if (n == 0)
    return std::nullopt;
  llvm::SmallVector<int64_t> lo(tuples.take_front(k)), ext(k, 1);
  for (int64_t t = 0; t < n; ++t)
    for (int64_t a = 0; a < k; ++a) {
      lo[a] = std::min(lo[a], tuples[t * k + a]);
      ext[a] = std::max(ext[a], tuples[t * k + a] + 1);
    }
  int64_t boxSize = 1;
  for (int64_t a = 0; a < k; ++a) {
    ext[a] -= lo[a];
    boxSize *= ext[a];
  }
  if (boxSize != n)
    return std::nullopt;
  llvm::SmallVector<int64_t> p(k, 0);
  for (int64_t t = 0; t < n; ++t, advanceIndex(p, ext))
    for (int64_t a = 0; a < k; ++a)
      if (tuples[t * k + a] != lo[a] + p[a])
        return std::nullopt;

  FailureOr<Value> x = nc.anyValue(0);
  FailureOr<Value> inner = nc.anyValue(2);
  llvm::SmallVector<int64_t> boxShape(ext);
  boxShape.append(ds.begin() + k, ds.end());
  if (failed(x) || failed(inner) ||
      failed(inner = nc.reshape(*inner, boxShape)))
    return FailureOr<Value>(failure());
  // inner: the result inside the box on axes < a, whole on axes >= a + 1.
  for (int64_t a = k - 1; a >= 0; --a) {
    llvm::SmallVector<Value> parts;
    auto around = [&](int64_t start, int64_t size) -> LogicalResult {
      if (size == 0)
        return success();
      llvm::SmallVector<int64_t> offsets(ds.size(), 0), sizes(ds);
      for (int64_t b = 0; b < a; ++b) {
        offsets[b] = lo[b];
        sizes[b] = ext[b];
      }
      offsets[a] = start;
      sizes[a] = size;
      FailureOr<Value> part = nc.slice(*x, offsets, sizes);
      if (failed(part))
        return failure();
      parts.push_back(*part);
      return success();
    };
    if (failed(around(0, lo[a])))
      return FailureOr<Value>(failure());
    parts.push_back(*inner);
    if (failed(around(lo[a] + ext[a], ds[a] - lo[a] - ext[a])))
      return FailureOr<Value>(failure());
    if (parts.size() > 1 &&
        failed(inner = nc.create<nn::ConcatOp>(
                   parts, {nc.named("axis", nc.builder.getI64IntegerAttr(a))})))
      return FailureOr<Value>(failure());
  }
  return inner;
}

/// A scatter of FLOAT data at indices computed at run time, reduction none
/// or add: the data (shape `ds`) as a table of `rows` rows, the updates'
/// rows (`tuples` of them) scatter-added into it at the row ids `ids`
/// (shape `tuples`; -1 for an index outside, which nn.embedding_grad
/// rejects at run time) by nn.embedding_grad; reduction add adds that to
/// the data, none puts it where some update lands (nn.where of a
/// scatter-add of ones) and keeps the data elsewhere. A row that several
/// updates address gets their sum, where ONNX leaves the result undefined
/// (PyTorch's scatter keeps one of them). The gradient reaches the data
/// through nn.add or nn.where and the updates gathered back at the rows
/// (nn.embedding_grad's rule), as PyTorch's scatter backward.
static LogicalResult scatterRowsComputed(NodeContext &nc, Reduction reduction,
                                         Value ids, llvm::ArrayRef<int64_t> ds,
                                         int64_t rows,
                                         llvm::ArrayRef<int64_t> tuples) {
  FailureOr<Value> data = nc.floatValue(0);
  FailureOr<Value> updates = nc.floatValue(2);
  if (failed(data) || failed(updates))
    return failure();
  // The data's element count was checked by whoever computed the ids.
  const int64_t rowSize = *amp::checked::elementCount(ds.data(), ds.size()) /
                          std::max<int64_t>(rows, 1);
  llvm::SmallVector<int64_t> updateRows(tuples);
  updateRows.push_back(rowSize);
  auto tableType =
      RankedTensorType::get({rows, rowSize}, nc.builder.getF32Type());
  auto scatter = [&](Value v) -> FailureOr<Value> {
    FailureOr<Value> r = nc.reshape(v, updateRows);
    if (failed(r))
      return failure();
    return nc.createTyped<nn::EmbeddingGradOp>(tableType, {*r, ids});
  };
  FailureOr<Value> placed = scatter(*updates);
  FailureOr<Value> table = nc.reshape(*data, {rows, rowSize});
  if (failed(placed) || failed(table))
    return failure();
  FailureOr<Value> y = failure();
  if (reduction == Reduction::Add) {
    y = nc.create<nn::AddOp>({*table, *placed});
  } else {
    FailureOr<Value> hits = scatter(nc.splat(updateRows, 1.0f));
    if (failed(hits))
      return failure();
    FailureOr<Value> hit = nc.create<nn::CompareOp>(
        {*hits, nc.splat({}, 0.0f)}, {nc.predicate(nn::ComparePredicate::GT)});
    if (failed(hit))
      return failure();
    y = nc.create<nn::WhereOp>({*hit, *placed, *table});
  }
  if (failed(y) || failed(y = nc.reshape(*y, ds)))
    return failure();
  return nc.setOutput(0, *y);
}

/// ScatterElements of FLOAT data at indices computed at run time (a
/// router's gates, `zeros.scatter(-1, picks, weights)`): the data's
/// elements as one-element rows at the elementOffsetsComputed positions
/// (scatterRowsComputed).
static LogicalResult scatterElementsComputed(NodeContext &nc,
                                             Reduction reduction,
                                             llvm::ArrayRef<int64_t> ds,
                                             llvm::ArrayRef<int64_t> is,
                                             int64_t axis) {
  FailureOr<Value> idx = nc.anyValue(1);
  if (failed(idx))
    return failure();
  FailureOr<Value> at = elementOffsetsComputed(nc, *idx, ds, is, axis, true);
  if (failed(at))
    return failure();
  // elementOffsetsComputed checked the data's element count.
  const int64_t n = *amp::checked::elementCount(ds.data(), ds.size());
  return scatterRowsComputed(nc, reduction, *at, ds, n, is);
}

/// ScatterND of FLOAT data at index tuples computed at run time: the rows
/// of prod(ds[:k]) that tupleRowsComputed gives (scatterRowsComputed).
/// PyTorch's torch.export-based exporter writes MaxUnpool2d so: the pooled
/// values scattered into zeros at MaxPool's Indices.
static LogicalResult scatterNDComputed(NodeContext &nc, Reduction reduction,
                                       llvm::ArrayRef<int64_t> ds,
                                       llvm::ArrayRef<int64_t> is) {
  FailureOr<Value> idx = nc.anyValue(1);
  if (failed(idx))
    return failure();
  if (!amp::checked::elementCount(ds.data(), ds.size()))
    return nc.error() << "the data has too many elements", failure();
  FailureOr<Value> ids = tupleRowsComputed(nc, *idx, ds, is);
  if (failed(ids))
    return failure();
  int64_t rows = 1;
  for (int64_t d = 0; d < is.back(); ++d)
    rows *= ds[d];
  return scatterRowsComputed(nc, reduction, *ids, ds, rows, is.drop_back());
}

/// ScatterND: output = data, then output[indices[t]] = updates[t] for each
/// index tuple t (the last indices dim holds k <= rank(data) indices, each
/// addressing a slice of data.shape[k:]); updates has shape
/// indices.shape[:-1] + data.shape[k:].
static LogicalResult importScatterND(NodeContext &nc) {
  Reduction reduction;
  FailureOr<Tensor *> indices = scatterInputs(nc, reduction);
  if (failed(indices))
    return failure();
  llvm::ArrayRef<int64_t> ds = (*nc.input(0))->shape, is = (*indices)->shape,
                          us = (*nc.input(2))->shape;
  if (ds.empty() || is.empty() || is.back() < 1 ||
      is.back() > int64_t(ds.size()))
    return nc.error() << "needs data of rank >= 1 and indices whose last "
                         "dimension is in [1, rank(data)]",
           failure();
  const int64_t k = is.back();
  llvm::SmallVector<int64_t> expected(is.drop_back());
  expected.append(ds.begin() + k, ds.end());
  if (llvm::ArrayRef<int64_t>(expected) != us)
    return nc.error() << "the updates must have shape indices.shape[:-1] + "
                         "data.shape[k:] (k = "
                      << k << ")",
           failure();
  // Other reductions and data types need the indices at import time (the
  // error says so).
  if (!(*indices)->constant && (*nc.input(0))->isFloat() &&
      (reduction == Reduction::None || reduction == Reduction::Add))
    return scatterNDComputed(nc, reduction, ds, is);
  FailureOr<const Const *> idx = nc.constInput(1, "the indices");
  if (failed(idx))
    return failure();
  ScatterPlan plan;
  plan.reduction = reduction;
  plan.rows = 1;
  for (int64_t d = 0; d < int64_t(ds.size()); ++d)
    (d < k ? plan.rows : plan.rowSize) *= ds[d];
  std::vector<int64_t> values = (*idx)->ints();
  const int64_t n = int64_t(values.size()) / k;
  for (int64_t t = 0; t < n; ++t) {
    int64_t row = 0;
    for (int64_t a = 0; a < k; ++a) {
      FailureOr<int64_t> at = normalizeIndex(nc, values[t * k + a], ds[a], a);
      if (failed(at))
        return failure();
      values[t * k + a] = *at;
      row = row * ds[a] + *at;
    }
    plan.target.push_back(row);
  }
  if (isFoldable(**nc.input(0)) && isFoldable(**nc.input(2)))
    return foldScatter(nc, plan);
  if (plan.reduction == Reduction::None)
    if (std::optional<FailureOr<Value>> box = scatterBox(nc, ds, values, k))
      return failed(*box) ? failure() : nc.setOutput(0, **box);
  return scatterRows(nc, plan);
}

/// ScatterElements (and Scatter, its name before opset 11): output = data,
/// then output[p with p[axis] = indices[p]] = updates[p] for every position
/// p of the indices, which have the data's rank, no larger dims off the
/// axis, and the updates' shape.
static LogicalResult importScatterElements(NodeContext &nc) {
  Reduction reduction;
  FailureOr<Tensor *> indices = scatterInputs(nc, reduction);
  FailureOr<int64_t> axisAttr =
      failed(indices) ? FailureOr<int64_t>(failure()) : nc.intAttr("axis", 0);
  if (failed(axisAttr))
    return failure();
  llvm::ArrayRef<int64_t> ds = (*nc.input(0))->shape, is = (*indices)->shape,
                          us = (*nc.input(2))->shape;
  if (us != is)
    return nc.error() << "the updates must have the indices' shape", failure();
  FailureOr<int64_t> axis = elementsAxis(nc, ds, is, *axisAttr);
  if (failed(axis))
    return failure();
  // Other reductions and data types need the indices at import time (the
  // error says so).
  if (!(*indices)->constant && (*nc.input(0))->isFloat() &&
      (reduction == Reduction::None || reduction == Reduction::Add))
    return scatterElementsComputed(nc, reduction, ds, is, *axis);
  FailureOr<const Const *> idx = nc.constInput(1, "the indices");
  if (failed(idx))
    return failure();
  std::optional<int64_t> rows =
      amp::checked::elementCount(ds.data(), ds.size());
  if (!rows)
    return nc.error() << "the data has too many elements", failure();
  FailureOr<std::vector<int64_t>> targets =
      elementOffsets(nc, ds, is, *axis, (*idx)->ints());
  if (failed(targets))
    return failure();
  ScatterPlan plan;
  plan.reduction = reduction;
  plan.rows = *rows;
  plan.target = std::move(*targets);
  if (isFoldable(**nc.input(0)) && isFoldable(**nc.input(2)))
    return foldScatter(nc, plan);
  return scatterRows(nc, plan);
}

void amp::onnx_import::registerScatterOps(OpTable &t) {
  t["ScatterND"] = {importScatterND, {"reduction"}};
  t["ScatterElements"] = {importScatterElements, {"axis", "reduction"}};
  t["Scatter"] = {importScatterElements, {"axis"}};
}
