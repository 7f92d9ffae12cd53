//===- AMPDialect.cpp - amp dialect registration and attributes -----------===//
//
// Registers the amp ops, materializes folded constants and verifies the
// discardable `amp.precision` (a type) and `amp.precision_rule` attributes.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/AMP/IR/AMPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

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

/// f32, f16 or bf16 as a TypeAttr.
static bool isPrecision(Attribute attr) {
  auto type = dyn_cast<TypeAttr>(attr);
  return type && (type.getValue().isF32() || type.getValue().isF16() ||
                  type.getValue().isBF16());
}

/// The precision the earlier string form "f16" names, for the error message.
static StringRef oldSpelling(Attribute attr) {
  auto str = dyn_cast<StringAttr>(attr);
  if (str && llvm::is_contained(
                 {StringRef("f32"), StringRef("f16"), StringRef("bf16")},
                 str.getValue()))
    return str.getValue();
  return "";
}

LogicalResult AMPDialect::verifyAliasingOutput(FunctionOpInterface fn,
                                               unsigned arg, Attribute attr) {
  auto index = dyn_cast<IntegerAttr>(attr);
  if (!index || !index.getType().isSignlessInteger())
    return fn.emitError() << "argument #" << arg << ": '"
                          << getAliasingOutputAttrName()
                          << "' must be an integer (the result the "
                             "argument's buffer is donated to), got "
                          << attr;
  int64_t n = index.getInt();
  ArrayRef<Type> results = fn.getResultTypes();
  if (n < 0 || n >= static_cast<int64_t>(results.size()))
    return fn.emitError() << "argument #" << arg << ": '"
                          << getAliasingOutputAttrName() << "' = " << n
                          << " names no result (the function has "
                          << results.size() << ")";
  if (fn.getArgumentTypes()[arg] != results[n])
    return fn.emitError() << "argument #" << arg << " of type "
                          << fn.getArgumentTypes()[arg]
                          << " cannot be donated to result #" << n
                          << " of type " << results[n];
  return success();
}

LogicalResult AMPDialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned region,
                                                   unsigned arg,
                                                   NamedAttribute attr) {
  auto fn = dyn_cast<FunctionOpInterface>(op);
  if (attr.getName() != getAliasingOutputAttrName() || !fn || region != 0)
    return op->emitError() << "unknown amp argument attribute '"
                           << attr.getName().getValue()
                           << "'; the only one is '"
                           << getAliasingOutputAttrName()
                           << "', on a function's argument";
  return verifyAliasingOutput(fn, arg, attr.getValue());
}

LogicalResult AMPDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  if (attr.getName() == getResultsInArgumentsAttrName()) {
    auto array = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!array || !isa<FunctionOpInterface>(op) ||
        llvm::any_of(array.asArrayRef(), [](int64_t a) { return a < -1; }))
      return op->emitError() << "'" << getResultsInArgumentsAttrName()
                             << "' must be an array<i64> of argument "
                                "indices or -1, on a function, got "
                             << attr.getValue();
    return success();
  }
  if (attr.getName() == getPrecisionRuleAttrName()) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError() << "'" << getPrecisionRuleAttrName()
                             << "' must be a string, got " << attr.getValue();
    return success();
  }
  if (attr.getName() != getPrecisionAttrName())
    return op->emitError() << "unknown amp attribute '"
                           << attr.getName().getValue()
                           << "'; the only amp attribute is '"
                           << getPrecisionAttrName() << "' (with '"
                           << getPrecisionRuleAttrName()
                           << "', the rule amp-assign-precision records, and "
                              "a lowered function's '"
                           << getResultsInArgumentsAttrName() << "')";
  // On a region op (scf.for, scf.if, amp.autocast) it may be an array with
  // one precision per result: the type of each loop-carried/yielded value.
  if (auto array = dyn_cast<ArrayAttr>(attr.getValue())) {
    if (array.size() != op->getNumResults() ||
        !llvm::all_of(array, isPrecision))
      return op->emitError()
             << "'amp.precision' as an array must hold one of f32, f16 or "
                "bf16 per result ("
             << op->getNumResults() << "), got " << attr.getValue();
    return success();
  }
  if (StringRef old = oldSpelling(attr.getValue()); !old.empty())
    return op->emitError() << "'amp.precision' is a type, not a string: "
                              "write amp.precision = "
                           << old << ", not \"" << old << "\"";
  if (!isPrecision(attr.getValue()))
    return op->emitError() << "'amp.precision' must be f32, f16 or bf16, got "
                           << attr.getValue();
  return success();
}
