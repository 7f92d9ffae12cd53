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

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "amp-compile: compile a training step ahead of time for amp-exec\n");
  auto fail = [](const llvm::Twine &msg) {
    llvm::errs() << "amp-compile: error: " << msg << "\n";
    return 1;
  };

  CompileRequest request = compileFlags.request();
  DialectRegistry registry;
  registerCompileDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module =
      amp::parseFileNamingArguments(request.source, &context);
  if (!module)
    return 1; // the parser printed the error
  llvm::Expected<CompiledProgram> compiled = compileProgram(*module, request);
  if (!compiled)
    return fail(llvm::toString(compiled.takeError()));
  if (llvm::Error error = writeStepLibrary(*module, *compiled, outputFile))
    return fail(llvm::toString(std::move(error)));
  return 0;
}
