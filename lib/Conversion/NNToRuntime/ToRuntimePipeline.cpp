//===- ToRuntimePipeline.cpp - the amp-to-runtime pipeline ----------------===//
//
// The lowering from a training step on tensors (after amp-pipeline, or f32
// as written) to LLVM-dialect functions that call the runtime's C ABI.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void amp::buildAmpToRuntimePipeline(OpPassManager &pm) {
  // 1. Every matmul, f32 ones included, becomes one runtime GEMM call with
  //    the epilogues it can fuse.
  LowerMatmulToCublasLtOptions gemm;
  gemm.f32Gemm = true;
  pm.addPass(createLowerMatmulToCublasLt(gemm));
  // 2. Every other op becomes runtime calls on buffers.
  pm.addPass(createLowerToRuntime());
}

void amp::registerAmpToRuntimePipeline() {
  PassPipelineRegistration<>(
      "amp-to-runtime",
      "Lower a training step to runtime calls (matmuls to amp.gemm, then "
      "every op to the runtime's C ABI)",
      [](OpPassManager &pm) { buildAmpToRuntimePipeline(pm); });
}
