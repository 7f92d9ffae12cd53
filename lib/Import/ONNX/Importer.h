//===- Importer.h - the ONNX importer's internal interfaces -----*- C++ -*-===//
//
// The pieces of lib/Import/ONNX, one file per concept:
//   ModelLoader.cpp   parse and validate the ModelProto, the opset;
//   OpsetUpgrade.cpp  models of opsets older than kMinOpset, through
//                     ONNX's checker and version converter;
//   ExternalData.cpp  tensors whose bytes are in files beside the model;
//   Tensors.cpp       TensorProto data, compile-time constants;
//   ValueTable.cpp    ONNX value names -> tensors (SSA value and/or
//                     constant), materialization of constants and params;
//   NodeContext.cpp   what an op importer sees of its node: inputs,
//                     attributes, results, op creation with checks;
//   Importer.cpp      the graph walk, the function, roles, --train;
//   Formula.h         nn computations built step by step at a node;
//   Ops*.cpp          the op importers, one file per op family, each
//                     registering its ops in the table keyed by op type.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_IMPORT_ONNX_IMPORTER_H
#define AMP_LIB_IMPORT_ONNX_IMPORTER_H

#include "amp/Import/ONNX.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <onnx/onnx_pb.h>

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace amp::nn {
enum class ComparePredicate : uint32_t;
} // namespace amp::nn

