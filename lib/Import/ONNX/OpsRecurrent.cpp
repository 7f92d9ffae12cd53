//===- OpsRecurrent.cpp - RNN, GRU and LSTM unrolled over time ------------===//
//
// ONNX's recurrent ops (opsets 7 to 22), as PyTorch's exporters write
// nn.RNN, nn.GRU and nn.LSTM (one node per layer; packed sequences as
// sequence_lens), unrolled over the sequence, which the importer knows:
// - the input projection of every step is one nn.matmul of X [T * B, I]
//   by W's gates (transpose_b), with both biases added once;
// - each step is an nn.matmul of the hidden state by R's gates, then the
//   gates' formulas of nn ops (nn.slice of the gates, the activations of
//   the node, NamedActivation.h);
// - the directions of a bidirectional node run one after the other and
//   are concatenated along Y's direction axis.
// Being nn ops, the steps train with nn-autodiff (backpropagation through
// time) and take the AMP policy: the matmuls in f16/bf16, sigmoid and tanh
// as the policy says.
//
// sequence_lens (a run-time input) masks each step with nn.compare of the
// lengths with the step's index: a row past its length keeps its state and
// gives zeros in Y, so Y_h and Y_c hold each row's last valid state (in a
// reverse direction, the state after its first step), as PyTorch's packed
// sequences give them (test/Import/recurrent.test).
//
//===----------------------------------------------------------------------===//

#include "Formula.h"
#include "NamedActivation.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include <optional>

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

namespace {

enum class Cell { RNN, GRU, LSTM };

/// The most steps (sequence length times directions) a node unrolls to:
/// a bidirectional layer over 8192 tokens, 18 nn ops per LSTM step.
constexpr int64_t kMaxSteps = 16384;

/// A node, read and checked: its inputs as [direction, ...] values with
/// the sequence first (layout 0).
struct Recurrent {
  Cell cell;
  int64_t seq = 0, batch = 0, inputSize = 0, hidden = 0, dirs = 1;
  /// Gates per direction: 1 (RNN), 3 (GRU: z, r, h), 4 (LSTM: i, o, f, c).
  int64_t gates = 1;
  bool reverse = false;
  bool batchFirst = false;
  std::optional<float> clip;
  bool linearBeforeReset = false;
  /// The activations of each direction, in a row.
  llvm::SmallVector<NamedActivation> acts;
  unsigned actsPerDir = 1;
  Value x, w, r, b, h0, c0, p;
  /// The lengths as [batch, 1] (INT32 or INT64), or null.
  Value lens;
};

/// What one direction gives: Y's rows in time order, the last states.
struct DirectionResult {
  llvm::SmallVector<Value> ys;
  Value h, c;
};

} // namespace

/// Direction `d` of a [D, ...] input `v` as a tensor without the direction
/// dimension.
static Value direction(Formula &f, Value v, int64_t d) {
  llvm::SmallVector<int64_t> s = shapeOf(v);
  llvm::SmallVector<int64_t> offsets(s.size(), 0), sizes(s);
  offsets[0] = d;
  sizes[0] = 1;
  Value one = f.slice(v, offsets, sizes);
  return f.reshape(one, llvm::ArrayRef<int64_t>(s).drop_front());
}

/// Columns [k * H, (k + 1) * H) of the [B, G * H] gate values `g`.
static Value gate(Formula &f, const Recurrent &n, Value g, int64_t k) {
  return f.slice(g, {0, k * n.hidden}, {n.batch, n.hidden});
}

/// Elements [k * H, (k + 1) * H) of a 1-D vector (biases, peepholes).
static Value part(Formula &f, Value v, int64_t k, int64_t hidden) {
  return f.slice(v, {k * hidden}, {hidden});
}

/// A transposed-weight product: x [M, K] times w [N, K] as [M, N].
static Value times(Formula &f, NodeContext &nc, Value x, Value w) {
  return f.op<nn::MatmulOp>(
      {x, w}, {nc.named("transpose_b", nc.builder.getUnitAttr())});
}

static Value clipped(Formula &f, const Recurrent &n, Value x) {
  return n.clip ? f.clamp(x, -*n.clip, *n.clip) : x;
}

