//===- OpsGather.cpp - gathers at constant and computed indices -----------===//
//
// Gather: nn.embedding for a table lookup by computed ids, slices and a
// concat for a few constant indices, folded on constants. GatherElements
// and GatherND: folded on constants (Hugging Face's BERT gathers its
// token-type buffer with GatherElements; RoBERTa gathers it at computed
// positions, which folds because the buffer holds one value). Of FLOAT,
// INT64 or INT32 data computed at run time (a gather of ids: mBART's end
// token) they are nn.embedding of the data as a table:
// at constant positions (a selection of every element in order is a
// reshape, of any type: the torch.export-based exporter's GatherND of an
// attention mask), or at positions computed with the integer nn ops from
// computed indices (DeBERTa-v2's relative attention; a decoder
// classifier's last token), where an index outside its dimension becomes
// row -1, which nn.embedding rejects at run time. TopK: nn.topk's positions
// and the values gathered at them as GatherElements at computed indices
// (a mixture of experts' router). ReverseSequence: nn.embedding at the
// source steps computed from the lengths.
//
//===----------------------------------------------------------------------===//

#include "Folding.h"
#include "Formula.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include "amp_runtime/checked_size.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/ADT/bit.h"

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

/// The integer indices input `i`, known at import time.
static FailureOr<const Const *> constIndices(NodeContext &nc, unsigned i) {
  FailureOr<const Const *> idx = nc.constInput(i, "the indices");
  if (failed(idx))
    return failure();
  if ((*idx)->dtype != onnx::TensorProto::INT64 &&
      (*idx)->dtype != onnx::TensorProto::INT32)
    return nc.error() << "the indices must be INT64 or INT32", failure();
  return idx;
}

/// Output 0 is input 0's elements at the row-major `linear` positions, with
/// `shape`: a constant when the data is known; of data computed at run time
/// (or a param) a reshape when it selects every element in order, else, for
/// FLOAT, INT64 or INT32 data, nn.embedding of the data as a one-column table
/// at the positions (a constant), whose gradient scatters back through
/// nn.embedding_grad (DeBERTa-v2 gathers its attention scores at relative
/// positions this way).
static LogicalResult gatherLinear(NodeContext &nc,
                                  llvm::ArrayRef<int64_t> linear,
                                  llvm::ArrayRef<int64_t> shape) {
  Tensor &data = **nc.input(0);
  if (isFoldable(data))
    return nc.setOutput(0, gatherElements(*data.constant, linear, shape));
  std::optional<int64_t> n =
      amp::checked::elementCount(data.shape.data(), data.rank());
  bool inOrder = n && static_cast<int64_t>(linear.size()) == *n;
  for (int64_t k = 0; inOrder && k < *n; ++k)
    inOrder = linear[k] == k;
  if (inOrder) {
    FailureOr<Value> x = nc.anyValue(0);
    FailureOr<Value> y = failed(x) ? x : nc.reshape(*x, shape);
    return failed(y) ? failure() : nc.setOutput(0, *y);
  }
  if (!n)
    return nc.error() << "the data has too many elements", failure();
  if (failed(nc.reserveFoldedBytes(int64_t(linear.size() * sizeof(int64_t)))))
    return failure();
  FailureOr<Value> x = nc.numericValue(0);
  FailureOr<Value> table = failed(x) ? x : nc.reshape(*x, {*n, 1});
  if (failed(table))
    return failure();
  Value ids = nc.constant(shape, linear);
  FailureOr<Value> y = nc.create<nn::EmbeddingOp>({*table, ids});
  if (failed(y) || failed(y = nc.reshape(*y, shape)))
    return failure();
  return nc.setOutput(0, *y);
}

/// The element count of an output of `shape`, within the importer's limit
/// on constants (it is the size of the position list).
static FailureOr<int64_t> gatherCount(NodeContext &nc,
                                      llvm::ArrayRef<int64_t> shape) {
  std::optional<int64_t> n = constElementCount(shape, onnx::TensorProto::INT64);
  if (!n)
    return nc.error() << "the result would have more than "
                      << maxConstElements(onnx::TensorProto::INT64)
                      << " elements",
           failure();
  return *n;
}

/// Whether Gather's normalized constant indices `idx` along a dim of size
/// `n` take every position once, in order.
static bool isInOrder(llvm::ArrayRef<int64_t> idx, int64_t n) {
  if (static_cast<int64_t>(idx.size()) != n)
    return false;
  for (int64_t k = 0; k < n; ++k)
    if (idx[k] != k)
      return false;
  return true;
}

