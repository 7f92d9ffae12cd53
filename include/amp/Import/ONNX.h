//===- ONNX.h - import an ONNX model as an nn-dialect module ----*- C++ -*-===//
//
// The ONNX importer (issue #12, docs/onnx.md): reads an ONNX ModelProto
// (opset 9 and newer; an older one is brought up to opset 9 with ONNX's
// version converter) with the protobuf classes of Debian's libonnx-dev and
// builds a module with one `func.func` (by default @forward) of `nn` ops.
// Graph inputs become `nn.role<input>` arguments; float initializers become
// `nn.role<param>` arguments (their values are returned for the params
// file) or, with `constants`, `arith.constant`s; with `train`, the running
// statistics of BatchNormalization become `nn.role<buffer>` arguments. Every
// error is a diagnostic of the context at the location of the ONNX node (a
// NameLoc with the node's name) that names the node, its op type and what is
// missing.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IMPORT_ONNX_H
#define AMP_IMPORT_ONNX_H

#include "amp/Runner/TensorFile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LogicalResult.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace amp {

struct ONNXImportOptions {
  /// The name of the imported function.
  std::string functionName = "forward";
  /// Float initializers become `arith.constant`s instead of param arguments.
  bool constants = false;
  /// Float initializers that import as constants, not params: PyTorch's
  /// buffers and frozen parameters. A name also freezes every initializer
  /// the torch.export-based exporter folded from it (its value_info's
  /// `pkg.onnxscript.optimizer.folded_from` metadata), e.g. a rotary
  /// embedding's cos and sin tables folded from its `inv_freq` buffer. A
  /// name that matches nothing is an error.
  std::vector<std::string> frozen;
  /// Float initializers that import as params even with one element (a
  /// constant of the model otherwise): a weight of one element that no
  /// name or metadata shows, such as nn.PReLU()'s single slope as PyTorch's
  /// TorchScript exporter folds it (`onnx::PRelu_15`). A name that is no
  /// float initializer of the graph, or that `frozen` names too, is an
  /// error.
  std::vector<std::string> params;
  /// The padding row of the embedding lookups (Gathers along axis 0) of a
  /// table, by the name of the value the Gathers read: PyTorch's
  /// nn.Embedding(padding_idx=...), whose row gets no gradient. The
  /// torch.export-based exporter records it (node metadata); the
  /// TorchScript exporter does not. A name no Gather reads is an error.
  std::map<std::string, int64_t> paddingIdx;
  /// Static shapes for graph inputs with dynamic or missing dimensions (and
  /// overrides for static ones), by input name.
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// Graph inputs bound to a constant value, by input name: the path of an
  /// ONNX TensorProto (.pb) file. Such an input is no argument; ops that
  /// need a value known at import time (Reshape's shape, Pad's pads, Pow's
  /// exponent, a reduction's axes) can read it, as in ONNX's node tests,
  /// which pass these as inputs.
  std::map<std::string, std::string> constantInputs;
  /// Build a forward loss function for nn-autodiff: a label argument
  /// (`nn.role<label>`) and the loss (`nn.role<loss>`) are added. `loss` is
  /// "cross_entropy" (integer classes; a final Softmax is replaced by its
  /// logits) or an elementwise loss of f32 targets shaped like the output:
  /// "mse", "l1", "huber" (nn.mse_loss, nn.l1_loss, nn.huber_loss) or
  /// "bce_with_logits" (nn.bce_with_logits_loss; a final Sigmoid is
  /// replaced by its logits). "graph" takes the loss the graph computes:
  /// the output `lossOutput` names (default: the first; the others are
  /// left out), a float of one element (a model exported with its loss
  /// function, PyTorch's `criterion(model(x), y)`, or a Hugging Face model
  /// called with its labels), and `label` names the graph input of the
  /// targets or classes, which becomes the label argument.
  bool train = false;
  std::string loss = "cross_entropy";
  /// With `train` and the "graph" loss, the graph input that becomes the
  /// label argument; empty: the input named "labels", or none when no
  /// input is (a loss of the inputs alone: the step has no label).
  std::string label;
  /// With `train` and the "graph" loss, the graph output that is the loss;
  /// empty: the first.
  std::string lossOutput;
  /// With `train`, the cross-entropy's label smoothing in [0, 1]
  /// (PyTorch's CrossEntropyLoss(label_smoothing=...)).
  double labelSmoothing = 0.0;
  /// With `train` and the "huber" loss, its delta (finite, > 0), as
  /// PyTorch's HuberLoss(delta=...).
  double huberDelta = 1.0;
  /// With `train` and an elementwise loss, how it reduces the per-element
  /// losses: "mean" or "sum" (PyTorch's `reduction=`).
  std::string lossReduction = "mean";
  /// With `train`, BatchNormalization keeps its inference semantics: the
  /// running statistics are folded into constants and only scale and bias
  /// train (fine-tuning with frozen BatchNorm). Off (the default), it trains
  /// as PyTorch's BatchNorm in training mode: batch statistics, and running
  /// statistics that are buffers (`nn.role<buffer>`) the step updates
  /// (momentum 1 - ONNX's, unbiased variance) and the inference function
  /// normalizes with.
  bool frozenBatchNorm = false;
  /// Map the exact (erf) GELU, the Gelu op and the x*0.5*(1+erf(x/sqrt 2))
  /// pattern, onto nn.gelu, which is the tanh approximation (max abs
  /// difference about 1e-3) that a GEMM epilogue can fuse. Off: they are
  /// nn.gelu_erf, the exact GELU.
  bool approximateErfGelu = false;
  /// The directory that holds the files of tensors stored as external data
  /// (their `location`s are relative to it). importONNXFile uses the
  /// model's directory when this is empty; for importONNXBytes, empty makes
  /// such a tensor an error.
  std::string externalDataDir;
};

