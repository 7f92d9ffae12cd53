//===- Importer.cpp - the ONNX graph walk and the imported function -------===//
//
// Builds one func.func from the graph: graph inputs are `nn.role<input>`
// arguments, float initializers `nn.role<param>` arguments (in order of first
// use) or constants, each node is imported by the op importer of its type
// (the table of Ops*.cpp) at a NameLoc with the node's name, and the graph
// outputs are the results. Errors name the node, its op type and what is
// missing, once.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "amp_runtime/checked_size.h"

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/NN/IR/NNDialect.h"
#include "amp/Dialect/NN/IR/NNOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/StringSet.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <cmath>
#include <map>
#include <set>

using namespace amp;
using namespace amp::onnx_import;
using namespace mlir;

const OpTable &amp::onnx_import::getOpTable() {
  static const OpTable table = [] {
    OpTable t;
    registerElementwiseOps(t);
    registerActivationOps(t);
    registerResizeOps(t);
    registerGridSampleOps(t);
    registerEinsumOps(t);
    registerLogicalOps(t);
    registerLossOps(t);
    registerLinearOps(t);
    registerConvPoolOps(t);
    registerDFTOps(t);
    registerWindowOps(t);
    registerNormOps(t);
    registerReduceOps(t);
    registerShapeOps(t);
    registerGatherOps(t);
    registerScatterOps(t);
    registerAttentionOps(t);
    registerRecurrentOps(t);
    return t;
  }();
  return table;
}

void amp::registerONNXImportDialects(DialectRegistry &registry) {
  registry.insert<nn::NNDialect, func::FuncDialect, arith::ArithDialect>();
}

/// The name of --train's label argument, and of the graph input that is it.
static constexpr llvm::StringLiteral kLabelsName = "labels";
/// --loss of a graph that computes its own loss.
static constexpr llvm::StringLiteral kGraphLoss = "graph";

namespace {
class GraphImporter {
public:
  /// The initializers' data in `model` is released as it is read.
  GraphImporter(onnx::ModelProto &model, int64_t opset, int64_t sourceOpset,
                llvm::StringRef sourceName, const ONNXImportOptions &options,
                MLIRContext &context)
      : model(model), graph(model.graph()), opset(opset),
        sourceOpset(sourceOpset), options(options), ctx(&context),
        builder(&context),
        fileLoc(FileLineColLoc::get(&context, sourceName, 0, 0)),
        body(new Block), table(builder, *body, options) {}
  ~GraphImporter() {
    if (body)
      delete body;
  }

  OwningOpRef<ModuleOp> run(std::vector<ONNXParam> *params);

private:
  LogicalResult importInitializers();
  LogicalResult importInputs();
  LogicalResult importNode(const onnx::NodeProto &node, int index);
  LogicalResult findFinalActivation(llvm::StringRef opType);
  /// The argument of the graph input named `name`, or -1.
  int findInput(llvm::StringRef name);
  /// With --train: the argument of the graph input named `labels` (Hugging
  /// Face's encoder-decoders take their labels as an input), -1 when there
  /// is none; an error when it is no integer tensor of the labels' `shape`.
  FailureOr<int> findLabelInput(llvm::ArrayRef<int64_t> shape);
  /// --train --loss graph: the graph input that --label names (or the one
  /// named "labels"), which becomes the label argument; -1 when --label is
  /// not given and no input is named "labels" (a self-supervised loss).
  FailureOr<int> findNamedLabelInput();
  /// --train --loss graph: the graph output that --loss-output names (or
  /// the first), the loss.
  FailureOr<int> findLossOutput();
  /// --train: a new last argument `labels` of `type`; *index is its index.
  Value addLabelArgument(Type type, int *index);

  onnx::ModelProto &model;
  const onnx::GraphProto &graph;
  int64_t opset;
  int64_t sourceOpset;
  const ONNXImportOptions &options;
  MLIRContext *ctx;
  OpBuilder builder;
  Location fileLoc;
  Block *body;
  ValueTable table;
  std::vector<unsigned> inputArgs;
  /// With --train: the index of the final Softmax (cross-entropy) or
  /// Sigmoid (BCE with logits) node, whose input (the logits) replaces its
  /// output.
  int finalActivation = -1;
  /// Exact (erf) GELU subgraphs, x * 0.5 * (1 + erf(x / sqrt 2)), found by
  /// findErfGelus: the node computing the result -> the pattern.
  struct ErfGelu {
    std::string x;
    std::vector<std::string> nodeNames;
    int erfNode;
  };
  std::map<int, ErfGelu> erfGelus;
  /// Nodes inside a matched pattern, imported as part of it.
  std::set<int> inErfGelu;

  void findErfGelus();
  LogicalResult importErfGelu(const onnx::NodeProto &node, const ErfGelu &gelu);
};
} // namespace

/// The value of a one-element float constant of the graph (an initializer,
/// read into `table`, or a Constant node), if `name` is one.
static std::optional<double>
scalarConstant(const onnx::GraphProto &graph, ValueTable &table,
               const std::string &name,
               const std::map<std::string, int> &producer) {
  if (Tensor *t = table.lookup(name)) {
    if (t->constant && t->constant->numel() == 1)
      return t->constant->at(0);
    return std::nullopt;
  }
  auto it = producer.find(name);
  if (it == producer.end())
    return std::nullopt;
  const onnx::NodeProto &node = graph.node(it->second);
  if (node.op_type() != "Constant" || node.attribute_size() != 1)
    return std::nullopt;
  const onnx::AttributeProto &a = node.attribute(0);
  if (a.name() == "value_float")
    return a.f();
  if (a.name() == "value") {
    std::string error;
    std::optional<Const> c = readTensorProto(a.t(), error);
    if (c && c->numel() == 1)
      return c->at(0);
  }
  return std::nullopt;
}

