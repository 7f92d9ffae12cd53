//===- FuseAttention.cpp - the attention chain to nn.attention ------------===//
//
// Matches dropout(softmax(scale * q k^T + mask)) v, written out as
// nn.matmul, nn.mul/nn.div, nn.add, nn.softmax, nn.dropout and nn.matmul,
// from its final matmul
// backwards, and replaces it with one nn.attention. Passes.td lists the
// conditions; each is checked where the chain is read.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/NN/Transforms/FuseAttention.h"

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/NN/IR/NNOps.h"
#include "amp/Dialect/NN/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

namespace amp::nn {
#define GEN_PASS_DEF_NNFUSEATTENTION
#include "amp/Dialect/NN/Transforms/Passes.h.inc"
} // namespace amp::nn

using namespace mlir;
using namespace amp;
using namespace amp::nn;

namespace {

using Shape = SmallVector<int64_t>;

/// One attention chain, read from its final matmul.
struct Chain {
  Value query, value, mask;
  /// A training dropout's seed and rate, when one drops the probabilities.
  Value dropoutSeed;
  FloatAttr dropoutRate;
  /// The key: `keySource`, permuted by `keyPerm` unless it is empty, then
  /// reshaped to `keyType` when its type differs.
  Value keySource;
  SmallVector<int64_t> keyPerm;
  RankedTensorType keyType;
  /// Grouped-query attention: with kvGroup > 1 the key and value above are
  /// their heads repeated kvGroup times each, and the fused op reads
  /// `kvKey` and `kvValue` (each reshaped to the type beside it) instead.
  int64_t kvGroup = 1;
  Value kvKey, kvValue;
  RankedTensorType kvKeyType, kvValueType;
  double scale = 1.0;
  /// The ops that the fused op replaces, final matmul first.
  SmallVector<Operation *, 6> ops;
};

RankedTensorType tensorType(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}

/// The value of a scalar float constant: a splat of shape [] or all ones.
std::optional<double> scalarConstant(Value v) {
  DenseFPElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat())
    return std::nullopt;
  if (llvm::any_of(attr.getType().getShape(), [](int64_t d) { return d != 1; }))
    return std::nullopt;
  return attr.getSplatValue<APFloat>().convertToDouble();
}

/// Whether `v` is made by an op of `chain`'s block that only `user` reads
/// and that carries no precision override; returns that op.
template <typename OpT> OpT singleUseProducer(Value v, Operation *user) {
  auto op = v.getDefiningOp<OpT>();
  if (!op || !v.hasOneUse() || op->getBlock() != user->getBlock() ||
      op->hasAttr(AMPDialect::getPrecisionAttrName()))
    return nullptr;
  return op;
}

/// Whether a gradient may flow from `v` to a param: through float values
/// (nn-autodiff gives integer and i1 values none, so a mask made from ids
/// or a bool mask carries none) back to an argument with role param of the
/// enclosing function, or to a block argument that is not a function's (a
/// loop variable: conservatively yes). nn.attention's mask has no
/// derivative, so a learned bias (T5's relative attention, ALiBi made
/// trainable) keeps the unfused ops, whose backward reaches it.
bool mayDependOnParam(Value v) {
  SmallVector<Value> work{v};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value cur = work.pop_back_val();
    if (!isa<FloatType>(getElementTypeOrSelf(cur.getType())) ||
        !seen.insert(cur).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(cur)) {
      auto fn = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
      if (!fn || arg.getOwner() != &fn.getFunctionBody().front() ||
          getArgRole(fn, arg.getArgNumber()) == Role::Param)
        return true;
      continue;
    }
    llvm::append_range(work, cur.getDefiningOp()->getOperands());
  }
  return false;
}

