//===- DifferentiableOpInterface.cpp - interface and GradientBuilder ------===//
//
// The generated interface definitions and the helpers derivative rules
// share: reducing a broadcast gradient back to an operand's shape,
// constants, accumulation, and the fused location of backward ops.
//
//===----------------------------------------------------------------------===//

#include "amp/Interfaces/DifferentiableOpInterface.h"

#include "amp/Dialect/NN/IR/NNOps.h"
#include "amp/Interfaces/PromisedModels.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace amp;

#include "amp/Interfaces/DifferentiableOpInterface.cpp.inc"

LogicalResult amp::checkDerivativeModelsRegistered(MLIRContext *ctx,
                                                   StringRef passName) {
  return checkPromisedModels(
      ctx, TypeID::get<DifferentiableOpInterface>(),
      "DifferentiableOpInterface", passName,
      "amp::registerNNDerivativeModels(registry) for nn");
}

Location amp::getGradientLoc(Operation *forward) {
  MLIRContext *ctx = forward->getContext();
  return FusedLoc::get(ctx, {forward->getLoc()}, StringAttr::get(ctx, "grad"));
}

Value GradientBuilder::reduceToShape(Value grad, RankedTensorType type) {
  auto gradType = cast<RankedTensorType>(grad.getType());
  if (gradType.getShape() == type.getShape())
    return grad;
  // Numpy broadcasting aligns trailing dimensions: the leading `extra`
  // dimensions of the gradient are new, and a dimension of size 1 in `type`
  // was stretched.
  int64_t extra = gradType.getRank() - type.getRank();
  SmallVector<int64_t> axes;
  for (int64_t i = 0; i < gradType.getRank(); ++i)
    if (i < extra ||
        (type.getDimSize(i - extra) == 1 && gradType.getDimSize(i) != 1))
      axes.push_back(i);
  Value reduced = grad;
  if (!axes.empty())
    reduced = create<nn::ReduceSumOp>(grad, axes, /*keep_dims=*/false);
  if (cast<RankedTensorType>(reduced.getType()).getShape() == type.getShape())
    return reduced;
  auto target = RankedTensorType::get(type.getShape(), gradType.getElementType());
  return create<nn::ReshapeOp>(target, reduced);
}

Value GradientBuilder::scalar(double value, Type elementType) {
  return splat(value, RankedTensorType::get({}, elementType));
}

Value GradientBuilder::splat(double value, RankedTensorType type) {
  Type element = type.getElementType();
  TypedAttr scalar = isa<FloatType>(element)
                         ? TypedAttr(builder.getFloatAttr(element, value))
                         : TypedAttr(builder.getIntegerAttr(
                               element, static_cast<int64_t>(value)));
  return create<arith::ConstantOp>(type, DenseElementsAttr::get(type, scalar));
}

Value GradientBuilder::add(Value a, Value b) {
  return create<nn::AddOp>(a, b);
}
