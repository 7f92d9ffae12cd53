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
//    gradient sums over them as PyTorch's parameter's does.
// Values are compared bitwise; a folded initializer that shows neither
// trains as a param of its own, as before.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

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

/// `c` without the dims (of size > 1) along which every slice equals the
/// first, those dims kept with size 1; std::nullopt when there are none.
std::optional<Const> withoutRepeats(const Const &c) {
  Const cur = c;
  bool collapsed = false;
  for (size_t d = 0; d < cur.shape.size(); ++d) {
    const int64_t n = cur.shape[d];
    if (n <= 1)
      continue;
    int64_t inner = 1, outer = 1;
    for (size_t e = d + 1; e < cur.shape.size(); ++e)
      inner *= cur.shape[e];
    for (size_t e = 0; e < d; ++e)
      outer *= cur.shape[e];
    bool repeats = true;
    for (int64_t o = 0; o < outer && repeats; ++o)
      for (int64_t k = 1; k < n && repeats; ++k)
        for (int64_t i = 0; i < inner && repeats; ++i)
          repeats = sameBits(cur.f[(o * n + k) * inner + i],
                             cur.f[(o * n) * inner + i]);
    if (!repeats)
      continue;
    std::vector<float> kept;
    kept.reserve(outer * inner);
    for (int64_t o = 0; o < outer; ++o)
      kept.insert(kept.end(), cur.f.begin() + o * n * inner,
                  cur.f.begin() + (o * n + 1) * inner);
    cur.f = std::move(kept);
    cur.shape[d] = 1;
    collapsed = true;
  }
  if (!collapsed)
    return std::nullopt;
  return cur;
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
      t->base = std::make_shared<const Const>(std::move(*base));
    }
  }
}
