//===- IRFuzzers.cpp - libFuzzer targets of the IR parser and pipelines ---===//
//
// amp-ir-fuzzer and amp-pipeline-fuzzer (this file built twice, with
// AMP_FUZZ_IR or AMP_FUZZ_PIPELINE), on arbitrary text:
//
//   amp-ir-fuzzer        parse (every dialect amp-opt registers) and verify:
//                        a module or diagnostics, nothing else;
//   amp-pipeline-fuzzer  then, for a module that verifies, one of the pass
//                        pipelines users run (picked by the input's size, so
//                        that mutations reach all of them), each pass
//                        followed by the verifier: success or diagnostics.
//
// No crash, no hang, no sanitizer report. Diagnostics are swallowed (the
// fuzzer's output stays readable); an error without one would be a bug too,
// but MLIR's own passes may fail silently, so it is not checked here.
// Seeds: the lit tests' and examples' IR, split at "// -----"
// (scripts/fuzz.sh); dictionary: ir.dict.
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"
#include "amp/Parser/ParserHazards.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {

mlir::MLIRContext &context() { return amp::fuzz::sharedContext(); }

#if defined(AMP_FUZZ_PIPELINE)
/// The pipelines of docs/pipeline.md, as amp-opt and amp-compile run them.
constexpr const char *kPipelines[] = {
    "builtin.module(amp-pipeline)",
    "builtin.module(amp-pipeline{compute-type=bf16},amp-to-runtime)",
    // keep-forward: the inference copy amp-run --eval-entry evaluates.
    "builtin.module(nn-autodiff{keep-forward},amp-pipeline,amp-to-runtime)",
    "builtin.module(nn-autodiff{optimizer=adamw clip-norm=1.0 "
    "lr-schedule=multistep milestones=2,5 gamma=0.5},"
    "amp-pipeline,amp-lower-matmul-to-cublaslt)",
    "builtin.module(nn-autodiff{accumulate-steps=2 momentum=0.9 nesterov "
    "weight-decay=0.01 no-decay-1d lr-schedule=cosine total-steps=10 "
    "keep-forward ema-decay=0.99 ema-buffers},"
    "amp-pipeline,amp-to-runtime)",
    "builtin.module(nn-autodiff{optimizer=adam weight-decay=0.1 "
    "no-decay=bias amsgrad},amp-pipeline,amp-to-runtime)",
    "builtin.module(nn-autodiff{optimizer=rmsprop momentum=0.9 centered "
    "ema-decay=0.9},"
    "amp-pipeline,amp-to-runtime)",
    "builtin.module(nn-autodiff{optimizer=radam decoupled-weight-decay "
    "weight-decay=0.01 param-lr=bias=0.01 clip-value=1.0 clip-norm=1.0 "
    "clip-norm-type=inf},amp-pipeline,amp-to-runtime)",
    "builtin.module(nn-autodiff{optimizer=adagrad lr-decay=0.01 "
    "initial-accumulator-value=0.1},amp-pipeline{compute-type=bf16},"
    "amp-to-runtime)",
    "builtin.module(nn-autodiff{optimizer=adafactor weight-decay=0.01 "
    "d=2 lr-schedule=linear total-steps=10 clip-norm=1.0 clip-norm-type=3},"
    "amp-pipeline,amp-to-runtime)",
    // amp-run's and amp-compile's default: attention fused before autodiff.
    "builtin.module(nn-fuse-attention,nn-autodiff{optimizer=adamw},"
    "amp-pipeline,amp-to-runtime)",
};

void runPipeline(mlir::ModuleOp module, size_t size) {
  const char *text = kPipelines[size % std::size(kPipelines)];
  mlir::PassManager pm(module.getContext());
  pm.enableVerifier(true);
  if (mlir::failed(mlir::parsePassPipeline(text, pm))) {
    __builtin_printf("fuzzer: the pipeline '%s' does not parse\n", text);
    __builtin_trap();
  }
  mlir::LogicalResult result = pm.run(module);
  // AMP_FUZZ_VERBOSE=1: say what an input did (for reproducers).
  static const bool verbose = std::getenv("AMP_FUZZ_VERBOSE");
  if (verbose)
    __builtin_printf("pipeline %s: %s\n", text,
                     mlir::succeeded(result) ? "succeeded" : "failed");
}
#endif

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // What amp's tools refuse before parsing (amp/Parser/ParserHazards.h).
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  if (amp::findParserHazard(text))
    return 0;
  mlir::MLIRContext &ctx = context();
  mlir::ScopedDiagnosticHandler quiet(
      &ctx, [](mlir::Diagnostic &) { return mlir::success(); });
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          text, "fuzz.mlir"),
      llvm::SMLoc());
  mlir::ParserConfig config(&ctx);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sources, config);
  if (!module || mlir::failed(mlir::verify(*module))) {
    if (std::getenv("AMP_FUZZ_VERBOSE"))
      __builtin_printf("%s\n", module ? "does not verify" : "does not parse");
    return 0;
  }
#if defined(AMP_FUZZ_PIPELINE)
  runPipeline(*module, size);
#endif
  return 0;
}
