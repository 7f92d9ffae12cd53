//===- AMPOps.cpp - amp dialect operations --------------------------------===//
//
// Verification and region semantics of the amp ops. Folds live in
// AMPFolds.cpp.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/IR/AMPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace amp;

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

bool CastOp::areCastCompatible(TypeRange inputs, TypeRange outputs) {
  if (inputs.size() != 1 || outputs.size() != 1)
    return false;
  auto in = dyn_cast<RankedTensorType>(inputs.front());
  auto out = dyn_cast<RankedTensorType>(outputs.front());
  return in && out && in.getShape() == out.getShape() &&
         isa<FloatType>(in.getElementType()) &&
         isa<FloatType>(out.getElementType());
}

//===----------------------------------------------------------------------===//
// AutocastOp
//===----------------------------------------------------------------------===//

LogicalResult AutocastOp::verify() {
  if (std::optional<Type> ct = getComputeType()) {
    if (!ct->isF16() && !ct->isBF16() && !ct->isF32())
      return emitOpError("compute_type must be f16, bf16 or f32, got ") << *ct;
  }
  auto yield = cast<YieldOp>(getBody().front().getTerminator());
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError("region yields ")
           << yield.getValues().size() << " value(s) of type(s) "
           << yield.getValues().getTypes() << " but the op has result type(s) "
           << getResultTypes();
  return success();
}

void AutocastOp::getSuccessorRegions(RegionBranchPoint point,
                                     SmallVectorImpl<RegionSuccessor> &regions) {
  // The body runs once, entered from the parent; it then returns to the parent.
  if (point.isParent()) {
    regions.push_back(RegionSuccessor(&getBody()));
    return;
  }
  regions.push_back(RegionSuccessor(getOperation(), getResults()));
}

void AutocastOp::getRegionInvocationBounds(
    ArrayRef<Attribute>, SmallVectorImpl<InvocationBounds> &bounds) {
  bounds.emplace_back(1, 1);
}

#define GET_OP_CLASSES
#include "amp/Dialect/AMP/IR/AMPOps.cpp.inc"
