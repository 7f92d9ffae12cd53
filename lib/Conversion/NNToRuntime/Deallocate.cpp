//===- Deallocate.cpp - free runtime buffers after their last use ---------===//
//
// amp-runtime-deallocate, on functions lowered by amp-lower-to-runtime. A
// block owns the buffers that amp_alloc returns in it, the buffer results of
// its scf ops and, in a scf region, its pointer arguments (the ownership
// rules of BufferOwnership.cpp). Each owned buffer that the block does not
// hand over (to a loop, or through its terminator) is freed right after its
// last read. Reads are found through SSA uses and through the stack memory
// that runtime calls take pointers in (the pointer arrays of multi-buffer
// calls): a pointer stored there is read by every user
// of that stack slot. A read in a nested region counts at its ancestor op.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/NNToRuntime/NNToRuntime.h"
#include "amp/Conversion/NNToRuntime/RuntimeABI.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace amp {
#define GEN_PASS_DEF_RUNTIMEDEALLOCATE
#include "amp/Conversion/Passes.h.inc"
} // namespace amp

using namespace mlir;
using namespace amp;
using namespace amp::runtime_abi;

namespace {

/// The pointers through which `op` hands buffers over: a loop's init
/// values, and what a region's terminator forwards to its parent.
ValueRange handedOver(Operation *op) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return loop.getInitArgs();
  if (auto loop = dyn_cast<scf::WhileOp>(op))
    return loop.getInits();
  if (auto cond = dyn_cast<scf::ConditionOp>(op))
    return cond.getArgs();
  if (isa<scf::YieldOp>(op))
    return op->getOperands();
  return {};
}

/// The stack slot (an llvm.alloca) that `addr` points into, if any.
Value stackSlot(Value addr) {
  while (auto gep = addr.getDefiningOp<LLVM::GEPOp>())
    addr = gep.getBase();
  return addr.getDefiningOp<LLVM::AllocaOp>() ? addr : Value();
}

/// The values `v` flows into, whose readers read `v`: the results of
/// insertvalue and getelementptr ops that use it, and the stack slots it is
/// stored in.
SmallVector<Value> flowsInto(Value v) {
  SmallVector<Value> out;
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    if (isa<LLVM::InsertValueOp, LLVM::GEPOp>(user))
      out.push_back(user->getResult(0));
    if (auto store = dyn_cast<LLVM::StoreOp>(user))
      if (store.getValue() == v)
        if (Value slot = stackSlot(store.getAddr()))
          out.push_back(slot);
  }
  return out;
}

/// For each value, the last op of its block that reads it, directly or
/// through the values it flows into (a read in a nested region counts at its
/// ancestor), or null. Memoized, and computed without recursion: values can
/// flow through long chains (a stack slot that N buffers are stored in, the
/// getelementptr ops into it).
class LastReaders {
public:
  Operation *of(Value root) {
    SmallVector<std::pair<Value, bool>> stack = {{root, false}};
    llvm::SmallPtrSet<Value, 16> entered = {root};
    while (!stack.empty()) {
      auto [v, expanded] = stack.back();
      if (memo.count(v)) {
        stack.pop_back();
        continue;
      }
      if (!expanded) {
        stack.back().second = true;
        for (Value next : flowsInto(v))
          if (!memo.count(next) && entered.insert(next).second)
            stack.push_back({next, false});
        continue;
      }
      stack.pop_back();
      Block *block = v.getParentBlock();
      Operation *last = nullptr;
      auto consider = [&](Operation *op) {
        if (Operation *at = op ? block->findAncestorOpInBlock(*op) : nullptr)
          if (!last || last->isBeforeInBlock(at))
            last = at;
      };
      for (Operation *user : v.getUsers())
        consider(user);
      for (Value next : flowsInto(v))
        consider(memo.lookup(next));
      memo[v] = last;
    }
    return memo.lookup(root);
  }

private:
  DenseMap<Value, Operation *> memo;
};

void freeOwnedBuffers(Block &block, Value null) {
  SmallVector<Value> owned;
  if (!isa<func::FuncOp>(block.getParentOp()))
    for (BlockArgument arg : block.getArguments())
      if (isa<LLVM::LLVMPointerType>(arg.getType()))
        owned.push_back(arg);
  llvm::SmallPtrSet<Value, 8> kept;
  for (Operation &op : block) {
    for (Value v : handedOver(&op))
      kept.insert(v);
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        freeOwnedBuffers(nested, null);
    if (isRuntimeCall(&op, RuntimeFn::amp_alloc) || op.getNumRegions() > 0)
      for (Value r : op.getResults())
        if (isa<LLVM::LLVMPointerType>(r.getType()))
          owned.push_back(r);
  }

  // Every last reader first, then the frees: inserting ops between order
  // queries would make each query renumber the block.
  SmallVector<std::pair<Value, Operation *>> frees;
  LastReaders lastReaders;
  for (Value v : owned) {
    if (kept.contains(v))
      continue;
    Operation *end = lastReaders.of(v);
    if (!end)
      end = isa<BlockArgument>(v) ? &block.front() : v.getDefiningOp();
    frees.push_back({v, end});
  }
  OpBuilder b(block.getParentOp()->getContext());
  for (auto [v, end] : frees) {
    if (end->hasTrait<OpTrait::IsTerminator>())
      b.setInsertionPoint(end);
    else
      b.setInsertionPointAfter(end);
    createRuntimeCall(b, end->getLoc(), RuntimeFn::amp_free, {v, null});
  }
}

struct RuntimeDeallocatePass
    : amp::impl::RuntimeDeallocateBase<RuntimeDeallocatePass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn.isExternal())
      return;
    // Functions run in parallel: the module must already declare amp_free
    // (amp-lower-to-runtime does), so that this pass only reads it.
    auto module = fn->getParentOfType<ModuleOp>();
    StringRef freeName = getRuntimeFunction(RuntimeFn::amp_free).name;
    if (!module || !module.lookupSymbol<LLVM::LLVMFuncOp>(freeName)) {
      fn.emitError() << "amp-runtime-deallocate: the module does not declare "
                     << freeName << "; run amp-lower-to-runtime first";
      return signalPassFailure();
    }
    // One null stream for every free, at the top of the function.
    Block &entry = fn.getBody().front();
    auto builder = OpBuilder::atBlockBegin(&entry);
    Value null = LLVM::ZeroOp::create(
        builder, fn.getLoc(), LLVM::LLVMPointerType::get(fn.getContext()));
    for (Block &block : fn.getBody())
      freeOwnedBuffers(block, null);
  }
};

} // namespace
