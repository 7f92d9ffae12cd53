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
//     itself (each is returned once, see BufferOwnership.cpp); any other
//     result is copied into its buffer at the end;
//   - a pointer array (RuntimeBuilder::ptrArray) whose elements are all
//     slots of `buffers` is filled by a loop over a constant array of slot
//     numbers instead of a load and a store per element. The multi-tensor
//     optimizer calls take such arrays over every param: nine arrays of
//     5525 at 10k forward ops, which were ~180k of the step's ~420k ops;
//   - the function returns AMP_STATUS_OK (the status checks come later).
//
//===----------------------------------------------------------------------===//

#include "EntryPoint.h"

#include "RuntimeBuilder.h"

#include "amp_runtime/amp_runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

/// Pointer arrays shorter than this keep a store per element: the loop
/// costs about as many ops as eight stores.
constexpr int64_t kMinGatheredPointers = 8;

/// The slot of `buffers` each element of `array` is stored from, when
/// `array` is a stack array of at least kMinGatheredPointers pointers
/// filled, element by element, with values of `slotOf`. `stores` gets the
/// element stores.
std::optional<SmallVector<int64_t>>
gatheredSlots(LLVM::AllocaOp array, const DenseMap<Value, unsigned> &slotOf,
              SmallVectorImpl<LLVM::StoreOp> &stores) {
  auto type = dyn_cast<LLVM::LLVMArrayType>(array.getElemType());
  APInt count;
  if (!type || !isa<LLVM::LLVMPointerType>(type.getElementType()) ||
      type.getNumElements() < kMinGatheredPointers ||
      !matchPattern(array.getArraySize(), m_ConstantInt(&count)) || count != 1)
    return std::nullopt;
  SmallVector<int64_t> slots(type.getNumElements(), -1);
  for (Operation *user : array->getUsers()) {
    auto gep = dyn_cast<LLVM::GEPOp>(user);
    if (!gep)
      continue; // the call that takes the array
    auto indices = gep.getIndices();
    if (gep.getBase() != array.getResult() || indices.size() != 1 ||
        !isa<LLVM::LLVMPointerType>(gep.getElemType()) || !gep->hasOneUse())
      return std::nullopt;
    auto index = dyn_cast<IntegerAttr>(indices[0]);
    auto store = dyn_cast<LLVM::StoreOp>(*gep->getUsers().begin());
    if (!index || !store || store.getAddr() != gep.getResult() ||
        store->getBlock() != array->getBlock())
      return std::nullopt;
    int64_t i = index.getInt();
    auto slot = slotOf.find(store.getValue());
    if (i < 0 || i >= static_cast<int64_t>(slots.size()) || slots[i] >= 0 ||
        slot == slotOf.end())
      return std::nullopt;
    slots[i] = slot->second;
    stores.push_back(store);
  }
  if (llvm::is_contained(slots, -1))
    return std::nullopt;
  return slots;
}

/// Fills `array` after `last` with `array[i] = buffers[slots[i]]`.
void buildGatherLoop(Value array, ArrayRef<int64_t> slots, Value buffers,
                     Operation *last) {
  OpBuilder b(last->getContext());
  b.setInsertionPointAfter(last);
  Location loc = last->getLoc();
  RuntimeBuilder rb(b, loc);
  Value table = rb.i32Array(slots);
  Type ptrTy = array.getType(), i32Ty = b.getI32Type(), i64Ty = b.getI64Type();
  Value lower = arith::ConstantIndexOp::create(b, loc, 0);
  Value upper = arith::ConstantIndexOp::create(b, loc, slots.size());
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  scf::ForOp::create(
      b, loc, lower, upper, step, ValueRange{},
      [&](OpBuilder &nb, Location l, Value iv, ValueRange) {
        Value i = arith::IndexCastOp::create(nb, l, i64Ty, iv);
        Value at = LLVM::GEPOp::create(nb, l, ptrTy, i32Ty, table,
                                       ArrayRef<LLVM::GEPArg>{i});
        Value slot = LLVM::LoadOp::create(nb, l, i32Ty, at);
        Value from = LLVM::GEPOp::create(nb, l, ptrTy, ptrTy, buffers,
                                         ArrayRef<LLVM::GEPArg>{slot});
        Value pointer = LLVM::LoadOp::create(nb, l, ptrTy, from);
        Value to = LLVM::GEPOp::create(nb, l, ptrTy, ptrTy, array,
                                       ArrayRef<LLVM::GEPArg>{i});
        LLVM::StoreOp::create(nb, l, pointer, to);
        scf::YieldOp::create(nb, l);
      });
}

/// Replaces the element stores of every pointer array over slots of
/// `buffers` by a gather loop.
void gatherSlotArrays(func::FuncOp fn, const DenseMap<Value, unsigned> &slotOf,
                      Value buffers) {
  SmallVector<LLVM::AllocaOp> arrays;
  fn.walk([&](LLVM::AllocaOp array) { arrays.push_back(array); });
  for (LLVM::AllocaOp array : arrays) {
    SmallVector<LLVM::StoreOp> stores;
    std::optional<SmallVector<int64_t>> slots =
        gatheredSlots(array, slotOf, stores);
    if (!slots)
      continue;
    Operation *last = stores.front();
    for (LLVM::StoreOp store : stores)
      if (last->isBeforeInBlock(store))
        last = store;
    buildGatherLoop(array, *slots, buffers, last);
    for (LLVM::StoreOp store : stores) {
      Operation *gep = store.getAddr().getDefiningOp();
      store.erase();
      gep->erase();
    }
  }
}

} // namespace

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
  DenseMap<Value, unsigned> slotOf;
  for (unsigned i = 0; i < numArgs; ++i) {
    slots.push_back({entry.getArgument(i), i});
    slotOf[entry.getArgument(i)] = i;
  }
  SmallVector<Operation *> returnedAllocs;
  SmallVector<unsigned> copied;
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
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

  gatherSlotArrays(fn, slotOf, buffers);

  OpBuilder b(ctx);
  auto load = [&](unsigned slot) -> Value {
    Value addr =
        LLVM::GEPOp::create(b, loc, ptrTy, ptrTy, buffers,
                            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(slot)});
    return LLVM::LoadOp::create(b, loc, ptrTy, addr);
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
  RuntimeBuilder rb(b, ret.getLoc());
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
  fn.removeArgAttrsAttr();
  fn.removeResAttrsAttr();
}