static FailureOr<Value> wrapNegative(NodeContext &nc, Value index,
                                     int64_t dim);

static LogicalResult importGather(NodeContext &nc) {
  FailureOr<Tensor *> data = nc.input(0);
  FailureOr<Tensor *> indices = nc.input(1);
  FailureOr<int64_t> axisAttr = nc.intAttr("axis", 0);
  if (failed(data) || failed(indices) || failed(axisAttr))
    return failure();
  if ((*indices)->dtype != onnx::TensorProto::INT64 &&
      (*indices)->dtype != onnx::TensorProto::INT32)
    return nc.error() << "the indices must be INT64 or INT32", failure();
  int64_t rank = (*data)->rank();
  if (rank == 0)
    return nc.error() << "the data must have rank >= 1", failure();
  FailureOr<int64_t> axis = nc.normalizeAxis(*axisAttr, rank, "axis");
  if (failed(axis))
    return failure();
  // An embedding with a padding row (PyTorch's padding_idx) or gradients
  // scaled by the ids' counts is an nn.embedding that says so, whatever its
  // ids.
  FailureOr<EmbeddingGradient> gradient = embeddingGradient(nc, **data, *axis);
  if (failed(gradient))
    return failure();
  const bool special = gradient->paddingIdx || gradient->scaleGradByFreq;
  llvm::ArrayRef<int64_t> ds = (*data)->shape;
  int64_t n = ds[*axis];
  llvm::SmallVector<int64_t> outShape(ds.begin(), ds.begin() + *axis);
  outShape.append((*indices)->shape.begin(), (*indices)->shape.end());
  outShape.append(ds.begin() + *axis + 1, ds.end());

  std::vector<int64_t> idx; // constant indices, each in [0, n)
  if ((*indices)->constant) {
    idx = (*indices)->constant->ints();
    for (int64_t &i : idx) {
      if (i < -n || i >= n)
        return nc.error() << "index " << i << " is out of range for dimension "
                          << *axis << " of size " << n,
               failure();
      if (i < 0)
        i += n;
    }
    // Folded on a constant, a reshape when it selects every element in
    // order (a flattened mask gathered by its own positions), and the same
    // way when it selects none (an empty result, of no nn.concat).
    if (isFoldable(**data) ||
        (!special && (isInOrder(idx, n) || idx.empty()))) {
      FailureOr<int64_t> count = gatherCount(nc, outShape);
      if (failed(count))
        return failure();
      int64_t outer = 1, inner = 1;
      for (int64_t d = 0; d < *axis; ++d)
        outer *= ds[d];
      for (int64_t d = *axis + 1; d < rank; ++d)
        inner *= ds[d];
      std::vector<int64_t> linear;
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i : idx)
          for (int64_t k = 0; k < inner; ++k)
            linear.push_back((o * n + i) * inner + k);
      return gatherLinear(nc, linear, outShape);
    }
    // A few constant indices on a computed tensor: slices and a concat.
    if (!special && idx.size() <= 64 &&
        !(rank == 2 && *axis == 0 && idx.size() > 1)) {
      FailureOr<Value> x = nc.anyValue(0);
      if (failed(x))
        return failure();
      llvm::SmallVector<Value> parts;
      for (int64_t i : idx) {
        llvm::SmallVector<int64_t> offsets(rank, 0), sizes(ds);
        offsets[*axis] = i;
        sizes[*axis] = 1;
        FailureOr<Value> part = nc.slice(*x, offsets, sizes);
        if (failed(part))
          return failure();
        parts.push_back(*part);
      }
      FailureOr<Value> y =
          parts.size() == 1
              ? FailureOr<Value>(parts[0])
              : nc.create<nn::ConcatOp>(
                    parts,
                    {nc.named("axis", nc.builder.getI64IntegerAttr(*axis))});
      if (failed(y) || failed(y = nc.reshape(*y, outShape)))
        return failure();
      return nc.setOutput(0, *y);
    }
  }
  // Otherwise nn.embedding of a V x D table, with the gathered axis moved
  // to the front (nn.transpose) and the rest flattened into D. Constant
  // indices are the ones normalized above; indices computed in the graph (a
  // length minus one) may be negative and count from the end
  // (wrapNegative); a graph input's (token ids) go to nn.embedding as they
  // are. All must then lie in [0, V), which nn.embedding checks at run time.
  FailureOr<Value> x = nc.numericValue(0);
  if (failed(x))
    return failure();
  FailureOr<Value> ids = failure();
  if ((*indices)->constant) {
    ids = nc.constant((*indices)->shape, llvm::ArrayRef<int64_t>(idx));
  } else {
    ids = nc.anyValue(1);
    if (succeeded(ids) && (*indices)->graphInput < 0)
      ids = wrapNegative(nc, *ids, n);
  }
  if (failed(ids))
    return failure();
  llvm::SmallVector<int64_t> perm = {*axis};
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis)
      perm.push_back(d);
  bool moved = *axis != 0;
  Value table = *x;
  llvm::SmallVector<int64_t> rest;
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis)
      rest.push_back(ds[d]);
  if (moved) {
    FailureOr<Value> t = nc.create<nn::TransposeOp>(
        {table}, {nc.named("perm", nc.i64Array(perm))});
    if (failed(t))
      return failure();
    table = *t;
  }
  int64_t inner = 1;
  for (int64_t d : rest)
    inner *= d;
  FailureOr<Value> table2 = nc.reshape(table, {n, inner});
  if (failed(table2))
    return failure();
  llvm::SmallVector<mlir::NamedAttribute> attrs;
  if (gradient->paddingIdx)
    attrs.push_back(nc.named(
        "padding_idx", nc.builder.getI64IntegerAttr(*gradient->paddingIdx)));
  if (gradient->scaleGradByFreq)
    attrs.push_back(nc.named("scale_grad_by_freq", nc.builder.getUnitAttr()));
  FailureOr<Value> y = nc.create<nn::EmbeddingOp>({*table2, *ids}, attrs);
  if (failed(y))
    return failure();
  // [indices..., rest...], then the gathered dims back at `axis`.
  llvm::SmallVector<int64_t> gathered((*indices)->shape.begin(),
                                      (*indices)->shape.end());
  llvm::SmallVector<int64_t> unflat = gathered;
  unflat.append(rest.begin(), rest.end());
  if (failed(y = nc.reshape(*y, unflat)))
    return failure();
  if (moved) {
    int64_t k = gathered.size();
    llvm::SmallVector<int64_t> back;
    for (int64_t d = 0; d < *axis; ++d)
      back.push_back(k + d);
    for (int64_t d = 0; d < k; ++d)
      back.push_back(d);
    for (int64_t d = *axis; d < int64_t(rest.size()); ++d)
      back.push_back(k + d);
    y = nc.create<nn::TransposeOp>({*y}, {nc.named("perm", nc.i64Array(back))});
    if (failed(y))
      return failure();
  }
  return nc.setOutput(0, *y);
}