namespace amp::onnx_import {

using mlir::FailureOr;
using mlir::Location;
using mlir::LogicalResult;
using mlir::Value;

//===----------------------------------------------------------------------===//
// Model loading (ModelLoader.cpp)
//===----------------------------------------------------------------------===//

/// The oldest opset of the default domain the op importers implement.
constexpr int64_t kMinOpset = 9;

/// Parses `bytes` into `model` and checks what the importer relies on: a
/// graph, the default domain's opset (any version from 1). Returns an error
/// message or "".
std::string loadModel(llvm::StringRef bytes, onnx::ModelProto &model,
                      int64_t &opset);

/// A model of an opset older than kMinOpset (PyTorch's exporter of 2018
/// wrote opset 6) is checked with ONNX's checker and brought up to
/// kMinOpset with ONNX's version converter (libonnx), which rewrites the
/// nodes whose semantics changed (Gemm's `broadcast`, BatchNormalization's
/// `spatial`, Upsample's scales, ...); the binary ops' broadcasts of opset 6
/// and older, which it mishandles, are made numpy's first. `opset` becomes
/// kMinOpset. A newer model is left as it is. Returns an error message (the
/// checker's or the converter's) or "".
std::string upgradeOpset(onnx::ModelProto &model, int64_t &opset);

/// Moves the bytes of every tensor of `model`'s graph stored as external
/// data (initializers, tensor attributes) into its raw_data, reading the
/// files relative to `modelDir` (ExternalData.cpp); with an empty
/// `modelDir` such a tensor is an error. Returns an error message or "".
std::string loadExternalData(onnx::ModelProto &model, llvm::StringRef modelDir);

/// "FLOAT", "INT64", ... for messages.
std::string dataTypeName(int32_t dtype);

/// The attribute `name` of `node`, or null.
const onnx::AttributeProto *findAttribute(const onnx::NodeProto &node,
                                          llvm::StringRef name);

/// The metadata_props fields (Metadata.cpp): ValueInfoProto's, GraphProto's
/// and NodeProto's.
constexpr int kValueInfoMetadataField = 4;
constexpr int kGraphMetadataField = 16;
constexpr int kNodeMetadataField = 9;

/// The metadata entries (field `fieldNumber`) of `message`, from the field
/// when the generated class has it, else from the unknown fields.
std::vector<onnx::StringStringEntryProto>
metadataEntries(const google::protobuf::Message &message, int fieldNumber);
/// The value of the entry `key` among them, if any.
std::optional<std::string>
metadataValue(const google::protobuf::Message &message, int fieldNumber,
              llvm::StringRef key);

/// What the torch.export-based exporter folded each initializer of `graph`
/// from (its value_info's folded_from metadata), for the initializers that
/// have it (Frozen.cpp).
using FoldedSources = llvm::StringMap<std::vector<std::string>>;
FoldedSources foldedSources(const onnx::GraphProto &graph);

/// The initializers of `graph` that import as constants for the --frozen
/// names `frozen`: those named, and those folded from a named value.
/// `unmatched` receives a name that matches neither, if any.
llvm::StringSet<> frozenInitializers(const onnx::GraphProto &graph,
                                     const FoldedSources &folded,
                                     llvm::ArrayRef<std::string> frozen,
                                     std::string &unmatched);
/// The module values that torch.export's metadata names, by kind: the
/// initializers marked so (`pkg.torch.export.graph_signature.InputSpec.kind`)
/// and the targets of the exported program's signature in the graph's
/// metadata (`pkg.torch.export.ExportedProgram.graph_signature`), which
/// also names those the exporter folded away.
struct ModuleValues {
  /// Whether the graph holds the signature: then `parameters` are all of
  /// PyTorch's module's parameters.
  bool fromSignature = false;
  llvm::StringSet<> parameters, buffers;
  /// CONSTANT_TENSOR: plain tensor attributes, tensors built in forward.
  llvm::StringSet<> tensorConstants;
};
ModuleValues moduleValues(const onnx::GraphProto &graph);
/// Whether `name` is one of `parameters` or was folded (directly or
/// through other folded initializers) from one.
bool foldedFromParameter(llvm::StringRef name, const FoldedSources &folded,
                         const llvm::StringSet<> &parameters);
/// Whether `name` is named like a weight: `weight`, `bias`, `proj` or
/// `projection` at the end, or `weight_`, `bias_` at the start of its own
/// name (after the last dot).
bool isWeightName(llvm::StringRef name);
/// Whether `name` is named as a module's parameter: a dotted name, or one
/// named like a weight.
bool isParameterName(llvm::StringRef name);
/// Whether `name` is the TorchScript exporter's name of a parameter it
/// folded, `onnx::<Op>_<n>`: a Linear's weight transposed for a MatMul.
bool isFoldedParameterName(llvm::StringRef name);
/// Whether `name` is the name PyTorch's exporters give a parameter or
/// buffer of the module: a dotted module path (`m.logit_scale`), or, when
/// `bareToo` (a TorchScript export, which names every other initializer
/// `onnx::<Op>_<n>`), a root module's (`logit_scale`). Never one with a
/// `/` or `:` (other producers' and the TorchScript exporter's values) nor
/// torch.export's lifted constants (`lifted_tensor_0`).
bool isModuleStateName(llvm::StringRef name, bool bareToo);
/// Whether `a` and `b`, names of nodes the TorchScript exporter scoped by
/// module path (`/m/encoder/layer/query/MatMul`), are nodes of the same
/// module: the same path once the `_<n>` it adds to a module called again
/// is dropped (`.../query_1/MatMul` is the second call of `query`;
/// `/enc/layers.1/...` is another module than `/enc/layers.0/...`).
bool sameModuleCalledAgain(llvm::StringRef a, llvm::StringRef b);
/// Whether `sources` (what an initializer was folded from) name a value
/// named like a weight, or one of `parameters` (the exported program's).
bool foldedFromWeight(llvm::ArrayRef<std::string> sources,
                      const llvm::StringSet<> &parameters = {});
/// The first of `sources` (what an initializer was folded from) that is a
/// value of the module (isModuleStateName, a root's too) and no value the
/// exported graph computed, or null.
const std::string *foldedFromModuleState(llvm::ArrayRef<std::string> sources);
/// Whether `sources` (what an initializer was folded from) name no module
/// value: no dotted name and none named like a weight (`weight`, `bias`
/// at the end, or `weight_`, `bias_` at the start of its own name), only
/// the exporter's own values (`val_12`, `zeros`).
bool foldedFromNoModuleValue(llvm::ArrayRef<std::string> sources);
/// Whether an initializer was folded only from values the exported graph
/// computed in the forward: onnxscript's (`val_12`) and torch.export's
/// nodes named for the aten ops that build constants (`linspace`,
/// `ones`, `add_1`): a constant of the model (an affine grid's base
/// positions, a causal mask), not a parameter, which would appear among
/// the sources by its own name (`logit_scale`).
bool foldedFromComputedValues(llvm::ArrayRef<std::string> sources);
/// For each initializer that was folded from a value
/// named like a module's buffer (a dotted name not named like a weight: a
/// rotary embedding's `inv_freq`) and from no value named like a weight or
/// in `parameters` (the exported program's), that name: a hint that the
/// initializer is no weight.
llvm::StringMap<std::string>
foldedFromBuffers(const FoldedSources &folded,
                  const llvm::StringSet<> &parameters);

//===----------------------------------------------------------------------===//
// Compile-time constants (Tensors.cpp)
//===----------------------------------------------------------------------===//

/// `v` as int64: truncated toward zero, saturated at the int64 range, NaN
/// as INT64_MIN (which every size, axis and index check rejects). Float
/// constants read as integers, and integer arithmetic folded in double,
/// convert through this: a plain cast of such values is undefined.
inline int64_t toInt64(double v) {
  constexpr double kTwo63 = 9223372036854775808.0;
  if (std::isnan(v) || v < -kTwo63)
    return std::numeric_limits<int64_t>::min();
  if (v >= kTwo63)
    return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(v);
}

/// A tensor whose value is known at import time: an initializer, a
/// Constant, a folded Shape. Float data (FLOAT) is kept in `f`, integer and
/// boolean data (INT64, INT32, BOOL, ...) in `i`.
struct Const {
  int32_t dtype = onnx::TensorProto::FLOAT;
  llvm::SmallVector<int64_t> shape;
  std::vector<float> f;
  std::vector<int64_t> i;

