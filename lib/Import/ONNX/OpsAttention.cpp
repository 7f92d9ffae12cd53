//===- OpsAttention.cpp - ONNX's attention and rotary embedding ----------===//
//
// Attention (opsets 23 to 25, as PyTorch's torch.export-based exporter
// writes F.scaled_dot_product_attention from opset 23 on) and
// RotaryEmbedding (opset 23).
//
// Attention imports as one nn.attention, grouped-query attention included
// (nn.attention reads the key/value heads as they are), when nothing asks
// for the scores: no softcap and no qk_matmul_output. Otherwise it is
// built of its ops as the ONNX function body writes it (matmul, scale,
// softcap, bias, softmax, matmul), the key/value heads repeated. Either way
// the bias of a node (its attn_mask, its causal and sliding-window
// frontiers, the padding of nonpad_kv_seqlen) is one additive f32 tensor,
// with one exception: a causal frontier of offset 0 alone is
// nn.attention's `causal`, which skips the blocks above the diagonal.
//
// The semantics are those of ONNX 1.23's specification, which corrected
// the earlier reference without a new opset: the softcap applies before
// the bias, a causal frontier is aligned bottom-right by the count of keys
// before the query block (past_key's length, or nonpad_kv_seqlen minus the
// query length), and a query that no key is allowed for gets zeros.
//
//===----------------------------------------------------------------------===//

#include "Formula.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include <cmath>
#include <limits>

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

/// The node's inputs and attributes, checked and brought to four
/// dimensions: query [B, Hq, Sq, D], key [B, Hkv, Skv, D], value
/// [B, Hkv, Skv, Dv].
struct AttentionNode {
  Value q, k, v;
  bool threeD = false;
  int64_t batch = 0, heads = 0, kvHeads = 0, sq = 0, skv = 0, dv = 0;
  /// The keys of past_key (offset of the causal frontier without
  /// nonpad_kv_seqlen).
  int64_t past = 0;
  float scale = 1.0f;
  float softcap = 0.0f;
  bool causal = false;
  int64_t leftWindow = -1, rightWindow = -1;
  int64_t qkMode = 0;
};

/// The mask's pieces that are known at import time, relative to the
/// in-block query index i and key index j: causal allows j <= i + offset,
/// the window offset - left <= j - i <= offset + right.
struct Frontier {
  bool causal;
  int64_t left, right;
  bool any() const { return causal || left >= 0 || right >= 0; }
};

} // namespace

/// A 3-D input [B, S, H * D] as [B, H, S, D]; a 4-D one as it is.
static Value toHeads(Formula &f, NodeContext &nc, Value x, int64_t heads,
                     StringRef what) {
  llvm::SmallVector<int64_t> s = shapeOf(x);
  if (s.size() == 4)
    return x;
  if (heads < 1 || s[2] % heads != 0) {
    nc.error() << what << "'s hidden size " << s[2]
               << " is not a multiple of its " << heads << " heads";
    return {};
  }
  Value split = f.reshape(x, {s[0], s[1], heads, s[2] / heads});
  return f.transpose(split, {0, 2, 1, 3});
}

