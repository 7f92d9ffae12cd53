//===- MixedPrecisionOpInterface.cpp - interface definitions --------------===//
//
// The generated interface definitions and the default operand/result sets.
//
//===----------------------------------------------------------------------===//

#include "amp/Interfaces/MixedPrecisionOpInterface.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

static bool isFloatTensor(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && isa<FloatType>(tensor.getElementType());
}

SmallVector<unsigned> amp::detail::floatTensorOperands(Operation *op) {
  SmallVector<unsigned> indices;
  for (OpOperand &operand : op->getOpOperands())
    if (isFloatTensor(operand.get().getType()))
      indices.push_back(operand.getOperandNumber());
  return indices;
}

SmallVector<unsigned> amp::detail::floatTensorResults(Operation *op) {
  SmallVector<unsigned> indices;
  for (OpResult result : op->getResults())
    if (isFloatTensor(result.getType()))
      indices.push_back(result.getResultNumber());
  return indices;
}

#include "amp/Interfaces/MixedPrecisionOpInterface.cpp.inc"