/// `v` without the multiplications by scalar constants it is made of
/// (PyTorch's exported SDPA scales q and k^T each by D^-1/4), whose product
/// goes into `scale`. Such a multiply keeps its other users.
Value peelScalarMuls(Value v, double &scale) {
  while (auto mul = v.getDefiningOp<MulOp>()) {
    if (mul->hasAttr(AMPDialect::getPrecisionAttrName()))
      break;
    bool lhsIsTensor = tensorType(mul.getLhs()) == mul.getType();
    std::optional<double> c =
        scalarConstant(lhsIsTensor ? mul.getRhs() : mul.getLhs());
    if (!c)
      break;
    scale *= *c;
    v = lhsIsTensor ? mul.getLhs() : mul.getRhs();
  }
  return v;
}

/// The key [B..., Sk, D] that `kt` ([B..., D, Sk], the matmul's rhs) is the
/// transpose of: an nn.transpose whose permutation moves D next to last,
/// maybe under a reshape that only regroups the batch dimensions (the
/// exporters transpose [B*H, Sk, D] before splitting B*H), with scalar
/// multiplies before or after it peeled into `scale`. Fills `chain`'s key:
/// the key is `keySource` permuted by `keyPerm` (the transpose's with its
/// last two entries swapped; none when that is the identity), reshaped to
/// `keyType`. Fails when `kt` is no such transpose.
LogicalResult matchTransposedKey(Value kt, Chain &chain) {
  kt = peelScalarMuls(kt, chain.scale);
  auto type = tensorType(kt);
  Shape keyShape(type.getShape());
  std::swap(keyShape[keyShape.size() - 1], keyShape[keyShape.size() - 2]);
  chain.keyType = RankedTensorType::get(keyShape, type.getElementType());
  if (auto reshape = kt.getDefiningOp<ReshapeOp>()) {
    auto in = tensorType(reshape.getInput());
    if (in.getRank() >= 2 &&
        in.getShape().take_back(2) == type.getShape().take_back(2))
      kt = reshape.getInput();
  }
  auto transpose = kt.getDefiningOp<TransposeOp>();
  if (!transpose)
    return failure();
  SmallVector<int64_t> perm(transpose.getPerm());
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  chain.keySource = peelScalarMuls(transpose.getInput(), chain.scale);
  if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    chain.keyPerm = std::move(perm);
  return success();
}

/// A key or value of type `type` ([P..., H, S, D]) whose heads are those of
/// a tensor with H / G of them, each repeated G times in a row: Hugging
/// Face's repeat_kv (`x[:, :, None].expand(..., G, S, D).reshape(...)`),
/// which PyTorch's exporters write as Unsqueeze, Expand and Reshape (the
/// reshape may also flatten P... and H first).
struct RepeatedHeads {
  /// The tensor before the repeat, [P..., H / G, 1, S, D], and the type it
  /// is reshaped to for nn.attention, [P..., H / G, S, D].
  Value source;
  RankedTensorType type;
  int64_t group;
};

/// `v`, which has `type`'s elements in row-major order, as the repeat of
/// RepeatedHeads when it is one: v = reshape(broadcast_to(y)), the
/// broadcast [P..., Hkv, G, S, D] from y [P..., Hkv, 1, S, D] with
/// Hkv * G = H.
std::optional<RepeatedHeads> matchRepeatedHeads(Value v,
                                                RankedTensorType type) {
  auto reshape = v.getDefiningOp<ReshapeOp>();
  if (!reshape || !type)
    return std::nullopt;
  auto broadcast = reshape.getInput().getDefiningOp<BroadcastToOp>();
  if (!broadcast || broadcast->hasAttr(AMPDialect::getPrecisionAttrName()))
    return std::nullopt;
  ArrayRef<int64_t> to = type.getShape();
  const int64_t r = type.getRank();
  auto wide = tensorType(broadcast.getResult());
  auto narrow = tensorType(broadcast.getInput());
  if (r < 3 || !wide || !narrow || wide.getRank() != r + 1 ||
      narrow.getRank() != r + 1)
    return std::nullopt;
  ArrayRef<int64_t> b = wide.getShape(), y = narrow.getShape();
  const int64_t kvHeads = b[r - 3], group = b[r - 2];
  if (b.take_front(r - 3) != to.take_front(r - 3) ||
      b.take_back(2) != to.take_back(2) || kvHeads * group != to[r - 3] ||
      group < 1)
    return std::nullopt;
  Shape unrepeated(b);
  unrepeated[r - 2] = 1;
  if (y != ArrayRef<int64_t>(unrepeated))
    return std::nullopt;
  unrepeated.erase(unrepeated.begin() + (r - 2));
  return RepeatedHeads{broadcast.getInput(),
                       RankedTensorType::get(unrepeated, type.getElementType()),
                       group};
}