/// Reads and checks the node (AttentionNode); past_key and past_value are
/// concatenated before key and value, and outputs 1 and 2 (present_key,
/// present_value) set.
static FailureOr<AttentionNode> readAttention(NodeContext &nc, Formula &f) {
  AttentionNode a;
  FailureOr<int64_t> causal = nc.intAttr("is_causal", 0);
  FailureOr<int64_t> qHeads = nc.intAttr("q_num_heads", 0);
  FailureOr<int64_t> kvHeads = nc.intAttr("kv_num_heads", 0);
  FailureOr<int64_t> mode = nc.intAttr("qk_matmul_output_mode", 0);
  FailureOr<float> softcap = nc.floatAttr("softcap", 0.0f);
  FailureOr<int64_t> precision = nc.intAttr("softmax_precision", 1);
  FailureOr<int64_t> left = nc.intAttr("left_window_size", -1);
  FailureOr<int64_t> right = nc.intAttr("right_window_size", -1);
  FailureOr<Value> q = nc.floatValue(0), k = nc.floatValue(1),
                   v = nc.floatValue(2);
  if (failed(causal) || failed(qHeads) || failed(kvHeads) || failed(mode) ||
      failed(softcap) || failed(precision) || failed(left) || failed(right) ||
      failed(q) || failed(k) || failed(v))
    return failure();
  if (*mode < 0 || *mode > 3)
    return nc.error() << "qk_matmul_output_mode must be 0, 1, 2 or 3, got "
                      << *mode,
           failure();
  if (!(*softcap >= 0.0f) || std::isinf(*softcap))
    return nc.error() << "softcap must be finite and >= 0, got " << *softcap,
           failure();
  // The softmax is f32 whatever the node asks (its input's precision by
  // default): amp's precision policy keeps it f32 under f16 and bf16 AMP.
  using TP = onnx::TensorProto;
  if (*precision != TP::FLOAT && *precision != TP::FLOAT16 &&
      *precision != TP::BFLOAT16 && *precision != TP::DOUBLE)
    return nc.error() << "softmax_precision must be FLOAT, FLOAT16, BFLOAT16 "
                         "or DOUBLE, got "
                      << dataTypeName(int32_t(*precision)),
           failure();
  if (*left < -1 || *right < -1)
    return nc.error() << "left_window_size and right_window_size must be >= "
                         "-1, got "
                      << *left << " and " << *right,
           failure();
  if (*causal && *right >= 0)
    return nc.error() << "right_window_size must be -1 when is_causal is set",
           failure();
  size_t rank = shapeOf(*q).size();
  if ((rank != 3 && rank != 4) || shapeOf(*k).size() != rank ||
      shapeOf(*v).size() != rank)
    return nc.error() << "Q, K and V must all be 3-D [batch, sequence, "
                         "hidden] or all 4-D [batch, heads, sequence, "
                         "head_size]",
           failure();
  a.threeD = rank == 3;
  if (a.threeD && (*qHeads < 1 || *kvHeads < 1))
    return nc.error() << "3-D Q, K and V need q_num_heads and kv_num_heads",
           failure();
  a.q = toHeads(f, nc, *q, *qHeads, "Q");
  Value key = a.q ? toHeads(f, nc, *k, *kvHeads, "K") : Value();
  Value value = key ? toHeads(f, nc, *v, *kvHeads, "V") : Value();
  if (!value || f.failed())
    return failure();
  llvm::SmallVector<int64_t> qs = shapeOf(a.q), ks = shapeOf(key),
                             vs = shapeOf(value);
  if (!a.threeD &&
      ((*qHeads && *qHeads != qs[1]) || (*kvHeads && *kvHeads != ks[1])))
    return nc.error() << "q_num_heads and kv_num_heads (" << *qHeads << ", "
                      << *kvHeads << ") differ from the heads of the 4-D Q and "
                      << "K (" << qs[1] << ", " << ks[1] << ")",
           failure();
  if (ks[0] != qs[0] || vs[0] != qs[0] || ks[1] != vs[1] || ks[3] != qs[3] ||
      ks[2] != vs[2])
    return nc.error() << "K must be [" << qs[0] << ", kv_heads, kv_sequence, "
                      << qs[3] << "] and V [" << qs[0]
                      << ", kv_heads, kv_sequence, v_head_size] with K's heads "
                         "and sequence (as 4-D: Q ["
                      << qs << "], K [" << ks << "], V [" << vs << "])",
           failure();
  if (ks[1] < 1 || qs[1] % ks[1] != 0)
    return nc.error() << "the " << ks[1] << " key/value heads must divide the "
                      << qs[1] << " query heads",
           failure();

  // The cache: past keys and values before the new ones.
  if (nc.hasInput(4) != nc.hasInput(5))
    return nc.error() << "past_key and past_value must be given together",
           failure();
  if (nc.hasInput(4)) {
    FailureOr<Value> pk = nc.floatValue(4), pv = nc.floatValue(5);
    if (failed(pk) || failed(pv))
      return failure();
    if (shapeOf(*pk).size() != 4 || shapeOf(*pv).size() != 4)
      return nc.error() << "past_key and past_value must be 4-D [batch, "
                           "kv_heads, past_sequence, head_size]",
             failure();
    a.past = shapeOf(*pk)[2];
    key = f.concat({*pk, key}, 2);
    value = f.concat({*pv, value}, 2);
  }
  if (!value || f.failed() ||
      (nc.hasOutput(1) && failed(f.setOutput(1, key))) ||
      (nc.hasOutput(2) && failed(f.setOutput(2, value))))
    return failure();
  a.k = key;
  a.v = value;
  a.batch = qs[0];
  a.heads = qs[1];
  a.kvHeads = ks[1];
  a.sq = qs[2];
  a.skv = shapeOf(key)[2];
  a.dv = vs[3];
  a.scale = nc.attr("scale") ? *nc.floatAttr("scale", 0.0f)
                             : 1.0f / std::sqrt(float(qs[3]));
  if (!std::isfinite(a.scale))
    return nc.error() << "scale must be finite, got " << a.scale, failure();
  a.softcap = *softcap;
  a.causal = *causal != 0;
  // A window wider than the queries and keys together bounds nothing (and
  // keeps the offsets it is compared with far from overflow).
  auto bounded = [&](int64_t w) { return w - a.sq > a.skv ? -1 : w; };
  a.leftWindow = bounded(*left);
  a.rightWindow = bounded(*right);
  a.qkMode = *mode;
  return a;
}

