//===- ShareStackSlots.cpp - reuse the stack memory of runtime calls ------===//
//
// amp-runtime-share-stack-slots, after amp-runtime-deallocate. Runtime calls
// take some arguments in stack memory: the pointer arrays of multi-tensor
// calls and concatenations. amp-lower-to-runtime gives each call its own
// llvm.alloca where the call is; once the status checks split the function
// into blocks those are dynamic allocations that live until the step
// returns, so a step's stack grew with every such call (when GEMMs still
// filled a 200-byte descriptor on the stack, 16 MB for a transformer of
// 100k forward ops, twice Linux's default stack) and a loop's body grew it
// every iteration. This pass gives the allocas
// of a block with the same type, size and alignment whose lifetimes do not
// overlap one slot, and puts every slot at the top of the function, where
// LLVM allocates it once, in the frame.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/NNToRuntime/NNToRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"

#include <optional>
#include <tuple>

namespace amp {
#define GEN_PASS_DEF_RUNTIMESHARESTACKSLOTS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp

using namespace mlir;
using namespace amp;

namespace {

/// What slots must agree on to be shared: element type, element count and
/// alignment.
using SlotKind = std::tuple<Type, int64_t, int64_t>;

/// The alloca to share and its kind, or nothing when its count is not a
/// constant (or it is an inalloca argument).
std::optional<SlotKind> slotKind(LLVM::AllocaOp alloca) {
  APInt count;
  if (alloca.getInalloca() ||
      !matchPattern(alloca.getArraySize(), m_ConstantInt(&count)))
    return std::nullopt;
  return SlotKind{alloca.getElemType(), count.getSExtValue(),
                  alloca.getAlignment().value_or(0)};
}

/// The last op of `alloca`'s block that uses its memory: through the
/// alloca's result and the addresses computed from it (a use in a nested
/// region counts at its ancestor in the block); the alloca itself when
/// nothing uses it.
Operation *lastUse(LLVM::AllocaOp alloca) {
  Block *block = alloca->getBlock();
  Operation *last = alloca;
  SmallVector<Value> addresses = {alloca.getResult()};
  while (!addresses.empty()) {
    Value address = addresses.pop_back_val();
    for (Operation *user : address.getUsers()) {
      if (auto gep = dyn_cast<LLVM::GEPOp>(user))
        addresses.push_back(gep.getResult());
      Operation *at = block->findAncestorOpInBlock(*user);
      if (at && last->isBeforeInBlock(at))
        last = at;
    }
  }
  return last;
}

struct RuntimeShareStackSlotsPass
    : amp::impl::RuntimeShareStackSlotsBase<RuntimeShareStackSlotsPass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn.isExternal())
      return;
    // The entry block first: the slots go to its top, and are not its
    // allocas to share again.
    SmallVector<Block *> blocks;
    fn.walk<WalkOrder::PreOrder>(
        [&](Block *block) { blocks.push_back(block); });
    OpBuilder top = OpBuilder::atBlockBegin(&fn.getBody().front());
    Value one;
    for (Block *block : blocks)
      shareIn(*block, top, one);
  }

  /// Replaces the fixed-size allocas of `block` by slots at the top of the
  /// function, one per set of allocas of a kind whose lifetimes in the block
  /// are disjoint.
  void shareIn(Block &block, OpBuilder &top, Value &one) {
    struct Candidate {
      LLVM::AllocaOp alloca;
      SlotKind kind;
      Operation *lastUse = nullptr;
    };
    SmallVector<Candidate> allocas;
    for (Operation &op : block)
      if (auto alloca = dyn_cast<LLVM::AllocaOp>(op))
        if (std::optional<SlotKind> kind = slotKind(alloca))
          allocas.push_back({alloca, *kind});
    if (allocas.empty())
      return;
    // Every last use first: creating ops would make each order query
    // renumber the block.
    DenseMap<Operation *, SmallVector<unsigned>> endingAt;
    DenseMap<Operation *, unsigned> index;
    for (auto [i, entry] : llvm::enumerate(allocas)) {
      entry.lastUse = lastUse(entry.alloca);
      endingAt[entry.lastUse].push_back(i);
      index[entry.alloca] = i;
    }

    DenseMap<SlotKind, SmallVector<Value>> freeSlots;
    SmallVector<Value> slotOf(allocas.size());
    Location loc = block.getParentOp()->getLoc();
    for (Operation &op : block) {
      if (auto it = index.find(&op); it != index.end()) {
        Candidate &c = allocas[it->second];
        SmallVector<Value> &pool = freeSlots[c.kind];
        if (!pool.empty()) {
          slotOf[it->second] = pool.pop_back_val();
        } else {
          auto [elemType, count, alignment] = c.kind;
          if (!one)
            one = LLVM::ConstantOp::create(top, loc, top.getI64Type(),
                                           top.getI64IntegerAttr(1));
          Value size =
              count == 1
                  ? one
                  : LLVM::ConstantOp::create(top, loc, top.getI64Type(),
                                             top.getI64IntegerAttr(count));
          slotOf[it->second] =
              LLVM::AllocaOp::create(top, c.alloca.getLoc(), c.alloca.getType(),
                                     elemType, size, alignment);
        }
      }
      if (auto it = endingAt.find(&op); it != endingAt.end())
        for (unsigned i : it->second)
          freeSlots[allocas[i].kind].push_back(slotOf[i]);
    }
    for (auto [i, entry] : llvm::enumerate(allocas)) {
      entry.alloca.getResult().replaceAllUsesWith(slotOf[i]);
      entry.alloca.erase();
    }
  }
};

} // namespace
