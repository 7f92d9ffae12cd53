//===- OpOrder.cpp - op order queries that stay O(1) under rewrites -------===//

#include "OpOrder.h"

#include <cassert>

using namespace mlir;
using namespace amp;

static constexpr uint64_t kStride = uint64_t(1) << 32;

void OpOrder::number(Block *block) {
  uint64_t next = kStride;
  for (Operation &op : *block) {
    positions[&op] = next;
    next += kStride;
  }
  numbered.insert(block);
}

uint64_t OpOrder::position(Operation *op) {
  Block *block = op->getBlock();
  if (!numbered.contains(block))
    number(block);
  auto it = positions.find(op);
  assert(it != positions.end() && "an op inserted without a notification");
  return it->second;
}

bool OpOrder::isBefore(Operation *a, Operation *b) {
  assert(a->getBlock() == b->getBlock() && "ops of different blocks");
  return position(a) < position(b);
}

void OpOrder::notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) {
  // Moved or created: either way it takes the place between its neighbours.
  positions.erase(op);
  Block *block = op->getBlock();
  if (!numbered.contains(block))
    return;
  Operation *prev = op->getPrevNode(), *next = op->getNextNode();
  uint64_t lo = prev ? positions.lookup(prev) : 0;
  uint64_t hi = next ? positions.lookup(next) : lo + 2 * kStride;
  if ((prev && !lo) || (next && !hi) || hi - lo < 2) {
    number(block);
    return;
  }
  positions[op] = lo + (hi - lo) / 2;
}

void OpOrder::notifyOperationErased(Operation *op) {
  positions.erase(op);
  // Ops nested in `op` are erased with it; their blocks are reported by
  // notifyBlockErased.
}

void OpOrder::notifyBlockErased(Block *block) {
  numbered.erase(block);
  for (Operation &op : *block)
    positions.erase(&op);
}
