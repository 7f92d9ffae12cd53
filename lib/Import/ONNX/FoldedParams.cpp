//===- FoldedParams.cpp - params the torch.export-based exporter folded ---===//
//
// PyTorch's torch.export-based exporter folds computations on parameters
// into initializers of their own and records what each was folded from
// (Frozen.cpp reads the metadata). As params of their own such copies
// train unlike PyTorch's model. Where an initializer's value shows the
// computation, it is restored as that computation on a param:
//  - the transpose of a param initializer it was folded from (the output
//    projection of a language model tied to its token embedding, which
//    the embedding's Gather reads untransposed): nn.transpose of that param,
//    so both uses train one param;
//  - a tensor that repeats along some dims (a position embedding's rows
//    looked up for every row of the batch, a ViT's class token broadcast
//    to the batch): nn.broadcast_to of a param without the repeats, whose
//    gradient sums over them as PyTorch's parameter's does; when a param
//    initializer it was folded from holds those values (the recurrent
//    bias of an nn.RNN's first step, whose zero state the exporter
//    folded), of that param, reshaped.
// Values are compared bitwise; a folded initializer that shows neither
// trains as a param of its own, as before. The exporter folds such a
// computation at each call of a module: a module called twice (an
// ALBERT's shared layer) gives two equal initializers folded from the same
// weight, which are one param (restoreRepeatedFolds).
//
// PyTorch's TorchScript exporter writes no such metadata, but names what it
// folds `onnx::<op>_<n>`: a language model's output projection tied to its
// token embedding becomes `onnx::MatMul_583`, the embedding's transpose,
// while the Gather of the embedding reads the table itself. Such an
// initializer that is bitwise the transpose of a Gather's table is its
// transpose too (restoreTiedEmbeddings), so the two train one param as in
// PyTorch; a table whose values are all equal (zeros) shows no tie.
//
//===----------------------------------------------------------------------===//

#include "Folding.h"

#include "llvm/ADT/bit.h"

using namespace amp::onnx_import;

namespace {

bool sameBits(float a, float b) {
  return llvm::bit_cast<uint32_t>(a) == llvm::bit_cast<uint32_t>(b);
}

/// Whether the [r, c] values `t` are the transpose of the [c, r] `s`.
bool isTransposeOf(const Const &t, const Const &s) {
  if (t.shape.size() != 2 || s.shape.size() != 2 || t.shape[0] != s.shape[1] ||
      t.shape[1] != s.shape[0])
    return false;
  const int64_t rows = t.shape[0], cols = t.shape[1];
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      if (!sameBits(t.f[i * cols + j], s.f[j * rows + i]))
        return false;
  return true;
}

/// Whether every slice of `c` along dim `d` equals the first.
bool repeatsAlong(const Const &c, size_t d) {
  const int64_t n = c.shape[d];
  int64_t inner = 1, outer = 1;
  for (size_t e = d + 1; e < c.shape.size(); ++e)
    inner *= c.shape[e];
  for (size_t e = 0; e < d; ++e)
    outer *= c.shape[e];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 1; k < n; ++k)
      for (int64_t i = 0; i < inner; ++i)
        if (!sameBits(c.f[(o * n + k) * inner + i], c.f[o * n * inner + i]))
          return false;
  return true;
}

/// `c` without the dims (of size > 1) along which every slice equals the
/// first, those dims kept with size 1; std::nullopt when there are none.
/// A weight shows a difference at once, so it is neither copied nor read
/// through.
std::optional<Const> withoutRepeats(const Const &c) {
  llvm::SmallVector<int64_t> shape(c.shape);
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] > 1 && repeatsAlong(c, d))
      shape[d] = 1;
  if (llvm::ArrayRef<int64_t>(shape) == llvm::ArrayRef<int64_t>(c.shape))
    return std::nullopt;
  // The first slice along every repeated dim: the element at each position
  // of `shape`, read at the same multi-index of `c`.
  Const base;
  base.dtype = c.dtype;
  base.shape = shape;
  llvm::SmallVector<int64_t> strides = stridesOf(c.shape), p(shape.size(), 0);
  const int64_t count = base.numel();
  base.f.reserve(count);
  for (int64_t k = 0; k < count; ++k) {
    int64_t offset = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      offset += p[d] * strides[d];
    base.f.push_back(c.f[offset]);
    advanceIndex(p, shape);
  }
  return base;
}

} // namespace

