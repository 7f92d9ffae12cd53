//===- PrecisionAnalysis.h - precision coloring of a function ---*- C++ -*-===//
//
// PrecisionAnalysis: the TensorFlow-AMP-style graph coloring that decides
// f16/bf16/f32 for every op of one function (forward, backward, regions),
// as an MLIR analysis. amp-assign-precision gets it with getAnalysis<>,
// computes it under its policy and writes the decisions as `amp.precision`;
// other passes may query it while it is preserved. Computing it only reads
// the function, so functions can be colored in parallel.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_AMP_TRANSFORMS_PRECISIONANALYSIS_H
#define AMP_DIALECT_AMP_TRANSFORMS_PRECISIONANALYSIS_H

#include "amp/Dialect/AMP/Transforms/PrecisionPolicy.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace amp {

/// What the coloring needs besides the IR.
struct PrecisionConfig {
  /// The low-precision type outside `amp.autocast` regions (f16 or bf16).
  mlir::FloatType lowType;
  /// The policy used where the low type is f16 / bf16.
  const PrecisionPolicy *f16Policy = nullptr;
  const PrecisionPolicy *bf16Policy = nullptr;
};

/// The decision for one op that implements MixedPrecisionOpInterface.
struct OpPrecision {
  mlir::Operation *op;
  mlir::FloatType precision;
  /// Why: "allow", "deny", "pinned", "between-allow", ... (docs/precision.md).
  llvm::StringRef rule;
};

/// The per-result precisions of a region op whose results each carry one
/// type (scf.for iter_args, scf.if and amp.autocast results).
struct GroupPrecision {
  mlir::Operation *op;
  /// One type per result (f32 for results that are not float tensors).
  llvm::SmallVector<mlir::Type> precisions;
};

/// A remark the coloring has for an op (an unlisted op, a constant that
/// does not fit the low type); the pass decides whether to emit it.
struct PrecisionNote {
  mlir::Operation *op;
  std::string message;
};

class PrecisionAnalysis {
public:
  /// Constructed by the AnalysisManager on a function; `compute` colors it.
  explicit PrecisionAnalysis(mlir::Operation *function) : function(function) {}

  /// Colors the function under `config`, replacing any earlier result.
  /// Existing `amp.precision` attributes pin their ops.
  void compute(const PrecisionConfig &config);

  /// The decisions, in program order (pre-order walk).
  llvm::ArrayRef<OpPrecision> getOpPrecisions() const { return ops; }
  llvm::ArrayRef<GroupPrecision> getGroupPrecisions() const { return groups; }
  llvm::ArrayRef<PrecisionNote> getNotes() const { return notes; }

  /// The decision for `op`, or null if the coloring does not cover it.
  const OpPrecision *lookup(mlir::Operation *op) const;

private:
  mlir::Operation *function;
  std::vector<OpPrecision> ops;
  std::vector<GroupPrecision> groups;
  std::vector<PrecisionNote> notes;
  llvm::DenseMap<mlir::Operation *, unsigned> opIndex;
};

} // namespace amp

#endif // AMP_DIALECT_AMP_TRANSFORMS_PRECISIONANALYSIS_H