/// attn_mask (input 3) as an additive f32 bias, its key dimension padded
/// to the keys with -inf; null when there is none.
static FailureOr<Value> maskBias(NodeContext &nc, Formula &f,
                                 const AttentionNode &a) {
  if (!nc.hasInput(3))
    return Value();
  FailureOr<Tensor *> t = nc.input(3);
  if (failed(t))
    return failure();
  Value bias;
  if ((*t)->dtype == onnx::TensorProto::BOOL) {
    // true takes part: 0; false: -inf.
    FailureOr<Value> m = nc.anyValue(3);
    if (failed(m))
      return failure();
    bias = f.op<nn::WhereOp>({*m, f.constant(0.0f), f.constant(kNegInf)});
  } else {
    FailureOr<Value> m = nc.floatValue(3);
    if (failed(m))
      return failure();
    bias = *m;
  }
  if (!bias)
    return failure();
  llvm::SmallVector<int64_t> s = shapeOf(bias);
  if (s.empty() || s.size() > 4)
    return nc.error() << "attn_mask must have rank 1 to 4, got " << s.size(),
           failure();
  if (s.back() > a.skv)
    return nc.error() << "attn_mask has " << s.back() << " keys, more than the "
                      << a.skv << " of K",
           failure();
  if (s.back() < a.skv) {
    llvm::SmallVector<int64_t> low(s.size(), 0), high(s.size(), 0);
    high.back() = a.skv - s.back();
    bias = f.op<nn::PadOp>(
        {bias},
        {nc.named("low", nc.i64Array(low)), nc.named("high", nc.i64Array(high)),
         nc.named("value", nc.builder.getF32FloatAttr(kNegInf))});
  }
  if (!bias)
    return failure();
  return bias;
}

/// Reserves the import's budget for a [Sq, Skv] constant of ONNX type
/// `dtype` (a frontier of 0 and -inf, or the key offsets j - i).
static LogicalResult reserveScores(NodeContext &nc, const AttentionNode &a,
                                   int32_t dtype) {
  std::optional<int64_t> count = constElementCount({a.sq, a.skv}, dtype);
  if (!count)
    return nc.error() << "the [" << a.sq << ", " << a.skv
                      << "] mask of the queries and keys is larger than the "
                         "importer computes",
           failure();
  return nc.reserveFoldedBytes(*count * constValueBytes(dtype));
}

