//===- PointerArrays.h - pointer arrays filled from a table ----*- C++ -*-===//
//
// Private to lib/Conversion/NNToRuntime; see PointerArrays.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_NNTORUNTIME_POINTERARRAYS_H
#define AMP_LIB_CONVERSION_NNTORUNTIME_POINTERARRAYS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

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

/// The attribute that marks a pointer array's placeholder.
inline constexpr llvm::StringLiteral kPointerArrayAttr = "amp.pointer_array";

/// A pointer array of `pointers` (RuntimeBuilder::ptrArray) as a
/// placeholder: an unrealized_conversion_cast of the pointers to one
/// pointer, marked with kPointerArrayAttr. Only amp-lower-to-runtime builds
/// them, and its entry point replaces them all
/// (materializePointerArrays).
mlir::Value createPointerArrayPlaceholder(mlir::OpBuilder &b,
                                          mlir::Location loc,
                                          mlir::ValueRange pointers);

/// Replaces each pointer-array placeholder of `fn` by a stack array, filled
/// by an scf.for over a constant table of entries when it has at least 8
/// elements and all come from `source`, else by a store per element.
void materializePointerArrays(mlir::func::FuncOp fn,
                              const PointerSource &source);

/// Fills each stack array of `fn` that is stored element by element, at
/// least 8 elements all from `source`, by an scf.for over a constant table
/// of their entries instead; the element stores go, and so do the pointers
/// that nothing else uses.
void gatherPointerArrays(mlir::func::FuncOp fn, const PointerSource &source);

} // namespace amp

#endif // AMP_LIB_CONVERSION_NNTORUNTIME_POINTERARRAYS_H
