//===- InPlace.cpp - results computed in a dying operand's buffer ---------===//
//
// A kernel that reads each element of an input before it writes the same
// element of an output may take the two as one buffer. Where the input's
// value dies at the op, the lowering computes the output in the input's
// buffer instead of a new one: the two are never live at once, which the
// arena (amp-runtime-plan-buffers) cannot arrange, since at the call both
// are. Each lowering lists, per result, the operands its kernel's header
// says it may equal (RuntimeOpLowering::inPlaceOperands): the elementwise
// ops and their gradients, softmax and its gradient, the norms, the loss
// gradients, and the multi-tensor gradient ops (amp_unscale_and_check, the
// f16 step's peak when every f32 gradient and its unscaled copy were live
// at that call, and amp_clip_grad_norm, as PyTorch's
// _amp_foreach_non_finite_check_and_unscale_ and clip_grad_norm_ work on
// .grad in place). An operand defined outside the op's block is never
// reused: a loop body runs more than once.
//
//===----------------------------------------------------------------------===//

#include "InPlace.h"

#include "BufferOwnership.h"
#include "Lowerings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace amp;

Value amp::dyingOperandBuffer(OpResult result, unsigned operand,
                              const BufferMap &buffers) {
  Operation *op = result.getOwner();
  if (!buffers.reusesDyingOperands() ||
      op->getOperand(operand).getType() != result.getType() ||
      llvm::any_of(result.getUsers(), llvm::IsaPred<func::ReturnOp>))
    return nullptr;
  Value owner = bufferOwner(op->getOperand(operand));
  Operation *def = owner.getDefiningOp();
  if (!def || def->getBlock() != op->getBlock() || isa<arith::ConstantOp>(def))
    return nullptr;
  // A buffer that stands for an argument (an update computed in a donated
  // argument, Donation.cpp) is the caller's.
  Value buffer = buffers.lookup(op->getOperand(operand));
  if (isa<BlockArgument>(buffer))
    return nullptr;
  llvm::SmallPtrSet<OpOperand *, 1> read = {&op->getOpOperand(operand)};
  if (isReadAfter(owner, op, read))
    return nullptr;
  return buffer;
}