  bool isFloat() const { return dtype == onnx::TensorProto::FLOAT; }
  int64_t numel() const;
  double at(int64_t k) const { return isFloat() ? f[k] : double(i[k]); }
  /// The values as int64 (floats through toInt64).
  std::vector<int64_t> ints() const;
};

/// The largest constant the importer computes at import time
/// (ConstantOfShape, folded shape computations, Dropout's mask), in bytes
/// of a Const's values (4 per float, 8 per integer or boolean): 256 MiB,
/// also amp-lower-to-runtime's default limit on embedded constants.
constexpr int64_t kMaxConstBytes = int64_t(256) << 20;
/// The most bytes of such constants one import computes in all, the same
/// 256 MiB, so that a chain of folds (Expand, Trilu, Equal, Where of a
/// fuzzed shape) cannot hold several of the largest at once. Real models'
/// folded constants are far smaller (a causal mask at sequence 512 is
/// 1 MiB).
constexpr int64_t kMaxFoldedBytes = kMaxConstBytes;
/// The bytes a Const holds per value of ONNX element type `dtype` (4 for
/// FLOAT, 8 for the integers and BOOL).
int64_t constValueBytes(int32_t dtype);
/// The most elements such a constant of ONNX element type `dtype` may have.
int64_t maxConstElements(int32_t dtype);
/// The element count of a constant of `shape` and `dtype`, or std::nullopt
/// when a dim is negative or the product of its non-zero dims exceeds
/// maxConstElements(dtype).
std::optional<int64_t> constElementCount(llvm::ArrayRef<int64_t> shape,
                                         int32_t dtype);

/// Reads the data of `tensor` (raw_data or the typed fields). Errors
/// (external data, an unsupported type, a size that does not match the
/// dims) are returned as a message in `error`.
std::optional<Const> readTensorProto(const onnx::TensorProto &tensor,
                                     std::string &error);
/// Gives back the memory of `tensor`'s values (whichever field holds them),
/// keeping its name, element type and dims: an initializer once read.
void releaseData(onnx::TensorProto &tensor);

/// Reads an ONNX TensorProto file (.pb) as a constant; errors name the file.
std::optional<Const> readConstFile(llvm::StringRef path, std::string &error);
/// The same for the file's bytes; `name` names it in errors.
std::optional<Const> parseConstBytes(llvm::StringRef data, llvm::StringRef name,
                                     std::string &error);

/// Whether the importer can hold this ONNX element type at all.
bool isSupportedDataType(int32_t dtype);
/// FLOAT16, BFLOAT16 and DOUBLE: the float types the importer lifts to
/// FLOAT. Every float tensor of the model becomes f32 (f16 and bf16 values
/// exactly, doubles rounded), as a model's master weights; the AMP pipeline
/// then chooses f16/bf16 where its policy allows. A Cast to FLOAT16 or
/// BFLOAT16 keeps its rounding (roundToDataType, or an amp.cast round
/// trip), which the AMP passes re-plan like any cast.
bool isLiftedFloatType(int32_t dtype);
/// INT8, INT16, UINT8 and UINT16 (lifted to INT32) and UINT32 (lifted to
/// INT64): the integer types `nn` does not hold, whose every value the
/// wider type holds exactly. The ops that can leave the narrow type's
/// range (Add, Mul, a Cast to it, ...) wrap their results back into it
/// (wrapToDataType, NodeContext::setOutput), so each value is the one the
/// narrow type's two's complement arithmetic gives.
bool isLiftedIntType(int32_t dtype);
/// The element type a value of ONNX type `dtype` has once imported: FLOAT
/// for the lifted float types, INT32 or INT64 for the lifted integer types,
/// `dtype` otherwise.
int32_t importedDataType(int32_t dtype);
/// `v` rounded to the FLOAT16 or BFLOAT16 `dtype` (to nearest even, as
/// amp.cast), as f32; `v` itself for any other type.
float roundToDataType(float v, int32_t dtype);
/// The width and signedness of an ONNX integer type (INT8 to INT64, UINT8
/// to UINT32); 0 bits for any other type.
struct IntegerLayout {
  int bits = 0;
  bool isSigned = false;
};
IntegerLayout integerLayout(int32_t dtype);
/// `v` reduced modulo 2^bits into the range of the lifted integer type
/// `dtype` (two's complement wrap-around); `v` itself for any other type.
int64_t wrapToDataType(int64_t v, int32_t dtype);
/// `n` values (`at(k)` is element k's, row-major) as a constant of `shape`
/// and of the imported type of the supported ONNX type `to`, as a Cast to
/// `to` gives them: rounded to FLOAT16 or BFLOAT16, truncated toward zero
/// and wrapped into a narrow integer type (toInt64, wrapToDataType), BOOL
/// when non-zero.
Const castValues(llvm::ArrayRef<int64_t> shape, int64_t n,
                 llvm::function_ref<double(int64_t)> at, int32_t to);
/// The MLIR element type of an ONNX element type (f32, i64, i32, i1; f32
/// for the lifted float types).
mlir::Type elementType(mlir::MLIRContext *ctx, int32_t dtype);

//===----------------------------------------------------------------------===//
// The value table (ValueTable.cpp)
//===----------------------------------------------------------------------===//

/// One ONNX value: its element type and static shape, with an SSA value,
/// a compile-time constant, or both (materialized on demand).
struct Tensor {
  int32_t dtype = onnx::TensorProto::FLOAT;
  /// The lifted type (isLiftedFloatType, isLiftedIntType) the model gives
  /// the value, whose element type here is `dtype`, or UNDEFINED: declared
  /// by a graph input, an initializer, the value of a Constant or
  /// ConstantOfShape, a Cast or EyeLike, and kept by the ops that take it
  /// (that of a node's first input of type `dtype`). CastLike casts to it.
  int32_t liftedFrom = onnx::TensorProto::UNDEFINED;
  llvm::SmallVector<int64_t> shape;
  Value value;
  std::shared_ptr<const Const> constant;
  /// A float initializer: materializes as a param argument (unless
  /// --constants, or it has one element and is no `parameter`).
  bool initializer = false;
  /// An initializer that torch.export's metadata marks as a parameter of
  /// PyTorch's module, or that it folded from one named like a weight (the
  /// single slope of an nn.PReLU() reshaped): a param even with one
  /// element.
  bool parameter = false;
  /// A float initializer that PyTorch's torch.export-based exporter folded
  /// from a param, restored as a computation on a param
  /// (restoreFoldedParams): the transpose of the initializer `derivedFrom`,
  /// or a broadcast of `base` (the value without its repeats), which is the
  /// initializer `derivedFrom` when one it was folded from holds it, else
  /// a param of its own; or the same value as `derivedFrom`, folded again
  /// from the same weights (restoreRepeatedFolds).
  enum class Derived { None, Transpose, Broadcast, Same };
  Derived derived = Derived::None;
  std::string derivedFrom;
  std::shared_ptr<const Const> base;
  /// A buffer of PyTorch's module (torch.export's metadata): it does not
  /// train, but a BatchNormalization that trains updates it
  /// (ValueTable::materializeBuffer).
  bool buffer = false;
  /// The value of a graph initializer, whether it trains or not (frozen, a
  /// buffer): what an Identity copies as a parameter of its own
  /// (importIdentity).
  bool fromInitializer = false;
  /// A sequence (SplitToSequence, SequenceConstruct): its tensors, a list
  /// known at import time; `dtype` and `liftedFrom` are theirs, `shape`
  /// the first's. No op but the sequence ops takes one (NodeContext::input).
  std::shared_ptr<const std::vector<Tensor>> sequence;
  /// The position among the graph's inputs (initializers left out), or -1.
  int graphInput = -1;
  std::string name;