/// x `p` y of run-time integers, an i1 tensor.
static FailureOr<Value> compareInts(NodeContext &nc, Value x,
                                    nn::ComparePredicate p, Value y) {
  return nc.create<nn::CompareOp>({x, y}, {nc.predicate(p)});
}

/// A run-time `index` along a dimension of size `dim`, a negative one
/// counting from the end: index < 0 ? index + dim : index.
static FailureOr<Value> wrapNegative(NodeContext &nc, Value index,
                                     int64_t dim) {
  Type type = cast<RankedTensorType>(index.getType()).getElementType();
  Value zero = nc.intScalar(type, 0), size = nc.intScalar(type, dim);
  FailureOr<Value> negative =
      compareInts(nc, index, nn::ComparePredicate::LT, zero);
  FailureOr<Value> wrapped = nc.create<nn::AddOp>({index, size});
  if (failed(negative) || failed(wrapped))
    return failure();
  return nc.create<nn::WhereOp>({*negative, *wrapped, index});
}

/// wrapNegative's index; `outside` becomes (or is or-ed with, nn.where on
/// i1) whether the index lies outside [-dim, dim).
static FailureOr<Value> wrapIndex(NodeContext &nc, Value index, int64_t dim,
                                  Value &outside) {
  Type type = cast<RankedTensorType>(index.getType()).getElementType();
  Value zero = nc.intScalar(type, 0), size = nc.intScalar(type, dim);
  FailureOr<Value> at = wrapNegative(nc, index, dim);
  if (failed(at))
    return failure();
  FailureOr<Value> below = compareInts(nc, *at, nn::ComparePredicate::LT, zero);
  FailureOr<Value> above = compareInts(nc, *at, nn::ComparePredicate::GE, size);
  if (failed(below) || failed(above))
    return failure();
  FailureOr<Value> out = nc.create<nn::WhereOp>({*below, *below, *above});
  if (succeeded(out) && outside)
    out = nc.create<nn::WhereOp>({outside, outside, *out});
  if (failed(out))
    return failure();
  outside = *out;
  return at;
}

