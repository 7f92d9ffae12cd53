//===- Donation.cpp - arguments donated to results ------------------------===//
//
// A caller that passes an argument it does not need after the call may
// donate its buffer to a result of the same type: `amp.aliasing_output = N`
// on the argument (XLA's `tf.aliasing_output`, JAX's donate_argnums). The
// runner donates a training step's state: each param and optimizer-state
// argument to the result that becomes it in the next step, so the state is
// held once instead of twice (arguments, and the results the next state is
// written into).
//
// The lowering computes a donated result in place only where that is safe:
// the op that writes it is an optimizer update, whose kernels read each
// element of the param (moment, step counter) before writing the same
// element of its new value and allow the two to be one buffer, or another
// op whose kernel allows its result to be that operand's buffer
// (RuntimeOpLowering's inPlaceOperands: nn-autodiff's moving averages end
// in an nn.add of the average's argument); the result
// is what the function returns at N; and nothing reads the argument at or
// after the update's call except that update. Elsewhere the result gets its
// own buffer, as without the attribute; an argument returned unchanged at N
// needs no copy at all. The lowered function says which results it left in
// their arguments' buffers (`amp.results_in_arguments`, EntryPoint.cpp).
//
//===----------------------------------------------------------------------===//

#include "Donation.h"

#include "BufferOwnership.h"
#include "Lowerings.h"

#include "amp/Dialect/AMP/IR/AMPDialect.h"

using namespace mlir;
using namespace amp;

LogicalResult amp::checkDonations(func::FuncOp fn) {
  llvm::DenseMap<int64_t, unsigned> donorOf;
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
    Attribute attr = fn.getArgAttr(i, AMPDialect::getAliasingOutputAttrName());
    if (!attr)
      continue;
    if (failed(AMPDialect::verifyAliasingOutput(fn, i, attr)))
      return failure();
    int64_t n = cast<IntegerAttr>(attr).getInt();
    if (auto [it, inserted] = donorOf.try_emplace(n, i); !inserted)
      return fn.emitError() << "arguments #" << it->second << " and #" << i
                            << " are both donated to result #" << n;
  }
  return success();
}

std::optional<unsigned> amp::donatedTo(func::FuncOp fn, unsigned arg) {
  if (auto n = fn.getArgAttrOfType<IntegerAttr>(
          arg, AMPDialect::getAliasingOutputAttrName()))
    return static_cast<unsigned>(n.getInt());
  return std::nullopt;
}

bool amp::returnsDonatedArgument(Value owner, OpOperand &operand) {
  auto arg = dyn_cast<BlockArgument>(owner);
  auto ret = dyn_cast<func::ReturnOp>(operand.getOwner());
  if (!arg || !ret || arg.getOwner() != ret->getBlock())
    return false;
  auto fn = dyn_cast<func::FuncOp>(ret->getParentOp());
  return fn && donatedTo(fn, arg.getArgNumber()) == operand.getOperandNumber();
}

Value amp::donatedBuffer(Operation *start, Operation *op, unsigned operand,
                         unsigned result, const BufferMap &buffers) {
  auto arg = dyn_cast<BlockArgument>(op->getOperand(operand));
  auto fn = dyn_cast_or_null<func::FuncOp>(op->getParentOp());
  if (!arg || !fn || arg.getOwner() != op->getBlock() ||
      start->getBlock() != op->getBlock())
    return nullptr;
  std::optional<unsigned> to = donatedTo(fn, arg.getArgNumber());
  if (!to)
    return nullptr;
  // The function returns the op's result as the one the argument is
  // donated to.
  bool returned =
      llvm::any_of(op->getResult(result).getUses(), [&](OpOperand &use) {
        return isa<func::ReturnOp>(use.getOwner()) &&
               use.getOperandNumber() == *to;
      });
  if (!returned)
    return nullptr;
  // Every other read of the argument's buffer comes before the call.
  llvm::SmallPtrSet<OpOperand *, 1> update = {&op->getOpOperand(operand)};
  if (isReadAfter(arg, start, update))
    return nullptr;
  return buffers.lookup(arg);
}