  bool isFloat() const { return dtype == onnx::TensorProto::FLOAT; }
  int64_t rank() const { return shape.size(); }
  /// The ONNX element type the model declares: liftedFrom, or dtype.
  int32_t declaredType() const {
    return liftedFrom != onnx::TensorProto::UNDEFINED ? liftedFrom : dtype;
  }
};

class ValueTable {
public:
  ValueTable(mlir::OpBuilder &builder, mlir::Block &body,
             const ONNXImportOptions &options)
      : builder(builder), body(body), options(options) {}

  bool contains(llvm::StringRef name) const { return values.count(name); }
  Tensor *lookup(llvm::StringRef name);
  void define(llvm::StringRef name, Tensor tensor);

  /// The SSA value of `t`: a constant becomes `arith.constant` (a float
  /// initializer a new param argument, unless --constants; a folded param
  /// the computation on its param) at `loc`.
  Value materialize(Tensor &t, Location loc);

  /// The float initializer `t` as a new buffer argument (`nn.role<buffer>`,
  /// nn.init `init`): a running statistic of a BatchNormalization that
  /// trains. Fails (the caller reports it) when `t` is no float initializer
  /// or already has an SSA value (another node uses it).
  FailureOr<Value> materializeBuffer(Tensor &t, float init);
  /// Records `update` as the new value of the buffer argument `buffer`; the
  /// loss function returns the updates in the buffers' order.
  void setBufferUpdate(Value buffer, Value update);

