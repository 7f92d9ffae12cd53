//===- NNDialect.cpp - nn dialect registration and attributes -------------===//
//
// Registers the nn ops and the nn.role attribute, declares the interfaces
// that amp attaches to nn ops later, verifies the discardable `nn.role`,
// `nn.init` and `nn.check_range` attributes on function arguments and
// results (and rejects nn attributes elsewhere), and implements the role
// and check-range accessors.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/NN/IR/NNDialect.h"
#include "amp/Dialect/NN/IR/NNOps.h"
#include "amp/Interfaces/DifferentiableOpInterface.h"
#include "amp/Interfaces/MixedPrecisionOpInterface.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace amp::nn;

#include "amp/Dialect/NN/IR/NNOpsDialect.cpp.inc"

#include "amp/Dialect/NN/IR/NNEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "amp/Dialect/NN/IR/NNAttributes.cpp.inc"

void NNDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "amp/Dialect/NN/IR/NNOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "amp/Dialect/NN/IR/NNAttributes.cpp.inc"
      >();
  // amp/Interfaces attaches MixedPrecisionOpInterface to every nn op
  // (registerNNPrecisionModels). Promising it here turns a forgotten
  // registration into an error instead of ops the precision passes skip.
  declarePromisedInterfaces<amp::MixedPrecisionOpInterface,
#define GET_OP_LIST
#include "amp/Dialect/NN/IR/NNOps.cpp.inc"
                            >();
  // Likewise DifferentiableOpInterface, for the ops that have a derivative
  // rule (registerNNDerivativeModels).
#define AMP_NN_DIFFERENTIABLE_OP(CLASS)                                        \
  declarePromisedInterface<amp::DifferentiableOpInterface, CLASS>();
#include "amp/Dialect/NN/IR/NNDifferentiableOps.def"
}

/// Writes the valid spellings: "#nn.role<param>, #nn.role<opt_state>, ...".
static void printRoleSpellings(InFlightDiagnostic &diag) {
  auto roles = llvm::seq_inclusive<uint32_t>(0, getMaxEnumValForRole());
  llvm::interleaveComma(roles, diag, [&](uint32_t value) {
    diag << "#nn.role<" << stringifyRole(static_cast<Role>(value)) << ">";
  });
}

static LogicalResult verifyRole(Operation *op, Attribute value,
                                StringRef where) {
  if (isa<RoleAttr>(value))
    return success();
  // The string form of earlier versions: say how it is spelled now.
  if (auto str = dyn_cast<StringAttr>(value)) {
    if (std::optional<Role> role = symbolizeRole(str.getValue()))
      return op->emitError()
             << "'nn.role' on " << where << " is the string " << str
             << "; roles are enum attributes now: write nn.role = #nn.role<"
             << stringifyRole(*role) << ">";
    InFlightDiagnostic diag = op->emitError()
                              << "unknown nn.role " << str << " on " << where
                              << "; expected one of ";
    printRoleSpellings(diag);
    return diag;
  }
  InFlightDiagnostic diag = op->emitError()
                            << "'nn.role' on " << where << " must be one of ";
  printRoleSpellings(diag);
  return diag << ", got " << value;
}

/// The two numbers of a well-formed `nn.check_range = [lo, hi]`.
static std::optional<std::pair<double, double>> parseCheckRange(Attribute a) {
  auto array = dyn_cast_if_present<ArrayAttr>(a);
  if (!array || array.size() != 2)
    return std::nullopt;
  auto number = [](Attribute x) -> std::optional<double> {
    if (auto f = dyn_cast<FloatAttr>(x))
      return f.getValueAsDouble();
    if (auto i = dyn_cast<IntegerAttr>(x))
      return static_cast<double>(i.getValue().getSExtValue());
    return std::nullopt;
  };
  std::optional<double> lo = number(array[0]), hi = number(array[1]);
  if (!lo || !hi || !(*lo < *hi) || !std::isfinite(*lo) || !std::isfinite(*hi))
    return std::nullopt;
  return std::make_pair(*lo, *hi);
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
  // nn.check_range: where amp-grad-check draws an argument's values.
  if (attr.getName() == NNDialect::getCheckRangeAttrName()) {
    if (!where.starts_with("argument"))
      return op->emitError() << "'nn.check_range' on " << where
                             << ": it belongs on function arguments";
    if (!parseCheckRange(attr.getValue()))
      return op->emitError()
             << "'nn.check_range' on " << where
             << " must be [lo, hi] with finite numbers lo < hi, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() != NNDialect::getRoleAttrName())
    return op->emitError() << "unknown nn attribute '"
                           << attr.getName().getValue() << "' on " << where;
  return verifyRole(op, attr.getValue(), where);
}

LogicalResult NNDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  if (attr.getName() == getCheckRangeAttrName())
    return op->emitError() << "'nn.check_range' belongs on function "
                              "arguments, not on an operation";
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

//===----------------------------------------------------------------------===//
// Roles
//===----------------------------------------------------------------------===//

static std::optional<Role> roleIn(Attribute attr) {
  if (auto role = dyn_cast_if_present<RoleAttr>(attr))
    return role.getValue();
  return std::nullopt;
}

std::optional<Role> amp::nn::getArgRole(FunctionOpInterface fn,
                                        unsigned index) {
  return roleIn(fn.getArgAttr(index, NNDialect::getRoleAttrName()));
}

std::optional<Role> amp::nn::getResultRole(FunctionOpInterface fn,
                                           unsigned index) {
  return roleIn(fn.getResultAttr(index, NNDialect::getRoleAttrName()));
}

void amp::nn::setArgRole(FunctionOpInterface fn, unsigned index, Role role) {
  fn.setArgAttr(index, NNDialect::getRoleAttrName(),
                RoleAttr::get(fn->getContext(), role));
}

void amp::nn::setResultRole(FunctionOpInterface fn, unsigned index, Role role) {
  fn.setResultAttr(index, NNDialect::getRoleAttrName(),
                   RoleAttr::get(fn->getContext(), role));
}

NamedAttribute amp::nn::getRoleNamedAttr(MLIRContext *ctx, Role role) {
  return NamedAttribute(StringAttr::get(ctx, NNDialect::getRoleAttrName()),
                        RoleAttr::get(ctx, role));
}

std::optional<std::pair<double, double>>
amp::nn::getArgCheckRange(FunctionOpInterface fn, unsigned index) {
  return parseCheckRange(
      fn.getArgAttr(index, NNDialect::getCheckRangeAttrName()));
}
