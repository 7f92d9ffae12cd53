//===- Deallocate.cpp - free runtime buffers after their last use ---------===//
//
// amp-runtime-deallocate, on functions lowered by amp-lower-to-runtime. A
// block owns the buffers that amp_alloc returns in it, the buffer results of
// its scf ops and, in a scf region, its pointer arguments (the ownership
// rules of BufferOwnership.cpp). Each owned buffer that the block does not
// hand over (to a loop, or through its terminator) is freed right after its
// last read. Reads are found through SSA uses and through the stack memory
// that runtime calls take pointers in (the pointer arrays of multi-buffer
// calls, the GEMM descriptor): a pointer stored there is read by every user
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

bool isAlloc(Operation *op) {
  auto call = dyn_cast<LLVM::CallOp>(op);
  return call && getCalledRuntimeFunction(call) ==
                     &getRuntimeFunction(RuntimeFn::amp_alloc);
}

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

/// Every op that reads `v`, directly or through values and stack memory it
/// flows into.
void collectReaders(Value v, SmallVectorImpl<Operation *> &readers,
                    llvm::SmallPtrSetImpl<Value> &seen) {
  if (!seen.insert(v).second)
    return;
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    readers.push_back(user);
    if (isa<LLVM::InsertValueOp, LLVM::GEPOp>(user))
      collectReaders(user->getResult(0), readers, seen);
    if (auto store = dyn_cast<LLVM::StoreOp>(user))
      if (store.getValue() == v)
        if (Value slot = stackSlot(store.getAddr()))
          collectReaders(slot, readers, seen);
  }
}

/// The last op of `block` that reads `v`, or `start` if none does.
Operation *lastReader(Value v, Block &block, Operation *start) {
  SmallVector<Operation *> readers;
  llvm::SmallPtrSet<Value, 8> seen;
  collectReaders(v, readers, seen);
  Operation *end = start;
  for (Operation *reader : readers)
    if (Operation *at = block.findAncestorOpInBlock(*reader))
      if (end->isBeforeInBlock(at))
        end = at;
  return end;
}

void freeOwnedBuffers(Block &block) {
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
        freeOwnedBuffers(nested);
    if (isAlloc(&op) || op.getNumRegions() > 0)
      for (Value r : op.getResults())
        if (isa<LLVM::LLVMPointerType>(r.getType()))
          owned.push_back(r);
  }

  OpBuilder b(block.getParentOp()->getContext());
  for (Value v : owned) {
    if (kept.contains(v))
      continue;
    Operation *start = isa<BlockArgument>(v) ? &block.front()
                                             : v.getDefiningOp();
    Operation *end = lastReader(v, block, start);
    if (end->hasTrait<OpTrait::IsTerminator>())
      b.setInsertionPoint(end);
    else
      b.setInsertionPointAfter(end);
    Location loc = end->getLoc();
    createRuntimeCall(b, loc, RuntimeFn::amp_free,
                      {v, LLVM::ZeroOp::create(
                              b, loc, LLVM::LLVMPointerType::get(
                                          b.getContext()))});
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
    for (Block &block : fn.getBody())
      freeOwnedBuffers(block);
  }
};

} // namespace
