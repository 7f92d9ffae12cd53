//===- amp-export-onnx.cpp - the trained values back into the ONNX model --===//
//
// Writes an ONNX model with the values that amp-run trained in its
// initializers (amp::exportTrainedONNX, docs/onnx.md): the model, the
// trained params file or checkpoint, and the import's options, which must
// be those that made the step. Every error is one line and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "amp/Import/ONNX.h"
#include "amp/Import/ONNXFlags.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("amp-export-onnx options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<model.onnx>"),
                                      cl::cat(category));
static cl::opt<std::string> trainedFile(
    "trained", cl::Required,
    cl::desc("The trained values: amp-run's --save-params file, or a "
             "--save-checkpoint archive"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string>
    outputFile("o", cl::Required,
               cl::desc("The ONNX model to write (its external data, if "
                        "any, goes to FILE.data beside it)"),
               cl::value_desc("file"), cl::cat(category));
static cl::opt<amp::ONNXExternalData> externalData(
    "external-data", cl::init(amp::ONNXExternalData::Auto),
    cl::desc("Where the tensors go"),
    cl::values(clEnumValN(amp::ONNXExternalData::Auto, "auto",
                          "as in the model read: external data when it had "
                          "some or when the model passes 2 GiB (default)"),
               clEnumValN(amp::ONNXExternalData::Always, "always",
                          "every tensor of 1 KiB or more in FILE.data"),
               clEnumValN(amp::ONNXExternalData::Never, "never",
                          "every tensor inside the model file")),
    cl::cat(category));
static cl::opt<bool> inference(
    "inference", cl::init(false),
    cl::desc("Write a training-mode export (PyTorch's "
             "TrainingMode.TRAINING) for inference: BatchNormalization with "
             "its running statistics, Dropout as the identity"),
    cl::cat(category));
static cl::opt<bool>
    list("list", cl::init(false),
         cl::desc("Print a line per initializer written: the param or "
                  "buffer its value comes from, and how"),
         cl::cat(category));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  amp::registerONNXImportFlags();
  cl::HideUnrelatedOptions({&category, &amp::onnxImportFlagsCategory()});
  cl::ParseCommandLineOptions(
      argc, argv,
      "amp-export-onnx: an ONNX model with the values amp-run trained\n\n"
      "Give the options of the amp-import-onnx command that made the step "
      "(--train, --frozen, ...): the model is imported again with them, so "
      "that each trained tensor finds its initializers.\n");

  amp::ONNXImportOptions options;
  std::string flagError = amp::onnxImportOptionsFromFlags(options);
  if (!flagError.empty()) {
    llvm::errs() << "amp-export-onnx: error: " << flagError << "\n";
    return 1;
  }

  DialectRegistry registry;
  amp::registerONNXImportDialects(registry);
  MLIRContext context(registry);
  // One line per error: the file it concerns (the model for the import's
  // own errors, which name the node; none where the message names it),
  // then the message.
  bool failedOnce = false;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    std::string file = inputFile + ": ";
    if (auto at = dyn_cast<FileLineColLoc>(diag.getLocation()))
      file = at.getFilename().str() + ": ";
    if (isa<UnknownLoc>(diag.getLocation()))
      file.clear();
    if (diag.getSeverity() == DiagnosticSeverity::Warning)
      llvm::errs() << "amp-export-onnx: warning: " << file << diag.str()
                   << "\n";
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    if (!failedOnce)
      llvm::errs() << "amp-export-onnx: error: " << file << diag.str() << "\n";
    failedOnce = true;
    return success();
  });

  amp::ONNXExportOptions exportOptions;
  exportOptions.externalData = externalData;
  exportOptions.inference = inference;
  if (failed(amp::exportTrainedONNX(inputFile, options, trainedFile, outputFile,
                                    exportOptions, context,
                                    list ? &llvm::outs() : nullptr)))
    return 1;
  return 0;
}
