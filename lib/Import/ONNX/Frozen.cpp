//===- Frozen.cpp - the initializers that do not train --------------------===//
//
// --frozen names float initializers that import as constants rather than
// params: PyTorch's buffers and parameters with requires_grad=False. The
// torch.export-based exporter folds computations on them into new
// initializers (a rotary embedding's cos and sin tables, computed from the
// inv_freq buffer) and records where each came from in its value_info's
// metadata (`pkg.onnxscript.optimizer.folded_from`, a Python list of the
// names folded), so a name also freezes every initializer folded from it.
// The same exporter marks each initializer that is a module's buffer
// (`pkg.torch.export.graph_signature.InputSpec.kind` BUFFER) or a tensor
// constant (CONSTANT_TENSOR: a plain tensor attribute, a tensor built in
// forward): those do not train either (and each that is a parameter,
// PARAMETER, which trains even with one element: a CLIP's logit_scale, a
// PReLU's single slope), nor what it folded from a value a node of the
// graph computes (Importer.cpp: zeros_like of an activation, which only the
// activation's shape went into). A module value that the exporter folded
// away is no initializer, but the graph's metadata keeps the exported
// program's whole signature (`pkg.torch.export.ExportedProgram.
// graph_signature`, lines `b_m_inv_freq: BUFFER target='m.inv_freq'`), so
// what was folded from a buffer (a rotary embedding's cos and sin tables)
// is known not to train without --frozen.
// ValueInfoProto.metadata_props and GraphProto.metadata_props are read with
// metadataEntries (Metadata.cpp).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "llvm/ADT/StringExtras.h"

using namespace amp::onnx_import;

namespace {

constexpr llvm::StringLiteral kFoldedFrom =
    "pkg.onnxscript.optimizer.folded_from";
constexpr llvm::StringLiteral kInputKind =
    "pkg.torch.export.graph_signature.InputSpec.kind";
constexpr llvm::StringLiteral kGraphSignature =
    "pkg.torch.export.ExportedProgram.graph_signature";

/// The quoted strings of a Python list's repr, "['a', "b's"]" -> a, b's.
std::vector<std::string> quotedStrings(llvm::StringRef list) {
  std::vector<std::string> out;
  for (size_t i = 0; i < list.size(); ++i) {
    char quote = list[i];
    if (quote != '\'' && quote != '"')
      continue;
    std::string s;
    for (++i; i < list.size() && list[i] != quote; ++i) {
      if (list[i] == '\\' && i + 1 < list.size())
        ++i;
      s += list[i];
    }
    out.push_back(std::move(s));
  }
  return out;
}

} // namespace

llvm::StringMap<std::vector<std::string>>
amp::onnx_import::foldedSources(const onnx::GraphProto &graph) {
  llvm::StringSet<> initializers;
  for (const onnx::TensorProto &init : graph.initializer())
    initializers.insert(init.name());
  llvm::StringMap<std::vector<std::string>> sources;
  for (const onnx::ValueInfoProto &info : graph.value_info()) {
    if (!initializers.contains(info.name()))
      continue;
    for (const onnx::StringStringEntryProto &e :
         metadataEntries(info, kValueInfoMetadataField))
      if (e.key() == kFoldedFrom)
        for (std::string &source : quotedStrings(e.value()))
          sources[info.name()].push_back(std::move(source));
  }
  return sources;
}

ModuleValues amp::onnx_import::moduleValues(const onnx::GraphProto &graph) {
  ModuleValues values;
  auto add = [&](llvm::StringRef kind, llvm::StringRef name) {
    if (kind == "PARAMETER")
      values.parameters.insert(name);
    else if (kind == "BUFFER")
      values.buffers.insert(name);
    else if (kind == "CONSTANT_TENSOR")
      values.tensorConstants.insert(name);
  };
  llvm::StringSet<> initializers;
  for (const onnx::TensorProto &init : graph.initializer())
    initializers.insert(init.name());
  for (const onnx::ValueInfoProto &info : graph.value_info())
    if (initializers.contains(info.name()))
      for (const onnx::StringStringEntryProto &e :
           metadataEntries(info, kValueInfoMetadataField))
        if (e.key() == kInputKind)
          add(e.value(), info.name());
  // The signature's input lines: `<name>: <KIND> target='<path>' ...`.
  for (const onnx::StringStringEntryProto &e :
       metadataEntries(graph, kGraphMetadataField)) {
    if (e.key() != kGraphSignature)
      continue;
    values.fromSignature = true;
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(e.value()).split(lines, '\n');
    for (llvm::StringRef line : lines) {
      auto [name, spec] = line.split(": ");
      auto [kind, rest] = spec.split(' ');
      if (!rest.consume_front("target='"))
        continue;
      llvm::StringRef target =
          rest.take_until([](char c) { return c == '\''; });
      if (!target.empty() && target.size() < rest.size())
        add(kind, target);
    }
  }
  return values;
}

