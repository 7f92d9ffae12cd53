//===- FuseAttention.cpp - the attention chain to nn.attention ------------===//
//
// Matches softmax(scale * q k^T + mask) v, written out as nn.matmul,
// nn.mul/nn.div, nn.add, nn.softmax and nn.matmul, from its final matmul
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
#include "llvm/ADT/DenseSet.h"

namespace amp::nn {
#define GEN_PASS_DEF_NNFUSEATTENTION
#include "amp/Dialect/NN/Transforms/Passes.h.inc"
} // namespace amp::nn

using namespace mlir;
using namespace amp;
using namespace amp::nn;

namespace {

/// One attention chain, read from its final matmul.
struct Chain {
  Value query, key, value, mask;
  double scale = 1.0;
  /// The op that made the scale constant, erased when the chain was its
  /// only user.
  Operation *scaleConstant = nullptr;
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

/// Whether `v` may depend on a param: an argument with role param of the
/// enclosing function, or a block argument that is not a function's (a loop
/// variable: conservatively yes). nn.attention's mask has no derivative, so a
/// learned bias (DeBERTa's relative attention, ALiBi made trainable) keeps
/// the unfused ops, whose backward reaches it.
bool mayDependOnParam(Value v) {
  SmallVector<Value> work{v};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value cur = work.pop_back_val();
    if (!seen.insert(cur).second)
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

/// `k` when `kt` is k with its last two dimensions swapped by nn.transpose.
Value untransposedKey(Value kt) {
  auto transpose = kt.getDefiningOp<TransposeOp>();
  if (!transpose)
    return nullptr;
  ArrayRef<int64_t> perm = transpose.getPerm();
  int64_t rank = perm.size();
  if (rank < 2)
    return nullptr;
  for (int64_t i = 0; i < rank - 2; ++i)
    if (perm[i] != i)
      return nullptr;
  if (perm[rank - 2] != rank - 1 || perm[rank - 1] != rank - 2)
    return nullptr;
  return transpose.getInput();
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
  auto softmax = singleUseProducer<SoftmaxOp>(out.getLhs(), out);
  if (!softmax)
    return std::nullopt;
  int64_t rank = softmax.getType().getRank();
  if (softmax.getAxis() != -1 && softmax.getAxis() != rank - 1)
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
    chain.scaleConstant =
        (lhsIsScores ? mul.getRhs() : mul.getLhs()).getDefiningOp();
    scores = lhsIsScores ? mul.getLhs() : mul.getRhs();
    chain.ops.push_back(mul);
    user = mul;
  } else if (auto div = singleUseProducer<DivOp>(scores, user)) {
    std::optional<double> c = scalarConstant(div.getRhs());
    if (!c || *c == 0.0 || tensorType(div.getLhs()) != div.getType())
      return std::nullopt;
    chain.scale = 1.0 / *c;
    chain.scaleConstant = div.getRhs().getDefiningOp();
    scores = div.getLhs();
    chain.ops.push_back(div);
    user = div;
  }
  auto qk = singleUseProducer<MatmulOp>(scores, user);
  if (!qk || qk.getTransposeA())
    return std::nullopt;
  chain.query = qk.getLhs();
  chain.key = qk.getTransposeB() ? qk.getRhs() : untransposedKey(qk.getRhs());
  if (!chain.key)
    return std::nullopt;
  chain.ops.push_back(qk);

  // One element type through the chain, and no broadcasting.
  Type element = tensorType(chain.query).getElementType();
  for (Operation *op : chain.ops)
    if (getElementTypeOrSelf(op->getResult(0).getType()) != element)
      return std::nullopt;
  if (chain.mask) {
    auto mask = tensorType(chain.mask);
    if (!mask ||
        (!mask.getElementType().isF32() && mask.getElementType() != element) ||
        mayDependOnParam(chain.mask))
      return std::nullopt;
  }
  SmallVector<Value, 4> operands{chain.query, chain.key, chain.value};
  if (chain.mask)
    operands.push_back(chain.mask);
  SmallVector<Type, 2> inferred;
  if (failed(AttentionOp::inferReturnTypes(out.getContext(), std::nullopt,
                                           AttentionOp::Adaptor(operands),
                                           inferred)))
    return std::nullopt;
  if (inferred[0] != out.getType())
    return std::nullopt;
  return chain;
}

void fuse(const Chain &chain) {
  auto out = cast<MatmulOp>(chain.ops.front());
  SmallVector<Location> locs;
  for (Operation *op : llvm::reverse(chain.ops))
    locs.push_back(op->getLoc());
  OpBuilder b(out);
  Location loc = b.getFusedLoc(locs);
  auto attention = AttentionOp::create(
      b, loc, chain.query, chain.key, chain.value, chain.mask,
      b.getF32FloatAttr(static_cast<float>(chain.scale)), UnitAttr());
  out.getResult().replaceAllUsesWith(attention.getResult());
  for (Operation *op : chain.ops)
    op->erase();
  if (chain.scaleConstant && chain.scaleConstant->use_empty())
    chain.scaleConstant->erase();
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
  return chains.size();
}
