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

/// Formats a type list as `(t0, t1)`, or `()` when empty.
static std::string fmtTypes(TypeRange types) {
  std::string s = "(";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(types, os);
  os << ")";
  return s;
}

LogicalResult AMPDialect::verifyYieldingBody(Operation *op) {
  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != 0)
    return op->emitOpError("body must not have arguments: the region uses "
                           "values from above, got ")
           << body.getNumArguments() << " argument(s)";
  // Ops verify before the SingleBlockImplicitTerminator region trait, so the
  // last op may still be something else; that is reported there.
  auto yield = dyn_cast<YieldOp>(body.back());
  if (yield && yield.getValues().getTypes() != op->getResultTypes())
    return op->emitOpError("region yields ")
           << fmtTypes(yield.getValues().getTypes()) << " but the op returns "
           << fmtTypes(op->getResultTypes());
  return success();
}

LogicalResult AutocastOp::verify() {
  if (std::optional<Type> ct = getComputeType()) {
    if (!ct->isF16() && !ct->isBF16() && !ct->isF32())
      return emitOpError("compute_type must be f16, bf16 or f32, got ") << *ct;
  }
  return AMPDialect::verifyYieldingBody(*this);
}

void AutocastOp::getSuccessorRegions(
    RegionBranchPoint point, SmallVectorImpl<RegionSuccessor> &regions) {
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
