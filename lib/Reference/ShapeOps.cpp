//===- ShapeOps.cpp - f64 evaluators of the shape ops ---------------------===//
//
// nn.reshape (the row-major elements under the result's shape),
// nn.transpose (result.shape[i] = input.shape[perm[i]]), nn.broadcast_to
// (numpy rules), nn.concat, the strided nn.slice and nn.slice_grad, and
// nn.pad. Slice, slice_grad, pad and concat all place a small tensor at a
// strided window of a larger one (a StridedWindow).
//
//===----------------------------------------------------------------------===//

#include "Evaluators.h"

#include "amp/Dialect/NN/IR/NNOps.h"

using namespace mlir;
using namespace amp::nn;
using namespace amp::reference;

namespace {

RefTensor evalTranspose(TransposeOp op, Operands in) {
  const RefTensor &x = *in[0];
  RefTensor y = resultLike(op);
  ArrayRef<int64_t> perm = op.getPerm();
  SmallVector<int64_t> xStrides = getStrides(x.shape), strides;
  for (int64_t p : perm)
    strides.push_back(xStrides[p]);
  forEachIndex(y.shape, [&](ArrayRef<int64_t> index, int64_t offset) {
    y.data[offset] = x.data[offsetOf(index, strides)];
  });
  return y;
}

/// Element i... of a `small` tensor is element offsets + i * steps ... of a
/// `large` one.
struct StridedWindow {
  StridedWindow(ArrayRef<int64_t> large, ArrayRef<int64_t> offsets,
                ArrayRef<int64_t> steps) {
    SmallVector<int64_t> largeStrides = getStrides(large);
    base = offsetOf(offsets, largeStrides);
    for (auto [stride, step] : llvm::zip_equal(largeStrides, steps))
      strides.push_back(stride * step);
  }

  /// Calls fn(smallOffset, largeOffset) for every element of `small`.
  void forEach(ArrayRef<int64_t> small,
               function_ref<void(int64_t, int64_t)> fn) const {
    forEachIndex(small, [&](ArrayRef<int64_t> index, int64_t offset) {
      fn(offset, base + offsetOf(index, strides));
    });
  }

  int64_t base;
  SmallVector<int64_t> strides;
};

/// Writes `small` into `large` at the window.
void scatter(const StridedWindow &window, const RefTensor &small,
             RefTensor &large) {
  window.forEach(small.shape,
                 [&](int64_t s, int64_t l) { large.data[l] = small.data[s]; });
}

RefTensor evalSlice(SliceOp op, Operands in) {
  RefTensor y = resultLike(op);
  StridedWindow window(in[0]->shape, op.getOffsets(), op.getStridesOrOnes());
  window.forEach(y.shape,
                 [&](int64_t s, int64_t l) { y.data[s] = in[0]->data[l]; });
  return y;
}

/// Zeros with dy at the positions the slice read (distinct positions).
RefTensor evalSliceGrad(SliceGradOp op, Operands in) {
  RefTensor dx = resultLike(op);
  scatter(StridedWindow(dx.shape, op.getOffsets(), op.getStridesOrOnes()),
          *in[0], dx);
  return dx;
}

RefTensor evalPad(PadOp op, Operands in) {
  RefTensor y = resultLike(op, 0, op.getValue().convertToDouble());
  SmallVector<int64_t> ones(y.getRank(), 1);
  scatter(StridedWindow(y.shape, op.getLow(), ones), *in[0], y);
  return y;
}

/// Each input goes at its running offset along the axis.
RefTensor evalConcat(ConcatOp op, Operands in) {
  RefTensor y = resultLike(op);
  int64_t axis = normalizeAxis(op.getAxis(), y.getRank());
  SmallVector<int64_t> offsets(y.getRank(), 0), ones(y.getRank(), 1);
  for (const RefTensor *x : in) {
    scatter(StridedWindow(y.shape, offsets, ones), *x, y);
    offsets[axis] += x->shape[axis];
  }
  return y;
}

} // namespace

void amp::reference::registerShapeOps(EvaluatorTable &table) {
  table.add<ReshapeOp>([](ReshapeOp op, Operands in) {
    return RefTensor(shapeOf(op.getResult()), in[0]->data);
  });
  table.add<TransposeOp>(evalTranspose);
  table.add<BroadcastToOp>([](BroadcastToOp op, Operands in) {
    ArrayRef<int64_t> shape = shapeOf(op.getResult());
    return RefTensor(shape, broadcastData(*in[0], shape));
  });
  table.add<ConcatOp>(evalConcat);
  table.add<SliceOp>(evalSlice);
  table.add<SliceGradOp>(evalSliceGrad);
  table.add<PadOp>(evalPad);
}
