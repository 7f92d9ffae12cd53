//===- embed-amp.cpp - a downstream compiler driver around amp ------------===//
//
// What a compiler that embeds amp writes: register amp's dialects and its
// own, give its own op a precision class, and run amp's pipeline from C++.
//
//   embed-amp <input.mlir> [--compute-type=f16|bf16] [--policy=<file.json>]
//
// prints the module after amp-pipeline; errors go to stderr, exit code 1.
//
//===----------------------------------------------------------------------===//

#include "Embed/EmbedDialect.h"

#include "amp/InitAll.h"
#include "amp/Interfaces/MixedPrecisionOpInterface.h"
#include "amp/Parser/ParserHazards.h"
#include "amp/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<input.mlir>"));
static cl::opt<std::string> computeType("compute-type", cl::init("f16"),
                                        cl::desc("f16 or bf16"));
static cl::opt<std::string> policyFile("policy", cl::init(""),
                                       cl::desc("JSON precision policy"));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "embed-amp: amp inside a compiler\n");

  // amp's dialects and precision models, ours, and a precision class for
  // our op: embed.dense is a contraction (allow) that accumulates in f32.
  mlir::DialectRegistry registry;
  amp::registerAllDialects(registry);
  registry.insert<embed::EmbedDialect>();
  amp::attachPrecisionClass<embed::DenseOp, embed::EmbedDialect,
                            amp::PrecisionClass::Allow,
                            /*F32Accumulator=*/true>(registry);
  mlir::MLIRContext context(registry);
  // Policy files are checked against the registered ops: load them all.
  context.loadAllAvailableDialects();

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << "embed-amp: " << error << "\n";
    return 1;
  }
  // Refuse input on which MLIR's parser would crash (too deep a nesting, a
  // dense array of index), as amp's own tools do.
  if (amp::reportParserHazard(*input, llvm::errs()))
    return 1;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  // The pipeline, configured through its options struct.
  amp::AmpPipelineOptions options;
  options.computeType = computeType;
  options.policyFile = policyFile;
  mlir::PassManager pm(&context);
  amp::buildAmpPipeline(pm, options);
  if (mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