/// Reads grouped-query attention into `chain`: when its key (as the fused
/// op takes it) and value are both RepeatedHeads with one group G > 1, the
/// fused op reads the unrepeated ones. The key must be the transpose's
/// source unpermuted (the exporters repeat the heads before transposing).
void matchGroupedQuery(Chain &chain) {
  if (!chain.keyPerm.empty())
    return;
  std::optional<RepeatedHeads> key =
      matchRepeatedHeads(chain.keySource, chain.keyType);
  std::optional<RepeatedHeads> value =
      key ? matchRepeatedHeads(chain.value, tensorType(chain.value))
          : std::nullopt;
  if (!key || !value || key->group != value->group || key->group == 1)
    return;
  chain.kvGroup = key->group;
  chain.kvKey = key->source;
  chain.kvKeyType = key->type;
  chain.kvValue = value->source;
  chain.kvValueType = value->type;
}

/// `v` reshaped to `type`: the input of the reshape that made `v` when
/// that has the type (an unsqueeze undone), else a new nn.reshape.
Value reshapedTo(OpBuilder &b, Location loc, Value v, RankedTensorType type) {
  if (v.getType() == type)
    return v;
  if (auto reshape = v.getDefiningOp<ReshapeOp>())
    if (reshape.getInput().getType() == type)
      return reshape.getInput();
  return ReshapeOp::create(b, loc, type, v);
}

/// The key as `chain` describes it, built before `b`'s insertion point.
Value buildKey(OpBuilder &b, Location loc, const Chain &chain) {
  if (chain.kvGroup > 1)
    return reshapedTo(b, loc, chain.kvKey, chain.kvKeyType);
  Value key = chain.keySource;
  if (!chain.keyPerm.empty())
    key = TransposeOp::create(b, loc, key, chain.keyPerm);
  if (key.getType() != chain.keyType)
    key = ReshapeOp::create(b, loc, chain.keyType, key);
  return key;
}