void GraphImporter::findErfGelus() {
  std::map<std::string, int> producer;
  std::map<std::string, std::vector<int>> consumers;
  std::set<std::string> graphOutputs;
  for (const onnx::ValueInfoProto &out : graph.output())
    graphOutputs.insert(out.name());
  for (int i = 0; i < graph.node_size(); ++i) {
    for (const std::string &out : graph.node(i).output())
      producer[out] = i;
    for (const std::string &in : graph.node(i).input())
      consumers[in].push_back(i);
  }
  auto near = [](std::optional<double> v, double want) {
    return v && std::abs(*v - want) < 1e-4 * want;
  };
  // The one node reading `value`, which must be internal to the pattern.
  auto soleConsumer = [&](const std::string &value) -> int {
    auto it = consumers.find(value);
    if (value.empty() || graphOutputs.count(value) || it == consumers.end() ||
        it->second.size() != 1)
      return -1;
    return it->second[0];
  };
  // For a binary node: the input other than `operand`, or "".
  auto other = [](const onnx::NodeProto &n, const std::string &operand) {
    if (n.input_size() != 2)
      return std::string();
    if (n.input(0) == operand)
      return n.input(1);
    return n.input(1) == operand ? n.input(0) : std::string();
  };
  // The one output of node `i`, or "" (which has no consumer).
  auto outputOf = [&](int i) {
    const onnx::NodeProto &n = graph.node(i);
    return n.output_size() == 1 ? n.output(0) : std::string();
  };
  auto nameOf = [&](int i) {
    const onnx::NodeProto &n = graph.node(i);
    return n.name().empty() ? n.op_type() + "_" + std::to_string(i) : n.name();
  };
  for (int e = 0; e < graph.node_size(); ++e) {
    const onnx::NodeProto &erf = graph.node(e);
    if (erf.op_type() != "Erf" || erf.input_size() != 1 ||
        erf.output_size() != 1 || !producer.count(erf.input(0)))
      continue;
    // x / sqrt(2) or x * (1 / sqrt(2)).
    int p = producer[erf.input(0)];
    const onnx::NodeProto &scale = graph.node(p);
    if (soleConsumer(erf.input(0)) != e || scale.input_size() != 2)
      continue;
    std::string x;
    if (scale.op_type() == "Div" &&
        near(scalarConstant(graph, table, scale.input(1), producer), M_SQRT2))
      x = scale.input(0);
    else if (scale.op_type() == "Mul")
      for (int k : {0, 1})
        if (near(scalarConstant(graph, table, scale.input(1 - k), producer),
                 M_SQRT1_2))
          x = scale.input(k);
    if (x.empty())
      continue;
    // 1 + erf(...)
    int a = soleConsumer(erf.output(0));
    if (a < 0 || graph.node(a).op_type() != "Add" ||
        !near(scalarConstant(graph, table, other(graph.node(a), erf.output(0)),
                             producer),
              1.0))
      continue;
    // (1 + erf) * x, then * 0.5; (1 + erf) * (x * 0.5); or (1 + erf) * 0.5,
    // then * x (PyTorch's torch.export-based exporter).
    int m1 = soleConsumer(outputOf(a));
    if (m1 < 0 || graph.node(m1).op_type() != "Mul")
      continue;
    std::string factor = other(graph.node(m1), outputOf(a));
    std::vector<int> nodes = {p, e, a, m1};
    int result = -1;
    if (factor == x) {
      int m2 = soleConsumer(outputOf(m1));
      if (m2 >= 0 && graph.node(m2).op_type() == "Mul" &&
          near(scalarConstant(graph, table, other(graph.node(m2), outputOf(m1)),
                              producer),
               0.5)) {
        nodes.push_back(m2);
        result = m2;
      }
    } else if (near(scalarConstant(graph, table, factor, producer), 0.5)) {
      int m2 = soleConsumer(outputOf(m1));
      if (m2 >= 0 && graph.node(m2).op_type() == "Mul" &&
          other(graph.node(m2), outputOf(m1)) == x) {
        nodes.push_back(m2);
        result = m2;
      }
    } else if (producer.count(factor)) {
      int h = producer[factor];
      const onnx::NodeProto &half = graph.node(h);
      if (half.op_type() == "Mul" && soleConsumer(factor) == m1 &&
          near(scalarConstant(graph, table, other(half, x), producer), 0.5)) {
        nodes.insert(nodes.begin(), h);
        result = m1;
      }
    }
    if (result < 0)
      continue;
    ErfGelu gelu{x, {}, e};
    std::sort(nodes.begin(), nodes.end());
    for (int n : nodes) {
      gelu.nodeNames.push_back(nameOf(n));
      if (n != result)
        inErfGelu.insert(n);
    }
    erfGelus[result] = gelu;
  }
}

