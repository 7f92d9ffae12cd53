//===- ShapeOps.cpp - f64 evaluators of the shape ops ---------------------===//
//
// nn.reshape (the row-major elements under the result's shape),
// nn.transpose (result.shape[i] = input.shape[perm[i]]) and
// nn.broadcast_to (numpy rules).
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
}
