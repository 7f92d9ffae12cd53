//===- OpsEinsum.cpp - Einsum as transposes, reshapes and matmuls ---------===//
//
// Einsum of any number of FLOAT operands, contracted left to right in
// pairs: labels only one side has and nothing later needs are summed first
// (nn.reduce_sum); the rest become a batched matmul of [batch, M, K] and
// [batch, K, N] (nn.transpose and nn.reshape around nn.matmul, which runs
// on tensor cores under AMP and trains like any matmul; an operand laid out
// [batch, N, K] or [batch, K, M] is read transposed by the matmul). Ellipses
// broadcast as numpy's, and a label of size 1 on one side broadcasts to the
// other's. A label repeated within one operand is its diagonal first (a
// strided nn.slice of the two dims joined; summed away, a trace), as
// numpy's `ii->i` and `ii->`.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include <map>

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

namespace {

/// A value and one label per dimension. Labels are letters; an ellipsis's
/// dimensions get the characters '0', '1', ... (right-aligned across the
/// operands, as numpy broadcasts them).
struct Term {
  Value value;
  std::string labels;
};

} // namespace

/// `t` with each label it repeats taken once: the diagonal of the two dims
/// (moved last by nn.transpose, joined by nn.reshape, read with stride
/// n + 1 by nn.slice), which trains through the slice.
static FailureOr<Term> takeDiagonals(NodeContext &nc, unsigned operand,
                                     Term t) {
  for (;;) {
    size_t first = std::string::npos, second = 0;
    for (size_t d = 0; d < t.labels.size(); ++d)
      if (t.labels.find(t.labels[d]) != d) {
        first = t.labels.find(t.labels[d]);
        second = d;
        break;
      }
    if (first == std::string::npos)
      return t;
    const char c = t.labels[first];
    llvm::SmallVector<int64_t> shape = shapeOf(t.value);
    if (shape[first] != shape[second])
      return nc.error() << "operand " << operand << " repeats label '" << c
                        << "' with sizes " << shape[first] << " and "
                        << shape[second],
             failure();
    const int64_t n = shape[first];
    llvm::SmallVector<int64_t> perm, joined, offsets, strides;
    std::string labels;
    for (size_t d = 0; d < shape.size(); ++d)
      if (d != first && d != second) {
        perm.push_back(d);
        joined.push_back(shape[d]);
        labels.push_back(t.labels[d]);
      }
    perm.push_back(first);
    perm.push_back(second);
    llvm::SmallVector<int64_t> diagonal(joined);
    joined.push_back(n * n);
    diagonal.push_back(n);
    offsets.assign(diagonal.size(), 0);
    strides.assign(diagonal.size(), 1);
    strides.back() = n + 1;
    FailureOr<Value> v = t.value;
    if (second != first + 1 || second + 1 != shape.size())
      v = nc.create<nn::TransposeOp>({t.value},
                                     {nc.named("perm", nc.i64Array(perm))});
    if (succeeded(v))
      v = nc.reshape(*v, joined);
    if (succeeded(v))
      v = nc.slice(*v, offsets, diagonal, strides);
    if (failed(v))
      return failure();
    t.value = *v;
    t.labels = labels + c;
  }
}

static bool isLabel(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/// `term`'s labels with its ellipsis (if any) expanded for an operand of
/// `rank` whose ellipsis covers `rank - letters` dims, right-aligned among
/// `ellipsisRank` ellipsis labels.
static std::string expandEllipsis(llvm::StringRef term, int64_t count,
                                  int64_t ellipsisRank) {
  std::string out;
  size_t dots = term.find("...");
  if (dots == llvm::StringRef::npos)
    return term.str();
  out = term.substr(0, dots).str();
  for (int64_t i = ellipsisRank - count; i < ellipsisRank; ++i)
    out.push_back(char('0' + i));
  out += term.substr(dots + 3).str();
  return out;
}

/// Checks one term's spelling: letters and at most one "...".
static LogicalResult checkTerm(NodeContext &nc, llvm::StringRef term,
                               llvm::StringRef what) {
  size_t dots = term.find("...");
  if (dots != llvm::StringRef::npos &&
      term.find("...", dots + 3) != llvm::StringRef::npos)
    return nc.error() << what << " '" << term << "' has two ellipses",
           failure();
  std::string rest = term.str();
  if (dots != llvm::StringRef::npos)
    rest.erase(dots, 3);
  for (char c : rest)
    if (!isLabel(c))
      return nc.error() << what << " '" << term << "' has '" << c
                        << "'; labels are letters (and one '...')",
             failure();
  return success();
}

/// The dims of `t` in the order of `labels` (a permutation of its own).
static FailureOr<Value> permuteTo(NodeContext &nc, const Term &t,
                                  llvm::StringRef labels) {
  llvm::SmallVector<int64_t> perm;
  for (char c : labels)
    perm.push_back(int64_t(t.labels.find(c)));
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i)
    identity &= perm[i] == int64_t(i);
  if (identity)
    return t.value;
  return nc.create<nn::TransposeOp>({t.value},
                                    {nc.named("perm", nc.i64Array(perm))});
}