LogicalResult GraphImporter::importErfGelu(const onnx::NodeProto &node,
                                           const ErfGelu &gelu) {
  llvm::SmallVector<Location> locs;
  for (const std::string &n : gelu.nodeNames)
    locs.push_back(NameLoc::get(builder.getStringAttr(n)));
  Location loc = FusedLoc::get(ctx, locs);
  Tensor *x = table.lookup(gelu.x);
  if (!x || !x->isFloat())
    return emitError(loc) << "the GELU's input '" << gelu.x
                          << "' is not a FLOAT tensor";
  Value in = table.materialize(*x, loc);
  Value out =
      options.approximateErfGelu
          ? nn::GeluOp::create(builder, loc, in.getType(), in).getResult()
          : nn::GeluErfOp::create(builder, loc, in.getType(), in).getResult();
  NodeContext nc(node, node.name(), loc, opset, sourceOpset, table, builder,
                 options);
  return nc.setOutput(0, out);
}

LogicalResult GraphImporter::importInitializers() {
  if (graph.sparse_initializer_size() > 0)
    return emitError(fileLoc) << "sparse initializer '"
                              << graph.sparse_initializer(0).values().name()
                              << "' is not supported";
  FoldedSources folded = foldedSources(graph);
  // A --frozen name may be an Identity's copy of an initializer, a param
  // of its own (importIdentity), which that Identity freezes.
  llvm::StringMap<const onnx::TensorProto *> initializers;
  for (const onnx::TensorProto &init : graph.initializer())
    initializers[init.name()] = &init;
  llvm::StringSet<> copies;
  // The first node other than an Identity that reads each value.
  llvm::StringMap<llvm::StringRef> reader;
  for (const onnx::NodeProto &node : graph.node())
    if (node.op_type() != "Identity")
      for (const std::string &in : node.input())
        reader.try_emplace(in, node.name());
  for (const onnx::NodeProto &node : graph.node()) {
    if (node.op_type() != "Identity" || node.input_size() != 1 ||
        node.output_size() != 1 || !initializers.contains(node.input(0)))
      continue;
    // The TorchScript exporter folds a weight's transpose at each call of
    // its module, and writes the equal folds of a module called again (an
    // ALBERT's shared layer) as Identity copies, read by the same module:
    // the same param, which trains once.
    if (isFoldedParameterName(node.output(0)) &&
        sameModuleCalledAgain(reader.lookup(node.output(0)),
                              reader.lookup(node.input(0)))) {
      table.repeatedCalls.insert(node.output(0));
      continue;
    }
    if (isParameterName(node.output(0)) ||
        isFoldedParameterName(node.output(0)))
      copies.insert(node.output(0));
  }
  std::vector<std::string> frozenNames;
  for (const std::string &name : options.frozen)
    if (!copies.contains(name))
      frozenNames.push_back(name);
  std::string unmatched;
  llvm::StringSet<> frozen =
      frozenInitializers(graph, folded, frozenNames, unmatched);
  if (!unmatched.empty())
    return emitError(fileLoc)
           << "--frozen '" << unmatched
           << "' names no initializer of the graph (nor a value the "
              "torch.export-based exporter folded into one)";
  // PyTorch's buffers and tensor constants, and what the exporter folded
  // from them and from no parameter, do not train (a parameter gathered at
  // a buffer's positions, a position embedding's rows at `position_ids`,
  // is that parameter's rows); nor does what it folded from a value the
  // graph computes at run time, which only that value's shape can have gone
  // into (zeros_like of an activation): no weight.
  const ModuleValues values = moduleValues(graph);
  const llvm::StringSet<> &buffers = values.buffers;
  const llvm::StringSet<> &parameters = values.parameters;
  const llvm::StringSet<> &tensorConstants = values.tensorConstants;
  for (llvm::StringRef c : tensorConstants.keys())
    frozen.insert(c);
  // With the exported program's signature, what trains is known: its
  // parameters and what was folded from them. Any other initializer (a
  // causal mask that the exporter folded from aten ops alone, a literal
  // tensor) is a constant, as in PyTorch's module.
  if (values.fromSignature)
    for (const onnx::TensorProto &init : graph.initializer())
      if (!foldedFromParameter(init.name(), folded, parameters))
        frozen.insert(init.name());
  llvm::StringSet<> computed;
  for (const onnx::NodeProto &node : graph.node())
    for (const std::string &out : node.output())
      computed.insert(out);
  for (const auto &[init, sources] : folded) {
    const bool ofParameter = foldedFromWeight(sources, parameters);
    if (llvm::any_of(sources, [&](const std::string &source) {
          return computed.contains(source) ||
                 (!ofParameter && (buffers.contains(source) ||
                                   tensorConstants.contains(source)));
        }))
      frozen.insert(init);
  }
  llvm::StringMap<std::string> bufferHints =
      foldedFromBuffers(folded, parameters);
  // The TorchScript exporter writes no metadata and names each initializer
  // that is no parameter or buffer of the module `onnx::<Op>_<n>`.
  const bool torchScript = model.producer_name() == "pytorch" &&
                           buffers.empty() && parameters.empty() &&
                           folded.empty();
  llvm::StringSet<> named(llvm::from_range, options.params);
  for (const std::string &name : options.params) {
    if (llvm::is_contained(options.frozen, name))
      return emitError(fileLoc)
             << "--param '" << name << "' is also frozen (--frozen)";
    const onnx::TensorProto *init = initializers.lookup(name);
    if (!init ||
        importedDataType(init->data_type()) != onnx::TensorProto::FLOAT)
      return emitError(fileLoc) << "--param '" << name
                                << "' names no float initializer of the graph";
  }
  if (std::string error = checkPaddingIdxNames(graph, options); !error.empty())
    return emitError(fileLoc) << error;
  for (onnx::TensorProto &init :
       *model.mutable_graph()->mutable_initializer()) {
    if (table.contains(init.name()))
      return emitError(fileLoc)
             << "initializer '" << init.name() << "' is defined twice";
    std::string error;
    std::optional<Const> c = readTensorProto(init, error);
    if (!c)
      return emitError(fileLoc)
             << "initializer '" << init.name() << "': " << error;
    // The Const holds the values from here on: the model's copy of a
    // large model's weights is given back.
    releaseData(init);
    Tensor t;
    t.dtype = c->dtype;
    if (importedDataType(init.data_type()) != init.data_type())
      t.liftedFrom = init.data_type();
    t.shape = c->shape;
    t.constant = std::make_shared<const Const>(std::move(*c));
    t.fromInitializer = true;
    // What --param names is a param, whatever the exporter said of it. A
    // frozen initializer is a constant of the model, as a Constant node's;
    // so is a buffer of PyTorch's module.
    const bool param = named.contains(init.name());
    t.buffer = buffers.contains(init.name()) && !param;
    auto sources = folded.find(init.name());
    // A param even with one element: one torch.export's metadata calls a
    // parameter or folded from a weight, or whose own name is a module's
    // weight or bias (a one-channel convolution's `conv.bias` from the
    // TorchScript exporter, which writes no metadata), or a module's value
    // that is no buffer (a CLIP's `logit_scale`, which the TorchScript
    // exporter names as a buffer's, `m.logit_scale`, or at the root
    // `logit_scale`).
    t.parameter =
        param || parameters.contains(init.name()) ||
        isWeightName(init.name()) ||
        (sources != folded.end() && foldedFromWeight(sources->second)) ||
        (sources == folded.end() &&
         isModuleStateName(init.name(), /*bareToo=*/torchScript));
    t.initializer = param || (!frozen.contains(init.name()) && !t.buffer);
    // Zeros that the exporter folded from no module value (the zero initial
    // state of a recurrent layer, zeros of a computed shape) are no weight,
    // nor is what it folded only from values the forward computed.
    if (!param && t.initializer && t.isFloat() && sources != folded.end() &&
        (foldedFromComputedValues(sources->second) ||
         (foldedFromNoModuleValue(sources->second) &&
          llvm::all_of(t.constant->f, [](float v) { return v == 0.0f; }))))
      t.initializer = false;
    table.define(init.name(), std::move(t));
  }
  restoreFoldedParams(table, folded);
  restoreRepeatedFolds(table, graph, folded);
  restoreTiedEmbeddings(table, graph);
  for (const onnx::TensorProto &init : graph.initializer()) {
    auto hint = bufferHints.find(init.name());
    const Tensor *t = table.lookup(init.name());
    // One element that torch.export's optimizer computed from a module's
    // value (`exp = m.logit_scale.exp()`): a constant, and the computation
    // is lost, so that training the folded value would not be PyTorch's.
    auto sources = folded.find(init.name());
    const std::string *state = sources == folded.end()
                                   ? nullptr
                                   : foldedFromModuleState(sources->second);
    if (state && t->initializer && !t->parameter && t->isFloat() &&
        t->constant->numel() == 1 && !options.constants)
      emitWarning(fileLoc)
          << "initializer '" << init.name()
          << "' (one element) imports as a constant of the model, but "
             "PyTorch's exporter computed it from '"
          << *state
          << "'; if that is a parameter, export with "
             "torch.onnx.export(..., optimize=False), which keeps the "
             "computation, so that it trains as PyTorch's";
    if (hint != bufferHints.end() && t->initializer && t->isFloat() &&
        t->constant->numel() > 1 && t->derived == Tensor::Derived::None &&
        !options.constants)
      emitWarning(fileLoc)
          << "initializer '" << init.name()
          << "' trains as a param of its own, but PyTorch's exporter "
             "computed it from '"
          << hint->second << "'; if that is a buffer (no weight), --frozen "
          << hint->second << " makes it a constant";
  }
  return success();
}