/// Reads the chain ending at `out` (P @ V), or nullopt when it is not one
/// that may be fused.
std::optional<Chain> matchChain(MatmulOp out) {
  if (out.getTransposeA() || out.getTransposeB() ||
      out->hasAttr(AMPDialect::getPrecisionAttrName()))
    return std::nullopt;
  Chain chain;
  chain.ops.push_back(out);
  chain.value = out.getRhs();
  // Dropout of the probabilities (BERT's attention dropout): fused when it
  // drops, dropped when it is the identity.
  Value probs = out.getLhs();
  Operation *probsUser = out;
  if (auto dropout = singleUseProducer<DropoutOp>(probs, out)) {
    if (dropout.getTraining() && dropout.getRate().convertToFloat() > 0) {
      chain.dropoutSeed = dropout.getSeed();
      chain.dropoutRate = dropout.getRateAttr();
    }
    chain.ops.push_back(dropout);
    probs = dropout.getInput();
    probsUser = dropout;
  }
  SoftmaxOp softmax;
  if (auto guard = singleUseProducer<WhereOp>(probs, probsUser)) {
    // PyTorch's exported SDPA: where(isnan(p), 0, p), zeros for a query
    // that sees no key, which is what nn.attention gives.
    auto isNan = guard.getCond().getDefiningOp<CompareOp>();
    std::optional<double> zero = scalarConstant(guard.getLhs());
    Value probs = guard.getRhs();
    softmax = probs.getDefiningOp<SoftmaxOp>();
    if (!isNan || !isNan->hasOneUse() ||
        isNan.getPredicate() != ComparePredicate::NE ||
        isNan.getLhs() != probs || isNan.getRhs() != probs || zero != 0.0 ||
        !softmax ||
        !llvm::all_of(
            probs.getUsers(),
            [&](Operation *user) { return user == isNan || user == guard; }) ||
        softmax->getBlock() != out->getBlock() ||
        softmax->hasAttr(AMPDialect::getPrecisionAttrName()))
      return std::nullopt;
    chain.ops.append({guard, isNan});
  } else {
    softmax = singleUseProducer<SoftmaxOp>(probs, probsUser);
  }
  if (!softmax)
    return std::nullopt;
  int64_t rank = softmax.getType().getRank();
  auto axis = static_cast<int64_t>(softmax.getAxis());
  if (axis != -1 && axis != rank - 1)
    return std::nullopt;
  chain.ops.push_back(softmax);
  Value scores = softmax.getInput();
  Operation *user = softmax;

  // An additive mask, on either side of the add.
  if (auto add = singleUseProducer<AddOp>(scores, user)) {
    Value lhs = add.getLhs(), rhs = add.getRhs();
    bool lhsIsScores = tensorType(lhs) == add.getType();
    Value maskSide = lhsIsScores ? rhs : lhs;
    scores = lhsIsScores ? lhs : rhs;
    if (tensorType(scores) != add.getType())
      return std::nullopt;
    chain.mask = maskSide;
    chain.ops.push_back(add);
    user = add;
  }
  // The scale: scores * c, c * scores or scores / c.
  if (auto mul = singleUseProducer<MulOp>(scores, user)) {
    bool lhsIsScores = tensorType(mul.getLhs()) == mul.getType();
    std::optional<double> c =
        scalarConstant(lhsIsScores ? mul.getRhs() : mul.getLhs());
    if (!c)
      return std::nullopt;
    chain.scale = *c;
    scores = lhsIsScores ? mul.getLhs() : mul.getRhs();
    chain.ops.push_back(mul);
    user = mul;
  } else if (auto div = singleUseProducer<DivOp>(scores, user)) {
    std::optional<double> c = scalarConstant(div.getRhs());
    if (!c || *c == 0.0 || tensorType(div.getLhs()) != div.getType())
      return std::nullopt;
    chain.scale = 1.0 / *c;
    scores = div.getLhs();
    chain.ops.push_back(div);
    user = div;
  }
  auto qk = singleUseProducer<MatmulOp>(scores, user);
  if (!qk || qk.getTransposeA())
    return std::nullopt;
  chain.query = peelScalarMuls(qk.getLhs(), chain.scale);
  if (qk.getTransposeB()) {
    chain.keySource = peelScalarMuls(qk.getRhs(), chain.scale);
    chain.keyType = tensorType(chain.keySource);
  } else if (failed(matchTransposedKey(qk.getRhs(), chain))) {
    return std::nullopt;
  }
  chain.ops.push_back(qk);

  // One element type through the chain (the NaN guard's i1 aside), and no
  // broadcasting.
  Type element = tensorType(chain.query).getElementType();
  for (Operation *op : chain.ops)
    if (!isa<CompareOp>(op) &&
        getElementTypeOrSelf(op->getResult(0).getType()) != element)
      return std::nullopt;
  if (chain.mask) {
    auto mask = tensorType(chain.mask);
    if (!mask ||
        (!mask.getElementType().isF32() && mask.getElementType() != element) ||
        mayDependOnParam(chain.mask))
      return std::nullopt;
  }
  if (tensorType(chain.keySource).getElementType() != element)
    return std::nullopt;
  matchGroupedQuery(chain);
  SmallVector<Type, 2> inferred;
  if (failed(inferAttentionTypes(
          out.getContext(), std::nullopt, chain.query.getType(),
          chain.kvGroup > 1 ? chain.kvKeyType : chain.keyType,
          chain.kvGroup > 1 ? chain.kvValueType : chain.value.getType(),
          chain.mask ? chain.mask.getType() : Type(), inferred)))
    return std::nullopt;
  if (inferred[0] != out.getType())
    return std::nullopt;
  return chain;
}

