//===- Folding.h - import-time arithmetic on constants ----------*- C++ -*-===//
//
// Shape computations (Shape -> Gather -> Unsqueeze -> Concat -> Reshape)
// and constant subgraphs are evaluated while importing, on Const values,
// so that only float tensor math reaches the nn dialect.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_IMPORT_ONNX_FOLDING_H
#define AMP_LIB_IMPORT_ONNX_FOLDING_H

#include "Importer.h"

#include <functional>

namespace amp::onnx_import {

/// The numpy broadcast of two shapes, std::nullopt when they do not
/// broadcast.
std::optional<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// Elementwise `fn` of two constants of one dtype (of any two with
/// `mixedTypes`; the result has `a`'s) with broadcasting; std::nullopt when
/// the types differ, the shapes do not broadcast or the result is larger
/// than the importer's limit on constants (maxConstElements).
std::optional<Const> foldBinary(const Const &a, const Const &b,
                                const std::function<double(double, double)> &fn,
                                bool mixedTypes = false);

/// The error of a failed foldBinary of `a` and `b` at the node.
LogicalResult foldFailure(NodeContext &nc, const Const &a, const Const &b);

/// `c` broadcast (numpy rules) to `shape`; std::nullopt when it does not
/// broadcast to exactly `shape` or the result is larger than
/// maxConstElements.
std::optional<Const> broadcastConst(const Const &c,
                                    llvm::ArrayRef<int64_t> shape);

/// Steps the multi-index `idx` to the next position of `shape` in row-major
/// order (the last dim fastest); past the last position it wraps to zeros.
inline void advanceIndex(llvm::MutableArrayRef<int64_t> idx,
                         llvm::ArrayRef<int64_t> shape) {
  for (size_t d = idx.size(); d-- > 0;) {
    if (++idx[d] < shape[d])
      return;
    idx[d] = 0;
  }
}

/// Row-major strides of a shape.
llvm::SmallVector<int64_t> stridesOf(llvm::ArrayRef<int64_t> shape);

/// A constant with the elements of `c` at the linear indices `indices`
/// (a gather), with shape `shape`.
Const gatherElements(const Const &c, llvm::ArrayRef<int64_t> indices,
                     llvm::ArrayRef<int64_t> shape);

/// Whether `t` is a constant that shape ops may rewrite at import time: not
/// a float initializer, which stays one param argument.
inline bool isFoldable(const Tensor &t) {
  return t.constant && !t.value &&
         !(t.initializer && t.isFloat() &&
           (t.constant->f.size() > 1 || t.parameter));
}

/// The type of `v` with `shape`.
inline mlir::RankedTensorType withShape(Value v,
                                        llvm::ArrayRef<int64_t> shape) {
  return mlir::cast<mlir::RankedTensorType>(v.getType()).clone(shape);
}

/// A scalar/1-D constant from ints.
Const intConst(llvm::ArrayRef<int64_t> values, bool scalar = false);

/// `index` in [-dim, dim) normalized to [0, dim), or an error at the node
/// naming the data's dimension `axis`.
FailureOr<int64_t> normalizeIndex(NodeContext &nc, int64_t index, int64_t dim,
                                  int64_t axis);

/// The axis of GatherElements or ScatterElements (attribute `axisAttr`),
/// normalized, with data of shape `ds` of rank >= 1 and indices of shape
/// `is` of that rank and no larger dims off the axis; an error otherwise.
FailureOr<int64_t> elementsAxis(NodeContext &nc, llvm::ArrayRef<int64_t> ds,
                                llvm::ArrayRef<int64_t> is, int64_t axisAttr);

/// The row-major offsets into data of shape `ds` that GatherElements and
/// ScatterElements address: for each position p of indices of shape `is`
/// (row-major), p with p[axis] = `values` there, a negative one counting
/// from the end; an index out of range is an error at the node.
FailureOr<std::vector<int64_t>> elementOffsets(NodeContext &nc,
                                               llvm::ArrayRef<int64_t> ds,
                                               llvm::ArrayRef<int64_t> is,
                                               int64_t axis,
                                               llvm::ArrayRef<int64_t> values);

/// The run-time counterpart of elementOffsets (defined in OpsGather.cpp):
/// the offsets for integer indices `idx` of shape `is` computed at run
/// time, as nn ops on a tensor of idx's type and shape: base + index *
/// stride, base the constant offset of each position with the axis
/// coordinate 0. With `wrap`, a negative index counts from the end and one
/// outside the axis gives -1, which nn.embedding and nn.embedding_grad
/// reject at run time; without, the indices are known to be in range.
FailureOr<Value> elementOffsetsComputed(NodeContext &nc, Value idx,
                                        llvm::ArrayRef<int64_t> ds,
                                        llvm::ArrayRef<int64_t> is,
                                        int64_t axis, bool wrap);

/// The rows of the tuples of ScatterND's and GatherND's integer `indices`
/// (shape `is`, the last dim the k values of each tuple), computed at run
/// time, into the data (shape `ds`) seen as a table of prod(ds[:b + k])
/// rows, where the first b = `batchDims` dims of both are shared (GatherND's
/// batch_dims): ((n * d_b + i0) * d_(b+1) + i1) ... in the indices' type,
/// with n the tuple's position among the prod(ds[:b]) batches, of shape
/// is[:-1]; a negative index counts from the end, and a tuple with an index
/// outside its dimension gives row -1, which nn.embedding and
/// nn.embedding_grad reject at run time (defined in OpsGather.cpp).
FailureOr<Value> tupleRowsComputed(NodeContext &nc, Value indices,
                                   llvm::ArrayRef<int64_t> ds,
                                   llvm::ArrayRef<int64_t> is,
                                   int64_t batchDims = 0);

} // namespace amp::onnx_import

#endif // AMP_LIB_IMPORT_ONNX_FOLDING_H
