//===- MixedPrecisionOpInterface.cpp - interface definitions --------------===//
//
// The generated interface definitions, the default operand/result sets and
// the check that promised models were registered.
//
//===----------------------------------------------------------------------===//

#include "amp/Interfaces/MixedPrecisionOpInterface.h"
#include "amp/Interfaces/PromisedModels.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Location.h"

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

LogicalResult amp::checkPrecisionModelsRegistered(MLIRContext *ctx,
                                                  StringRef passName) {
  return checkPromisedModels(ctx, TypeID::get<MixedPrecisionOpInterface>(),
                             "MixedPrecisionOpInterface", passName,
                             "amp::registerNNPrecisionModels(registry) for nn");
}

#include "amp/Interfaces/MixedPrecisionOpInterface.cpp.inc"
