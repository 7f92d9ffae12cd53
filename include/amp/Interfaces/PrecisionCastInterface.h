//===- PrecisionCastInterface.h - which ops a dialect casts with -*- C++ -*-===//
//
// A dialect interface that builds the cast amp-insert-casts needs next to
// that dialect's ops, so that the output stays valid input for the
// dialect's own compiler: arith.extf/arith.truncf for arith, math and
// linalg, tosa.cast for TOSA. Dialects without it get amp.cast.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_PRECISIONCASTINTERFACE_H
#define AMP_INTERFACES_PRECISIONCASTINTERFACE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectInterface.h"

namespace amp {

class PrecisionCastInterface
    : public mlir::DialectInterface::Base<PrecisionCastInterface> {
public:
  explicit PrecisionCastInterface(mlir::Dialect *dialect) : Base(dialect) {}

  /// The namespace of the dialect whose cast ops buildCast creates. Uses
  /// whose dialects name the same one share a cast.
  virtual llvm::StringRef getCastNamespace() const = 0;

  /// Converts `input` (a float tensor) to `type`, the same shape with
  /// another float element type, at the builder's insertion point. May
  /// fold (a constant becomes a converted constant).
  virtual mlir::Value buildCast(mlir::OpBuilder &builder, mlir::Location loc,
                                mlir::Value input, mlir::Type type) const = 0;
};

} // namespace amp

#endif // AMP_INTERFACES_PRECISIONCASTINTERFACE_H