/// `rows` with -1 where `outside` holds: nn.embedding then rejects the
/// gather at run time rather than read a neighbouring row.
static FailureOr<Value> invalidateOutside(NodeContext &nc, Value rows,
                                          Value outside) {
  Type type = cast<RankedTensorType>(rows.getType()).getElementType();
  return nc.create<nn::WhereOp>({outside, nc.intScalar(type, -1), rows});
}

FailureOr<Value> amp::onnx_import::elementOffsetsComputed(
    NodeContext &nc, Value idx, llvm::ArrayRef<int64_t> ds,
    llvm::ArrayRef<int64_t> is, int64_t axis, bool wrap) {
  std::optional<int64_t> n = amp::checked::elementCount(ds.data(), ds.size());
  if (!n)
    return nc.error() << "the data has too many elements", failure();
  FailureOr<int64_t> count = gatherCount(nc, is);
  if (failed(count))
    return failure();
  Type intType = cast<RankedTensorType>(idx.getType()).getElementType();
  if (intType.isInteger(32) && *n > INT32_MAX)
    return nc.error() << "INT32 indices cannot address the data's " << *n
                      << " elements",
           failure();
  if (failed(nc.reserveFoldedBytes(*count * int64_t(sizeof(int64_t)))))
    return failure();
  // base: the offset of each position of the indices with the axis
  // coordinate 0.
  llvm::SmallVector<int64_t> strides = stridesOf(ds);
  llvm::SmallVector<APInt> base;
  llvm::SmallVector<int64_t> p(is.size(), 0);
  for (int64_t k = 0; k < *count; ++k) {
    int64_t offset = 0;
    for (size_t d = 0; d < is.size(); ++d)
      if (int64_t(d) != axis)
        offset += p[d] * strides[d];
    base.push_back(APInt(intType.getIntOrFloatBitWidth(), offset, true));
    advanceIndex(p, is);
  }
  auto baseType = RankedTensorType::get(is, intType);
  Value baseValue = arith::ConstantOp::create(
      nc.builder, nc.loc, baseType, DenseElementsAttr::get(baseType, base));
  // The (wrapped) index * stride + base, with wrap -1 where the index is
  // outside the axis.
  Value outside;
  FailureOr<Value> at = idx;
  if (wrap)
    at = wrapIndex(nc, idx, ds[axis], outside);
  if (succeeded(at) && strides[axis] != 1)
    at = nc.create<nn::MulOp>({*at, nc.intScalar(intType, strides[axis])});
  if (failed(at) || failed(at = nc.create<nn::AddOp>({*at, baseValue})) ||
      (wrap && failed(at = invalidateOutside(nc, *at, outside))))
    return failure();
  return at;
}

/// `x` (of shape `ds`; FLOAT, INT64 or INT32) gathered along `axis` at the
/// integer indices `idx` (of shape `is`), both computed at run time, as
/// GatherElements: nn.embedding of the data as a one-column table at the
/// elementOffsetsComputed positions, so that the gradient scatters back
/// through nn.embedding_grad. `wrap` as for elementOffsetsComputed: without
/// it every index is known to be in [0, ds[axis]) (TopK's).
static FailureOr<Value> gatherAlongAxis(NodeContext &nc, Value x, Value idx,
                                        llvm::ArrayRef<int64_t> ds,
                                        llvm::ArrayRef<int64_t> is,
                                        int64_t axis, bool wrap) {
  FailureOr<Value> at = elementOffsetsComputed(nc, idx, ds, is, axis, wrap);
  if (failed(at))
    return failure();
  // elementOffsetsComputed checked the data's element count.
  FailureOr<Value> table =
      nc.reshape(x, {*amp::checked::elementCount(ds.data(), ds.size()), 1});
  if (failed(table))
    return failure();
  FailureOr<Value> y = nc.create<nn::EmbeddingOp>({*table, *at});
  if (failed(y))
    return failure();
  return nc.reshape(*y, is);
}