bool amp::onnx_import::foldedFromParameter(
    llvm::StringRef name, const FoldedSources &folded,
    const llvm::StringSet<> &parameters) {
  llvm::StringSet<> seen;
  llvm::SmallVector<llvm::StringRef> work{name};
  while (!work.empty()) {
    llvm::StringRef n = work.pop_back_val();
    if (parameters.contains(n))
      return true;
    if (!seen.insert(n).second)
      continue;
    auto sources = folded.find(n);
    if (sources != folded.end())
      for (const std::string &source : sources->second)
        work.push_back(source);
  }
  return false;
}

llvm::StringSet<> amp::onnx_import::frozenInitializers(
    const onnx::GraphProto &graph, const FoldedSources &folded,
    llvm::ArrayRef<std::string> frozen, std::string &unmatched) {
  llvm::StringSet<> matched, result;
  if (frozen.empty())
    return result;
  llvm::StringSet<> names(llvm::from_range, frozen);
  for (const onnx::TensorProto &init : graph.initializer())
    if (names.contains(init.name())) {
      result.insert(init.name());
      matched.insert(init.name());
    }
  for (const auto &[init, sources] : folded)
    for (const std::string &source : sources)
      if (names.contains(source)) {
        result.insert(init);
        matched.insert(source);
      }
  for (const std::string &name : frozen)
    if (!matched.contains(name)) {
      unmatched = name;
      break;
    }
  return result;
}

/// Module values have dotted names (the exporter's own values do not);
/// parameters' own names mostly end in weight or bias (in_proj_weight too)
/// or, in recurrent layers, begin with them (weight_ih_l0,
/// bias_hh_l1_reverse). A projection held as a bare parameter ends in
/// proj or projection: a mixture of experts' stacked expert weights
/// (Hugging Face's experts.gate_up_proj and experts.down_proj), CLIP's
/// text_projection.
bool amp::onnx_import::isWeightName(llvm::StringRef name) {
  llvm::StringRef own = name.rsplit('.').second;
  if (own.empty())
    own = name;
  return own.ends_with("weight") || own.ends_with("bias") ||
         own.starts_with("weight_") || own.starts_with("bias_") ||
         own.ends_with("proj") || own.ends_with("projection");
}

bool amp::onnx_import::isParameterName(llvm::StringRef name) {
  return name.contains('.') || isWeightName(name);
}

bool amp::onnx_import::isFoldedParameterName(llvm::StringRef name) {
  return name.starts_with("onnx::");
}

bool amp::onnx_import::isModuleStateName(llvm::StringRef name, bool bareToo) {
  if (name.empty() || name.contains('/') || name.contains(':'))
    return false;
  auto [path, own] = name.rsplit('.');
  if (own.empty()) // no dot
    return bareToo && !path.starts_with("lifted_tensor");
  return !own.starts_with("lifted_tensor");
}

/// `name` without a `_<n>` suffix (the one PyTorch's exporters add to a
/// repeated name), or std::nullopt when it has none.
static std::optional<llvm::StringRef> withoutNumberSuffix(llvm::StringRef name) {
  auto [stem, suffix] = name.rsplit('_');
  if (stem.empty() || suffix.empty() ||
      !llvm::all_of(suffix, [](char c) { return llvm::isDigit(c); }))
    return std::nullopt;
  return stem;
}