/// Erases `ops` (whose results have no uses left outside them), then every
/// producer of their operands that this leaves dead.
void eraseWithDeadProducers(ArrayRef<Operation *> ops) {
  DenseSet<Operation *> erased(ops.begin(), ops.end());
  SmallVector<Operation *> producers;
  for (Operation *op : ops) {
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        producers.push_back(def);
    op->dropAllUses();
    op->erase();
  }
  while (!producers.empty()) {
    Operation *op = producers.pop_back_val();
    if (erased.contains(op) || !isOpTriviallyDead(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        producers.push_back(def);
    erased.insert(op);
    op->erase();
  }
}

void fuse(const Chain &chain) {
  auto out = cast<MatmulOp>(chain.ops.front());
  SmallVector<Location> locs;
  for (Operation *op : llvm::reverse(chain.ops))
    locs.push_back(op->getLoc());
  OpBuilder b(out);
  Location loc = b.getFusedLoc(locs);
  Value key = buildKey(b, loc, chain);
  Value value = chain.kvGroup > 1
                    ? reshapedTo(b, loc, chain.kvValue, chain.kvValueType)
                    : chain.value;
  auto attention = AttentionOp::create(
      b, loc, chain.query, key, value, chain.mask, chain.dropoutSeed,
      b.getF32FloatAttr(static_cast<float>(chain.scale)), UnitAttr(),
      chain.dropoutRate);
  out.getResult().replaceAllUsesWith(attention.getResult());
  // Erase the chain, then what only it used (the scale constants, the key's
  // transpose, the scaled copies of query and key).
  eraseWithDeadProducers(chain.ops);
}

/// An nn.attention whose key and value both repeat the heads of tensors
/// with fewer (RepeatedHeads, one group G > 1: Hugging Face's repeat_kv
/// before an exported Attention op, which amp-import-onnx imports as one
/// nn.attention) reads the unrepeated ones instead; returns whether it
/// was rewritten.
bool readUnrepeatedHeads(AttentionOp op) {
  if (op->hasAttr(AMPDialect::getPrecisionAttrName()) ||
      attentionKvGroup(op.getQuery().getType(), op.getKey().getType()) != 1)
    return false;
  std::optional<RepeatedHeads> key =
      matchRepeatedHeads(op.getKey(), tensorType(op.getKey()));
  std::optional<RepeatedHeads> value =
      key ? matchRepeatedHeads(op.getValue(), tensorType(op.getValue()))
          : std::nullopt;
  if (!key || !value || key->group != value->group || key->group == 1)
    return false;
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto grouped = AttentionOp::create(
      b, loc, op.getQuery(), reshapedTo(b, loc, key->source, key->type),
      reshapedTo(b, loc, value->source, value->type), op.getMask(),
      op.getDropout(), op.getScaleAttr(), op.getCausalAttr(),
      op.getDropoutRateAttr());
  op->replaceAllUsesWith(grouped->getResults());
  eraseWithDeadProducers({op.getOperation()});
  return true;
}

struct NNFuseAttentionPass
    : amp::nn::impl::NNFuseAttentionBase<NNFuseAttentionPass> {
  void runOnOperation() override { fuseAttention(getOperation()); }
};

} // namespace

unsigned amp::nn::fuseAttention(Operation *root) {
  SmallVector<Chain> chains;
  root->walk([&](MatmulOp out) {
    if (std::optional<Chain> chain = matchChain(out))
      chains.push_back(std::move(*chain));
  });
  for (const Chain &chain : chains)
    fuse(chain);
  SmallVector<AttentionOp> ops;
  root->walk([&](AttentionOp op) { ops.push_back(op); });
  unsigned regrouped = 0;
  for (AttentionOp op : ops)
    regrouped += readUnrepeatedHeads(op);
  return chains.size() + regrouped;
}
