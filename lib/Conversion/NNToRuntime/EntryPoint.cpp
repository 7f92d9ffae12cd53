//===- EntryPoint.cpp - the runner's calling convention -------------------===//
//
// The last step of amp-lower-to-runtime. A converted function takes and
// returns buffer pointers; the runner calls `i32 @f(ptr buffers)`, where
// `buffers` holds the arguments' pointers, then the results'. So:
//   - each argument is loaded from its slot right before the first op that
//     uses it, not all at the top: a step of 10k forward ops has ~44k of
//     them, and one entry block that loaded them all made LLVM's
//     instruction selection quadratic (SelectionDAG's
//     ClusterNeighboringLoads);
//   - a buffer allocated in the body and returned is the result buffer
//     itself (each is returned once, see BufferOwnership.cpp); a result in
//     the buffer of the argument donated to it (Donation.cpp) is left
//     there, its slot unused, and the function's `amp.results_in_arguments`
//     says which argument holds each such result (-1: none); any other
//     result is copied into its buffer at the end;
//   - the pointer arrays (RuntimeBuilder::ptrArray) are built: one whose
//     elements are all slots of `buffers` is filled by a loop over a
//     constant table of slot numbers instead of a load and a store per
//     element (PointerArrays.cpp): the multi-tensor optimizer calls take
//     such arrays over every param;
//   - the function returns AMP_STATUS_OK (the status checks come later).
//
//===----------------------------------------------------------------------===//

#include "EntryPoint.h"

#include "Donation.h"
#include "PointerArrays.h"
#include "RuntimeBuilder.h"

#include "amp/Dialect/AMP/IR/AMPDialect.h"

#include "amp_runtime/amp_runtime.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

void amp::buildEntryPoint(func::FuncOp fn, FunctionType original) {
  MLIRContext *ctx = fn.getContext();
  Type ptrTy = LLVM::LLVMPointerType::get(ctx);
  Block &entry = fn.getBody().front();
  auto ret = cast<func::ReturnOp>(entry.getTerminator());
  unsigned numArgs = entry.getNumArguments();
  Location loc = fn.getLoc();
  BlockArgument buffers = entry.addArgument(ptrTy, loc);

  // The values that are slots of `buffers`: the arguments and the returned
  // allocations.
  SmallVector<std::pair<Value, unsigned>> slots;
  DenseMap<Value, int64_t> slotOf;
  for (unsigned i = 0; i < numArgs; ++i) {
    slots.push_back({entry.getArgument(i), i});
    slotOf[entry.getArgument(i)] = i;
  }
  SmallVector<Operation *> returnedAllocs;
  SmallVector<unsigned> copied;
  // Per result, the argument whose buffer holds it, or -1.
  SmallVector<int64_t> inArgument(ret.getNumOperands(), -1);
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    auto arg = dyn_cast<BlockArgument>(v);
    if (arg && arg.getOwner() == &entry &&
        donatedTo(fn, arg.getArgNumber()) == i) {
      inArgument[i] = arg.getArgNumber();
      continue;
    }
    auto alloc = v.getDefiningOp<LLVM::CallOp>();
    if (alloc && alloc->getBlock() == &entry && !slotOf.count(v) &&
        alloc.getCallee() ==
            runtime_abi::getRuntimeFunction(RuntimeFn::amp_alloc).name) {
      slotOf[v] = numArgs + i;
      slots.push_back({v, numArgs + i});
      returnedAllocs.push_back(alloc);
    } else {
      copied.push_back(i);
    }
  }

  // buffers[slot], the slot a constant or an i32 value.
  auto loadSlot = [&](OpBuilder &b, Location l, LLVM::GEPArg slot) -> Value {
    Value addr = LLVM::GEPOp::create(b, l, ptrTy, ptrTy, buffers,
                                     ArrayRef<LLVM::GEPArg>{slot});
    return LLVM::LoadOp::create(b, l, ptrTy, addr);
  };
  materializePointerArrays(
      fn, {slotOf, 32, [&](OpBuilder &b, Location l, Value slot) {
             return loadSlot(b, l, slot);
           }});

  OpBuilder b(ctx);
  auto load = [&](unsigned slot) {
    return loadSlot(b, loc, static_cast<int32_t>(slot));
  };

  // Each slot is loaded right before the first op of the entry block that
  // uses it, directly or in a nested region; the return does not count.
  DenseMap<Value, Operation *> firstUse;
  for (Operation &top : entry) {
    if (&top == ret)
      break;
    top.walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        if (slotOf.count(operand))
          firstUse.try_emplace(operand, &top);
    });
  }
  for (auto [v, slot] : slots) {
    auto it = firstUse.find(v);
    if (it == firstUse.end())
      continue;
    b.setInsertionPoint(it->second);
    Value loaded = load(slot);
    v.replaceUsesWithIf(loaded, [&](OpOperand &use) {
      return use.getOwner() != ret.getOperation();
    });
  }

  b.setInsertionPoint(ret);
  runtime_abi::RuntimeCallees callees(fn->getParentOfType<ModuleOp>());
  RuntimeBuilder rb(b, ret.getLoc(), callees);
  for (unsigned i : copied) {
    // A value returned twice is the first result's buffer.
    Value v = ret.getOperand(i);
    if (auto it = slotOf.find(v); it != slotOf.end())
      v = load(it->second);
    auto type = cast<RankedTensorType>(original.getResult(i));
    rb.call(RuntimeFn::amp_memcpy,
            {load(numArgs + i), v, rb.i64(getRuntimeBufferBytes(type)),
             rb.stream()});
  }
  func::ReturnOp::create(b, ret.getLoc(), ValueRange{rb.i32(AMP_STATUS_OK)});
  ret.erase();
  for (Operation *alloc : returnedAllocs)
    alloc->erase();
  entry.eraseArguments(0, numArgs);
  fn.setType(FunctionType::get(ctx, {ptrTy}, {b.getI32Type()}));
  if (llvm::any_of(inArgument, [](int64_t a) { return a >= 0; }))
    fn->setAttr(AMPDialect::getResultsInArgumentsAttrName(),
                b.getDenseI64ArrayAttr(inArgument));
  fn.removeArgAttrsAttr();
  fn.removeResAttrsAttr();
}