/// Whether query i may see key j under `fr` at `offset` (the keys before
/// the query block).
static bool allowed(const Frontier &fr, int64_t offset, int64_t i, int64_t j) {
  // How far key j lies right of query i's absolute position.
  int64_t ahead = j - i - offset;
  return !(fr.causal && ahead > 0) && !(fr.left >= 0 && -ahead > fr.left) &&
         !(fr.right >= 0 && ahead > fr.right);
}

/// `bias` plus the frontier `fr` at the offset known at import time, as a
/// [Sq, Skv] constant of 0 and -inf.
static Value addStaticFrontier(NodeContext &nc, Formula &f, Value bias,
                               const AttentionNode &a, const Frontier &fr) {
  if (failed(reserveScores(nc, a, onnx::TensorProto::FLOAT)))
    return {};
  std::vector<float> values(a.sq * a.skv);
  for (int64_t i = 0; i < a.sq; ++i)
    for (int64_t j = 0; j < a.skv; ++j)
      values[i * a.skv + j] = allowed(fr, a.past, i, j) ? 0.0f : kNegInf;
  Value c = nc.constant({a.sq, a.skv}, values);
  return bias ? f.op<nn::AddOp>({bias, c}) : c;
}

/// `bias` plus the bias of nonpad_kv_seqlen (input 6, [B] of INT64, known
/// at run time): keys j >= nonpad[b] are padding, and `fr` (the frontier
/// when there is no past_key) is at offset nonpad[b] - Sq. Each condition
/// compares a constant (j, or j - i) with nonpad[b] plus a constant; the
/// result is [B, 1, Sq, Skv] (or [B, 1, 1, Skv] for the padding alone).
static Value addNonpadBias(NodeContext &nc, Formula &f, Value bias,
                           const AttentionNode &a, const Frontier &fr) {
  FailureOr<Tensor *> t = nc.input(6);
  if (failed(t))
    return {};
  if ((*t)->dtype != onnx::TensorProto::INT64 ||
      (*t)->shape != llvm::SmallVector<int64_t>{a.batch})
    return nc.error() << "nonpad_kv_seqlen must be INT64 of shape [" << a.batch
                      << "]",
           Value();
  FailureOr<Value> lens = nc.anyValue(6);
  if (failed(lens))
    return {};
  std::optional<int64_t> keys =
      constElementCount({a.skv}, onnx::TensorProto::INT64);
  if (!keys)
    return nc.error() << "the " << a.skv
                      << " key positions are more than the importer computes",
           Value();
  if (failed(nc.reserveFoldedBytes(*keys * 8)) ||
      (fr.any() && failed(reserveScores(nc, a, onnx::TensorProto::INT64))))
    return {};
  Value n = f.reshape(*lens, {a.batch, 1, 1, 1});
  auto nPlus = [&](int64_t c) {
    return f.op<nn::AddOp>({n, nc.intScalar(nc.builder.getI64Type(), c)});
  };
  std::vector<int64_t> js(a.skv), ds(fr.any() ? a.sq * a.skv : 0);
  for (int64_t j = 0; j < a.skv; ++j)
    js[j] = j;
  for (size_t k = 0; k < ds.size(); ++k)
    ds[k] = int64_t(k) % a.skv - int64_t(k) / a.skv;
  Value ok = f.compare(nc.constant({a.skv}, js), nn::ComparePredicate::LT, n);
  Value d = fr.any() ? nc.constant({a.sq, a.skv}, ds) : Value();
  // ok and cond: where(ok, cond, ok).
  auto restrict = [&](nn::ComparePredicate p, int64_t c) {
    Value cond = f.compare(d, p, nPlus(c - a.sq));
    ok = f.op<nn::WhereOp>({ok, cond, ok});
  };
  if (fr.causal)
    restrict(nn::ComparePredicate::LE, 0);
  if (fr.right >= 0)
    restrict(nn::ComparePredicate::LE, fr.right);
  if (fr.left >= 0)
    restrict(nn::ComparePredicate::GE, -fr.left);
  Value pad = f.op<nn::WhereOp>({ok, f.constant(0.0f), f.constant(kNegInf)});
  return bias ? f.op<nn::AddOp>({bias, pad}) : pad;
}