  /// Counts `bytes` more of constants computed at import time; false when
  /// that passes kMaxFoldedBytes.
  bool addFoldedBytes(int64_t bytes) {
    foldedBytes += bytes;
    return foldedBytes <= kMaxFoldedBytes;
  }

  /// Outputs of the TorchScript exporter's Identity copies of a folded
  /// param (`onnx::MatMul_401 = Identity(onnx::MatMul_367)`) that the same
  /// module reads when called again (sameModuleCalledAgain): the param
  /// itself, not one of its own (importIdentity).
  llvm::StringSet<> repeatedCalls;

  /// The param arguments created so far, with their values.
  const std::vector<ONNXParam> &params() const { return paramValues; }
  const std::vector<unsigned> &paramArgs() const { return paramArgIndices; }
  /// A buffer argument: its position, nn.init, value and new value.
  struct Buffer {
    unsigned arg;
    float init;
    ONNXParam value;
    Value update;
  };
  /// The buffer arguments created so far, in argument order.
  const std::vector<Buffer> &buffers() const { return bufferArgs; }

private:
  /// A new param argument named `name` holding the FLOAT `value`, which
  /// gives the initializer `use`.
  Value addParam(llvm::StringRef name, const Const &value,
                 ONNXInitializerUse use);
  /// Records that the param or buffer argument `arg` gives the initializer
  /// `use`; nothing when `arg` is no such argument (a constant).
  void recordUse(Value arg, ONNXInitializerUse use);

