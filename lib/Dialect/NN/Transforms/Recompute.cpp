//===- Recompute.cpp - recompute activations in the backward pass --------===//
//
// Walks each block that holds a gradient seed from its last seed up, and
// clones a forward op right before its first use after the seed when its
// operands are there anyway (Passes.td, nn-recompute). Going up, an op's
// clone is made before those of its operands' ops, which then see the clone
// as one of their uses after the seed and go right before it.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/NN/Transforms/Recompute.h"

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Dialect/NN/IR/NNOps.h"
#include "amp/Dialect/NN/Transforms/Passes.h"
#include "amp/Interfaces/ComputeBoundTrait.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

namespace amp::nn {
#define GEN_PASS_DEF_NNRECOMPUTE
#include "amp/Dialect/NN/Transforms/Passes.h.inc"
} // namespace amp::nn

using namespace mlir;
using namespace amp;
using namespace amp::nn;

namespace {

/// How many ops deep an operand may be recomputed for another op.
constexpr unsigned kMaxChainDepth = 4;

bool isGradSeed(Operation *op) {
  return isa<GradSeedOp, amp::ScaledGradSeedOp>(op);
}

/// One block with gradient seeds, and the queries the pass makes of it.
class BlockRecompute {
public:
  explicit BlockRecompute(Block &block) : block(block) {
    for (Operation &op : block)
      if (isGradSeed(&op))
        seeds.push_back(&op);
  }

  unsigned run() {
    unsigned cloned = 0;
    if (seeds.empty())
      return 0;
    // Up from the last seed; each op is visited once, before the ops of its
    // operands.
    Operation *op = seeds.back()->getPrevNode();
    while (op) {
      Operation *prev = op->getPrevNode();
      cloned += recomputeOp(op);
      op = prev;
    }
    return cloned;
  }

private:
  /// The first seed after `op` in the block, or null.
  Operation *seedAfter(Operation *op) const {
    for (Operation *seed : seeds)
      if (op->isBeforeInBlock(seed))
        return seed;
    return nullptr;
  }

  /// The op of the block that holds `user`.
  Operation *inBlock(Operation *user) const {
    return block.findAncestorOpInBlock(*user);
  }

  /// Whether `user` comes after `seed` (the seed itself does not).
  bool isLate(Operation *user, Operation *seed) const {
    Operation *at = inBlock(user);
    return at && at != seed && seed->isBeforeInBlock(at);
  }

  /// Whether `op` is of a kind this pass recomputes.
  static bool isRecomputable(Operation *op) {
    if (op->getNumRegions() != 0 || op->getNumResults() == 0 ||
        op->hasTrait<ComputeBound>() || isGradSeed(op) || isa<ReluOp>(op))
      return false;
    return isa<amp::CastOp>(op) || isa<NNDialect>(op->getDialect());
  }

  /// Whether a result of `op` is returned by the block's terminator (its
  /// value lives to the end: recomputing it saves nothing).
  bool isReturned(Operation *op) const {
    return llvm::any_of(op->getUsers(), [&](Operation *user) {
      return user->getBlock() == &block &&
             user->hasTrait<OpTrait::IsTerminator>();
    });
  }

  /// Whether `v` is there right before `at` without living longer for it:
  /// defined outside the block, a constant, used at or after `at`, or the
  /// result of an op that can be recomputed there (`depth` ops deep).
  bool isAvailableAt(Value v, Operation *at, unsigned depth) const {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &block || matchPattern(v, m_Constant()))
      return true;
    for (Operation *user : v.getUsers()) {
      Operation *there = inBlock(user);
      if (there && (there == at || at->isBeforeInBlock(there)))
        return true;
    }
    return depth < kMaxChainDepth && isRecomputable(def) &&
           !isReturned(def) &&
           llvm::all_of(def->getOperands(), [&](Value operand) {
             return isAvailableAt(operand, at, depth + 1);
           });
  }

  /// Clones `op` before its first use after the next seed when the pass's
  /// conditions allow. Returns 1 when it did.
  unsigned recomputeOp(Operation *op) {
    if (!isRecomputable(op) || isReturned(op))
      return 0;
    Operation *seed = seedAfter(op);
    if (!seed)
      return 0;
    Operation *first = nullptr;
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers()) {
        if (!isLate(user, seed))
          continue;
        Operation *at = inBlock(user);
        if (!first || at->isBeforeInBlock(first))
          first = at;
      }
    if (!first || !llvm::all_of(op->getOperands(), [&](Value operand) {
          return isAvailableAt(operand, first, 0);
        }))
      return 0;

    OpBuilder builder(first);
    Operation *clone = builder.clone(*op);
    MLIRContext *ctx = op->getContext();
    clone->setLoc(
        FusedLoc::get(ctx, {op->getLoc()}, StringAttr::get(ctx, "recompute")));
    for (auto [from, to] : llvm::zip(op->getResults(), clone->getResults()))
      from.replaceUsesWithIf(
          to, [&](OpOperand &use) { return isLate(use.getOwner(), seed); });
    if (op->use_empty())
      op->erase();
    return 1;
  }

  Block &block;
  SmallVector<Operation *> seeds;
};

struct NNRecomputePass : amp::nn::impl::NNRecomputeBase<NNRecomputePass> {
  void runOnOperation() override { recompute(getOperation()); }
};

} // namespace

unsigned amp::nn::recompute(Operation *root) {
  llvm::SetVector<Block *> blocks;
  root->walk([&](Operation *op) {
    if (isGradSeed(op))
      blocks.insert(op->getBlock());
  });
  unsigned cloned = 0;
  for (Block *block : blocks)
    cloned += BlockRecompute(*block).run();
  return cloned;
}