/// An initializer of the model whose value an argument gives: what
/// exportTrainedONNX writes back.
struct ONNXInitializerUse {
  enum class Kind {
    /// The argument's values (in the initializer's element type).
    Copy,
    /// The transpose of the [r, c] argument: an initializer that
    /// PyTorch's torch.export-based exporter folded from a param (a tied
    /// output projection).
    Transpose,
    /// The argument, viewed as `baseShape` (the initializer's rank, size 1
    /// along the repeated dims), repeated to the initializer's shape: a
    /// folded broadcast (a position embedding's rows for every row of the
    /// batch).
    Broadcast,
  };
  std::string initializer;
  Kind kind = Kind::Copy;
  std::vector<int64_t> baseShape;
};

/// The value of one param (or buffer) argument.
struct ONNXParam {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<float> values;
  /// A buffer argument (nn.role<buffer>: BatchNormalization's running
  /// statistics with `train`), not a param.
  bool buffer = false;
  /// The initializers computed from this argument: its own, and those the
  /// exporter folded from it.
  std::vector<ONNXInitializerUse> initializers;
};

/// Imports the ONNX model in the file `path` ("-": standard input, whose
/// external data needs options.externalDataDir). On failure returns null
/// after emitting diagnostics on `context`. `params`, when given, receives the
/// values of the param arguments in order, then those of the buffer
/// arguments (the order of amp-run's params files).
mlir::OwningOpRef<mlir::ModuleOp>
importONNXFile(llvm::StringRef path, const ONNXImportOptions &options,
               mlir::MLIRContext &context,
               std::vector<ONNXParam> *params = nullptr);

/// The same for the serialized model `bytes`; `sourceName` names it in
/// locations and errors.
mlir::OwningOpRef<mlir::ModuleOp>
importONNXBytes(llvm::StringRef bytes, llvm::StringRef sourceName,
                const ONNXImportOptions &options, mlir::MLIRContext &context,
                std::vector<ONNXParam> *params = nullptr);

/// Parses "x=1x3x224x224" into `options.inputShapes`; returns an error
/// message or "".
std::string parseInputShape(llvm::StringRef spec, ONNXImportOptions &options);
/// Parses "model.embed_tokens.weight=0" into `options.paddingIdx`.
std::string parsePaddingIdx(llvm::StringRef spec, ONNXImportOptions &options);
/// Parses "pads=@pads.pb" (or "pads=pads.pb") into `options.constantInputs`.
std::string parseConstantInput(llvm::StringRef spec,
                               ONNXImportOptions &options);

/// Writes `params` in amp-run's --save-params/--load-params format
/// (lib/Runner/Exec/ParamsFile.cpp); returns an error message or "".
std::string writeONNXParams(llvm::StringRef path,
                            const std::vector<ONNXParam> &params);

/// How exportTrainedONNX stores the tensors of the model it writes.
enum class ONNXExternalData {
  /// As the model it read: external data when it had some (and always when
  /// the model would pass protobuf's 2 GiB limit).
  Auto,
  /// Every tensor of 1 KiB or more in one file beside the model.
  Always,
  /// Every tensor in the model file (an error past 2 GiB).
  Never,
};

struct ONNXExportOptions {
  ONNXExternalData externalData = ONNXExternalData::Auto;
  /// Rewrite a training-mode export (PyTorch's TrainingMode.TRAINING, whose
  /// Dropout and BatchNormalization train) for inference: each
  /// BatchNormalization normalizes with its running statistics (no
  /// training_mode, no outputs but the first), each Dropout loses its
  /// training_mode input (the identity). An output so dropped that another
  /// node or the graph reads is an error.
  bool inference = false;
};

/// Writes the ONNX model of `modelPath` to `outputPath` with the values of
/// `trainedPath` in its initializers: the trained model, for ONNX Runtime or
/// any other ONNX consumer. `trainedPath` is amp-run's --save-params file
/// or a --save-checkpoint archive (its `param.N` and `buffer.N` arrays) of
/// the step that importing the model with `options` gives; its tensors must
/// be that import's params, then buffers, with their shapes. Each
/// initializer an argument gives (ONNXParam::initializers) gets the
/// argument's values in the initializer's own element type (FLOAT16 and
/// BFLOAT16 rounded to nearest even); every other part of the model is
/// written as it was read, but for `exportOptions.inference`. With external
/// data the tensors go to the file `<output's file name>.data` beside it.
/// `list`, when given, receives a line per initializer written and where
/// its value came from. Errors are diagnostics on `context`.
mlir::LogicalResult exportTrainedONNX(llvm::StringRef modelPath,
                                      const ONNXImportOptions &options,
                                      llvm::StringRef trainedPath,
                                      llvm::StringRef outputPath,
                                      const ONNXExportOptions &exportOptions,
                                      mlir::MLIRContext &context,
                                      llvm::raw_ostream *list = nullptr);

/// Reads an ONNX TensorProto file (.pb, as in ONNX's node tests) into a
/// host array: FLOAT (and DOUBLE, read as FLOAT) as f32, INT32, INT64, and
/// BOOL as i1 (one byte per element), row-major. Any other element type,
/// external data, or data whose size does not match the dims is an error
/// naming the file.
runner::StatusOr<runner::HostArray> readONNXTensorFile(llvm::StringRef path);
/// The same for the file's bytes; `name` names it in errors.
runner::StatusOr<runner::HostArray> parseONNXTensor(llvm::StringRef bytes,
                                                    llvm::StringRef name);

/// Registers the dialects the imported module uses.
void registerONNXImportDialects(mlir::DialectRegistry &registry);

} // namespace amp

#endif // AMP_IMPORT_ONNX_H
