//===- NNDialect.h - The nn dialect -----------------------------*- C++ -*-===//
//
// Declares the nn dialect class, the nn.role enum attribute, and the one API
// through which passes, the lowering and runners read and write the roles of
// a training step's arguments and results.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_NN_IR_NNDIALECT_H
#define AMP_DIALECT_NN_IR_NNDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <optional>

#include "amp/Dialect/NN/IR/NNOpsDialect.h.inc"

#include "amp/Dialect/NN/IR/NNEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "amp/Dialect/NN/IR/NNAttributes.h.inc"

namespace amp::nn {

/// The role (`nn.role`) of argument / result `index` of `fn`, if it has one.
std::optional<Role> getArgRole(mlir::FunctionOpInterface fn, unsigned index);
std::optional<Role> getResultRole(mlir::FunctionOpInterface fn, unsigned index);

/// Sets the role of argument / result `index` of `fn`.
void setArgRole(mlir::FunctionOpInterface fn, unsigned index, Role role);
void setResultRole(mlir::FunctionOpInterface fn, unsigned index, Role role);

/// The `nn.check_range = [lo, hi]` of argument `index` of `fn`, if it has
/// one (the verifier has checked that lo < hi).
std::optional<std::pair<double, double>>
getArgCheckRange(mlir::FunctionOpInterface fn, unsigned index);

/// `nn.role = #nn.role<role>`, for building argument and result attribute
/// dictionaries (e.g. when a pass inserts a state argument).
mlir::NamedAttribute getRoleNamedAttr(mlir::MLIRContext *ctx, Role role);

} // namespace amp::nn

#endif // AMP_DIALECT_NN_IR_NNDIALECT_H
