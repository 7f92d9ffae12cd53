//===- ConstantUniquing.h - one LLVM constant per value and scope -*- C++ -*-//
//
// Private to lib/Conversion/NNToRuntime; see ConstantUniquing.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_NNTORUNTIME_CONSTANTUNIQUING_H
#define AMP_LIB_CONVERSION_NNTORUNTIME_CONSTANTUNIQUING_H

#include "mlir/IR/Region.h"

namespace amp {

/// Replaces each llvm.mlir.constant, llvm.mlir.zero and llvm.mlir.addressof
/// in `region` by an equal one that dominates it, where there is one.
void uniqueConstants(mlir::Region &region);

} // namespace amp

#endif // AMP_LIB_CONVERSION_NNTORUNTIME_CONSTANTUNIQUING_H
