//===- PrecisionUtils.h - helpers shared by the precision passes -*- C++ -*-===//
//
// Reading and writing `amp.precision`, looking through amp.cast, and the
// region ops whose results carry one precision per value ("groups":
// scf.for iter_args, scf.if and amp.autocast results). Used by
// amp-assign-precision (which decides) and amp-insert-casts (which retypes).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_DIALECT_AMP_TRANSFORMS_PRECISIONUTILS_H
#define AMP_LIB_DIALECT_AMP_TRANSFORMS_PRECISIONUTILS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace amp {

/// "f32" / "f16" / "bf16" <-> the float type; nullopt for anything else.
std::optional<mlir::FloatType> parsePrecision(mlir::MLIRContext *ctx,
                                              llvm::StringRef name);
llvm::StringRef precisionName(mlir::Type type);

/// The op's own precision from `amp.precision = f16` (a TypeAttr).
std::optional<mlir::FloatType> getOpPrecision(mlir::Operation *op);
void setOpPrecision(mlir::Operation *op, mlir::Type type);

/// Per-result precision of a group op from an array-valued `amp.precision`
/// (`amp.precision = [f16, f32]`).
std::optional<mlir::FloatType> getResultPrecision(mlir::Operation *op,
                                                  unsigned index);
void setResultPrecisions(mlir::Operation *op,
                         llvm::ArrayRef<mlir::Type> types);

/// True for a ranked tensor of floats.
bool isFloatTensor(mlir::Type type);

/// `type` with its element type replaced.
mlir::Type withElementType(mlir::Type type, mlir::Type element);

/// Follows amp.cast ops back to the value they convert.
mlir::Value lookThroughCasts(mlir::Value value);

/// Region ops whose float results each form a group: scf.for, scf.if,
/// amp.autocast.
bool isGroupOp(mlir::Operation *op);

/// The group (op, result index) that `value` belongs to: a group op's
/// result or an scf.for iter_arg. Nullopt otherwise.
std::optional<std::pair<mlir::Operation *, unsigned>>
getGroupOf(mlir::Value value);

/// The values flowing into group `index` of `op` (init operand and yielded
/// value of a loop; the yielded value of each branch).
llvm::SmallVector<mlir::OpOperand *> getGroupInputs(mlir::Operation *op,
                                                    unsigned index);

/// If `use` flows into a group, that group.
std::optional<std::pair<mlir::Operation *, unsigned>>
getGroupFedBy(mlir::OpOperand &use);

} // namespace amp

#endif // AMP_LIB_DIALECT_AMP_TRANSFORMS_PRECISIONUTILS_H