  mlir::OpBuilder &builder;
  mlir::Block &body;
  const ONNXImportOptions &options;
  llvm::StringMap<Tensor> values;
  std::vector<ONNXParam> paramValues;
  std::vector<unsigned> paramArgIndices;
  int64_t foldedBytes = 0;
  std::vector<Buffer> bufferArgs;
};

/// Marks the float initializers of `table` that `folded` lists as folded
/// and whose value shows how they derive from a param (the transpose of
/// one of their sources, a broadcast) as such (FoldedParams.cpp).
void restoreFoldedParams(ValueTable &table, const FoldedSources &folded);
/// Marks each float initializer that `folded` lists as folded from the same
/// values, one named like a weight among them, as an earlier initializer of
/// `graph` with the same values (bitwise): the same param (the
/// torch.export-based exporter folds a weight's transpose at each call of
/// its module, twice for an ALBERT's shared layer) (FoldedParams.cpp).
void restoreRepeatedFolds(ValueTable &table, const onnx::GraphProto &graph,
                          const FoldedSources &folded);
/// Marks the output projections that PyTorch's TorchScript exporter folded
/// from a tied embedding (it writes no metadata) as its transpose: a 2-D
/// float initializer it named `onnx::...` whose values are bitwise the
/// transpose of a table that a Gather of `graph` reads, not all equal
/// (FoldedParams.cpp).
void restoreTiedEmbeddings(ValueTable &table, const onnx::GraphProto &graph);

//===----------------------------------------------------------------------===//
// What an op importer sees (NodeContext.cpp)
//===----------------------------------------------------------------------===//

class NodeContext {
public:
  NodeContext(const onnx::NodeProto &node, llvm::StringRef displayName,
              Location loc, int64_t opset, int64_t sourceOpset,
              ValueTable &table, mlir::OpBuilder &builder,
              const ONNXImportOptions &options)
      : node(node), displayName(displayName.str()), loc(loc), opset(opset),
        sourceOpset(sourceOpset), table(table), builder(builder),
        options(options) {}

  const onnx::NodeProto &node;
  std::string displayName;
  Location loc;
  /// The opset whose semantics the node has (kMinOpset or newer).
  int64_t opset;
  /// The opset the model was written at: older than `opset` when
  /// upgradeOpset brought it up (the few semantics the version converter
  /// leaves as they were, PRelu-6's per-channel slope).
  int64_t sourceOpset;
  ValueTable &table;
  mlir::OpBuilder &builder;
  const ONNXImportOptions &options;

  mlir::MLIRContext *ctx() const { return builder.getContext(); }

  /// An error at the node; the graph walk prefixes it with the node's
  /// name and op type.
  mlir::InFlightDiagnostic error() const { return mlir::emitError(loc); }

  // Inputs. An input named "" is an omitted optional input.
  unsigned numInputs() const { return node.input_size(); }
  bool hasInput(unsigned i) const {
    return i < unsigned(node.input_size()) && !node.input(i).empty();
  }
  /// Input `i`, which must be present and a tensor (an error otherwise).
  FailureOr<Tensor *> input(unsigned i);
  /// Input `i`, which must be a sequence: its tensors.
  FailureOr<const std::vector<Tensor> *> sequenceInput(unsigned i);
  /// Input `i` as an SSA float tensor.
  FailureOr<Value> floatValue(unsigned i);
  /// Input `i` as an SSA tensor of FLOAT, INT64 or INT32 (the element types
  /// of nn's arithmetic).
  FailureOr<Value> numericValue(unsigned i);
  /// Input `i` as an SSA value of any type.
  FailureOr<Value> anyValue(unsigned i);
  /// Input `i`, which must be known at import time; `what` says what it is
  /// ("the shape") in the error, and `why`, when given, why it must be.
  FailureOr<const Const *> constInput(unsigned i, llvm::StringRef what,
                                      llvm::StringRef why = {});
  /// constInput, which must hold one element (of any rank).
  FailureOr<const Const *> scalarInput(unsigned i, llvm::StringRef what);
  /// Warns, naming --param, when input `i`, which the op reads as a weight
  /// (`what`: "slope", "bias"), is a float initializer of one element that
  /// will import as a constant of the model: nothing shows whether it is
  /// a weight (nn.PReLU()'s single slope as the TorchScript exporter folds
  /// it) or a constant.
  void warnOneElementWeight(unsigned i, llvm::StringRef what);

  // Attributes.
  const onnx::AttributeProto *attr(llvm::StringRef name) const;
  FailureOr<int64_t> intAttr(llvm::StringRef name, int64_t dflt) const;
  FailureOr<float> floatAttr(llvm::StringRef name, float dflt) const;
  FailureOr<std::string> stringAttr(llvm::StringRef name,
                                    llvm::StringRef dflt) const;
  /// A list of ints, std::nullopt when absent.
  FailureOr<std::optional<llvm::SmallVector<int64_t>>>
  intsAttr(llvm::StringRef name) const;
  /// A list of floats, std::nullopt when absent.
  FailureOr<std::optional<llvm::SmallVector<float>>>
  floatsAttr(llvm::StringRef name) const;
  /// A list of strings, std::nullopt when absent.
  FailureOr<std::optional<llvm::SmallVector<std::string>>>
  stringsAttr(llvm::StringRef name) const;
  /// An axis in [-rank, rank), normalized to [0, rank).
  FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank,
                                   llvm::StringRef what) const;

