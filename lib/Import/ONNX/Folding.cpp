//===- Folding.cpp - import-time arithmetic on constants ------------------===//

#include "Folding.h"


#include <cmath>

using namespace amp::onnx_import;

std::optional<llvm::SmallVector<int64_t>>
amp::onnx_import::broadcastShapes(llvm::ArrayRef<int64_t> a,
                                  llvm::ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  llvm::SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    out[i] = da == 1 ? db : da;
  }
  return out;
}

llvm::SmallVector<int64_t>
amp::onnx_import::stridesOf(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t> strides(shape.size(), 1);
  for (int i = int(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// The linear index into a tensor of `shape` (broadcast to `out`) of the
/// element at the multi-index `idx` of `out`.
static int64_t broadcastIndex(llvm::ArrayRef<int64_t> idx,
                              llvm::ArrayRef<int64_t> shape) {
  size_t offset = idx.size() - shape.size();
  int64_t linear = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    linear = linear * shape[d] + (shape[d] == 1 ? 0 : idx[d + offset]);
  return linear;
}

std::optional<Const>
amp::onnx_import::foldBinary(const Const &a, const Const &b,
                             const std::function<double(double, double)> &fn,
                             bool mixedTypes) {
  if (a.dtype != b.dtype && !mixedTypes)
    return std::nullopt;
  std::optional<llvm::SmallVector<int64_t>> shape =
      broadcastShapes(a.shape, b.shape);
  if (!shape)
    return std::nullopt;
  Const out;
  out.dtype = a.dtype;
  out.shape = *shape;
  std::optional<int64_t> count = constElementCount(*shape, a.dtype);
  if (!count)
    return std::nullopt;
  int64_t n = *count;
  llvm::SmallVector<int64_t> idx(shape->size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    double v = fn(a.at(broadcastIndex(idx, a.shape)),
                  b.at(broadcastIndex(idx, b.shape)));
    if (out.isFloat())
      out.f.push_back(float(v));
    else
      out.i.push_back(toInt64(v));
    advanceIndex(idx, *shape);
  }
  return out;
}

LogicalResult amp::onnx_import::foldFailure(NodeContext &nc, const Const &a,
                                            const Const &b) {
  return nc.error() << "constant operands of types " << dataTypeName(a.dtype)
                    << " and " << dataTypeName(b.dtype)
                    << " cannot be folded: they differ in type, do not "
                       "broadcast, or give over "
                    << maxConstElements(a.dtype) << " elements",
         mlir::failure();
}

std::optional<Const>
amp::onnx_import::broadcastConst(const Const &c,
                                 llvm::ArrayRef<int64_t> shape) {
  std::optional<llvm::SmallVector<int64_t>> to =
      broadcastShapes(c.shape, shape);
  if (!to || llvm::ArrayRef<int64_t>(*to) != shape)
    return std::nullopt;
  std::optional<int64_t> count = constElementCount(shape, c.dtype);
  if (!count)
    return std::nullopt;
  // Element by element into storage reserved once: a list of the source
  // indices first would take twice the result's bytes again (8 per
  // element), and growing the result copies it.
  Const out;
  out.dtype = c.dtype;
  out.shape.assign(shape.begin(), shape.end());
  if (c.isFloat())
    out.f.reserve(*count);
  else
    out.i.reserve(*count);
  llvm::SmallVector<int64_t> idx(shape.size(), 0);
  for (int64_t k = 0; k < *count; ++k) {
    const int64_t from = broadcastIndex(idx, c.shape);
    if (c.isFloat())
      out.f.push_back(c.f[from]);
    else
      out.i.push_back(c.i[from]);
    advanceIndex(idx, shape);
  }
  return out;
}

Const amp::onnx_import::gatherElements(const Const &c,
                                       llvm::ArrayRef<int64_t> indices,
                                       llvm::ArrayRef<int64_t> shape) {
  Const out;
  out.dtype = c.dtype;
  out.shape.assign(shape.begin(), shape.end());
  if (c.isFloat())
    out.f.reserve(indices.size());
  else
    out.i.reserve(indices.size());
  for (int64_t k : indices) {
    if (c.isFloat())
      out.f.push_back(c.f[k]);
    else
      out.i.push_back(c.i[k]);
  }
  return out;
}

Const amp::onnx_import::intConst(llvm::ArrayRef<int64_t> values, bool scalar) {
  Const c;
  c.dtype = onnx::TensorProto::INT64;
  c.i.assign(values.begin(), values.end());
  if (!scalar)
    c.shape.push_back(values.size());
  return c;
}

FailureOr<int64_t> amp::onnx_import::normalizeIndex(NodeContext &nc,
                                                    int64_t index, int64_t dim,
                                                    int64_t axis) {
  if (index < -dim || index >= dim)
    return nc.error() << "index " << index << " is out of range for dimension "
                      << axis << " of size " << dim,
           mlir::failure();
  return index < 0 ? index + dim : index;
}

FailureOr<int64_t> amp::onnx_import::elementsAxis(NodeContext &nc,
                                                  llvm::ArrayRef<int64_t> ds,
                                                  llvm::ArrayRef<int64_t> is,
                                                  int64_t axisAttr) {
  const int64_t rank = ds.size();
  if (rank == 0 || static_cast<int64_t>(is.size()) != rank)
    return nc.error() << "the data must have rank >= 1 and the indices the "
                         "same rank",
           mlir::failure();
  FailureOr<int64_t> axis = nc.normalizeAxis(axisAttr, rank, "axis");
  if (mlir::failed(axis))
    return mlir::failure();
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis && is[d] > ds[d])
      return nc.error() << "the indices' dimension " << d << " (" << is[d]
                        << ") is larger than the data's (" << ds[d] << ")",
             mlir::failure();
  return axis;
}

FailureOr<std::vector<int64_t>>
amp::onnx_import::elementOffsets(NodeContext &nc, llvm::ArrayRef<int64_t> ds,
                                 llvm::ArrayRef<int64_t> is, int64_t axis,
                                 llvm::ArrayRef<int64_t> values) {
  llvm::SmallVector<int64_t> strides = stridesOf(ds);
  std::vector<int64_t> offsets;
  offsets.reserve(values.size());
  llvm::SmallVector<int64_t> p(is.size(), 0);
  for (int64_t v : values) {
    FailureOr<int64_t> at = normalizeIndex(nc, v, ds[axis], axis);
    if (mlir::failed(at))
      return mlir::failure();
    int64_t offset = 0;
    for (size_t d = 0; d < is.size(); ++d)
      offset += (int64_t(d) == axis ? *at : p[d]) * strides[d];
    offsets.push_back(offset);
    advanceIndex(p, is);
  }
  return offsets;
}