/// The activation `k` of direction `d`, of `x` clipped.
static Value activate(Formula &f, const Recurrent &n, int64_t d, unsigned k,
                      Value x) {
  return applyNamedActivation(f, n.acts[d * n.actsPerDir + k],
                              clipped(f, n, x));
}

/// Runs direction `d` of the node over the whole sequence.
static DirectionResult runDirection(NodeContext &nc, Formula &f,
                                    const Recurrent &n, int64_t d,
                                    bool reverse) {
  const int64_t T = n.seq, B = n.batch, H = n.hidden, G = n.gates;
  Value w = direction(f, n.w, d), r = direction(f, n.r, d);

  // Both biases where they add to the input projection; GRU's recurrent
  // bias of the h gate stays apart when the reset applies after R.
  Value inBias, hRecBias;
  if (n.b) {
    Value bd = direction(f, n.b, d);
    Value wb = f.slice(bd, {0}, {G * H});
    Value rb = f.slice(bd, {G * H}, {G * H});
    if (n.cell == Cell::GRU && n.linearBeforeReset) {
      Value zr = f.slice(rb, {0}, {2 * H});
      Value rbNoH = f.concat({zr, nc.splat({H}, 0.0f)}, 0);
      inBias = f.op<nn::AddOp>({wb, rbNoH});
      hRecBias = part(f, rb, 2, H);
    } else {
      inBias = f.op<nn::AddOp>({wb, rb});
    }
  }
  Value x2 = f.reshape(n.x, {T * B, n.inputSize});
  Value xp = times(f, nc, x2, w);
  if (inBias)
    xp = f.op<nn::AddOp>({xp, inBias});
  xp = f.reshape(xp, {T, B, G * H});

  // GRU without linear_before_reset multiplies r * h by R's h gate alone.
  Value rZR, rH;
  if (n.cell == Cell::GRU && !n.linearBeforeReset) {
    rZR = f.slice(r, {0, 0}, {2 * H, H});
    rH = f.slice(r, {2 * H, 0}, {H, H});
  }
  Value pi, po, pf;
  if (n.p) {
    Value pd = direction(f, n.p, d);
    pi = part(f, pd, 0, H);
    po = part(f, pd, 1, H);
    pf = part(f, pd, 2, H);
  }

  DirectionResult res;
  res.h = n.h0 ? direction(f, n.h0, d) : nc.splat({B, H}, 0.0f);
  if (n.cell == Cell::LSTM)
    res.c = n.c0 ? direction(f, n.c0, d) : nc.splat({B, H}, 0.0f);
  res.ys.assign(T, Value());
  for (int64_t s = 0; s < T && !f.failed(); ++s) {
    const int64_t t = reverse ? T - 1 - s : s;
    Value xt = f.reshape(f.slice(xp, {t, 0, 0}, {1, B, G * H}), {B, G * H});
    Value h = res.h, hNew, cNew;
    switch (n.cell) {
    case Cell::RNN: {
      Value pre = f.op<nn::AddOp>({xt, times(f, nc, h, r)});
      hNew = activate(f, n, d, 0, pre);
      break;
    }
    case Cell::GRU: {
      Value rec = times(f, nc, h, n.linearBeforeReset ? r : rZR);
      Value z = activate(
          f, n, d, 0, f.op<nn::AddOp>({gate(f, n, xt, 0), gate(f, n, rec, 0)}));
      Value rg = activate(
          f, n, d, 0, f.op<nn::AddOp>({gate(f, n, xt, 1), gate(f, n, rec, 1)}));
      Value hRec;
      if (n.linearBeforeReset) {
        hRec = gate(f, n, rec, 2);
        if (hRecBias)
          hRec = f.op<nn::AddOp>({hRec, hRecBias});
        hRec = f.op<nn::MulOp>({rg, hRec});
      } else {
        hRec = times(f, nc, f.op<nn::MulOp>({rg, h}), rH);
      }
      Value cand =
          activate(f, n, d, 1, f.op<nn::AddOp>({gate(f, n, xt, 2), hRec}));
      // (1 - z) * cand + z * h.
      Value delta = f.op<nn::SubOp>({h, cand});
      hNew = f.op<nn::AddOp>({cand, f.op<nn::MulOp>({z, delta})});
      break;
    }
    case Cell::LSTM: {
      Value g = f.op<nn::AddOp>({xt, times(f, nc, h, r)});
      Value c = res.c;
      Value iPre = gate(f, n, g, 0), oPre = gate(f, n, g, 1),
            fPre = gate(f, n, g, 2);
      if (n.p) {
        iPre = f.op<nn::AddOp>({iPre, f.op<nn::MulOp>({pi, c})});
        fPre = f.op<nn::AddOp>({fPre, f.op<nn::MulOp>({pf, c})});
      }
      Value i = activate(f, n, d, 0, iPre);
      Value fg = activate(f, n, d, 0, fPre);
      Value cand = activate(f, n, d, 1, gate(f, n, g, 3));
      cNew = f.op<nn::AddOp>(
          {f.op<nn::MulOp>({fg, c}), f.op<nn::MulOp>({i, cand})});
      if (n.p)
        oPre = f.op<nn::AddOp>({oPre, f.op<nn::MulOp>({po, cNew})});
      Value o = activate(f, n, d, 0, oPre);
      hNew = f.op<nn::MulOp>(
          {o, applyNamedActivation(f, n.acts[d * n.actsPerDir + 2], cNew)});
      break;
    }
    }
    if (!n.lens) {
      res.ys[t] = hNew;
      res.h = hNew;
      res.c = cNew;
      continue;
    }
    // Rows whose length is at most t keep their state and give zeros.
    Value live = f.compare(n.lens, nn::ComparePredicate::GT,
                           nc.intScalar(getElementTypeOrSelf(n.lens), t));
    res.ys[t] = f.op<nn::WhereOp>({live, hNew, f.constant(0.0f)});
    res.h = f.op<nn::WhereOp>({live, hNew, h});
    if (cNew)
      res.c = f.op<nn::WhereOp>({live, cNew, res.c});
  }
  return res;
}