/// `t` summed over its labels not in `keep`.
static FailureOr<Term> sumOthers(NodeContext &nc, const Term &t,
                                 llvm::StringRef keep) {
  llvm::SmallVector<int64_t> axes;
  Term out;
  for (size_t i = 0; i < t.labels.size(); ++i) {
    if (keep.contains(t.labels[i]))
      out.labels.push_back(t.labels[i]);
    else
      axes.push_back(int64_t(i));
  }
  if (axes.empty())
    return t;
  FailureOr<Value> v = nc.create<nn::ReduceSumOp>(
      {t.value}, {nc.named("axes", nc.i64Array(axes))});
  if (failed(v))
    return failure();
  out.value = *v;
  return out;
}

/// The product of the sizes of `labels`.
static int64_t product(llvm::StringRef labels,
                       const std::map<char, int64_t> &size) {
  int64_t p = 1;
  for (char c : labels)
    p *= size.at(c);
  return p;
}

/// The sizes of `labels`.
static llvm::SmallVector<int64_t> sizesOf(llvm::StringRef labels,
                                          const std::map<char, int64_t> &size) {
  llvm::SmallVector<int64_t> s;
  for (char c : labels)
    s.push_back(size.at(c));
  return s;
}

/// a and b contracted, keeping the labels in `keep`: a batched matmul of
/// [batch, M, K] by [batch, K, N]; the result's labels are batch, M, N.
static FailureOr<Term> contract(NodeContext &nc, const Term &a0, const Term &b0,
                                llvm::StringRef keep,
                                const std::map<char, int64_t> &size) {
  // Labels only one side has and nothing later needs: summed now.
  std::string keepA = keep.str() + b0.labels, keepB = keep.str() + a0.labels;
  FailureOr<Term> a = sumOthers(nc, a0, keepA);
  FailureOr<Term> b = failed(a) ? a : sumOthers(nc, b0, keepB);
  if (failed(b))
    return failure();
  std::string batch, m, k, n;
  for (char c : a->labels) {
    bool inB = b->labels.find(c) != std::string::npos;
    if (inB)
      (keep.contains(c) ? batch : k).push_back(c);
    else
      m.push_back(c);
  }
  for (char c : b->labels)
    if (a->labels.find(c) == std::string::npos)
      n.push_back(c);
  const int64_t nb = product(batch, size), nm = product(m, size),
                nk = product(k, size), nn_ = product(n, size);
  // An operand already laid out [batch, K, M] (or [batch, N, K]) is read
  // transposed by the matmul instead of through nn.transpose (attention's
  // q k^T).
  const bool transA = a->labels == batch + k + m && !m.empty() && !k.empty();
  const bool transB = b->labels == batch + n + k && !n.empty() && !k.empty();
  FailureOr<Value> x =
      permuteTo(nc, *a, transA ? batch + k + m : batch + m + k);
  FailureOr<Value> y =
      failed(x) ? x : permuteTo(nc, *b, transB ? batch + n + k : batch + k + n);
  if (failed(y))
    return failure();
  llvm::SmallVector<int64_t> xs{nm, nk}, ys{nk, nn_};
  if (transA)
    std::swap(xs[0], xs[1]);
  if (transB)
    std::swap(ys[0], ys[1]);
  if (nb != 1) {
    xs.insert(xs.begin(), nb);
    ys.insert(ys.begin(), nb);
  }
  x = nc.reshape(*x, xs);
  y = failed(x) ? x : nc.reshape(*y, ys);
  llvm::SmallVector<NamedAttribute, 2> attrs;
  if (transA)
    attrs.push_back(nc.named("transpose_a", nc.builder.getUnitAttr()));
  if (transB)
    attrs.push_back(nc.named("transpose_b", nc.builder.getUnitAttr()));
  FailureOr<Value> z = failed(y) ? y : nc.create<nn::MatmulOp>({*x, *y}, attrs);
  Term out;
  out.labels = batch + m + n;
  if (succeeded(z))
    z = nc.reshape(*z, sizesOf(out.labels, size));
  if (failed(z))
    return failure();
  out.value = *z;
  return out;
}

