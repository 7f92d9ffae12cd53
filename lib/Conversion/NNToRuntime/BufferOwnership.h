//===- BufferOwnership.h - explicit copies for buffer ownership -*- C++ -*-===//
//
// Private to lib/Conversion/NNToRuntime; see BufferOwnership.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_NNTORUNTIME_BUFFEROWNERSHIP_H
#define AMP_LIB_CONVERSION_NNTORUNTIME_BUFFEROWNERSHIP_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace amp {

/// Makes every transfer of buffer ownership in `fn` (a function on tensors
/// whose regions are scf ops) legal by inserting copies (tensor.empty +
/// linalg.copy) where a value handed over is not the block's to give.
void insertOwnershipCopies(mlir::func::FuncOp fn);

/// The value whose buffer `v` lives in: reshapes alias their input.
mlir::Value bufferOwner(mlir::Value v);

/// Every use of the buffer of `owner` (its own and its reshapes', which
/// alias it).
void collectBufferUses(mlir::Value owner,
                       llvm::SmallVectorImpl<mlir::OpOperand *> &uses);

/// Whether the buffer of `owner` is read at or after `op` other than
/// through `except` (in `op`'s block; nested uses count at their ancestor,
/// reshapes are not reads).
bool isReadAfter(mlir::Value owner, mlir::Operation *op,
                 const llvm::SmallPtrSetImpl<mlir::OpOperand *> &except);

} // namespace amp

#endif // AMP_LIB_CONVERSION_NNTORUNTIME_BUFFEROWNERSHIP_H
