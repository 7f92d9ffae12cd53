//===- NNToRuntime.h - lower training steps to runtime calls ----*- C++ -*-===//
//
// Declares amp-lower-to-runtime: tensor-level nn/amp functions to LLVM
// dialect functions calling the runtime's C ABI.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CONVERSION_NNTORUNTIME_NNTORUNTIME_H
#define AMP_CONVERSION_NNTORUNTIME_NNTORUNTIME_H

#include "amp_runtime/amp_runtime.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace amp {

#define GEN_PASS_DECL_LOWERTORUNTIME
#define GEN_PASS_DECL_RUNTIMEDEALLOCATE
#define GEN_PASS_DECL_RUNTIMEPLANBUFFERS
#define GEN_PASS_DECL_RUNTIMESHARESTACKSLOTS
#define GEN_PASS_DECL_CHECKRUNTIMESTATUS
#define GEN_PASS_DECL_VERIFYRUNTIMECONTRACT
#include "amp/Conversion/Passes.h.inc"

/// The global that holds the location of the op whose runtime call failed
/// (a NUL-terminated string), read by amp-run after a failed step.
inline constexpr llvm::StringLiteral kErrorSiteGlobal = AMP_ERROR_SITE_SYMBOL;

/// The options of the `amp-to-runtime` pipeline.
struct AmpToRuntimeOptions : mlir::PassPipelineOptions<AmpToRuntimeOptions> {
  Option<bool> planBuffers{
      *this, "plan-buffers",
      llvm::cl::desc("Place each function's temporary buffers in one arena "
                     "(amp-runtime-plan-buffers); off, every buffer keeps "
                     "its own amp_alloc and amp_free, which lets a memory "
                     "checker see each one"),
      llvm::cl::init(true)};
  Option<bool> inPlace{
      *this, "in-place",
      llvm::cl::desc("amp-lower-to-runtime's in-place: compute a result in "
                     "the buffer of an operand that dies at the op where "
                     "the kernel allows it; off, every result gets its own "
                     "buffer"),
      llvm::cl::init(true)};
};

/// Adds `amp-to-runtime` to `pm` (which must run on a module): every matmul
/// to amp.gemm, every op to runtime calls, frees after last uses, one arena
/// for each function's temporaries, control flow to branches, status
/// checks, the LLVM dialect, and last a check that the module holds only
/// what the runtime ABI can run. amp-run and embedders compile training
/// steps with it after amp-pipeline.
void buildAmpToRuntimePipeline(mlir::OpPassManager &pm,
                               const AmpToRuntimeOptions &options = {});

/// Registers `amp-to-runtime` for textual pass pipelines and amp-opt.
void registerAmpToRuntimePipeline();

} // namespace amp

#endif // AMP_CONVERSION_NNTORUNTIME_NNTORUNTIME_H
