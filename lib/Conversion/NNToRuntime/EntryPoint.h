//===- EntryPoint.h - the runner's calling convention -----------*- C++ -*-===//
//
// Private to lib/Conversion/NNToRuntime; see EntryPoint.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_NNTORUNTIME_ENTRYPOINT_H
#define AMP_LIB_CONVERSION_NNTORUNTIME_ENTRYPOINT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace amp {

/// Gives a converted function `(ptr...) -> (ptr...)` the runner's calling
/// convention `(ptr buffers) -> i32`. `original` is its type on tensors.
void buildEntryPoint(mlir::func::FuncOp fn, mlir::FunctionType original);

} // namespace amp

#endif // AMP_LIB_CONVERSION_NNTORUNTIME_ENTRYPOINT_H