/// Reads and checks the node's inputs and attributes.
static FailureOr<Recurrent> readRecurrent(NodeContext &nc, Formula &f,
                                          Cell cell) {
  Recurrent n;
  n.cell = cell;
  n.gates = cell == Cell::RNN ? 1 : cell == Cell::GRU ? 3 : 4;
  n.actsPerDir = cell == Cell::RNN ? 1 : cell == Cell::GRU ? 2 : 3;
  FailureOr<std::string> dir = nc.stringAttr("direction", "forward");
  FailureOr<int64_t> hiddenAttr = nc.intAttr("hidden_size", 0);
  FailureOr<int64_t> layout = nc.intAttr("layout", 0);
  FailureOr<int64_t> lbr = nc.intAttr("linear_before_reset", 0);
  FailureOr<int64_t> inputForget = nc.intAttr("input_forget", 0);
  FailureOr<Value> x = nc.floatValue(0), w = nc.floatValue(1),
                   r = nc.floatValue(2);
  if (failed(dir) || failed(hiddenAttr) || failed(layout) || failed(lbr) ||
      failed(inputForget) || failed(x) || failed(w) || failed(r))
    return failure();
  if (*dir == "bidirectional")
    n.dirs = 2;
  else if (*dir == "reverse")
    n.reverse = true;
  else if (*dir != "forward")
    return nc.error() << "direction must be forward, reverse or "
                         "bidirectional, got '"
                      << *dir << "'",
           failure();
  if (*layout != 0 && *layout != 1)
    return nc.error() << "layout must be 0 or 1, got " << *layout, failure();
  n.batchFirst = *layout == 1;
  n.linearBeforeReset = *lbr != 0;
  if (*inputForget != 0)
    return nc.error() << "input_forget (coupled input and forget gates) is "
                         "not supported",
           failure();
  if (nc.attr("clip")) {
    FailureOr<float> clip = nc.floatAttr("clip", 0.0f);
    if (failed(clip))
      return failure();
    if (!(*clip > 0.0f))
      return nc.error() << "clip must be positive, got " << *clip, failure();
    n.clip = *clip;
  }

  // Shapes: X [T, B, I] (layout 1: [B, T, I]), W [D, G * H, I],
  // R [D, G * H, H], B [D, 2 * G * H].
  llvm::SmallVector<int64_t> xs = shapeOf(*x), ws = shapeOf(*w),
                             rs = shapeOf(*r);
  if (xs.size() != 3)
    return nc.error() << "X must be 3-D, got [" << xs << "]", failure();
  n.seq = xs[n.batchFirst ? 1 : 0];
  n.batch = xs[n.batchFirst ? 0 : 1];
  n.inputSize = xs[2];
  if (n.seq < 1 || n.batch < 1 || n.inputSize < 1)
    return nc.error() << "X [" << xs
                      << "] must have at least one step, row and feature",
           failure();
  if (rs.size() != 3 || rs[2] < 1)
    return nc.error() << "R must be 3-D [num_directions, " << n.gates
                      << " * hidden_size, hidden_size], got [" << rs << "]",
           failure();
  n.hidden = rs[2];
  if (*hiddenAttr && *hiddenAttr != n.hidden)
    return nc.error() << "hidden_size " << *hiddenAttr
                      << " differs from R's last dimension " << n.hidden,
           failure();
  const int64_t GH = n.gates * n.hidden;
  auto expect = [&](llvm::StringRef what, llvm::ArrayRef<int64_t> got,
                    llvm::ArrayRef<int64_t> want) -> LogicalResult {
    if (got == want)
      return success();
    return nc.error() << what << " must be [" << want << "] (num_directions "
                      << n.dirs << ", hidden_size " << n.hidden << "), got ["
                      << got << "]",
           failure();
  };
  if (failed(expect("R", rs, {n.dirs, GH, n.hidden})) ||
      failed(expect("W", ws, {n.dirs, GH, n.inputSize})))
    return failure();
  if (n.seq * n.dirs > kMaxSteps)
    return nc.error() << "the sequence of " << n.seq << " steps in " << n.dirs
                      << " direction(s) is more than the " << kMaxSteps
                      << " steps the importer unrolls",
           failure();
  n.x = n.batchFirst ? f.transpose(*x, {1, 0, 2}) : *x;
  n.w = *w;
  n.r = *r;

  // Optional inputs: B, sequence_lens, initial_h, and LSTM's initial_c, P.
  auto optionalFloat = [&](unsigned i, llvm::StringRef what,
                           llvm::ArrayRef<int64_t> want,
                           bool batchFirst) -> FailureOr<Value> {
    if (!nc.hasInput(i))
      return Value();
    FailureOr<Value> v = nc.floatValue(i);
    if (failed(v))
      return failure();
    llvm::SmallVector<int64_t> got = shapeOf(*v), asGiven(want);
    if (batchFirst)
      std::swap(asGiven[0], asGiven[1]);
    if (failed(expect(what, got, asGiven)))
      return failure();
    return batchFirst ? f.transpose(*v, {1, 0, 2}) : *v;
  };
  FailureOr<Value> b = optionalFloat(3, "B", {n.dirs, 2 * GH}, false);
  FailureOr<Value> h0 =
      failed(b) ? b
                : optionalFloat(5, "initial_h", {n.dirs, n.batch, n.hidden},
                                n.batchFirst);
  if (failed(b) || failed(h0))
    return failure();
  n.b = *b;
  n.h0 = *h0;
  if (cell == Cell::LSTM) {
    FailureOr<Value> c0 = optionalFloat(
        6, "initial_c", {n.dirs, n.batch, n.hidden}, n.batchFirst);
    FailureOr<Value> p =
        failed(c0) ? c0 : optionalFloat(7, "P", {n.dirs, 3 * n.hidden}, false);
    if (failed(c0) || failed(p))
      return failure();
    n.c0 = *c0;
    n.p = *p;
  }
  if (nc.hasInput(4)) {
    FailureOr<Tensor *> t = nc.input(4);
    if (failed(t))
      return failure();
    using TP = onnx::TensorProto;
    if (((*t)->dtype != TP::INT32 && (*t)->dtype != TP::INT64) ||
        (*t)->shape != llvm::ArrayRef<int64_t>{n.batch})
      return nc.error() << "sequence_lens must be INT32 or INT64 of shape ["
                        << n.batch << "], got " << dataTypeName((*t)->dtype)
                        << " [" << (*t)->shape << "]",
             failure();
    // Lengths known at import time must lie in [0, T]; when all are T
    // they mask nothing.
    bool full = false;
    if ((*t)->constant) {
      std::vector<int64_t> lens = (*t)->constant->ints();
      for (int64_t len : lens)
        if (len < 0 || len > n.seq)
          return nc.error() << "sequence length " << len << " is outside [0, "
                            << n.seq << "]",
                 failure();
      full = llvm::all_of(lens, [&](int64_t len) { return len == n.seq; });
    }
    if (!full) {
      FailureOr<Value> lens = nc.anyValue(4);
      if (failed(lens))
        return failure();
      n.lens = f.reshape(*lens, {n.batch, 1});
    }
  }

  static const llvm::StringRef kRnnActs[] = {"Tanh"};
  static const llvm::StringRef kGruActs[] = {"Sigmoid", "Tanh"};
  static const llvm::StringRef kLstmActs[] = {"Sigmoid", "Tanh", "Tanh"};
  llvm::ArrayRef<llvm::StringRef> one =
      cell == Cell::RNN   ? llvm::ArrayRef(kRnnActs)
      : cell == Cell::GRU ? llvm::ArrayRef(kGruActs)
                          : llvm::ArrayRef(kLstmActs);
  llvm::SmallVector<llvm::StringRef> defaults;
  for (int64_t d = 0; d < n.dirs; ++d)
    defaults.append(one.begin(), one.end());
  FailureOr<llvm::SmallVector<NamedActivation>> acts =
      readNamedActivations(nc, defaults, defaults.size());
  if (failed(acts) || f.failed())
    return failure();
  n.acts = std::move(*acts);
  return n;
}

