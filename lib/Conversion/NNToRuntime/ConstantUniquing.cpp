//===- ConstantUniquing.cpp - one LLVM constant per value and scope -------===//
//
// Every op lowering builds the constants its calls take (sizes,
// dtypes, the null stream), so a training step of N ops holds tens of
// constants per op, most of them equal. Unifying them is CSE restricted to
// operand-free constants: one walk in program order with a scoped table, so
// it costs a hash per constant instead of a CSE of the whole function.
//
//===----------------------------------------------------------------------===//

#include "ConstantUniquing.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace {

/// Constants that are equal when their name, properties, attributes and
/// result type are.
struct ConstantInfo : llvm::DenseMapInfo<Operation *> {
  static unsigned getHashValue(const Operation *op) {
    return OperationEquivalence::computeHash(
        const_cast<Operation *>(op), OperationEquivalence::ignoreHashValue,
        OperationEquivalence::ignoreHashValue,
        OperationEquivalence::IgnoreLocations);
  }
  static bool isEqual(const Operation *lhs, const Operation *rhs) {
    if (lhs == rhs)
      return true;
    if (lhs == getEmptyKey() || lhs == getTombstoneKey() ||
        rhs == getEmptyKey() || rhs == getTombstoneKey())
      return false;
    return OperationEquivalence::isEquivalentTo(
        const_cast<Operation *>(lhs), const_cast<Operation *>(rhs),
        OperationEquivalence::IgnoreLocations);
  }
};

using ConstantSet = llvm::DenseSet<Operation *, ConstantInfo>;

bool isConstant(Operation &op) {
  return isa<LLVM::ConstantOp, LLVM::ZeroOp, LLVM::AddressOfOp>(op);
}

/// Unifies the constants of `block` with those of `known` (the constants of
/// the enclosing blocks that come before it) and with each other.
void uniqueIn(Block &block, ConstantSet &known) {
  SmallVector<Operation *> scope;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (isConstant(op)) {
      auto [it, inserted] = known.insert(&op);
      if (inserted) {
        scope.push_back(&op);
      } else {
        op.replaceAllUsesWith(*it);
        op.erase();
      }
      continue;
    }
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        uniqueIn(nested, known);
  }
  // The next block is not dominated by this one's constants.
  for (Operation *op : scope)
    known.erase(op);
}

} // namespace

void amp::uniqueConstants(Region &region) {
  ConstantSet known;
  for (Block &block : region)
    uniqueIn(block, known);
}
