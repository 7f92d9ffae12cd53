//===- OpOrder.h - op order queries that stay O(1) under rewrites -*- C++ -*-//
//
// Operation::isBeforeInBlock keeps an order index per op and renumbers the
// whole block whenever an op was inserted between two ops whose indices have
// no room left, which happens every few insertions at the same place. A
// rewrite that inserts an op per fusion and asks order questions after each
// one is then quadratic in the block's size. OpOrder keeps its own positions,
// 2^32 apart when a block is numbered, so a gap takes 32 insertions before
// the block is renumbered; a greedy rewrite keeps it current by passing it as
// the listener (GreedyRewriteConfig::setListener).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_MATMULTOCUBLASLT_OPORDER_H
#define AMP_LIB_CONVERSION_MATMULTOCUBLASLT_OPORDER_H

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace amp {

class OpOrder : public mlir::RewriterBase::Listener {
public:
  /// Whether `a` comes before `b`; both are in the same block.
  bool isBefore(mlir::Operation *a, mlir::Operation *b);

  void notifyOperationInserted(mlir::Operation *op,
                               mlir::OpBuilder::InsertPoint previous) override;
  void notifyOperationErased(mlir::Operation *op) override;
  void notifyBlockErased(mlir::Block *block) override;

private:
  uint64_t position(mlir::Operation *op);
  /// Gives every op of `block` a position, kStride apart.
  void number(mlir::Block *block);

  llvm::DenseMap<mlir::Operation *, uint64_t> positions;
  /// The blocks whose ops all have positions.
  llvm::DenseSet<mlir::Block *> numbered;
};

} // namespace amp

#endif // AMP_LIB_CONVERSION_MATMULTOCUBLASLT_OPORDER_H
