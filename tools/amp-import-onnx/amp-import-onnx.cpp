//===- amp-import-onnx.cpp - import an ONNX model as nn IR ----------------===//
//
// Reads a .onnx file and prints the nn-dialect module that amp::importONNX
// builds (docs/onnx.md); --save-params writes the initializers in amp-run's
// params format. Every error is one line naming the model, the node and its
// op type, and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "amp/Import/ONNX.h"
#include "amp/Import/ONNXFlags.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<model.onnx or - for stdin>"),
                                      cl::cat(amp::onnxImportFlagsCategory()));
static cl::opt<std::string> outputFile("o", cl::init("-"),
                                       cl::desc("Output file (default stdout)"),
                                       cl::value_desc("file"),
                                       cl::cat(amp::onnxImportFlagsCategory()));
static cl::opt<std::string> saveParams(
    "save-params", cl::init(""),
    cl::desc("Write the params' values (the initializers), then the "
             "buffers' (BatchNormalization's running statistics with --train), "
             "in amp-run's --load-params format"),
    cl::value_desc("file"), cl::cat(amp::onnxImportFlagsCategory()));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  amp::registerONNXImportFlags();
  cl::HideUnrelatedOptions(amp::onnxImportFlagsCategory());
  cl::ParseCommandLineOptions(argc, argv,
                              "amp-import-onnx: ONNX model -> nn dialect\n");

  auto fail = [](const llvm::Twine &msg) {
    llvm::errs() << "amp-import-onnx: error: " << msg << "\n";
    return 1;
  };

  amp::ONNXImportOptions options;
  std::string flagError = amp::onnxImportOptionsFromFlags(options);
  if (!flagError.empty())
    return fail(flagError);
  if (!saveParams.empty() && options.constants)
    return fail("--save-params and --constants exclude each other: with "
                "--constants the model has no params");

  DialectRegistry registry;
  amp::registerONNXImportDialects(registry);
  MLIRContext context(registry);
  // One line per error: the model, then the message (which names the node
  // and its op type); warnings likewise.
  bool failedOnce = false;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Warning)
      llvm::errs() << "amp-import-onnx: warning: " << inputFile << ": "
                   << diag.str() << "\n";
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    if (!failedOnce)
      llvm::errs() << "amp-import-onnx: error: " << inputFile << ": "
                   << diag.str() << "\n";
    failedOnce = true;
    return success();
  });

  std::vector<amp::ONNXParam> params;
  OwningOpRef<ModuleOp> module =
      amp::importONNXFile(inputFile, options, context, &params);
  if (!module)
    return 1;

  if (!saveParams.empty()) {
    std::string error = amp::writeONNXParams(saveParams, params);
    if (!error.empty())
      return fail(error);
  }
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> out =
      openOutputFile(outputFile, &error);
  if (!out)
    return fail(error);
  // Locations inline (loc("conv1")), so that the output parses again and
  // the node names travel with it.
  module->print(out->os(),
                OpPrintingFlags().enableDebugInfo(true, false).useLocalScope());
  out->os() << "\n";
  out->keep();
  return 0;
}
