//===- AMPDialect.cpp - amp dialect registration and attributes -----------===//
//
// Registers the amp ops, materializes folded constants and verifies the
// discardable `amp.precision` attribute.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/AMP/IR/AMPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace amp;

#include "amp/Dialect/AMP/IR/AMPOpsDialect.cpp.inc"

void AMPDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "amp/Dialect/AMP/IR/AMPOps.cpp.inc"
      >();
}

Operation *AMPDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  if (!arith::ConstantOp::isBuildableWith(value, type))
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, cast<TypedAttr>(value));
}

LogicalResult AMPDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  if (attr.getName() != getPrecisionAttrName())
    return op->emitError() << "unknown amp attribute '"
                           << attr.getName().getValue() << "'; the only amp "
                           << "attribute is '" << getPrecisionAttrName() << "'";
  auto str = dyn_cast<StringAttr>(attr.getValue());
  if (!str || !llvm::is_contained({StringRef("f32"), StringRef("f16"),
                                    StringRef("bf16")},
                                   str.getValue()))
    return op->emitError()
           << "'amp.precision' must be \"f32\", \"f16\" or \"bf16\", got "
           << attr.getValue();
  return success();
}