static std::string shapeSpelling(llvm::ArrayRef<int64_t> dims) {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? "x" : "") + std::to_string(dims[i]);
  return s.empty() ? "scalar" : s;
}

LogicalResult GraphImporter::importInputs() {
  llvm::StringSet<> inputNames;
  for (const onnx::ValueInfoProto &input : graph.input()) {
    // Before IR version 4 initializers are listed as inputs too.
    if (table.contains(input.name()))
      continue;
    inputNames.insert(input.name());
    std::string what = "graph input '" + input.name() + "'";
    auto bound = options.constantInputs.find(input.name());
    if (bound != options.constantInputs.end()) {
      std::string error;
      std::optional<Const> c = readConstFile(bound->second, error);
      int position = inputNames.size() - 1;
      if (!c)
        return emitError(fileLoc)
               << "--constant-input " << input.name() << ": " << error;
      Tensor t;
      t.dtype = c->dtype;
      t.shape = c->shape;
      t.constant = std::make_shared<const Const>(std::move(*c));
      t.graphInput = position;
      table.define(input.name(), std::move(t));
      continue;
    }
    if (!input.type().has_tensor_type())
      return emitError(fileLoc) << what << " is not a tensor";
    const onnx::TypeProto::Tensor &tt = input.type().tensor_type();
    int32_t dtype = tt.elem_type();
    if (!isSupportedDataType(dtype))
      return emitError(fileLoc)
             << what << " has element type " << dataTypeName(dtype)
             << ", which is not supported (FLOAT, FLOAT16, BFLOAT16, "
                "DOUBLE, INT64, INT32, INT16, INT8, UINT32, UINT16, UINT8, "
                "BOOL)";
    llvm::SmallVector<int64_t> shape;
    auto given = options.inputShapes.find(input.name());
    if (given != options.inputShapes.end()) {
      shape.assign(given->second.begin(), given->second.end());
      if (tt.has_shape() && tt.shape().dim_size() != int(shape.size()))
        return emitError(fileLoc)
               << what << " has rank " << tt.shape().dim_size()
               << ", but --input-shape gives " << shapeSpelling(shape);
    } else {
      std::string example = "; give its shape with --input-shape " +
                            input.name() + "=1x3x224x224";
      if (!tt.has_shape())
        return emitError(fileLoc) << what << " has no shape" << example;
      for (int d = 0; d < tt.shape().dim_size(); ++d) {
        const onnx::TensorShapeProto::Dimension &dim = tt.shape().dim(d);
        if (!dim.has_dim_value() || dim.dim_value() < 0) {
          auto diag = emitError(fileLoc)
                      << what << " has a dynamic dimension " << d;
          if (dim.has_dim_param())
            diag << " ('" << dim.dim_param() << "')";
          return diag << example;
        }
        shape.push_back(dim.dim_value());
      }
    }
    Type elt = elementType(ctx, dtype);
    // Every tensor's size fits in int64 (the nn verifiers' rule), so the
    // op importers may multiply dims of their inputs freely.
    if (!amp::checked::byteSize(shape.data(), shape.size(),
                                (elt.getIntOrFloatBitWidth() + 7) / 8))
      return emitError(fileLoc)
             << what << " has shape " << shapeSpelling(shape)
             << ", whose size in bytes does not fit in int64";
    auto type = RankedTensorType::get(shape, elt);
    Tensor t;
    t.graphInput = inputNames.size() - 1;
    t.dtype = importedDataType(dtype);
    if (t.dtype != dtype)
      t.liftedFrom = dtype;
    t.shape = shape;
    t.value = body->addArgument(
        type, NameLoc::get(builder.getStringAttr(input.name())));
    inputArgs.push_back(body->getNumArguments() - 1);
    table.define(input.name(), std::move(t));
  }
  for (const auto &given : options.inputShapes)
    if (!inputNames.contains(given.first))
      return emitError(fileLoc) << "--input-shape names '" << given.first
                                << "', which is not a graph input";
  for (const auto &given : options.constantInputs)
    if (!inputNames.contains(given.first))
      return emitError(fileLoc) << "--constant-input names '" << given.first
                                << "', which is not a graph input";
  return success();
}

