//===- EmbeddingGradient.cpp - how an embedding lookup's gradient goes ----===//
//
// PyTorch's nn.Embedding(padding_idx=p) looks row p up like any other but
// never gives it a gradient, and nn.Embedding(scale_grad_by_freq=True)
// divides each position's gradient by its id's count in the batch. ONNX's
// Gather carries neither, so the importer learns them from the FX node
// that the torch.export-based exporter records in each ONNX node's
// metadata:
//
//   %embedding : [num_users=1] = call_function[target=torch.ops.aten.
//       embedding.default](args = (%p_emb_weight, %ids, 0), kwargs = {})
//
// aten.embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False,
// sparse=False): -1 is no padding row; sparse changes only the gradient's
// storage. For the TorchScript exporter's models, which record nothing,
// --padding-idx NAME=P gives the padding row of the Gather's table.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "llvm/ADT/StringExtras.h"

using namespace amp::onnx_import;
using mlir::failure;

namespace {

constexpr llvm::StringLiteral kFxNode = "pkg.torch.onnx.fx_node";
constexpr llvm::StringLiteral kEmbeddingCall =
    "call_function[target=torch.ops.aten.embedding.default](";

/// aten.embedding's arguments after the weight and the indices, as the FX
/// node writes them.
struct EmbeddingCall {
  std::optional<int64_t> paddingIdx;
  bool scaleGradByFreq = false;
};

/// One argument's text, trimmed.
llvm::StringRef trimmed(llvm::StringRef s) { return s.trim(" \t\n"); }

/// Reads `name`'s value from an argument at `position` of `args` or from
/// `kwargs` ("name: value, ..."), whichever has it.
std::optional<llvm::StringRef> argument(llvm::ArrayRef<llvm::StringRef> args,
                                        size_t position,
                                        llvm::ArrayRef<llvm::StringRef> kwargs,
                                        llvm::StringRef name) {
  if (position < args.size())
    return trimmed(args[position]);
  for (llvm::StringRef kw : kwargs) {
    auto [key, value] = kw.split(':');
    if (trimmed(key) == name)
      return trimmed(value);
  }
  return std::nullopt;
}

/// The comma-separated items between `open` and the matching `close` that
/// follows `text`'s prefix `head` (no nesting: aten.embedding's arguments
/// are names, integers and booleans).
std::optional<llvm::SmallVector<llvm::StringRef>>
items(llvm::StringRef &text, llvm::StringRef head, char close) {
  size_t at = text.find(head);
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  text = text.drop_front(at + head.size());
  size_t end = text.find(close);
  if (end == llvm::StringRef::npos)
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef> out;
  llvm::StringRef inside = text.take_front(end);
  text = text.drop_front(end + 1);
  if (!trimmed(inside).empty())
    inside.split(out, ',');
  return out;
}

/// The FX node's aten.embedding call, if the node was translated from one.
std::optional<EmbeddingCall> embeddingCall(const onnx::NodeProto &node,
                                           std::string &error) {
  std::optional<std::string> fx =
      metadataValue(node, kNodeMetadataField, kFxNode);
  if (!fx)
    return std::nullopt;
  llvm::StringRef text(*fx);
  size_t call = text.find(kEmbeddingCall);
  if (call == llvm::StringRef::npos)
    return std::nullopt;
  text = text.drop_front(call + kEmbeddingCall.size());
  auto args = items(text, "args = (", ')');
  auto kwargs = items(text, "kwargs = {", '}');
  if (!args || !kwargs) {
    error = "its metadata's aten.embedding call is not understood: " + *fx;
    return std::nullopt;
  }
  EmbeddingCall out;
  if (std::optional<llvm::StringRef> p =
          argument(*args, 2, *kwargs, "padding_idx")) {
    int64_t value;
    if (p->getAsInteger(10, value)) {
      error = "its metadata's aten.embedding has padding_idx '" + p->str() +
              "', not an integer";
      return std::nullopt;
    }
    if (value != -1)
      out.paddingIdx = value;
  }
  if (std::optional<llvm::StringRef> s =
          argument(*args, 3, *kwargs, "scale_grad_by_freq"))
    out.scaleGradByFreq = *s == "True";
  return out;
}

} // namespace

FailureOr<EmbeddingGradient>
amp::onnx_import::embeddingGradient(NodeContext &nc, const Tensor &table,
                                    int64_t axis) {
  EmbeddingGradient gradient;
  if (axis != 0)
    return gradient;
  std::optional<int64_t> &padding = gradient.paddingIdx;
  const char *source = "--padding-idx";
  auto named = nc.options.paddingIdx.find(nc.node.input(0));
  if (named != nc.options.paddingIdx.end()) {
    if (!table.isFloat())
      return nc.error() << "--padding-idx names '" << nc.node.input(0)
                        << "', a table of "
                        << dataTypeName(table.declaredType())
                        << " that has no gradient",
             failure();
    padding = named->second;
  }
  if (!table.isFloat())
    return gradient;
  std::string error;
  std::optional<EmbeddingCall> call = embeddingCall(nc.node, error);
  if (!error.empty())
    return nc.error() << error, failure();
  if (call) {
    gradient.scaleGradByFreq = call->scaleGradByFreq;
    if (!padding && call->paddingIdx) {
      padding = call->paddingIdx;
      source = "the exporter's aten.embedding";
    }
  }
  if (!padding)
    return gradient;
  if (table.rank() != 2)
    return nc.error() << source << " gives padding_idx " << *padding
                      << " to a table of rank " << table.rank()
                      << "; only a [rows, dim] table has padding rows",
           failure();
  if (*padding < 0 || *padding >= table.shape[0])
    return nc.error() << source << " gives padding_idx " << *padding
                      << ", which is no row of the " << table.shape[0]
                      << "-row table '" << nc.node.input(0) << "'",
           failure();
  return gradient;
}

std::string
amp::onnx_import::checkPaddingIdxNames(const onnx::GraphProto &graph,
                                       const ONNXImportOptions &options) {
  for (const auto &[name, row] : options.paddingIdx) {
    bool gathered = llvm::any_of(graph.node(), [&](const onnx::NodeProto &n) {
      const onnx::AttributeProto *axis = findAttribute(n, "axis");
      return n.op_type() == "Gather" && n.input_size() > 0 &&
             n.input(0) == name && (!axis || axis->i() == 0);
    });
    if (!gathered)
      return "--padding-idx '" + name + "=" + std::to_string(row) +
             "': no Gather of the graph looks up rows (axis 0) of '" + name +
             "'";
  }
  return "";
}

std::string amp::parsePaddingIdx(llvm::StringRef spec,
                                 ONNXImportOptions &options) {
  auto [name, row] = spec.rsplit('=');
  int64_t value;
  if (name.empty() || !spec.contains('=') || row.getAsInteger(10, value) ||
      value < 0)
    return "--padding-idx '" + spec.str() +
           "' is not NAME=ROW with a row >= 0 (e.g. "
           "model.embed_tokens.weight=0)";
  options.paddingIdx[name.str()] = value;
  return "";
}
