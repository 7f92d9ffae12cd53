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

/// The buffer of `op`'s operand `operand` when `op` may compute a result of
/// the operand's type in it, its kernel allowing the two to be one buffer:
/// the buffer was made in `op`'s block by an op of it (not a constant, an
/// argument or a buffer that stands for one), and nothing reads it after
/// `op`, nor `op` through another operand. Null otherwise.
mlir::Value dyingOperandBuffer(mlir::Operation *op, unsigned operand,
                               const BufferMap &buffers);

} // namespace amp

#endif // AMP_LIB_CONVERSION_NNTORUNTIME_INPLACE_H