LogicalResult GraphImporter::importNode(const onnx::NodeProto &node,
                                        int index) {
  std::string name = node.name().empty()
                         ? node.op_type() + "_" + std::to_string(index)
                         : node.name();
  Location loc = NameLoc::get(builder.getStringAttr(name));
  auto fail = [&]() {
    return emitError(loc) << "node '" << name << "' (" << node.op_type()
                          << "): ";
  };
  if (!node.domain().empty() && node.domain() != "ai.onnx")
    return fail() << "op domain '" << node.domain() << "' is not supported";

  NodeContext nc(node, name, loc, opset, sourceOpset, table, builder, options);
  if (inErfGelu.count(index))
    return success(); // imported with the pattern's result
  auto gelu = erfGelus.find(index);
  if (gelu != erfGelus.end())
    return importErfGelu(node, gelu->second);
  if (index == finalActivation) {
    // --train: the loss reads the logits, the Softmax's or Sigmoid's input.
    FailureOr<Tensor *> logits = nc.input(0);
    if (failed(logits))
      return failure();
    return nc.setOutput(0, **logits);
  }

  const OpTable &ops = getOpTable();
  auto it = ops.find(node.op_type());
  if (it == ops.end())
    return fail()
           << "op type '" << node.op_type()
           << "' is not supported (docs/onnx.md lists the supported ops)";
  for (const onnx::AttributeProto &a : node.attribute())
    if (!llvm::is_contained(it->second.attributes, a.name()))
      return fail() << "attribute '" << a.name() << "' is not supported";

  std::string firstError;
  LogicalResult result = failure();
  {
    // The node's first error is kept for the message below; warnings go on
    // to the caller's handler.
    ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error)
        return failure();
      if (firstError.empty())
        firstError = diag.str();
      return success();
    });
    result = it->second.fn(nc);
    if (succeeded(result))
      for (int i = 0; i < node.output_size(); ++i)
        if (!node.output(i).empty() && !table.contains(node.output(i))) {
          nc.error() << "output " << i << " ('" << node.output(i)
                     << "') is not supported";
          result = failure();
          break;
        }
  }
  if (failed(result))
    return fail() << (firstError.empty() ? std::string("cannot be imported")
                                         : firstError);
  return success();
}

int GraphImporter::findInput(llvm::StringRef name) {
  for (unsigned arg : inputArgs)
    if (auto loc = dyn_cast<NameLoc>(body->getArgument(arg).getLoc());
        loc && loc.getName() == name)
      return int(arg);
  return -1;
}

