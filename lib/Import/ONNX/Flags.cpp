//===- Flags.cpp - the command-line flags of an ONNX import ---------------===//

#include "amp/Import/ONNXFlags.h"

#include "llvm/Support/ManagedStatic.h"

namespace cl = llvm::cl;

namespace {

struct ImportFlags {
  cl::OptionCategory category{"amp-import-onnx options"};
  cl::opt<bool> constants{
      "constants", cl::init(false),
      cl::desc("Import float initializers as arith.constant, not params"),
      cl::cat(category)};
  cl::list<std::string> inputShapes{
      "input-shape",
      cl::desc("Static shape of a graph input, NAME=DxDx... (repeatable)"),
      cl::value_desc("name=1x3x224x224"), cl::cat(category)};
  cl::list<std::string> constantInputs{
      "constant-input",
      cl::desc("Bind a graph input to the value of an ONNX TensorProto file: "
               "NAME=@FILE.pb (repeatable); it is no argument then"),
      cl::value_desc("name=@file.pb"), cl::cat(category)};
  cl::opt<std::string> functionName{
      "function-name", cl::init(""),
      cl::desc("Name of the imported function (forward; train_step with "
               "--train)"),
      cl::cat(category)};
  cl::opt<bool> train{
      "train", cl::init(false),
      cl::desc("Build a forward loss function for nn-autodiff: a final "
               "Softmax becomes its logits, a label argument and the loss "
               "are added"),
      cl::cat(category)};
  cl::opt<bool> frozenBatchNorm{
      "frozen-batch-norm", cl::init(false),
      cl::desc("With --train, BatchNormalization normalizes with its running "
               "statistics, folded into constants (fine-tuning with frozen "
               "BatchNorm); by default it trains as PyTorch's in training "
               "mode: batch statistics, and running statistics the step "
               "updates as buffers"),
      cl::cat(category)};
  cl::opt<std::string> loss{
      "loss", cl::init("cross_entropy"),
      cl::desc("The loss of --train: cross_entropy (integer classes); of "
               "f32 targets shaped like the output, mse, l1, huber or "
               "bce_with_logits (PyTorch's MSELoss, L1Loss, HuberLoss, "
               "BCEWithLogitsLoss); or graph, the loss the graph computes "
               "(its first output, or the one --loss-output names: one "
               "value), with the targets in the graph input that --label "
               "names"),
      cl::cat(category)};
  cl::opt<std::string> label{
      "label", cl::init(""),
      cl::desc("With --train --loss graph, the graph input that holds the "
               "targets or classes: the label argument (default: the input "
               "named labels; without one, the step has no label)"),
      cl::value_desc("name"), cl::cat(category)};
  cl::opt<std::string> lossOutput{
      "loss-output", cl::init(""),
      cl::desc("With --train --loss graph, the graph output that is the "
               "loss (default: the first); the others are left out"),
      cl::value_desc("name"), cl::cat(category)};
  cl::opt<double> huberDelta{
      "huber-delta", cl::init(1.0),
      cl::desc("With --train --loss huber, the Huber loss's delta (finite, "
               "> 0), as PyTorch's HuberLoss(delta=...)"),
      cl::cat(category)};
  cl::opt<std::string> lossReduction{
      "loss-reduction", cl::init("mean"),
      cl::desc("With --train and a --loss of f32 targets, how the loss "
               "reduces its elements: mean or sum, as PyTorch's "
               "reduction=..."),
      cl::cat(category)};
  cl::opt<double> labelSmoothing{
      "label-smoothing", cl::init(0.0),
      cl::desc("With --train, the cross-entropy's label smoothing in [0, 1], "
               "as PyTorch's CrossEntropyLoss(label_smoothing=...)"),
      cl::cat(category)};
  cl::opt<bool> approximateErfGelu{
      "approximate-erf-gelu", cl::init(false),
      cl::desc("Map the exact (erf) GELU (the Gelu op, the Erf pattern) onto "
               "nn.gelu, the tanh approximation, which GEMM epilogues fuse "
               "(default: nn.gelu_erf, the exact GELU)"),
      cl::cat(category)};
  cl::list<std::string> frozen{
      "frozen",
      cl::desc("Import these float initializers as constants, not params "
               "(PyTorch's buffers, frozen parameters); a name also freezes "
               "what PyTorch's torch.export-based exporter folded from it, "
               "e.g. --frozen model.rotary_emb.inv_freq (comma-separated, "
               "repeatable)"),
      cl::value_desc("name"), cl::CommaSeparated, cl::cat(category)};
  cl::list<std::string> params{
      "param",
      cl::desc("Import these float initializers as params even with one "
               "element, e.g. an nn.PReLU()'s single slope (comma-separated, "
               "repeatable)"),
      cl::value_desc("name"), cl::CommaSeparated, cl::cat(category)};
  cl::list<std::string> paddingIdx{
      "padding-idx",
      cl::desc("The padding row of the embedding table a Gather reads, as "
               "PyTorch's nn.Embedding(padding_idx=ROW): it gets no "
               "gradient, e.g. --padding-idx model.shared.weight=0 "
               "(comma-separated, repeatable; the torch.export-based "
               "exporter's models carry it)"),
      cl::value_desc("name=row"), cl::CommaSeparated, cl::cat(category)};
  cl::opt<std::string> externalDataDir{
      "external-data-dir", cl::init(""),
      cl::desc("Directory of the files that hold tensors stored as external "
               "data (default: the model's directory)"),
      cl::value_desc("dir"), cl::cat(category)};
};

llvm::ManagedStatic<ImportFlags> flags;

} // namespace

void amp::registerONNXImportFlags() { *flags; }

cl::OptionCategory &amp::onnxImportFlagsCategory() { return flags->category; }

std::string amp::onnxImportOptionsFromFlags(ONNXImportOptions &options) {
  const ImportFlags &f = *flags;
  options.constants = f.constants;
  options.train = f.train;
  options.frozenBatchNorm = f.frozenBatchNorm;
  options.loss = f.loss;
  options.label = f.label;
  options.lossOutput = f.lossOutput;
  options.labelSmoothing = f.labelSmoothing;
  options.huberDelta = f.huberDelta;
  options.lossReduction = f.lossReduction;
  options.approximateErfGelu = f.approximateErfGelu;
  options.externalDataDir = f.externalDataDir;
  options.frozen.assign(f.frozen.begin(), f.frozen.end());
  options.params.assign(f.params.begin(), f.params.end());
  options.functionName = !f.functionName.empty() ? f.functionName.getValue()
                         : f.train               ? "train_step"
                                                 : "forward";
  for (const std::string &spec : f.inputShapes) {
    std::string error = parseInputShape(spec, options);
    if (!error.empty())
      return error;
  }
  for (const std::string &spec : f.constantInputs) {
    std::string error = parseConstantInput(spec, options);
    if (!error.empty())
      return error;
  }
  for (const std::string &spec : f.paddingIdx) {
    std::string error = parsePaddingIdx(spec, options);
    if (!error.empty())
      return error;
  }
  return "";
}
