//===- amp-compile.cpp - compile a training step ahead of time ------------===//
//
// amp-compile step.mlir [--precision ...] -o step.so compiles a training
// step as amp-run does (nn-autodiff for a forward loss function,
// amp-pipeline, amp-to-runtime) and writes it as a shared object with its
// metadata (ProgramMetadata.h), for amp-exec to run where neither MLIR nor
// LLVM is installed. docs/amp-compile.md describes both tools.
//
//===----------------------------------------------------------------------===//

#include "amp/Parser/ParseNamingArguments.h"
#include "amp/Runner/Compile.h"
#include "amp/Runner/CompileFlags.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace amp::runner;
namespace cl = llvm::cl;

static cl::OptionCategory category("amp-compile options");

static CompileFlags compileFlags(category);
static cl::opt<std::string> outputFile("o", cl::Required,
                                       cl::desc("The shared object to write"),
                                       cl::value_desc("step.so"),
                                       cl::cat(category));

static void printError(const llvm::Twine &msg) {
  llvm::errs() << "amp-compile: error: " << msg << "\n";
}

/// Parses, compiles and translates the step to LLVM IR, or prints why not
/// and returns nullopt. The MLIR context and module die with this scope,
/// before the code generator runs (a 100k-op step's IR: ~0.35 GB).
static std::optional<HostStep> translateRequest(const CompileRequest &request) {
  DialectRegistry registry;
  registerCompileDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module =
      amp::parseFileNamingArguments(request.source, &context);
  if (!module)
    return std::nullopt; // the parser printed the error
  llvm::Expected<CompiledProgram> compiled = compileProgram(*module, request);
  llvm::Error error =
      compiled ? addStepMetadata(*module, *compiled) : compiled.takeError();
  if (error) {
    printError(llvm::toString(std::move(error)));
    return std::nullopt;
  }
  llvm::Expected<HostStep> step =
      translateStep(*module, request.codegenFunctionSize);
  if (!step) {
    printError(llvm::toString(step.takeError()));
    return std::nullopt;
  }
  return std::move(*step);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "amp-compile: compile a training step ahead of time for amp-exec\n");
  std::optional<HostStep> step = translateRequest(compileFlags.request());
  if (!step)
    return 1;
  if (llvm::Error error = writeStepLibrary(std::move(*step), outputFile)) {
    printError(llvm::toString(std::move(error)));
    return 1;
  }
  return 0;
}