FailureOr<int> GraphImporter::findLabelInput(llvm::ArrayRef<int64_t> shape) {
  int arg = findInput(kLabelsName);
  if (arg < 0)
    return -1;
  auto type = cast<RankedTensorType>(body->getArgument(arg).getType());
  if (type.getShape() != shape || !(type.getElementType().isInteger(64) ||
                                    type.getElementType().isInteger(32)))
    return emitError(fileLoc)
               << "--train: graph input '" << kLabelsName << "' is " << type
               << "; as the model's labels it must be an INT64 or INT32 "
                  "tensor of the logits' shape without the classes ("
               << shapeSpelling(shape) << ")",
           failure();
  return arg;
}

Value GraphImporter::addLabelArgument(Type type, int *index) {
  Value labels =
      body->addArgument(type, NameLoc::get(builder.getStringAttr(kLabelsName)));
  *index = body->getNumArguments() - 1;
  return labels;
}

FailureOr<int> GraphImporter::findNamedLabelInput() {
  if (options.label.empty())
    return findInput(kLabelsName);
  if (int arg = findInput(options.label); arg >= 0)
    return arg;
  std::string names;
  for (unsigned arg : inputArgs)
    if (auto loc = dyn_cast<NameLoc>(body->getArgument(arg).getLoc()))
      names += (names.empty() ? "" : ", ") + loc.getName().str();
  return emitError(fileLoc) << "--label " << options.label
                            << " is not a graph input; its inputs are: "
                            << (names.empty() ? "none" : names),
         failure();
}

FailureOr<int> GraphImporter::findLossOutput() {
  std::string names;
  for (int i = 0; i < graph.output_size(); ++i) {
    const std::string &name = graph.output(i).name();
    if (options.lossOutput.empty() || name == options.lossOutput)
      return i;
    names += (names.empty() ? "" : ", ") + name;
  }
  auto diag = emitError(fileLoc);
  if (options.lossOutput.empty())
    diag << "--train --loss graph needs a graph output, the loss";
  else
    diag << "--loss-output " << options.lossOutput
         << " is not a graph output; its outputs are: " << names;
  return failure();
}

/// --train reads the graph's one output; a final `opType` node (empty: none)
/// is left out, so that the loss reads its input, the logits.
LogicalResult GraphImporter::findFinalActivation(llvm::StringRef opType) {
  if (graph.output_size() != 1)
    return emitError(fileLoc) << "--train needs a graph with one output (the "
                                 "predictions); this one has "
                              << graph.output_size();
  const std::string &out = graph.output(0).name();
  for (int i = graph.node_size() - 1; i >= 0; --i) {
    const onnx::NodeProto &node = graph.node(i);
    if (!llvm::is_contained(node.output(), out))
      continue;
    if (!opType.empty() && node.op_type() == opType)
      finalActivation = i;
    break;
  }
  return success();
}

