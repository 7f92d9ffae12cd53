//===- NNDialect.cpp - nn dialect registration and attributes -------------===//
//
// Registers the nn ops and verifies the discardable `nn.role` attribute on
// training-step arguments and results (and rejects nn attributes elsewhere).
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/NN/IR/NNDialect.h"
#include "amp/Dialect/NN/IR/NNOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace amp::nn;

#include "amp/Dialect/NN/IR/NNOpsDialect.cpp.inc"

void NNDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "amp/Dialect/NN/IR/NNOps.cpp.inc"
      >();
}

/// The roles of training-step arguments and results (ARCHITECTURE.md §3).
static constexpr StringLiteral kRoles[] = {
    "param",    "opt_state",  "input",          "label",
    "loss",     "loss_scale", "growth_tracker", "hysteresis_tracker",
    "found_inf"};

static bool isKnownRole(StringRef role) {
  return llvm::is_contained(kRoles, role);
}

static LogicalResult verifyNNAttribute(Operation *op, NamedAttribute attr,
                                       StringRef where) {
  // nn.init: the value a runner initializes a scalar state argument with.
  if (attr.getName() == NNDialect::getInitAttrName()) {
    if (!isa<FloatAttr, IntegerAttr, BoolAttr>(attr.getValue()))
      return op->emitError()
             << "'nn.init' on " << where << " must be a number or a bool, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() != NNDialect::getRoleAttrName())
    return op->emitError() << "unknown nn attribute '"
                           << attr.getName().getValue() << "' on " << where;
  auto role = dyn_cast<StringAttr>(attr.getValue());
  if (!role)
    return op->emitError() << "'nn.role' on " << where
                           << " must be a string, got " << attr.getValue();
  if (!isKnownRole(role.getValue())) {
    InFlightDiagnostic diag = op->emitError()
                              << "unknown nn.role \"" << role.getValue()
                              << "\" on " << where << "; expected one of ";
    llvm::interleaveComma(
        kRoles, diag, [&](StringRef known) { diag << "\"" << known << "\""; });
    return diag;
  }
  return success();
}

LogicalResult NNDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  if (attr.getName() == getRoleAttrName() ||
      attr.getName() == getInitAttrName())
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' belongs on function arguments and results, "
                              "not on an operation";
  return op->emitError() << "unknown nn attribute '"
                         << attr.getName().getValue() << "' on an operation";
}

LogicalResult NNDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                  unsigned argIndex,
                                                  NamedAttribute attr) {
  return verifyNNAttribute(op, attr, "argument #" + std::to_string(argIndex));
}

LogicalResult NNDialect::verifyRegionResultAttribute(Operation *op, unsigned,
                                                     unsigned resultIndex,
                                                     NamedAttribute attr) {
  return verifyNNAttribute(op, attr, "result #" + std::to_string(resultIndex));
}
