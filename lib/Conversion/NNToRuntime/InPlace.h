//===- InPlace.h - results computed in a dying operand's buffer -*- C++ -*-===//
//
// Private to lib/Conversion/NNToRuntime; see InPlace.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_NNTORUNTIME_INPLACE_H
#define AMP_LIB_CONVERSION_NNTORUNTIME_INPLACE_H

#include "mlir/IR/Operation.h"

namespace amp {

class BufferMap;

/// The buffer of its operand `operand` in which the op of `result` may
/// compute `result`, its kernel allowing the two to be one buffer: the
/// operand has the result's type, its buffer was made in the op's block by
/// an op of it (not a constant, an argument or a buffer that stands for
/// one), nothing reads it after the op, nor the op through another operand,
/// and the function does not return `result` (a returned result is computed
/// straight into its result slot, EntryPoint.cpp). Null otherwise, and
/// always when the lowering's `in-place` is off.
mlir::Value dyingOperandBuffer(mlir::OpResult result, unsigned operand,
                               const BufferMap &buffers);

} // namespace amp

#endif // AMP_LIB_CONVERSION_NNTORUNTIME_INPLACE_H