  // Results.
  unsigned numOutputs() const { return node.output_size(); }
  bool hasOutput(unsigned i) const {
    return i < unsigned(node.output_size()) && !node.output(i).empty();
  }
  /// Defines output `i` as the SSA value `v` (a ranked tensor).
  LogicalResult setOutput(unsigned i, Value v);
  /// Defines output `i` as a compile-time constant.
  LogicalResult setOutput(unsigned i, Const c);
  /// Defines output `i` as the tensor `t` (e.g. an input, for Identity).
  LogicalResult setOutput(unsigned i, const Tensor &t);
  /// The lifted type (Tensor::liftedFrom) output `i`, of element type
  /// `dtype`, keeps: that of the node's first input of type `dtype`, else
  /// (and for the indices of ArgMax, ArgMin and TopK, and Shape and Size)
  /// UNDEFINED.
  int32_t outputLiftedFrom(unsigned i, int32_t dtype) const;
  /// Gives the defined output `i` the ONNX element type `type` (a Cast's
  /// `to`, an index's INT64) as the model declares it.
  void declareType(unsigned i, int32_t type);
  /// Whether the op type's integer results may leave the range of their
  /// operands' type (Add, Mul, ...): setOutput wraps those of a lifted
  /// integer type (wrapToType, wrapToDataType).
  static bool leavesTypeRange(llvm::StringRef opType);
  /// The integer `v` reduced into the range of the lifted integer type
  /// `type`, as that type's two's complement arithmetic wraps.
  FailureOr<Value> wrapToType(Value v, int32_t type);

  /// Creates an op whose result types it infers (InferTypeOpInterface),
  /// checks it with the verifier and returns its results; an inference or
  /// verifier failure is an error at the node, never an assertion.
  FailureOr<mlir::ValueRange> create(llvm::StringRef opName,
                                     mlir::ValueRange operands,
                                     llvm::ArrayRef<mlir::NamedAttribute> attrs,
                                     unsigned numResults = 1);
  /// The same with the result types given (reshape, slice, broadcast_to).
  FailureOr<mlir::ValueRange>
  createTyped(llvm::StringRef opName, mlir::TypeRange resultTypes,
              mlir::ValueRange operands,
              llvm::ArrayRef<mlir::NamedAttribute> attrs);
  template <typename OpTy>
  FailureOr<Value> create(mlir::ValueRange operands,
                          llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
    FailureOr<mlir::ValueRange> r =
        create(OpTy::getOperationName(), operands, attrs, 1);
    if (mlir::failed(r))
      return mlir::failure();
    return (*r)[0];
  }
  template <typename OpTy>
  FailureOr<Value>
  createTyped(mlir::Type type, mlir::ValueRange operands,
              llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
    FailureOr<mlir::ValueRange> r =
        createTyped(OpTy::getOperationName(), type, operands, attrs);
    if (mlir::failed(r))
      return mlir::failure();
    return (*r)[0];
  }

