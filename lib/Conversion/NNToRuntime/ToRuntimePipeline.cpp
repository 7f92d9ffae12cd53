//===- ToRuntimePipeline.cpp - the amp-to-runtime pipeline ----------------===//
//
// The lowering from a training step on tensors (after amp-pipeline, or f32
// as written) to LLVM-dialect functions that call the runtime's C ABI.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void amp::buildAmpToRuntimePipeline(OpPassManager &pm,
                                    const AmpToRuntimeOptions &options) {
  // 1. Every matmul, f32 ones included, becomes one runtime GEMM call with
  //    the epilogues it can fuse.
  LowerMatmulToCublasLtOptions gemm;
  gemm.f32Gemm = true;
  pm.addPass(createLowerMatmulToCublasLt(gemm));
  // 2. Every other op becomes runtime calls on buffers; functions take the
  //    runner's calling convention.
  LowerToRuntimeOptions lower;
  lower.inPlace = options.inPlace;
  pm.addPass(createLowerToRuntime(lower));
  // 3. Buffers are freed after their last use (per function, in parallel).
  pm.addNestedPass<func::FuncOp>(createRuntimeDeallocate());
  //    The temporaries of each function share one arena.
  if (options.planBuffers)
    pm.addNestedPass<func::FuncOp>(createRuntimePlanBuffers());
  //    The stack memory that calls read is a few slots in the frame.
  pm.addNestedPass<func::FuncOp>(createRuntimeShareStackSlots());
  // 4. Structured control flow becomes branches, then every runtime call's
  //    status is checked (which needs branches).
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createCheckRuntimeStatus());
  // 5. The LLVM dialect throughout: arith, cf and func in one conversion
  //    (their ConvertToLLVMPatternInterface, registered by
  //    amp::registerAllDialects), one walk over the module instead of three.
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // 6. Nothing is left that the runtime ABI cannot run.
  pm.addPass(createVerifyRuntimeContract());
}

void amp::registerAmpToRuntimePipeline() {
  PassPipelineRegistration<AmpToRuntimeOptions>(
      "amp-to-runtime",
      "Lower a training step to LLVM-dialect functions that call the "
      "runtime's C ABI (matmuls to amp.gemm, every op to runtime calls, "
      "frees, one arena for the temporaries, status checks), ending with a "
      "check of the result",
      [](OpPassManager &pm, const AmpToRuntimeOptions &options) {
        buildAmpToRuntimePipeline(pm, options);
      });
}