/// [B, Hkv, S, D] repeated to [B, Hq, S, D], each key/value head for its
/// Hq / Hkv query heads in a row (the unfused form's; nn.attention reads
/// the heads as they are).
static Value repeatHeads(Formula &f, Value x, const AttentionNode &a) {
  if (a.heads == a.kvHeads)
    return x;
  llvm::SmallVector<int64_t> s = shapeOf(x);
  Value one = f.reshape(x, {s[0], s[1], 1, s[2], s[3]});
  Value spread =
      f.broadcastTo(one, {s[0], s[1], a.heads / a.kvHeads, s[2], s[3]});
  return f.reshape(spread, {s[0], a.heads, s[2], s[3]});
}

/// The attention built of its ops, for a node that needs its scores
/// (softcap, qk_matmul_output, output 3 in the node's mode): the result
/// [B, Hq, Sq, Dv].
static Value unfusedAttention(NodeContext &nc, Formula &f,
                              const AttentionNode &a, Value bias) {
  Value k = repeatHeads(f, a.k, a);
  Value v = repeatHeads(f, a.v, a);
  Value s = f.op<nn::MatmulOp>(
      {a.q, k}, {nc.named("transpose_b", nc.builder.getUnitAttr())});
  s = f.op<nn::MulOp>({s, f.constant(a.scale)});
  Value qk[4];
  qk[0] = s;
  if (a.softcap > 0.0f) {
    s = f.op<nn::DivOp>({s, f.constant(a.softcap)});
    s = f.op<nn::TanhOp>({s});
    s = f.op<nn::MulOp>({s, f.constant(a.softcap)});
  }
  qk[1] = s;
  llvm::SmallVector<int64_t> scoreShape = {a.batch, a.heads, a.sq, a.skv};
  if (bias) {
    s = f.op<nn::AddOp>({s, bias});
    if (s && shapeOf(s) != scoreShape)
      return nc.error() << "attn_mask of shape [" << shapeOf(bias)
                        << "] does not broadcast to the scores [" << scoreShape
                        << "]",
             Value();
  }
  qk[2] = s;
  // A query that no key is allowed for (its bias all -inf) gets zeros, not
  // the softmax's NaN: its scores are zeroed before the softmax and its
  // probabilities after, so that neither value nor gradient is NaN.
  Value dead;
  if (bias) {
    Value rowMax = f.op<nn::ReduceMaxOp>(
        {bias}, {nc.named("axes", nc.i64Array({-1})),
                 nc.named("keep_dims", nc.builder.getUnitAttr())});
    dead = f.compare(rowMax, nn::ComparePredicate::EQ, f.constant(kNegInf));
    s = f.op<nn::WhereOp>({dead, f.constant(0.0f), s});
  }
  Value p = f.op<nn::SoftmaxOp>(
      {s}, {nc.named("axis", nc.builder.getI64IntegerAttr(3))});
  if (dead)
    p = f.op<nn::WhereOp>({dead, f.constant(0.0f), p});
  qk[3] = p;
  if (nc.hasOutput(3) && failed(f.setOutput(3, qk[a.qkMode])))
    return {};
  return f.op<nn::MatmulOp>({p, v});
}

