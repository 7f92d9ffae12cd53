//===- OpsetUpgrade.cpp - older opsets through ONNX's version converter ---===//
//
// The op importers implement the semantics of opset kMinOpset (9) and
// newer. A model written at an older opset (PyTorch's exporter of 2018
// wrote opset 6) is brought up to kMinOpset by ONNX's own version converter
// (libonnx, Debian's libonnx-dev), the tool ONNX ships for this: its
// adapters rewrite the nodes whose semantics changed between the two
// opsets (Add's and Gemm's `broadcast`/`axis`, BatchNormalization's
// `consumed_inputs` and `spatial`, Upsample's scales from an attribute to
// an input, ...) and refuse an op they cannot carry over. The binary ops'
// broadcasts of opset 6 and older, which the converter mishandles, are made
// numpy's before it runs (numpyBroadcasts).
//
// The converter assumes a valid model whose values have shapes (its
// broadcast adapters read them), so ONNX's checker and shape inference run
// first: a malformed model gets the checker's message, not undefined
// behaviour in the converter. They report errors by throwing, so this file
// (alone in the importer) is compiled with exceptions (CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>
#include <onnx/version_converter/convert.h>

#include <cctype>
#include <exception>

using namespace amp::onnx_import;

/// An exception's message on one line: ONNX's checker puts the node's text
/// on lines of its own, and a failed assertion leads with its source
/// position, which is left out.
static std::string oneLine(const char *what) {
  std::string message;
  for (const char *c = what ? what : ""; *c; ++c) {
    bool space = std::isspace(static_cast<unsigned char>(*c));
    if (!space)
      message += *c;
    else if (!message.empty() && message.back() != ' ')
      message += ' ';
  }
  static constexpr llvm::StringLiteral kAssertion = " failed: ";
  size_t assertion = message.find(kAssertion.data());
  if (llvm::StringRef(message).contains("Assertion") &&
      assertion != std::string::npos)
    message.erase(0, assertion + kAssertion.size());
  while (!message.empty() && llvm::StringRef(" .:").contains(message.back()))
    message.pop_back();
  static constexpr size_t kMaxLength = 400;
  if (message.size() > kMaxLength)
    message = message.substr(0, kMaxLength) + " ...";
  return message.empty() ? "no reason given" : message;
}

/// The rank of every value whose shape the model states or ONNX's shape
/// inference found.
static llvm::StringMap<int> knownRanks(const onnx::GraphProto &graph) {
  llvm::StringMap<int> ranks;
  auto add = [&](const onnx::ValueInfoProto &info) {
    if (info.type().has_tensor_type() && info.type().tensor_type().has_shape())
      ranks[info.name()] = info.type().tensor_type().shape().dim_size();
  };
  for (const onnx::ValueInfoProto &info : graph.input())
    add(info);
  for (const onnx::ValueInfoProto &info : graph.value_info())
    add(info);
  for (const onnx::ValueInfoProto &info : graph.output())
    add(info);
  for (const onnx::TensorProto &t : graph.initializer())
    ranks[t.name()] = t.dims_size();
  return ranks;
}

/// An attribute of `node`, or null.
static void eraseAttr(onnx::NodeProto &node, llvm::StringRef name) {
  auto *attrs = node.mutable_attribute();
  for (auto it = attrs->begin(); it != attrs->end(); ++it)
    if (it->name() == name) {
      attrs->erase(it);
      return;
    }
}

/// The binary ops that broadcast by attribute before opset 7.
static constexpr llvm::StringLiteral kLegacyBroadcastOps[] = {
    "Add", "Sub", "Mul",   "Div",     "Pow", "And",
    "Or",  "Xor", "Equal", "Greater", "Less"};

