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

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace amp::runner;
namespace cl = llvm::cl;

static cl::OptionCategory category("amp-compile options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<training-step .mlir>"),
                                      cl::cat(category));
static cl::opt<std::string> outputFile("o", cl::Required,
                                       cl::desc("The shared object to write"),
                                       cl::value_desc("step.so"),
                                       cl::cat(category));
static cl::opt<std::string>
    precision("precision", cl::init("f16"),
              cl::desc("f32 (no AMP pipeline), f16 or bf16 (amp-pipeline "
                       "with that compute type)"),
              cl::cat(category));
static cl::opt<std::string> pipelineOptions(
    "pipeline-options", cl::init(""),
    cl::desc("Extra amp-pipeline options, e.g. \"loss-scale=static "
             "init-scale=1024\""),
    cl::cat(category));
static cl::opt<std::string> autodiffOptions(
    "autodiff-options", cl::init(""),
    cl::desc("nn-autodiff options for a forward loss function as --entry, "
             "e.g. \"optimizer=adamw lr=3e-4\""),
    cl::cat(category));
static cl::opt<std::string> entry(
    "entry", cl::init("train_step"), cl::cat(category),
    cl::desc("The training step, or a forward loss function for nn-autodiff"));
static cl::opt<std::string>
    evalEntry("eval-entry", cl::init(""),
              cl::desc("A function (params..., input) -> logits for "
                       "amp-exec's held-out accuracy (for a forward --entry "
                       "F, F_forward is its forward pass)"),
              cl::cat(category));
static cl::opt<std::string> underflowReport(
    "underflow-report", cl::init(""),
    cl::desc("A probe function (params..., input, label) -> f32 tensors for "
             "amp-exec's --underflow-report"),
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

  DialectRegistry registry;
  registerCompileDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module =
      amp::parseFileNamingArguments(inputFile, &context);
  if (!module)
    return 1; // the parser printed the error
  CompileRequest request;
  request.precision = precision;
  request.pipelineOptions = pipelineOptions;
  request.autodiffOptions = autodiffOptions;
  request.entry = entry;
  request.evalEntry = evalEntry;
  request.underflowProbe = underflowReport;
  request.source = inputFile;
  llvm::Expected<CompiledProgram> compiled = compileProgram(*module, request);
  if (!compiled)
    return fail(llvm::toString(compiled.takeError()));
  if (llvm::Error error = writeStepLibrary(*module, *compiled, outputFile))
    return fail(llvm::toString(std::move(error)));
  return 0;
}