/// GatherElements of FLOAT, INT64 or INT32 data by indices computed at run
/// time (DeBERTa-v2 gathers its attention scores at relative positions it
/// computes): gatherAlongAxis, a negative index counting from the end.
static LogicalResult gatherElementsComputed(NodeContext &nc,
                                            llvm::ArrayRef<int64_t> ds,
                                            llvm::ArrayRef<int64_t> is,
                                            int64_t axis) {
  FailureOr<Value> x = nc.numericValue(0);
  FailureOr<Value> idx = nc.anyValue(1);
  if (failed(x) || failed(idx))
    return failure();
  FailureOr<Value> y = gatherAlongAxis(nc, *x, *idx, ds, is, axis, true);
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

/// Whether every element of `c` equals its first (bitwise for floats, so
/// that a NaN or -0 stays what it is); false for no elements.
static bool isUniform(const Const &c) {
  if (c.numel() == 0)
    return false;
  if (c.isFloat())
    return llvm::all_of(c.f, [&](float v) {
      return llvm::bit_cast<uint32_t>(v) == llvm::bit_cast<uint32_t>(c.f[0]);
    });
  return llvm::all_of(c.i, [&](int64_t v) { return v == c.i[0]; });
}

/// GatherElements: out[p] = data[p with p[axis] = indices[p]]; indices has
/// data's rank and no larger dims off the axis. Indices computed at run
/// time are supported only into a constant that holds one value (Hugging
/// Face's RoBERTa gathers its all-zero token-type buffer at the position
/// ids it computes from the mask): the result is that value.
static LogicalResult importGatherElements(NodeContext &nc) {
  FailureOr<Tensor *> data = nc.input(0);
  FailureOr<Tensor *> indices = nc.input(1);
  FailureOr<int64_t> axisAttr = nc.intAttr("axis", 0);
  if (failed(data) || failed(indices) || failed(axisAttr))
    return failure();
  if ((*indices)->dtype != onnx::TensorProto::INT64 &&
      (*indices)->dtype != onnx::TensorProto::INT32)
    return nc.error() << "the indices must be INT64 or INT32", failure();
  llvm::ArrayRef<int64_t> ds = (*data)->shape, is = (*indices)->shape;
  FailureOr<int64_t> axis = elementsAxis(nc, ds, is, *axisAttr);
  if (failed(axis))
    return failure();
  FailureOr<int64_t> count = gatherCount(nc, is);
  if (failed(count))
    return failure();
  if (!(*indices)->constant && isFoldable(**data) &&
      isUniform(*(*data)->constant))
    return gatherLinear(nc, std::vector<int64_t>(*count, 0), is);
  if (!(*indices)->constant)
    return gatherElementsComputed(nc, ds, is, *axis);
  FailureOr<const Const *> idx = constIndices(nc, 1);
  if (failed(idx))
    return failure();
  FailureOr<std::vector<int64_t>> linear =
      elementOffsets(nc, ds, is, *axis, (*idx)->ints());
  return failed(linear) ? failure() : gatherLinear(nc, *linear, is);
}

FailureOr<Value> amp::onnx_import::tupleRowsComputed(NodeContext &nc,
                                                     Value indices,
                                                     llvm::ArrayRef<int64_t> ds,
                                                     llvm::ArrayRef<int64_t> is,
                                                     int64_t batchDims) {
  const int64_t k = is.back();
  int64_t rows = 1;
  for (int64_t d = 0; d < batchDims + k; ++d)
    rows *= ds[d];
  Type intType = cast<RankedTensorType>(indices.getType()).getElementType();
  if (intType.isInteger(32) && rows > INT32_MAX)
    return nc.error() << "INT32 indices cannot address the data's " << rows
                      << " rows",
           failure();
  llvm::SmallVector<int64_t> tuples(is.drop_back());
  llvm::SmallVector<int64_t> one(is);
  one.back() = 1;
  Value row, outside;
  if (batchDims > 0) {
    // Each tuple's batch, the linear position of its first batchDims
    // coordinates: a constant of the tuples' shape.
    int64_t count = 1, perBatch = 1;
    for (int64_t d = 0; d < int64_t(tuples.size()); ++d)
      (d < batchDims ? count : perBatch) *= tuples[d];
    count *= perBatch;
    if (failed(nc.reserveFoldedBytes(count * int64_t(sizeof(int64_t)))))
      return failure();
    std::vector<int64_t> batch(count);
    for (int64_t t = 0; t < count; ++t)
      batch[t] = t / perBatch;
    row = nc.constant(tuples, llvm::ArrayRef<int64_t>(batch));
    if (!intType.isInteger(64)) {
      FailureOr<Value> narrow = nc.convert(row, intType);
      if (failed(narrow))
        return failure();
      row = *narrow;
    }
  }
  for (int64_t j = 0; j < k; ++j) {
    const int64_t dim = ds[batchDims + j];
    llvm::SmallVector<int64_t> offsets(is.size(), 0);
    offsets.back() = j;
    FailureOr<Value> part = nc.slice(indices, offsets, one);
    if (failed(part) || failed(part = nc.reshape(*part, tuples)) ||
        failed(part = wrapIndex(nc, *part, dim, outside)))
      return failure();
    if (!row) {
      row = *part;
      continue;
    }
    FailureOr<Value> scaled =
        nc.create<nn::MulOp>({row, nc.intScalar(intType, dim)});
    if (failed(scaled) ||
        failed(scaled = nc.create<nn::AddOp>({*scaled, *part})))
      return failure();
    row = *scaled;
  }
  return invalidateOutside(nc, row, outside);
}

/// GatherND of FLOAT, INT64 or INT32 data by indices computed at run time:
/// the data as a table of prod(data.shape[:batch_dims + k]) rows of the
/// slices, each index tuple as its row within its batch's
/// (tupleRowsComputed: a negative index counting from the end; a tuple with
/// an index outside its dimension row -1, which nn.embedding rejects at run
/// time), and nn.embedding. A decoder's sequence classifier picks each
/// row's last token this way (torch.export's logits[arange(B), last]).
static LogicalResult gatherNDComputed(NodeContext &nc,
                                      llvm::ArrayRef<int64_t> ds,
                                      llvm::ArrayRef<int64_t> is,
                                      llvm::ArrayRef<int64_t> shape,
                                      int64_t batchDims) {
  const int64_t k = is.back();
  int64_t rows = 1, slice = 1;
  for (int64_t d = 0; d < int64_t(ds.size()); ++d)
    (d < batchDims + k ? rows : slice) *= ds[d];
  FailureOr<Value> data = nc.numericValue(0);
  FailureOr<Value> indices = nc.anyValue(1);
  if (failed(data) || failed(indices))
    return failure();
  FailureOr<Value> table = nc.reshape(*data, {rows, slice});
  if (failed(table))
    return failure();
  FailureOr<Value> rowIds = tupleRowsComputed(nc, *indices, ds, is, batchDims);
  if (failed(rowIds))
    return failure();
  FailureOr<Value> y = nc.create<nn::EmbeddingOp>({*table, *rowIds});
  if (failed(y) || failed(y = nc.reshape(*y, shape)))
    return failure();
  return nc.setOutput(0, *y);
}

/// GatherND: each index tuple of the last indices dim (k values) picks the
/// slice data[batch..., tuple...] of data.shape[batch_dims + k:]; the first
/// batch_dims dims of data and indices are shared. Indices computed at run
/// time: gatherNDComputed.
static LogicalResult importGatherND(NodeContext &nc) {
  FailureOr<Tensor *> data = nc.input(0);
  FailureOr<Tensor *> indices = nc.input(1);
  FailureOr<int64_t> batchDims = nc.intAttr("batch_dims", 0);
  if (failed(data) || failed(indices) || failed(batchDims))
    return failure();
  if ((*indices)->dtype != onnx::TensorProto::INT64 &&
      (*indices)->dtype != onnx::TensorProto::INT32)
    return nc.error() << "the indices must be INT64 or INT32", failure();
  llvm::ArrayRef<int64_t> ds = (*data)->shape, is = (*indices)->shape;
  const int64_t r = ds.size(), q = is.size(), b = *batchDims;
  if (r < 1 || q < 1 || b < 0 || b >= std::min(q, r))
    return nc.error() << "needs data and indices of rank >= 1 and batch_dims "
                         "in [0, min(ranks))",
           failure();
  const int64_t k = is.back();
  if (k < 1 || k > r - b)
    return nc.error() << "the indices' last dimension (" << k
                      << ") must be in [1, " << r - b << "]",
           failure();
  for (int64_t d = 0; d < b; ++d)
    if (is[d] != ds[d])
      return nc.error() << "batch dimension " << d << " differs: " << is[d]
                        << " in the indices, " << ds[d] << " in the data",
             failure();
  llvm::SmallVector<int64_t> shape(is.drop_back());
  shape.append(ds.begin() + b + k, ds.end());
  if (!(*indices)->constant)
    return gatherNDComputed(nc, ds, is, shape, b);
  FailureOr<int64_t> count = gatherCount(nc, shape);
  if (failed(count))
    return failure();
  FailureOr<const Const *> idx = constIndices(nc, 1);
  if (failed(idx))
    return failure();
  int64_t slice = 1;
  for (int64_t d = b + k; d < r; ++d)
    slice *= ds[d];
  std::vector<int64_t> values = (*idx)->ints();
  llvm::SmallVector<int64_t> strides = stridesOf(ds);
  llvm::SmallVector<int64_t> outer(is.begin(), is.end() - 1);
  llvm::SmallVector<int64_t> p(outer.size(), 0);
  std::vector<int64_t> linear;
  const int64_t tuples = slice ? *count / slice : 0;
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t base = 0;
    for (int64_t d = 0; d < b; ++d)
      base += p[d] * strides[d];
    for (int64_t j = 0; j < k; ++j) {
      FailureOr<int64_t> at =
          normalizeIndex(nc, values[t * k + j], ds[b + j], b + j);
      if (failed(at))
        return failure();
      base += *at * strides[b + j];
    }
    for (int64_t s = 0; s < slice; ++s)
      linear.push_back(base + s);
    advanceIndex(p, outer);
  }
  return gatherLinear(nc, linear, shape);
}

