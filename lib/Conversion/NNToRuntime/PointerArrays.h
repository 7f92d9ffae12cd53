//===- PointerArrays.h - pointer arrays filled from a table ----*- C++ -*-===//
//
// Private to lib/Conversion/NNToRuntime; see PointerArrays.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_NNTORUNTIME_POINTERARRAYS_H
#define AMP_LIB_CONVERSION_NNTORUNTIME_POINTERARRAYS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/DenseMap.h"

namespace amp {

/// Where the elements of a gathered pointer array come from: one entry of a
/// constant integer table each.
struct PointerSource {
  /// The table entry of each pointer that comes from this source.
  const llvm::DenseMap<mlir::Value, int64_t> &entryOf;
  /// The table's element type: i32 or i64.
  unsigned tableBits;
  /// Builds the pointer of a table entry (an integer of tableBits).
  llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                 mlir::Value entry)>
      pointerAt;
};

/// Fills each pointer array of `fn` (RuntimeBuilder::ptrArray) whose
/// elements all come from `source`, if it has at least 8, by an scf.for over
/// a constant table of their entries instead of a store per element; the
/// element stores go, and so do the pointers that nothing else uses.
void gatherPointerArrays(mlir::func::FuncOp fn, const PointerSource &source);

} // namespace amp

#endif // AMP_LIB_CONVERSION_NNTORUNTIME_POINTERARRAYS_H