static LogicalResult importEinsum(NodeContext &nc) {
  FailureOr<std::string> equationAttr = nc.stringAttr("equation", "");
  if (failed(equationAttr))
    return failure();
  std::string eq;
  for (char c : *equationAttr)
    if (c != ' ')
      eq.push_back(c);
  if (eq.empty())
    return nc.error() << "the equation is missing", failure();
  llvm::StringRef eqRef(eq);
  auto [lhs, rhs] = eqRef.split("->");
  const bool explicitOutput = eqRef.contains("->");
  llvm::SmallVector<llvm::StringRef> inputs;
  lhs.split(inputs, ',');
  if (inputs.size() != nc.numInputs())
    return nc.error() << "the equation has " << inputs.size()
                      << " operands; the node has " << nc.numInputs()
                      << " inputs",
           failure();

  // Values, ranks and ellipsis ranks.
  std::vector<Term> terms;
  int64_t ellipsisRank = 0;
  std::vector<int64_t> ellipsisCounts;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (failed(checkTerm(nc, inputs[i], "operand")))
      return failure();
    FailureOr<Value> v = nc.floatValue(i);
    if (failed(v))
      return failure();
    int64_t rank = shapeOf(*v).size();
    bool hasDots = inputs[i].contains("...");
    int64_t letters = int64_t(inputs[i].size()) - (hasDots ? 3 : 0);
    int64_t count = rank - letters;
    if (count < 0 || (!hasDots && count != 0))
      return nc.error() << "operand " << i << " ('" << inputs[i]
                        << "') has rank " << rank,
             failure();
    if (count > 10)
      return nc.error() << "an ellipsis covers " << count
                        << " dims; at most 10 are supported",
             failure();
    ellipsisRank = std::max(ellipsisRank, count);
    ellipsisCounts.push_back(count);
    terms.push_back({*v, ""});
  }
  std::map<char, int64_t> size;
  std::map<char, int> uses;
  for (size_t i = 0; i < terms.size(); ++i) {
    terms[i].labels =
        expandEllipsis(inputs[i], ellipsisCounts[i], ellipsisRank);
    // A repeated label counts as used twice (numpy's implicit output leaves
    // it out: `ii` is a trace).
    for (char c : terms[i].labels)
      ++uses[c];
    FailureOr<Term> t = takeDiagonals(nc, i, terms[i]);
    if (failed(t))
      return failure();
    terms[i] = *t;
    llvm::SmallVector<int64_t> shape = shapeOf(terms[i].value);
    for (size_t d = 0; d < shape.size(); ++d) {
      char c = terms[i].labels[d];
      int64_t &s = size.emplace(c, shape[d]).first->second;
      if (s == 1)
        s = shape[d];
      else if (shape[d] != 1 && shape[d] != s)
        return nc.error() << "label '" << c << "' has sizes " << s << " and "
                          << shape[d],
               failure();
    }
  }
  // A label of size 1 on one operand broadcasts to the others' size.
  for (Term &t : terms) {
    llvm::SmallVector<int64_t> shape = shapeOf(t.value), want(shape);
    for (size_t d = 0; d < shape.size(); ++d)
      want[d] = size[t.labels[d]];
    if (want != shape) {
      FailureOr<Value> b = nc.createTyped<nn::BroadcastToOp>(
          RankedTensorType::get(want, nc.builder.getF32Type()), {t.value});
      if (failed(b))
        return failure();
      t.value = *b;
    }
  }

  // The output's labels: explicit, or the ellipsis then the labels used
  // once, in alphabetical order (numpy's implicit form).
  std::string output;
  if (explicitOutput) {
    if (failed(checkTerm(nc, rhs, "the output")))
      return failure();
    output = expandEllipsis(rhs, ellipsisRank, ellipsisRank);
    for (size_t i = 0; i < output.size(); ++i) {
      if (!size.count(output[i]))
        return nc.error() << "output label '" << output[i]
                          << "' is in no operand",
               failure();
      if (output.find(output[i]) != i)
        return nc.error() << "the output repeats label '" << output[i] << "'",
               failure();
    }
  } else {
    for (int64_t i = 0; i < ellipsisRank; ++i)
      output.push_back(char('0' + i));
    std::string once;
    for (auto [c, n] : uses)
      if (n == 1 && isLabel(c))
        once.push_back(c);
    llvm::sort(once);
    output += once;
  }

  // Contract left to right, keeping what the output or a later operand
  // needs.
  Term acc = terms[0];
  for (size_t i = 1; i < terms.size(); ++i) {
    std::string keep = output;
    for (size_t j = i + 1; j < terms.size(); ++j)
      keep += terms[j].labels;
    FailureOr<Term> r = contract(nc, acc, terms[i], keep, size);
    if (failed(r))
      return failure();
    acc = *r;
  }
  FailureOr<Term> summed = sumOthers(nc, acc, output);
  if (failed(summed))
    return failure();
  FailureOr<Value> y = permuteTo(nc, *summed, output);
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

void amp::onnx_import::registerEinsumOps(OpTable &t) {
  t["Einsum"] = {importEinsum, {"equation"}};
}