  // Helpers shared by the op families.
  /// An f32 `arith.constant` of `shape` filled with `value`.
  Value splat(llvm::ArrayRef<int64_t> shape, float value);
  /// A 0-d integer `arith.constant` of `elementType` (i32, i64) holding `v`.
  Value intScalar(mlir::Type elementType, int64_t v) {
    return intSplat(elementType, {}, v);
  }
  /// An integer `arith.constant` of `elementType` (i1, i32, i64) and
  /// `shape` filled with `v` (truncated to the width).
  Value intSplat(mlir::Type elementType, llvm::ArrayRef<int64_t> shape,
                 int64_t v);
  /// An f32 `arith.constant` of `shape` holding `values` (row-major); its
  /// bytes must have been reserved.
  Value constant(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<float> values);
  /// An i64 `arith.constant` of `shape` holding `values` (row-major): ids,
  /// positions.
  Value constant(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> values);
  /// Counts `bytes` of constants this node computes against the import's
  /// budget (kMaxFoldedBytes); an error once it is spent.
  LogicalResult reserveFoldedBytes(int64_t bytes);
  /// nn.convert of `v` to the element type `elt`.
  FailureOr<Value> convert(Value v, mlir::Type elt);
  /// nn.reshape of `v` to `shape` (nothing when it already has it).
  FailureOr<Value> reshape(Value v, llvm::ArrayRef<int64_t> shape);
  /// nn.slice of `v` from `offsets` with `sizes` and `strides` (default:
  /// unit strides; nothing when it takes all of `v` in its order).
  FailureOr<Value> slice(Value v, llvm::ArrayRef<int64_t> offsets,
                         llvm::ArrayRef<int64_t> sizes,
                         llvm::ArrayRef<int64_t> strides = {});
  mlir::NamedAttribute named(llvm::StringRef name, mlir::Attribute a) const {
    return builder.getNamedAttr(name, a);
  }
  /// nn.compare's `predicate` attribute.
  mlir::NamedAttribute predicate(nn::ComparePredicate p) const;
  /// `amp.precision = f32`: pins an op to f32 whatever the AMP policy (a
  /// transform or window sum whose values f16 cannot hold).
  mlir::NamedAttribute pinnedF32() const;
  mlir::Attribute i64Array(llvm::ArrayRef<int64_t> v) const {
    return builder.getDenseI64ArrayAttr(v);
  }
};

/// Shape of a ranked tensor value.
llvm::SmallVector<int64_t> shapeOf(Value v);

//===----------------------------------------------------------------------===//
// How an embedding lookup's gradient goes (EmbeddingGradient.cpp)
//===----------------------------------------------------------------------===//

/// nn.embedding's padding_idx and scale_grad_by_freq.
struct EmbeddingGradient {
  std::optional<int64_t> paddingIdx;
  bool scaleGradByFreq = false;
};

/// The gradient of the row lookup a Gather node does in its float data
/// `table` along axis 0: the padding row is --padding-idx's for the value
/// the node reads, else the one PyTorch's torch.export-based exporter
/// recorded for the aten.embedding the node was translated from (its
/// `pkg.torch.onnx.fx_node` metadata), which also says scale_grad_by_freq.
/// A plain lookup otherwise. Fails, with an error at the node, for a row
/// outside the table, a --padding-idx table that is no float, and metadata
/// that cannot be read.
FailureOr<EmbeddingGradient>
embeddingGradient(NodeContext &nc, const Tensor &table, int64_t axis);
/// Checks that a Gather of `graph` looks up rows (axis 0) of each
/// --padding-idx name (embeddingGradient checks the row against the
/// table). Returns an error message or "".
std::string checkPaddingIdxNames(const onnx::GraphProto &graph,
                                 const ONNXImportOptions &options);

//===----------------------------------------------------------------------===//
// The op table (Ops*.cpp)
//===----------------------------------------------------------------------===//

using ImportFn = LogicalResult (*)(NodeContext &);

struct OpImporter {
  ImportFn fn = nullptr;
  /// The attributes the importer reads; any other attribute on the node is
  /// an error, so that no attribute is silently ignored.
  std::vector<std::string> attributes;
};

using OpTable = llvm::StringMap<OpImporter>;

void registerElementwiseOps(OpTable &table);
void registerActivationOps(OpTable &table);
void registerRecurrentOps(OpTable &table);
void registerResizeOps(OpTable &table);
void registerGridSampleOps(OpTable &table);
void registerEinsumOps(OpTable &table);
void registerLogicalOps(OpTable &table);
void registerLossOps(OpTable &table);
void registerLinearOps(OpTable &table);
void registerConvPoolOps(OpTable &table);
void registerDFTOps(OpTable &table);
void registerWindowOps(OpTable &table);
void registerNormOps(OpTable &table);
void registerReduceOps(OpTable &table);
void registerShapeOps(OpTable &table);
void registerGatherOps(OpTable &table);
void registerScatterOps(OpTable &table);
void registerAttentionOps(OpTable &table);

/// Every op importer, keyed by op type (built once).
const OpTable &getOpTable();

} // namespace amp::onnx_import

#endif // AMP_LIB_IMPORT_ONNX_IMPORTER_H