OwningOpRef<ModuleOp> GraphImporter::run(std::vector<ONNXParam> *params) {
  // --loss: the cross-entropy of integer classes, or an elementwise loss of
  // f32 targets shaped like the output.
  // Or the loss the graph computes.
  const std::optional<nn::ElementwiseLossKind> elementwise =
      nn::symbolizeElementwiseLossKind(options.loss);
  const bool graphLoss = options.loss == kGraphLoss;
  if (options.train && options.loss != "cross_entropy" && !elementwise &&
      !graphLoss) {
    emitError(fileLoc) << "--loss " << options.loss
                       << " is not supported (cross_entropy, mse, l1, huber, "
                          "bce_with_logits or graph)";
    return nullptr;
  }
  if ((elementwise || graphLoss) && options.labelSmoothing != 0.0) {
    emitError(fileLoc) << "--label-smoothing needs --loss cross_entropy";
    return nullptr;
  }
  if (!options.label.empty() && !(options.train && graphLoss)) {
    emitError(fileLoc) << "--label needs --train --loss graph";
    return nullptr;
  }
  if (!options.lossOutput.empty() && !(options.train && graphLoss)) {
    emitError(fileLoc) << "--loss-output needs --train --loss graph";
    return nullptr;
  }
  const std::optional<nn::LossReduction> reduction =
      nn::symbolizeLossReduction(options.lossReduction);
  if (!reduction) {
    emitError(fileLoc) << "--loss-reduction " << options.lossReduction
                       << " is not supported (mean or sum)";
    return nullptr;
  }
  if (reduction != nn::LossReduction::Mean && !(options.train && elementwise)) {
    emitError(fileLoc) << "--loss-reduction " << options.lossReduction
                       << " needs --train and a --loss of f32 targets "
                          "(mse, l1, huber or bce_with_logits)";
    return nullptr;
  }
  if (options.huberDelta != 1.0 &&
      !(options.train && elementwise == nn::ElementwiseLossKind::Huber)) {
    emitError(fileLoc) << "--huber-delta needs --train --loss huber";
    return nullptr;
  }
  if (!(options.labelSmoothing >= 0.0 && options.labelSmoothing <= 1.0)) {
    std::string value;
    llvm::raw_string_ostream(value)
        << llvm::format("%g", options.labelSmoothing);
    emitError(fileLoc) << "--label-smoothing must be in [0, 1], got " << value;
    return nullptr;
  }
  if (!options.train && options.labelSmoothing != 0.0) {
    emitError(fileLoc) << "--label-smoothing needs --train";
    return nullptr;
  }
  if (!(options.huberDelta > 0.0) || std::isinf(options.huberDelta)) {
    std::string value;
    llvm::raw_string_ostream(value) << llvm::format("%g", options.huberDelta);
    emitError(fileLoc) << "--huber-delta must be finite and > 0, got " << value;
    return nullptr;
  }
  builder.setInsertionPointToStart(body);
  if (failed(importInitializers()) || failed(importInputs()))
    return nullptr;
  // With --loss graph, the loss is one of the outputs, and the others (a
  // Hugging Face model's logits beside its loss) are left out.
  int lossOutput = -1;
  if (options.train && graphLoss) {
    FailureOr<int> found = findLossOutput();
    if (failed(found))
      return nullptr;
    lossOutput = *found;
  } else if (options.train &&
             failed(findFinalActivation(
                 !elementwise ? "Softmax"
                 : elementwise == nn::ElementwiseLossKind::BceWithLogits
                     ? "Sigmoid"
                     : ""))) {
    return nullptr;
  }
  findErfGelus();
  for (int i = 0; i < graph.node_size(); ++i)
    if (failed(importNode(graph.node(i), i)))
      return nullptr;

  llvm::SmallVector<Value> results;
  for (auto [i, output] : llvm::enumerate(graph.output())) {
    if (lossOutput >= 0 && int(i) != lossOutput)
      continue;
    Tensor *t = table.lookup(output.name());
    if (!t) {
      emitError(fileLoc) << "graph output '" << output.name()
                         << "' is not defined by any node";
      return nullptr;
    }
    if (t->sequence) {
      emitError(fileLoc) << "graph output '" << output.name()
                         << "' is a sequence; the function's results are "
                            "tensors";
      return nullptr;
    }
    results.push_back(table.materialize(*t, fileLoc));
  }

  int labelArg = -1;
  if (options.train && graphLoss) {
    // The model computes its loss: one f32 element, and an input that holds
    // the targets or classes.
    Value loss = results[0];
    auto type = cast<RankedTensorType>(loss.getType());
    if (!type.getElementType().isF32() || type.getNumElements() != 1) {
      emitError(fileLoc) << "--train --loss graph: graph output '"
                         << graph.output(lossOutput).name()
                         << "' is the loss, which must be a tensor of one "
                            "f32 element; it is "
                         << type
                         << (options.lossOutput.empty()
                                 ? " (--loss-output names another output)"
                                 : "");
      return nullptr;
    }
    FailureOr<int> labelInput = findNamedLabelInput();
    if (failed(labelInput))
      return nullptr;
    labelArg = *labelInput;
    if (labelArg >= 0)
      llvm::erase(inputArgs, unsigned(labelArg));
    if (type.getRank() != 0)
      loss = nn::ReshapeOp::create(
          builder, NameLoc::get(builder.getStringAttr("loss")),
          RankedTensorType::get({}, builder.getF32Type()), loss);
    results.assign({loss});
  } else if (options.train && elementwise) {
    // A regression or multi-label classification: f32 targets shaped like
    // the output.
    Value predictions = results[0];
    auto type = cast<RankedTensorType>(predictions.getType());
    if (!type.getElementType().isF32() || type.getRank() < 1) {
      emitError(fileLoc) << "--train --loss " << options.loss
                         << " needs f32 predictions of shape [batch, ...]; "
                            "the output is "
                         << type;
      return nullptr;
    }
    Value targets = addLabelArgument(type, &labelArg);
    Value loss = nn::createElementwiseLoss(
        builder, NameLoc::get(builder.getStringAttr("loss")), *elementwise,
        static_cast<float>(options.huberDelta), *reduction, predictions,
        targets);
    results.assign({loss});
  } else if (options.train) {
    Value logits = results[0];
    auto type = cast<RankedTensorType>(logits.getType());
    // A convolutional head's logits [batch, classes, 1, 1] (SqueezeNet's
    // global pool, DenseNet's 1x1 conv) are the [batch, classes] ones.
    bool unitTail =
        type.getRank() > 2 && llvm::all_of(type.getShape().drop_front(2),
                                           [](int64_t d) { return d == 1; });
    // A transformer's [batch, seq, classes] logits (a language model's next
    // tokens, a token classifier's tags) take a label per position.
    bool perPosition = type.getRank() == 3 && !unitTail;
    if (!type.getElementType().isF32() ||
        (type.getRank() != 2 && !unitTail && !perPosition)) {
      emitError(fileLoc) << "--train --loss cross_entropy needs logits of "
                            "shape [batch, classes], [batch, classes, 1, "
                            "...] or [batch, seq, classes] (f32); the output "
                            "is "
                         << type;
      return nullptr;
    }
    if (unitTail) {
      type = RankedTensorType::get(type.getShape().take_front(2),
                                   type.getElementType());
      logits = nn::ReshapeOp::create(
          builder, NameLoc::get(builder.getStringAttr("logits")), type, logits);
    }
    FailureOr<int> labelInput = findLabelInput(type.getShape().drop_back());
    if (failed(labelInput))
      return nullptr;
    Value labels;
    if (*labelInput >= 0) {
      // The model reads its labels (an encoder-decoder shifts them into the
      // decoder's ids): that input is the label argument.
      labelArg = *labelInput;
      labels = body->getArgument(labelArg);
      llvm::erase(inputArgs, unsigned(labelArg));
    } else {
      labels = addLabelArgument(RankedTensorType::get(type.getShape().drop_back(),
                                                      builder.getI32Type()),
                                &labelArg);
    }
    // Labels of -100 (padding) are left out, as by PyTorch's
    // CrossEntropyLoss and the Hugging Face data collators that pad with it.
    constexpr int64_t kIgnoreIndex = -100;
    Value loss = nn::CrossEntropyOp::create(
        builder, NameLoc::get(builder.getStringAttr("loss")),
        RankedTensorType::get({}, builder.getF32Type()), logits, labels,
        builder.getI64IntegerAttr(kIgnoreIndex),
        builder.getF32FloatAttr(static_cast<float>(options.labelSmoothing)));
    results.assign({loss});
  }
  // The new running statistics, in the order of their buffer arguments.
  if (options.train)
    for (const ValueTable::Buffer &buffer : table.buffers())
      results.push_back(buffer.update);
  func::ReturnOp::create(builder, fileLoc, results);

  auto module = ModuleOp::create(fileLoc);
  auto fnType = FunctionType::get(ctx, body->getArgumentTypes(),
                                  ValueRange(results).getTypes());
  OpBuilder moduleBuilder(module.getBodyRegion());
  auto fn = func::FuncOp::create(moduleBuilder, fileLoc, options.functionName,
                                 fnType);
  fn.getBody().push_back(body);
  body = nullptr;
  OwningOpRef<ModuleOp> owned(module);

  for (unsigned arg : inputArgs)
    nn::setArgRole(fn, arg, nn::Role::Input);
  for (unsigned arg : table.paramArgs())
    nn::setArgRole(fn, arg, nn::Role::Param);
  for (const ValueTable::Buffer &buffer : table.buffers()) {
    nn::setArgRole(fn, buffer.arg, nn::Role::Buffer);
    if (buffer.init != 0.0f)
      fn.setArgAttr(buffer.arg, nn::NNDialect::getInitAttrName(),
                    moduleBuilder.getF32FloatAttr(buffer.init));
  }
  if (options.train) {
    if (labelArg >= 0)
      nn::setArgRole(fn, labelArg, nn::Role::Label);
    nn::setResultRole(fn, 0, nn::Role::Loss);
    for (unsigned i = 1; i < fn.getNumResults(); ++i)
      nn::setResultRole(fn, i, nn::Role::Buffer);
  }
  if (failed(mlir::verify(*owned)))
    return nullptr;
  if (params) {
    *params = table.params();
    for (const ValueTable::Buffer &buffer : table.buffers())
      params->push_back(buffer.value);
  }
  return owned;
}

