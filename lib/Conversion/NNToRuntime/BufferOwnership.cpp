//===- BufferOwnership.cpp - explicit copies for buffer ownership ---------===//
//
// After lowering, every tensor is one runtime buffer and every op result a
// fresh one (nn.reshape aliases its input). Buffers are owned by blocks:
// a block owns the buffers its ops produce and, for a region of a scf op,
// its block arguments. Ownership moves
//   - into a loop with each init operand (scf.for, scf.while): the loop
//     frees or yields it;
//   - out of a region with each value its terminator forwards (scf.yield,
//     scf.condition), and out of a function with each returned value;
//   - back to the caller, when a function returns an argument as the result
//     the caller donated its buffer to (Donation.cpp).
// A value may be handed over only by its owner, once, and when nothing reads
// it afterwards. Everywhere else this inserts a copy, at the tensor level,
// as tensor.empty + linalg.copy, so that the deallocation after lowering
// (amp-runtime-deallocate) only has to free each owned buffer after its last
// use.
//
//===----------------------------------------------------------------------===//

#include "BufferOwnership.h"

#include "Donation.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace amp;

namespace {

/// Whether `block` owns the buffer `owner`.
bool isOwnedBy(Value owner, Block *block) {
  if (auto arg = dyn_cast<BlockArgument>(owner))
    return arg.getOwner() == block &&
           !isa<func::FuncOp>(block->getParentOp());
  return owner.getDefiningOp()->getBlock() == block;
}

/// Replaces the value of `operand` by a copy made right before `op`.
void copyOperand(OpOperand &operand, Operation *op) {
  OpBuilder b(op);
  Value v = operand.get();
  auto type = cast<RankedTensorType>(v.getType());
  Value empty = tensor::EmptyOp::create(b, v.getLoc(), type.getShape(),
                                        type.getElementType());
  Value copy =
      linalg::CopyOp::create(b, v.getLoc(), v, empty).getResult(0);
  operand.set(copy);
}

/// The operands through which `op` hands buffers over.
SmallVector<OpOperand *> handovers(Operation *op) {
  SmallVector<OpOperand *> result;
  auto add = [&](auto &&range) {
    for (OpOperand &o : range)
      if (isa<RankedTensorType>(o.get().getType()))
        result.push_back(&o);
  };
  if (auto loop = dyn_cast<scf::ForOp>(op))
    add(loop.getInitArgsMutable());
  else if (auto loop = dyn_cast<scf::WhileOp>(op))
    add(loop.getInitsMutable());
  else if (auto cond = dyn_cast<scf::ConditionOp>(op))
    add(cond.getArgsMutable());
  else if (isa<scf::YieldOp, func::ReturnOp>(op))
    add(op->getOpOperands());
  return result;
}

void normalizeBlock(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        normalizeBlock(nested);
    SmallVector<OpOperand *> operands = handovers(&op);
    // A set: a function returns thousands of values.
    llvm::SmallPtrSet<OpOperand *, 8> operandSet(operands.begin(),
                                                 operands.end());
    llvm::SmallPtrSet<Value, 8> handedOver;
    for (OpOperand *operand : operands) {
      Value owner = bufferOwner(operand->get());
      bool mayHandOver = (isOwnedBy(owner, &block) ||
                          returnsDonatedArgument(owner, *operand)) &&
                         handedOver.insert(owner).second &&
                         !isReadAfter(owner, &op, operandSet);
      if (!mayHandOver)
        copyOperand(*operand, &op);
    }
  }
}

} // namespace

Value amp::bufferOwner(Value v) {
  while (auto reshape = v.getDefiningOp<nn::ReshapeOp>())
    v = reshape.getInput();
  return v;
}

void amp::collectBufferUses(Value owner, SmallVectorImpl<OpOperand *> &uses) {
  for (OpOperand &use : owner.getUses()) {
    uses.push_back(&use);
    if (auto reshape = dyn_cast<nn::ReshapeOp>(use.getOwner()))
      collectBufferUses(reshape.getResult(), uses);
  }
}

bool amp::isReadAfter(Value owner, Operation *op,
                      const llvm::SmallPtrSetImpl<OpOperand *> &except) {
  SmallVector<OpOperand *> uses;
  collectBufferUses(owner, uses);
  Block *block = op->getBlock();
  for (OpOperand *use : uses) {
    if (except.contains(use) || isa<nn::ReshapeOp>(use->getOwner()))
      continue;
    Operation *at = block->findAncestorOpInBlock(*use->getOwner());
    if (at && (at == op || op->isBeforeInBlock(at)))
      return true;
  }
  return false;
}

void amp::insertOwnershipCopies(func::FuncOp fn) {
  for (Block &block : fn.getBody())
    normalizeBlock(block);
}