void amp::onnx_import::restoreFoldedParams(ValueTable &table,
                                           const FoldedSources &folded) {
  for (const auto &[name, sources] : folded) {
    Tensor *t = table.lookup(name);
    if (!t || !t->initializer || !t->isFloat() || !t->constant ||
        t->constant->numel() <= 1)
      continue;
    const Const &c = *t->constant;
    for (const std::string &source : sources) {
      Tensor *s = table.lookup(source);
      // Only of a source not itself derived: no cycle of transposes.
      if (s && s != t && s->initializer && s->isFloat() && s->constant &&
          s->derived == Tensor::Derived::None &&
          isTransposeOf(c, *s->constant)) {
        t->derived = Tensor::Derived::Transpose;
        t->derivedFrom = source;
        break;
      }
    }
    if (t->derived != Tensor::Derived::None)
      continue;
    if (std::optional<Const> base = withoutRepeats(c)) {
      t->derived = Tensor::Derived::Broadcast;
      // A param it was folded from may hold the values (a bias broadcast
      // to the batch): the broadcast reads that param, so both train one.
      for (const std::string &source : sources) {
        Tensor *s = table.lookup(source);
        if (s && s != t && s->initializer && s->isFloat() && s->constant &&
            s->derived == Tensor::Derived::None &&
            s->constant->numel() == base->numel() &&
            llvm::equal(s->constant->f, base->f, sameBits)) {
          t->derivedFrom = source;
          break;
        }
      }
      t->base = std::make_shared<const Const>(std::move(*base));
    }
  }
}

void amp::onnx_import::restoreRepeatedFolds(ValueTable &table,
                                            const onnx::GraphProto &graph,
                                            const FoldedSources &folded) {
  llvm::SmallVector<std::pair<Tensor *, const std::vector<std::string> *>>
      firsts;
  for (const onnx::TensorProto &init : graph.initializer()) {
    auto sources = folded.find(init.name());
    Tensor *t = table.lookup(init.name());
    if (sources == folded.end() || !foldedFromWeight(sources->second) || !t ||
        !t->initializer || !t->isFloat() || !t->constant ||
        t->constant->numel() <= 1 || t->derived != Tensor::Derived::None)
      continue;
    auto same = llvm::find_if(firsts, [&](const auto &first) {
      return *first.second == sources->second &&
             first.first->shape == t->shape &&
             llvm::equal(first.first->constant->f, t->constant->f, sameBits);
    });
    if (same == firsts.end()) {
      firsts.push_back({t, &sources->second});
      continue;
    }
    t->derived = Tensor::Derived::Same;
    t->derivedFrom = same->first->name;
  }
}

void amp::onnx_import::restoreTiedEmbeddings(ValueTable &table,
                                             const onnx::GraphProto &graph) {
  auto candidate = [](const Tensor *t) {
    return t && t->initializer && t->isFloat() && t->constant &&
           t->rank() == 2 && t->constant->numel() > 1 &&
           t->derived == Tensor::Derived::None;
  };
  llvm::SmallVector<Tensor *> tables;
  for (const onnx::NodeProto &node : graph.node()) {
    if (node.op_type() != "Gather" || node.input_size() < 1)
      continue;
    Tensor *s = table.lookup(node.input(0));
    if (candidate(s) && !llvm::is_contained(tables, s) &&
        !llvm::all_equal(s->constant->f))
      tables.push_back(s);
  }
  if (tables.empty())
    return;
  for (const onnx::TensorProto &init : graph.initializer()) {
    Tensor *t = table.lookup(init.name());
    if (!candidate(t) || !llvm::StringRef(init.name()).starts_with("onnx::"))
      continue;
    for (Tensor *s : tables)
      if (s != t && isTransposeOf(*t->constant, *s->constant)) {
        t->derived = Tensor::Derived::Transpose;
        t->derivedFrom = s->name;
        break;
      }
  }
}
