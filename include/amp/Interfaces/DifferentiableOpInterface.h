//===- DifferentiableOpInterface.h - derivative rules -----------*- C++ -*-===//
//
// Declares DifferentiableOpInterface (generated from the .td), the
// GradientBuilder that derivative rules build with, and the registration of
// the nn ops' rules.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_DIFFERENTIABLEOPINTERFACE_H
#define AMP_INTERFACES_DIFFERENTIABLEOPINTERFACE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/SmallVector.h"

namespace amp {

/// What a derivative rule builds with: an OpBuilder whose insertion point and
/// location belong to the op being differentiated (a fused location that
/// names the forward op, so reports and errors point at the model's source),
/// plus the helpers that several rules share.
class GradientBuilder {
public:
  GradientBuilder(mlir::OpBuilder &builder, mlir::Location loc)
      : builder(builder), loc(loc) {}

  mlir::OpBuilder &getBuilder() { return builder; }
  mlir::Location getLoc() const { return loc; }
  mlir::MLIRContext *getContext() { return builder.getContext(); }

  template <typename OpT, typename... Args>
  OpT create(Args &&...args) {
    return OpT::create(builder, loc, std::forward<Args>(args)...);
  }

  /// `grad` summed over the dimensions that numpy broadcasting added to
  /// reach it from `type` (leading dimensions, and dimensions of size 1 in
  /// `type`), then reshaped to `type`. Returns `grad` when the shapes agree.
  mlir::Value reduceToShape(mlir::Value grad, mlir::RankedTensorType type);

  /// A 0-d constant of `elementType`, a float or integer type (broadcasts
  /// in nn's binary ops).
  mlir::Value scalar(double value, mlir::Type elementType);

  /// A splat constant of `type` (an integer type takes `value` truncated).
  mlir::Value splat(double value, mlir::RankedTensorType type);

  /// `a + b` (gradient accumulation of a value with several uses).
  mlir::Value add(mlir::Value a, mlir::Value b);

private:
  mlir::OpBuilder &builder;
  mlir::Location loc;
};

/// The location of the backward ops built for `forward`: a fused location
/// `fused<"grad">[forward's location]`.
mlir::Location getGradientLoc(mlir::Operation *forward);

/// Attaches DifferentiableOpInterface to the nn ops that have a derivative,
/// and to amp.cast.
void registerNNDerivativeModels(mlir::DialectRegistry &registry);

/// Fails, with an error naming the op, when nn (or another loaded dialect)
/// promised DifferentiableOpInterface for an op but no model was attached:
/// the embedder forgot registerNNDerivativeModels.
mlir::LogicalResult checkDerivativeModelsRegistered(mlir::MLIRContext *ctx,
                                                    llvm::StringRef passName);

} // namespace amp

#include "amp/Interfaces/DifferentiableOpInterface.h.inc"

#endif // AMP_INTERFACES_DIFFERENTIABLEOPINTERFACE_H
