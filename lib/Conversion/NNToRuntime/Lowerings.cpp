//===- Lowerings.cpp - the walk of amp-lower-to-runtime -------------------===//
//
// Visits a function's ops in order, each once. An op with a lowering
// (Lowerings.h) gets its runtime calls before it and is erased at the end;
// every other op keeps its place with its operands' buffers: terminators,
// scalar arith, and the structured control flow, which is rebuilt with
// pointers where it carried tensors (its regions move into the new op and
// are lowered in place). Block arguments of tensor type become pointer
// arguments. The old ops stay until the end, so a lowering reads the
// shapes and element types of its operands from the op itself.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace amp;

SmallVector<Value> BufferMap::lookup(ValueRange values) const {
  SmallVector<Value> result;
  result.reserve(values.size());
  for (Value v : values)
    result.push_back(lookup(v));
  return result;
}

void BufferMap::replace(Operation *op, ValueRange results) {
  assert(op->getNumResults() == results.size() && "one buffer per result");
  for (auto [from, to] : llvm::zip_equal(op->getResults(), results))
    buffers[from] = to;
  if (lowered.insert(op).second)
    replaced.push_back(op);
}

void LoweringTable::insert(StringRef name,
                           std::unique_ptr<OpLowering> lowering) {
  [[maybe_unused]] bool inserted =
      lowerings.try_emplace(OperationName(name, ctx), std::move(lowering))
          .second;
  assert(inserted && "one lowering per op name");
}

namespace {

bool isTensor(Type t) { return isa<TensorType>(t); }

class FunctionLowering {
public:
  FunctionLowering(const LoweringTable &table, func::FuncOp fn, bool inPlace)
      : table(table), ptrTy(LLVM::LLVMPointerType::get(fn.getContext())),
        b(fn.getContext()), callees(fn->getParentOfType<ModuleOp>()) {
    buffers.setReusesDyingOperands(inPlace);
  }

  LogicalResult run(func::FuncOp fn) {
    Block &entry = fn.getBody().front();
    if (failed(lowerBlock(entry)))
      return failure();
    // The replaced ops use each other: drop every use before erasing any.
    ArrayRef<Operation *> replaced = buffers.replacedOps();
    for (Operation *op : replaced)
      op->dropAllReferences();
    for (Operation *op : llvm::reverse(replaced))
      op->erase();
    for (auto [block, count] : oldArguments)
      block->eraseArguments(0, count);
    fn.setType(FunctionType::get(fn.getContext(), entry.getArgumentTypes(),
                                 entry.getTerminator()->getOperandTypes()));
    return success();
  }

private:
  Type convert(Type t) const { return isTensor(t) ? ptrTy : t; }

  /// Gives `block` a copy of its arguments with pointers for tensors, after
  /// the old ones, which are erased at the end.
  void convertArguments(Block &block) {
    if (llvm::none_of(block.getArgumentTypes(), isTensor))
      return;
    unsigned count = block.getNumArguments();
    for (unsigned i = 0; i < count; ++i) {
      BlockArgument old = block.getArgument(i);
      buffers.map(old, block.addArgument(convert(old.getType()), old.getLoc()));
    }
    oldArguments.push_back({&block, count});
  }

  LogicalResult lowerBlock(Block &block) {
    convertArguments(block);
    for (Operation &op : llvm::make_early_inc_range(block))
      if (failed(lowerOp(&op)))
        return failure();
    return success();
  }

  LogicalResult lowerOp(Operation *op) {
    if (buffers.isLowered(op))
      return success();
    bool onTensors = llvm::any_of(op->getOperandTypes(), isTensor) ||
                     llvm::any_of(op->getResultTypes(), isTensor);
    if (onTensors) {
      if (const OpLowering *lowering = table.lookup(op->getName())) {
        b.setInsertionPoint(op);
        RuntimeBuilder rb(b, op->getLoc(), callees);
        return lowering->apply(op, buffers, rb);
      }
      if (op->getNumRegions() == 0 && !op->hasTrait<OpTrait::IsTerminator>())
        return op->emitError() << "amp-lower-to-runtime: no lowering for '"
                               << op->getName() << "'";
    }
    if (llvm::any_of(op->getResultTypes(), isTensor)) {
      op = rebuild(op);
    } else {
      for (OpOperand &operand : op->getOpOperands())
        operand.set(buffers.lookup(operand.get()));
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (failed(lowerBlock(block)))
          return failure();
    return success();
  }

  /// The same op with pointers for tensors, holding `op`'s regions; `op`
  /// is erased at the end.
  Operation *rebuild(Operation *op) {
    SmallVector<Type> types = llvm::map_to_vector(
        op->getResultTypes(), [&](Type t) { return convert(t); });
    Operation *now = Operation::create(
        op->getLoc(), op->getName(), types, buffers.lookup(op->getOperands()),
        op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
        op->getSuccessors(), op->getNumRegions());
    b.setInsertionPoint(op);
    b.insert(now);
    for (auto [from, to] : llvm::zip_equal(op->getRegions(), now->getRegions()))
      to.takeBody(from);
    buffers.replace(op, now->getResults());
    return now;
  }

  const LoweringTable &table;
  Type ptrTy;
  OpBuilder b;
  runtime_abi::RuntimeCallees callees;
  BufferMap buffers;
  /// The blocks whose first `count` arguments are the old ones.
  SmallVector<std::pair<Block *, unsigned>> oldArguments;
};

} // namespace

LogicalResult amp::lowerFunction(func::FuncOp fn, const LoweringTable &table,
                                 bool inPlace) {
  return FunctionLowering(table, fn, inPlace).run(fn);
}