OwningOpRef<ModuleOp> amp::importONNXBytes(llvm::StringRef bytes,
                                           llvm::StringRef sourceName,
                                           const ONNXImportOptions &options,
                                           MLIRContext &context,
                                           std::vector<ONNXParam> *params) {
  context.loadDialect<nn::NNDialect, amp::AMPDialect, func::FuncDialect,
                      arith::ArithDialect>();
  onnx::ModelProto model;
  int64_t opset = 0;
  std::string error = loadModel(bytes, model, opset);
  if (error.empty())
    error = loadExternalData(model, options.externalDataDir);
  const int64_t sourceOpset = opset;
  if (error.empty())
    error = upgradeOpset(model, opset);
  if (!error.empty()) {
    emitError(FileLineColLoc::get(&context, sourceName, 0, 0)) << error;
    return nullptr;
  }
  GraphImporter importer(model, opset, sourceOpset, sourceName, options,
                         context);
  return importer.run(params);
}

OwningOpRef<ModuleOp> amp::importONNXFile(llvm::StringRef path,
                                          const ONNXImportOptions &options,
                                          MLIRContext &context,
                                          std::vector<ONNXParam> *params) {
  const bool fromStdin = path == "-";
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      fromStdin ? llvm::MemoryBuffer::getSTDIN()
                : llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
  if (std::error_code ec = file.getError()) {
    emitError(FileLineColLoc::get(&context, path, 0, 0))
        << "cannot read '" << path << "': " << ec.message();
    return nullptr;
  }
  if (!options.externalDataDir.empty() || fromStdin)
    return importONNXBytes((*file)->getBuffer(), path, options, context,
                           params);
  // External data lies beside the model.
  ONNXImportOptions withDir = options;
  withDir.externalDataDir = llvm::sys::path::parent_path(path).str();
  if (withDir.externalDataDir.empty())
    withDir.externalDataDir = ".";
  return importONNXBytes((*file)->getBuffer(), path, withDir, context, params);
}

std::string amp::parseConstantInput(llvm::StringRef spec,
                                    ONNXImportOptions &options) {
  auto [name, path] = spec.split('=');
  if (name.empty() || path.empty())
    return "--constant-input '" + spec.str() +
           "' is not NAME=FILE.pb (e.g. pads=@input_1.pb)";
  if (path.starts_with("@"))
    path = path.drop_front();
  options.constantInputs[name.str()] = path.str();
  return "";
}

std::string amp::parseInputShape(llvm::StringRef spec,
                                 ONNXImportOptions &options) {
  auto [name, dims] = spec.rsplit('=');
  if (name.empty() || dims.empty() || !spec.contains('='))
    return "--input-shape '" + spec.str() +
           "' is not NAME=DIMS (e.g. x=1x3x224x224)";
  std::vector<int64_t> shape;
  llvm::SmallVector<llvm::StringRef> parts;
  dims.split(parts, 'x');
  for (llvm::StringRef p : parts) {
    int64_t d;
    if (p.getAsInteger(10, d) || d <= 0 || d > (int64_t(1) << 40))
      return "--input-shape '" + spec.str() + "': '" + p.str() +
             "' is not a positive dimension";
    shape.push_back(d);
  }
  options.inputShapes[name.str()] = shape;
  return "";
}
