//===- CastPlan.h - the retyping and casts a decision implies ---*- C++ -*-===//
//
// From the `amp.precision` decisions in a function, computes the new type
// of every value and the minimal set of casts: one per (value, target type,
// cast dialect). A cast is built by the PrecisionCastInterface of the
// dialect of the precision op it serves (its user, else its producer), so
// linalg code gets arith.truncf and TOSA code tosa.cast; amp.cast otherwise.
// amp-insert-casts applies it. Computing it changes nothing.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_DIALECT_AMP_TRANSFORMS_CASTPLAN_H
#define AMP_LIB_DIALECT_AMP_TRANSFORMS_CASTPLAN_H

#include "PrecisionUtils.h"

#include "amp/Interfaces/PrecisionCastInterface.h"

#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

namespace amp {

class CastPlan {
public:
  /// Plans `fn`. With `keepIOTypes` false, arguments and results without a
  /// state role take the precision of their uses/producers when `fn` has no
  /// callers.
  CastPlan(mlir::FunctionOpInterface fn, bool keepIOTypes);

  /// Applies the plan: retypes values, inserts (or folds) the casts, drops
  /// the absorbed casts and updates the function type.
  void apply(unsigned &numCasts, unsigned &numConstants);

  /// Casts the plan inserts at run time (constants converted at compile time
  /// are counted separately).
  unsigned getNumRuntimeCasts() const;
  unsigned getNumConstantConversions() const;

  /// The type a value will have after the plan is applied.
  mlir::Type getNewType(mlir::Value v) const;

private:
  struct UseFix {
    mlir::OpOperand *use;
    mlir::Value root;
    mlir::Type desired;
    /// Builds the cast this use needs; null: amp.cast.
    const PrecisionCastInterface *caster;
  };
  /// (root, target type, namespace of the cast ops).
  using CastKey = std::tuple<mlir::Value, mlir::Type, llvm::StringRef>;
  static CastKey castKey(const UseFix &fix);

  mlir::Type plannedType(mlir::Value root) const;
  mlir::Type desiredType(mlir::OpOperand &use, mlir::Value root) const;

  mlir::FunctionOpInterface fn;
  bool lowerIO;
  llvm::MapVector<mlir::Value, mlir::Type> newTypes;
  llvm::SmallVector<UseFix> uses;
  llvm::SmallVector<mlir::Operation *> absorbedCasts;
  llvm::MapVector<CastKey, const PrecisionCastInterface *> casts;
  llvm::SmallVector<mlir::Type> newResultTypes;
};

} // namespace amp

#endif // AMP_LIB_DIALECT_AMP_TRANSFORMS_CASTPLAN_H