static LogicalResult importAttention(NodeContext &nc) {
  Formula f(nc);
  FailureOr<AttentionNode> node = readAttention(nc, f);
  if (failed(node))
    return failure();
  const AttentionNode &a = *node;
  bool scores = a.softcap > 0.0f || nc.hasOutput(3);
  bool nonpad = nc.hasInput(6);
  Frontier fr{a.causal, a.leftWindow, a.rightWindow};
  // nn.attention's `causal` is the frontier at offset 0 alone.
  bool causalAttr =
      !scores && fr.causal && fr.left < 0 && a.past == 0 && !nonpad;
  if (causalAttr)
    fr.causal = false;
  FailureOr<Value> user = maskBias(nc, f, a);
  if (failed(user))
    return failure();
  Value bias = *user;
  // The frontier's offset is past_key's length, or nonpad[b] - Sq without
  // past_key.
  bool runtimeOffset = nonpad && a.past == 0;
  if (fr.any() && !runtimeOffset &&
      !(bias = addStaticFrontier(nc, f, bias, a, fr)))
    return failure();
  if (nonpad &&
      !(bias = addNonpadBias(nc, f, bias, a,
                             runtimeOffset ? fr : Frontier{false, -1, -1})))
    return failure();
  if (f.failed())
    return failure();

  Value y;
  if (!scores) {
    llvm::SmallVector<Value, 4> operands = {a.q, a.k, a.v};
    if (bias)
      operands.push_back(bias);
    llvm::SmallVector<NamedAttribute, 4> attrs = {
        nc.named("scale", nc.builder.getF32FloatAttr(a.scale)),
        nc.named("operandSegmentSizes",
                 nc.builder.getDenseI32ArrayAttr({1, 1, 1, bias ? 1 : 0, 0}))};
    if (causalAttr)
      attrs.push_back(nc.named("causal", nc.builder.getUnitAttr()));
    FailureOr<ValueRange> r =
        nc.create(nn::AttentionOp::getOperationName(), operands, attrs, 2);
    if (failed(r))
      return failure();
    y = (*r)[0];
  } else if (!(y = unfusedAttention(nc, f, a, bias))) {
    return failure();
  }
  if (a.threeD) {
    y = f.transpose(y, {0, 2, 1, 3});
    y = f.reshape(y, {a.batch, a.sq, a.heads * a.dv});
  }
  return f.setOutput(0, y);
}

/// A cos or sin cache (input `i`): a constant when it is known at import
/// time and no other node has made it a value (an initializer: a table of
/// the positions' angles, no weight, so it does not train even without
/// --constants; the query's and the key's node share it), else its SSA
/// value.
static FailureOr<Value> rotaryCache(NodeContext &nc, unsigned i) {
  FailureOr<Tensor *> t = nc.input(i);
  if (failed(t))
    return failure();
  Tensor &cache = **t;
  if (cache.value || !cache.constant || !cache.isFloat())
    return nc.floatValue(i);
  cache.value = nc.constant(cache.shape, cache.constant->f);
  return cache.value;
}