/// TopK: nn.topk's positions of the K largest (smallest with largest = 0)
/// elements along `axis`, sorted (which sorted = 0 also allows; ties the
/// lower position first), as the Indices, and the input gathered at them
/// (gatherAlongAxis) as the Values, through which the gradient reaches the
/// input: a mixture of experts weighs its top experts by their router
/// scores. K is a constant: the attribute `k` before opset 10, a
/// one-element INT64 input since.
static LogicalResult importTopK(NodeContext &nc) {
  FailureOr<int64_t> axisAttr = nc.intAttr("axis", -1);
  FailureOr<int64_t> largest = nc.intAttr("largest", 1);
  FailureOr<int64_t> sorted = nc.intAttr("sorted", 1);
  FailureOr<Value> x = nc.numericValue(0);
  if (failed(axisAttr) || failed(largest) || failed(sorted) || failed(x))
    return failure();
  FailureOr<int64_t> k = failure();
  if (nc.hasInput(1)) {
    FailureOr<const Const *> kc = nc.constInput(1, "K");
    if (failed(kc))
      return failure();
    if ((*kc)->dtype != onnx::TensorProto::INT64 || (*kc)->numel() != 1)
      return nc.error() << "K must be one INT64 value", failure();
    k = (*kc)->i[0];
  } else if (nc.attr("k")) {
    k = nc.intAttr("k", 0);
  } else {
    return nc.error() << "TopK needs K (an input, or the attribute k before "
                         "opset 10)",
           failure();
  }
  if (failed(k))
    return failure();
  llvm::SmallVector<int64_t> ds(shapeOf(*x));
  FailureOr<int64_t> axis = nc.normalizeAxis(*axisAttr, ds.size(), "axis");
  if (failed(axis))
    return failure();
  if (*k < 0 || *k > ds[*axis])
    return nc.error() << "K = " << *k << " outside [0, " << ds[*axis]
                      << "], the size of axis " << *axis,
           failure();
  llvm::SmallVector<NamedAttribute> attrs = {
      nc.named("axis", nc.builder.getI64IntegerAttr(*axis)),
      nc.named("k", nc.builder.getI64IntegerAttr(*k))};
  if (!*largest)
    attrs.push_back(nc.named("smallest", nc.builder.getUnitAttr()));
  FailureOr<Value> indices = nc.create<nn::TopKOp>({*x}, attrs);
  if (failed(indices) || failed(nc.setOutput(1, *indices)))
    return failure();
  if (!nc.hasOutput(0))
    return success();
  llvm::SmallVector<int64_t> is = ds;
  is[*axis] = *k;
  FailureOr<Value> values =
      gatherAlongAxis(nc, *x, *indices, ds, is, *axis, false);
  return failed(values) ? failure() : nc.setOutput(0, *values);
}

