//===- amp-import-onnx.cpp - import an ONNX model as nn IR ----------------===//
//
// Reads a .onnx file and prints the nn-dialect module that amp::importONNX
// builds (docs/onnx.md); --save-params writes the initializers in amp-run's
// params format. Every error is one line naming the model, the node and its
// op type, and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "amp/Import/ONNX.h"

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

static cl::OptionCategory category("amp-import-onnx options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<model.onnx or - for stdin>"),
                                      cl::cat(category));
static cl::opt<std::string> outputFile("o", cl::init("-"),
                                       cl::desc("Output file (default stdout)"),
                                       cl::value_desc("file"),
                                       cl::cat(category));
static cl::opt<bool> constants(
    "constants", cl::init(false),
    cl::desc("Import float initializers as arith.constant, not params"),
    cl::cat(category));
static cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("Static shape of a graph input, NAME=DxDx... (repeatable)"),
    cl::value_desc("name=1x3x224x224"), cl::cat(category));
static cl::list<std::string> constantInputs(
    "constant-input",
    cl::desc("Bind a graph input to the value of an ONNX TensorProto file: "
             "NAME=@FILE.pb (repeatable); it is no argument then"),
    cl::value_desc("name=@file.pb"), cl::cat(category));
static cl::opt<std::string> saveParams(
    "save-params", cl::init(""),
    cl::desc("Write the params' values (the initializers), then the "
             "buffers' (BatchNormalization's running statistics with --train), "
             "in amp-run's --load-params format"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string> functionName(
    "function-name", cl::init(""),
    cl::desc("Name of the imported function (forward; train_step with "
             "--train)"),
    cl::cat(category));
static cl::opt<bool>
    train("train", cl::init(false),
          cl::desc("Build a forward loss function for nn-autodiff: a final "
                   "Softmax becomes its logits, a label argument and the "
                   "loss are added"),
          cl::cat(category));
static cl::opt<bool> frozenBatchNorm(
    "frozen-batch-norm", cl::init(false),
    cl::desc("With --train, BatchNormalization normalizes with its running "
             "statistics, folded into constants (fine-tuning with frozen "
             "BatchNorm); by default it trains as PyTorch's in training "
             "mode: batch statistics, and running statistics the step "
             "updates as buffers"),
    cl::cat(category));
static cl::opt<std::string> loss("loss", cl::init("cross_entropy"),
                                 cl::desc("The loss of --train: cross_entropy"),
                                 cl::cat(category));
static cl::opt<double> labelSmoothing(
    "label-smoothing", cl::init(0.0),
    cl::desc("With --train, the cross-entropy's label smoothing in [0, 1], "
             "as PyTorch's CrossEntropyLoss(label_smoothing=...)"),
    cl::cat(category));
static cl::opt<bool> approximateErfGelu(
    "approximate-erf-gelu", cl::init(false),
    cl::desc("Map the exact (erf) GELU (the Gelu op, the Erf pattern) onto "
             "nn.gelu, the tanh approximation, which GEMM epilogues fuse "
             "(default: nn.gelu_erf, the exact GELU)"),
    cl::cat(category));

static cl::list<std::string> frozen(
    "frozen",
    cl::desc("Import these float initializers as constants, not params "
             "(PyTorch's buffers, frozen parameters); a name also freezes "
             "what PyTorch's torch.export-based exporter folded from it, "
             "e.g. --frozen model.rotary_emb.inv_freq (comma-separated, "
             "repeatable)"),
    cl::value_desc("name"), cl::CommaSeparated, cl::cat(category));

static cl::opt<std::string> externalDataDir(
    "external-data-dir", cl::init(""),
    cl::desc("Directory of the files that hold tensors stored as external "
             "data (default: the model's directory)"),
    cl::value_desc("dir"), cl::cat(category));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "amp-import-onnx: ONNX model -> nn dialect\n");

  auto fail = [](const llvm::Twine &msg) {
    llvm::errs() << "amp-import-onnx: error: " << msg << "\n";
    return 1;
  };

  amp::ONNXImportOptions options;
  options.constants = constants;
  options.train = train;
  options.frozenBatchNorm = frozenBatchNorm;
  options.loss = loss;
  options.labelSmoothing = labelSmoothing;
  options.approximateErfGelu = approximateErfGelu;
  options.externalDataDir = externalDataDir;
  options.frozen.assign(frozen.begin(), frozen.end());
  options.functionName = !functionName.empty() ? functionName.getValue()
                         : train               ? "train_step"
                                               : "forward";
  for (const std::string &spec : inputShapes) {
    std::string error = amp::parseInputShape(spec, options);
    if (!error.empty())
      return fail(error);
  }
  for (const std::string &spec : constantInputs) {
    std::string error = amp::parseConstantInput(spec, options);
    if (!error.empty())
      return fail(error);
  }
  if (!saveParams.empty() && constants)
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