/// RotaryEmbedding (opset 23): the first rotary_embedding_dim features of
/// each head rotated by the cached angles of its position, in halves or
/// interleaved pairs, the rest passed through; built of nn ops in the
/// input's layout ([B, S, H * D] or [B, H, S, D]).
static LogicalResult importRotaryEmbedding(NodeContext &nc) {
  FailureOr<int64_t> interleaved = nc.intAttr("interleaved", 0);
  FailureOr<int64_t> numHeads = nc.intAttr("num_heads", 0);
  FailureOr<int64_t> rotaryDim = nc.intAttr("rotary_embedding_dim", 0);
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(interleaved) || failed(numHeads) || failed(rotaryDim) || failed(x))
    return failure();
  Formula f(nc);
  llvm::SmallVector<int64_t> xs = shapeOf(*x);
  // [B, S, H, D] (from 3-D) or [B, H, S, D]: the sequence's axis.
  int64_t seqAxis = 2;
  Value x4 = *x;
  if (xs.size() == 3) {
    if (*numHeads < 1 || xs[2] % *numHeads != 0)
      return nc.error() << "a 3-D input needs num_heads dividing its hidden "
                           "size "
                        << xs[2] << ", got " << *numHeads,
             failure();
    seqAxis = 1;
    x4 = f.reshape(*x, {xs[0], xs[1], *numHeads, xs[2] / *numHeads});
  } else if (xs.size() != 4) {
    return nc.error() << "the input must be 3-D [batch, sequence, hidden] or "
                         "4-D [batch, heads, sequence, head_size]",
           failure();
  }
  llvm::SmallVector<int64_t> s4 = shapeOf(x4);
  const int64_t batch = s4[0], seq = s4[seqAxis], head = s4[3];
  const int64_t rot = *rotaryDim == 0 ? head : *rotaryDim;
  if (rot < 2 || rot > head || rot % 2 != 0)
    return nc.error() << "rotary_embedding_dim must be even and in [2, " << head
                      << "] (the head size), got " << rot,
           failure();
  const int64_t half = rot / 2;

  // cos and sin as [B, S, half]: gathered at position_ids, or given so.
  Value cs[2];
  for (unsigned c = 0; c < 2; ++c) {
    FailureOr<Value> cache = rotaryCache(nc, 1 + c);
    if (failed(cache))
      return failure();
    Value v = *cache;
    if (nc.hasInput(3)) {
      FailureOr<Value> ids = nc.anyValue(3);
      if (failed(ids))
        return failure();
      if (shapeOf(*ids) != llvm::SmallVector<int64_t>{batch, seq} ||
          shapeOf(v).size() != 2)
        return nc.error() << "position_ids must be [" << batch << ", " << seq
                          << "] and the caches [max_position, " << half << "]",
               failure();
      v = f.op<nn::EmbeddingOp>({v, *ids});
    }
    if (v && shapeOf(v) != llvm::SmallVector<int64_t>{batch, seq, half})
      return nc.error() << "the cos and sin caches must give [" << batch << ", "
                        << seq << ", " << half
                        << "] (rotary_embedding_dim / 2), got [" << shapeOf(v)
                        << "]",
             failure();
    llvm::SmallVector<int64_t> b4 = {batch, 1, 1, half};
    b4[seqAxis] = seq;
    cs[c] = f.reshape(v, b4);
  }
  Value cos = cs[0], sin = cs[1];
  auto lastSlice = [&](Value v, int64_t offset, int64_t size, int64_t stride) {
    llvm::SmallVector<int64_t> sizes = shapeOf(v), offsets(4, 0), strides(4, 1);
    sizes[3] = size;
    offsets[3] = offset;
    strides[3] = stride;
    return f.slice(v, offsets, sizes, strides);
  };
  Value x1 =
      *interleaved ? lastSlice(x4, 0, half, 2) : lastSlice(x4, 0, half, 1);
  Value x2 =
      *interleaved ? lastSlice(x4, 1, half, 2) : lastSlice(x4, half, half, 1);
  Value real =
      f.op<nn::SubOp>({f.op<nn::MulOp>({cos, x1}), f.op<nn::MulOp>({sin, x2})});
  Value imag =
      f.op<nn::AddOp>({f.op<nn::MulOp>({sin, x1}), f.op<nn::MulOp>({cos, x2})});
  Value rotated;
  if (*interleaved) {
    llvm::SmallVector<int64_t> pair = shapeOf(x1);
    pair.push_back(1);
    Value both = f.concat({f.reshape(real, pair), f.reshape(imag, pair)}, 4);
    llvm::SmallVector<int64_t> out = shapeOf(x1);
    out[3] = rot;
    rotated = f.reshape(both, out);
  } else {
    rotated = f.concat({real, imag}, 3);
  }
  Value y = rot == head
                ? rotated
                : f.concat({rotated, lastSlice(x4, rot, head - rot, 1)}, 3);
  if (xs.size() == 3)
    y = f.reshape(y, xs);
  return f.setOutput(y);
}

void amp::onnx_import::registerAttentionOps(OpTable &t) {
  t["Attention"] = {importAttention,
                    {"is_causal", "kv_num_heads", "q_num_heads",
                     "qk_matmul_output_mode", "scale", "softcap",
                     "softmax_precision", "left_window_size",
                     "right_window_size"}};
  t["RotaryEmbedding"] = {importRotaryEmbedding,
                          {"interleaved", "num_heads", "rotary_embedding_dim"}};
}