/// ReverseSequence (tf2onnx writes it for a bidirectional RNN's backward
/// pass): each batch row's first `sequence_lens[b]` steps reversed, the
/// rest kept. Time and batch are dims 0 and 1 (`time_axis`,
/// `batch_axis`); the data (FLOAT, INT64 or INT32) is a table of its
/// [dim 0 * dim 1] positions' rows, gathered by nn.embedding at the source
/// step `t < len ? len - 1 - t : t` computed from the lengths at run time
/// (a length past the steps gives a row nn.embedding rejects).
static LogicalResult importReverseSequence(NodeContext &nc) {
  FailureOr<int64_t> timeAxis = nc.intAttr("time_axis", 0);
  FailureOr<int64_t> batchAxis = nc.intAttr("batch_axis", 1);
  FailureOr<Value> x = nc.numericValue(0);
  if (failed(timeAxis) || failed(batchAxis) || failed(x))
    return failure();
  FailureOr<Tensor *> lensT = nc.input(1);
  if (failed(lensT))
    return failure();
  llvm::SmallVector<int64_t> xs = shapeOf(*x);
  if (xs.size() < 2 || !((*timeAxis == 0 && *batchAxis == 1) ||
                         (*timeAxis == 1 && *batchAxis == 0)))
    return nc.error() << "time_axis and batch_axis must be 0 and 1 (or 1 and "
                         "0) of an input of rank 2 or more, got "
                      << *timeAxis << " and " << *batchAxis << " of [" << xs
                      << "]",
           failure();
  const int64_t steps = xs[*timeAxis], batch = xs[*batchAxis];
  if ((*lensT)->dtype != onnx::TensorProto::INT64 ||
      (*lensT)->shape != llvm::ArrayRef<int64_t>{batch})
    return nc.error() << "sequence_lens must be INT64 of shape [" << batch
                      << "], got " << dataTypeName((*lensT)->dtype)
                      << " of shape [" << (*lensT)->shape << "]",
           failure();
  std::optional<int64_t> count =
      constElementCount({steps + batch}, onnx::TensorProto::INT64);
  if (!count)
    return nc.error() << steps << " steps and a batch of " << batch
                      << " are over the importer's limit on constants",
           failure();
  if (failed(nc.reserveFoldedBytes(*count * int64_t(sizeof(int64_t)))))
    return failure();
  FailureOr<Value> lens = nc.anyValue(1);
  if (failed(lens))
    return failure();
  Formula f(nc);
  // Positions along dims 0 and 1, each shaped to broadcast over the other.
  auto along = [&](int64_t axis, int64_t size) {
    llvm::SmallVector<int64_t> shape = {1, 1};
    shape[axis] = size;
    return std::make_pair(
        shape,
        nc.constant(shape, llvm::to_vector(llvm::seq<int64_t>(0, size))));
  };
  auto [timeShape, t] = along(*timeAxis, steps);
  auto [batchShape, b] = along(*batchAxis, batch);
  Value len = f.reshape(*lens, batchShape);
  Type i64 = nc.builder.getI64Type();
  Value reversed =
      f.op<nn::SubOp>({f.op<nn::SubOp>({len, nc.intScalar(i64, 1)}), t});
  Value source = f.op<nn::WhereOp>(
      {f.compare(t, nn::ComparePredicate::LT, len), reversed, t});
  // The row of (dim 0, dim 1) in the table is i0 * dim1 + i1.
  Value row =
      *timeAxis == 0
          ? f.op<nn::AddOp>(
                {f.op<nn::MulOp>({source, nc.intScalar(i64, batch)}), b})
          : f.op<nn::AddOp>(
                {f.op<nn::MulOp>({b, nc.intScalar(i64, steps)}), source});
  int64_t rest = 1;
  for (size_t d = 2; d < xs.size(); ++d)
    rest *= xs[d];
  Value table = f.reshape(*x, {xs[0] * xs[1], rest});
  Value y = f.op<nn::EmbeddingOp>({table, row});
  return f.setOutput(f.reshape(y, xs));
}

void amp::onnx_import::registerGatherOps(OpTable &t) {
  t["ReverseSequence"] = {importReverseSequence, {"batch_axis", "time_axis"}};
  t["Gather"] = {importGather, {"axis"}};
  t["GatherElements"] = {importGatherElements, {"axis"}};
  t["GatherND"] = {importGatherND, {"batch_dims"}};
  t["TopK"] = {importTopK, {"axis", "k", "largest", "sorted"}};
}