/// Before opset 7 a binary op broadcasts its second operand B onto the first
/// A only with `broadcast = 1`, aligned at `axis` of A ([C] at axis 1 of
/// [N, C, H, W] is a bias per channel) or, without `axis`, at A's last dims;
/// opset 7 broadcasts as numpy does. This rewrites such a node to numpy's
/// form: B gets the dims of A after its span as size-1 dims (an Unsqueeze-1
/// before the node) and the node loses `broadcast` and `axis`. ONNX's
/// converter has an adapter that tries this for Add, Sub, Mul, Div and Pow,
/// but (ONNX 1.12 to 1.23) it unsqueezes B by the difference of the ranks,
/// not by the dims after B's span, and then refuses the shapes; it has none
/// for the comparisons and And, Or, Xor. A node with `axis` whose operands'
/// ranks are unknown is left as it is, for the converter to refuse.
/// Returns whether it added an Unsqueeze (whose result has no shape yet).
static bool numpyBroadcasts(onnx::GraphProto &graph) {
  llvm::StringMap<int> ranks = knownRanks(graph);
  // Every value name, shaped or not, so that an added one is new.
  llvm::StringSet<> names;
  for (const auto &entry : ranks)
    names.insert(entry.getKey());
  for (const onnx::ValueInfoProto &info : graph.input())
    names.insert(info.name());
  for (const onnx::NodeProto &node : graph.node())
    for (const std::string &out : node.output())
      names.insert(out);

  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  bool added = false;
  for (int index = 0; index < graph.node_size(); ++index) {
    onnx::NodeProto &node = *graph.mutable_node(index);
    const onnx::AttributeProto *broadcast = findAttribute(node, "broadcast");
    const onnx::AttributeProto *axis = findAttribute(node, "axis");
    bool legacy = (node.domain().empty() || node.domain() == "ai.onnx") &&
                  llvm::is_contained(kLegacyBroadcastOps, node.op_type()) &&
                  node.input_size() == 2 && (broadcast || axis);
    int64_t trailing = 0; // the size-1 dims B needs after its own
    if (legacy && broadcast && broadcast->i() == 1 && axis) {
      auto a = ranks.find(node.input(0));
      auto b = ranks.find(node.input(1));
      legacy = a != ranks.end() && b != ranks.end() && axis->i() >= 0 &&
               axis->i() <= a->second - b->second;
      if (legacy)
        trailing = a->second - b->second - axis->i();
    }
    if (legacy && trailing > 0) {
      if (node.name().empty())
        node.set_name(node.op_type() + "_" + std::to_string(index));
      std::string aligned = node.input(1) + "_at_axis";
      for (int i = 1; names.contains(aligned); ++i)
        aligned = node.input(1) + "_at_axis_" + std::to_string(i);
      names.insert(aligned);
      onnx::NodeProto *unsqueeze = nodes.Add();
      unsqueeze->set_op_type("Unsqueeze");
      unsqueeze->set_name(node.name() + "_axis");
      unsqueeze->add_input(node.input(1));
      unsqueeze->add_output(aligned);
      onnx::AttributeProto *axes = unsqueeze->add_attribute();
      axes->set_name("axes");
      axes->set_type(onnx::AttributeProto::INTS);
      int64_t bRank = ranks.find(node.input(1))->second;
      for (int64_t i = 0; i < trailing; ++i)
        axes->add_ints(bRank + i);
      node.set_input(1, aligned);
      added = true;
    }
    if (legacy) {
      eraseAttr(node, "broadcast");
      eraseAttr(node, "axis");
    }
    *nodes.Add() = std::move(node);
  }
  graph.mutable_node()->Swap(&nodes);
  return added;
}

/// ONNX's version converter, with the adapters it lacks from opset 6 to 7
/// for the ops whose only change there is broadcasting, which
/// numpyBroadcasts has already made numpy's.
static const onnx::version_conversion::DefaultVersionConverter &converter() {
  static const auto *instance = [] {
    using namespace onnx::version_conversion;
    auto *c = new DefaultVersionConverter();
    for (const char *op : {"And", "Or", "Xor", "Equal", "Greater", "Less"})
      c->registerAdapter(std::make_unique<CompatibleAdapter>(
          op, onnx::OpSetID(6), onnx::OpSetID(7)));
    return c;
  }();
  return *instance;
}

/// What ONNX's checker (1.12) leaves unchecked and the converter's reading
/// of the graph (graphProtoToGraph) dereferences: each graph output must be
/// a graph input, an initializer or a node's output. Returns an error or "".
static std::string undefinedOutput(const onnx::GraphProto &graph) {
  llvm::StringSet<> defined;
  for (const onnx::ValueInfoProto &info : graph.input())
    defined.insert(info.name());
  for (const onnx::TensorProto &t : graph.initializer())
    defined.insert(t.name());
  for (const onnx::NodeProto &node : graph.node())
    for (const std::string &out : node.output())
      defined.insert(out);
  for (const onnx::ValueInfoProto &info : graph.output())
    if (!defined.contains(info.name()))
      return "graph output '" + info.name() +
             "' is no graph input, initializer or node output";
  return "";
}

std::string amp::onnx_import::upgradeOpset(onnx::ModelProto &model,
                                           int64_t &opset) {
  if (opset >= kMinOpset)
    return "";
  const std::string from = "opset " + std::to_string(opset);
  const std::string to = "opset " + std::to_string(kMinOpset);
  const std::string invalid = "the model (" + from +
                              " of the default domain) must be brought up "
                              "to " +
                              to + ", and ";
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception &e) {
    return invalid + "ONNX's checker rejects it: " + oneLine(e.what());
  }
  if (std::string error = undefinedOutput(model.graph()); !error.empty())
    return invalid + "it is invalid: " + error;
  try {
    onnx::shape_inference::InferShapes(model);
    if (opset < 7 && numpyBroadcasts(*model.mutable_graph()))
      onnx::shape_inference::InferShapes(model);
    onnx::ModelProto upgraded = converter().convert_version(
        model, onnx::OpSetID(opset), onnx::OpSetID(kMinOpset));
    model = std::move(upgraded);
  } catch (const std::exception &e) {
    return "ONNX's version converter cannot bring the model from " + from +
           " of the default domain up to " + to +
           " (the oldest amp-import-onnx implements): " + oneLine(e.what());
  }
  opset = kMinOpset;
  return "";
}
