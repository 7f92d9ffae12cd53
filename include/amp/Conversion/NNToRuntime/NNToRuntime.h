//===- NNToRuntime.h - lower training steps to runtime calls ----*- C++ -*-===//
//
// Declares amp-lower-to-runtime: tensor-level nn/amp functions to LLVM
// dialect functions calling the runtime's C ABI.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CONVERSION_NNTORUNTIME_NNTORUNTIME_H
#define AMP_CONVERSION_NNTORUNTIME_NNTORUNTIME_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace amp {

#define GEN_PASS_DECL_LOWERTORUNTIME
#include "amp/Conversion/Passes.h.inc"

/// The global that holds the location of the op whose runtime call failed
/// (a NUL-terminated string), read by amp-run after a failed step.
inline constexpr llvm::StringLiteral kErrorSiteGlobal = "__amp_error_site";

} // namespace amp

#endif // AMP_CONVERSION_NNTORUNTIME_NNTORUNTIME_H
