//===- Indexing.cpp - shapes, strides and broadcasting for the evaluators -===//
//
// RefTensor's constructors and the indexing helpers of Evaluators.h that
// every op family uses.
//
//===----------------------------------------------------------------------===//

#include "Evaluators.h"

#include "mlir/IR/Diagnostics.h"

#include "amp_runtime/checked_size.h"

#include <cmath>

using namespace mlir;
using namespace amp::reference;

int64_t amp::reference::getNumElements(ArrayRef<int64_t> shape) {
  // The interpreter runs verified IR, whose tensors int64 can count.
  std::optional<int64_t> n =
      amp::checked::elementCount(shape.data(), shape.size());
  assert(n && "verified nn tensors have element counts that fit int64");
  return *n;
}

RefTensor::RefTensor(ArrayRef<int64_t> shape, double fill)
    : shape(shape), data(amp::reference::getNumElements(shape), fill) {}

RefTensor::RefTensor(ArrayRef<int64_t> shape, std::vector<double> data)
    : shape(shape), data(std::move(data)) {}

ArrayRef<int64_t> amp::reference::shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

RefTensor amp::reference::resultLike(Operation *op, unsigned i, double fill) {
  return RefTensor(shapeOf(op->getResult(i)), fill);
}

SmallVector<int64_t> amp::reference::getStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

SmallVector<int64_t>
amp::reference::getBroadcastStrides(ArrayRef<int64_t> shape,
                                    ArrayRef<int64_t> target) {
  SmallVector<int64_t> own = getStrides(shape);
  SmallVector<int64_t> strides(target.size(), 0);
  int64_t extra = static_cast<int64_t>(target.size() - shape.size());
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] != 1)
      strides[extra + i] = own[i];
  return strides;
}

int64_t amp::reference::offsetOf(ArrayRef<int64_t> index,
                                 ArrayRef<int64_t> strides) {
  int64_t offset = 0;
  for (auto [i, s] : llvm::zip_equal(index, strides))
    offset += i * s;
  return offset;
}

void amp::reference::forEachIndex(
    ArrayRef<int64_t> shape,
    function_ref<void(ArrayRef<int64_t>, int64_t)> fn) {
  int64_t n = getNumElements(shape);
  SmallVector<int64_t> index(shape.size(), 0);
  for (int64_t offset = 0; offset < n; ++offset) {
    fn(index, offset);
    // Odometer increment, last dim fastest.
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

std::vector<double> amp::reference::broadcastData(const RefTensor &x,
                                                  ArrayRef<int64_t> target) {
  SmallVector<int64_t> strides = getBroadcastStrides(x.shape, target);
  std::vector<double> out(getNumElements(target));
  forEachIndex(target, [&](ArrayRef<int64_t> index, int64_t offset) {
    out[offset] = x.data[offsetOf(index, strides)];
  });
  return out;
}

int64_t amp::reference::normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

void amp::reference::forEachLine(ArrayRef<int64_t> shape, int64_t axis,
                                 function_ref<void(int64_t, int64_t)> fn) {
  int64_t outer = getNumElements(shape.take_front(axis));
  int64_t length = shape[axis];
  int64_t inner = getNumElements(shape.drop_front(axis + 1));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i)
      fn(o * length * inner + i, inner);
}

LogicalResult amp::reference::checkIndex(Operation *op, StringRef what,
                                         double value, int64_t position,
                                         int64_t limit) {
  if (value >= 0 && value < static_cast<double>(limit) &&
      value == std::floor(value))
    return success();
  InFlightDiagnostic diag = op->emitError()
                            << "reference interpreter: " << what << " ";
  // Integral values as integers: "label 12", not "label 1.2e+01".
  if (value == std::floor(value) && std::abs(value) < 0x1p53)
    diag << static_cast<int64_t>(value);
  else
    diag << value;
  return diag << " at position " << position << " is outside [0, " << limit
              << ")";
}