/// The module path of the node `name`, `_<n>` dropped from each part.
static std::string moduleScope(llvm::StringRef name) {
  std::string scope;
  llvm::SmallVector<llvm::StringRef> parts;
  name.rsplit('/').first.split(parts, '/');
  for (llvm::StringRef part : parts)
    scope += withoutNumberSuffix(part).value_or(part).str() + "/";
  return scope;
}

bool amp::onnx_import::sameModuleCalledAgain(llvm::StringRef a,
                                             llvm::StringRef b) {
  return a.starts_with("/") && b.starts_with("/") &&
         moduleScope(a) == moduleScope(b);
}

bool amp::onnx_import::foldedFromWeight(llvm::ArrayRef<std::string> sources,
                                        const llvm::StringSet<> &parameters) {
  return llvm::any_of(sources, [&](llvm::StringRef name) {
    return isWeightName(name) || parameters.contains(name);
  });
}

bool amp::onnx_import::foldedFromNoModuleValue(
    llvm::ArrayRef<std::string> sources) {
  return llvm::none_of(sources, [](llvm::StringRef name) {
    return isWeightName(name) || name.contains('.');
  });
}

/// The aten ops whose results torch.export names after them (`linspace`,
/// `add_1`) that build constants in a forward: tensor creation, shape and
/// elementwise arithmetic.
// clang-format off
static constexpr llvm::StringLiteral kComputingOps[] = {
    "abs", "add", "alias", "arange", "bmm", "cat", "ceil", "clone",
    "constant_pad_nd", "cos", "cumsum", "detach", "div", "einsum", "empty",
    "exp", "expand", "eye", "flip", "floor", "full", "full_like", "index",
    "lift_fresh_copy", "linspace", "log", "logspace", "matmul", "meshgrid",
    "mm", "mul", "neg", "ones", "ones_like", "outer", "pad", "permute", "pow",
    "reciprocal", "repeat", "reshape", "roll", "round", "rsqrt", "rsub",
    "scalar_tensor", "select", "sin", "slice", "sqrt", "squeeze", "stack",
    "sub", "t", "to", "transpose", "tril", "triu", "unsqueeze", "view", "where",
    "zeros", "zeros_like", "_to_copy"};
// clang-format on

/// Whether `name` is a value the exported graph computed: onnxscript's
/// `val_N`, torch.export's `lifted_tensor_N` (a tensor the forward built
/// from constants, `torch.tensor([...])`), or a node torch.export named
/// for its aten op, with or without a `_N` suffix.
static bool isComputedName(llvm::StringRef name) {
  if (std::optional<llvm::StringRef> stem = withoutNumberSuffix(name)) {
    if (*stem == "val" || *stem == "lifted_tensor")
      return true;
    name = *stem;
  }
  return llvm::is_contained(kComputingOps, name);
}

bool amp::onnx_import::foldedFromComputedValues(
    llvm::ArrayRef<std::string> sources) {
  return !sources.empty() && llvm::all_of(sources, [](llvm::StringRef name) {
    return isComputedName(name);
  });
}

const std::string *
amp::onnx_import::foldedFromModuleState(llvm::ArrayRef<std::string> sources) {
  for (const std::string &name : sources) {
    // torch.export names a node's value after its op, with a `_N` suffix
    // after the first (`embedding_1`); a root module's value has no dot.
    std::optional<llvm::StringRef> stem = withoutNumberSuffix(name);
    const bool nodeValue = stem && !stem->contains('.');
    if (!nodeValue && !isComputedName(name) &&
        isModuleStateName(name, /*bareToo=*/true))
      return &name;
  }
  return nullptr;
}

llvm::StringMap<std::string>
amp::onnx_import::foldedFromBuffers(const FoldedSources &folded,
                                    const llvm::StringSet<> &parameters) {
  // An initializer folded from a weight is a weight, gathered or
  // transposed.
  llvm::StringMap<std::string> hints;
  for (const auto &[init, sources] : folded) {
    if (foldedFromWeight(sources, parameters))
      continue;
    auto buffer = llvm::find_if(
        sources, [](llvm::StringRef name) { return name.contains('.'); });
    if (buffer != sources.end())
      hints[init] = *buffer;
  }
  return hints;
}