static LogicalResult importRecurrent(NodeContext &nc, Cell cell) {
  Formula f(nc);
  FailureOr<Recurrent> node = readRecurrent(nc, f, cell);
  if (failed(node))
    return failure();
  const Recurrent &n = *node;
  const int64_t B = n.batch, H = n.hidden;
  llvm::SmallVector<Value> ys, hs, cs;
  for (int64_t d = 0; d < n.dirs && !f.failed(); ++d) {
    DirectionResult res = runDirection(nc, f, n, d, n.reverse || d == 1);
    if (nc.hasOutput(0)) {
      // [T, 1, B, H] in time order.
      llvm::SmallVector<Value> steps;
      for (Value y : res.ys)
        steps.push_back(f.reshape(y, {1, 1, B, H}));
      ys.push_back(f.concat(steps, 0));
    }
    hs.push_back(f.reshape(res.h, {1, B, H}));
    if (res.c)
      cs.push_back(f.reshape(res.c, {1, B, H}));
  }
  if (f.failed())
    return failure();
  // Y [T, D, B, H] (layout 1: [B, T, D, H]); Y_h, Y_c [D, B, H] (layout 1:
  // [B, D, H]).
  auto stateOutput = [&](unsigned i, llvm::ArrayRef<Value> states) {
    if (!nc.hasOutput(i))
      return success();
    Value s = f.concat(states, 0);
    return f.setOutput(i, n.batchFirst ? f.transpose(s, {1, 0, 2}) : s);
  };
  if (nc.hasOutput(0)) {
    Value y = f.concat(ys, 1);
    if (failed(f.setOutput(0, n.batchFirst ? f.transpose(y, {2, 0, 1, 3}) : y)))
      return failure();
  }
  if (failed(stateOutput(1, hs)))
    return failure();
  if (cell == Cell::LSTM && failed(stateOutput(2, cs)))
    return failure();
  return success();
}

static LogicalResult importRNN(NodeContext &nc) {
  return importRecurrent(nc, Cell::RNN);
}
static LogicalResult importGRU(NodeContext &nc) {
  return importRecurrent(nc, Cell::GRU);
}
static LogicalResult importLSTM(NodeContext &nc) {
  return importRecurrent(nc, Cell::LSTM);
}

void amp::onnx_import::registerRecurrentOps(OpTable &t) {
  const std::vector<std::string> common = {
      "activation_alpha", "activation_beta", "activations", "clip",
      "direction",        "hidden_size",     "layout"};
  auto with = [&](std::initializer_list<std::string> more) {
    std::vector<std::string> attrs = common;
    attrs.insert(attrs.end(), more);
    return attrs;
  };
  t["RNN"] = {importRNN, common};
  t["GRU"] = {importGRU, with({"linear_before_reset"})};
  t["LSTM"] = {importLSTM, with({"input_forget"})};
}
