//===- PointerArrays.cpp - pointer arrays filled from a table -------------===//
//
// The multi-tensor calls (the optimizers, amp_unscale_and_check,
// amp_clip_grad_norm) take stack arrays of pointers over every param or
// grad. At 10k forward ops a step has a dozen arrays of 5525 pointers: a
// store and an address per element were most of its ops. When every
// element comes from one place, an array is filled instead by a loop over
// a constant table of where each comes from:
//   - the runner's buffer array (arguments and results: their slots), when
//     amp-lower-to-runtime builds the entry point (EntryPoint.cpp). Until
//     then RuntimeBuilder::ptrArray's arrays are placeholders, so that the
//     stores of the arrays that become loops are never built (building and
//     erasing them was a fifth of the lowering's time);
//   - the buffer arena (temporaries such as grads: their offsets), when
//     amp-runtime-plan-buffers places them (PlanBuffers.cpp); the entry
//     point has stored those arrays element by element.
//
//===----------------------------------------------------------------------===//

#include "PointerArrays.h"

#include "RuntimeBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>

using namespace mlir;
using namespace amp;

namespace {

/// Pointer arrays shorter than this keep a store per element: the loop
/// costs about as many ops as eight stores.
constexpr int64_t kMinGatheredPointers = 8;

/// The table entry of each element of `array`, when it is a stack array of
/// at least kMinGatheredPointers pointers filled, element by element in its
/// block, with pointers of `source`. `stores` gets the element stores.
std::optional<SmallVector<int64_t>>
tableEntries(LLVM::AllocaOp array, const PointerSource &source,
             SmallVectorImpl<LLVM::StoreOp> &stores) {
  auto type = dyn_cast<LLVM::LLVMArrayType>(array.getElemType());
  APInt count;
  if (!type || !isa<LLVM::LLVMPointerType>(type.getElementType()) ||
      type.getNumElements() < kMinGatheredPointers ||
      !matchPattern(array.getArraySize(), m_ConstantInt(&count)) || count != 1)
    return std::nullopt;
  SmallVector<int64_t> entries(type.getNumElements());
  SmallVector<bool> stored(type.getNumElements(), false);
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
    if (i < 0 || i >= static_cast<int64_t>(entries.size()) || stored[i])
      return std::nullopt;
    auto entry = source.entryOf.find(store.getValue());
    if (entry == source.entryOf.end())
      return std::nullopt;
    entries[i] = entry->second;
    stored[i] = true;
    stores.push_back(store);
  }
  if (llvm::is_contained(stored, false))
    return std::nullopt;
  return entries;
}

/// Fills `array` at `b`'s insertion point with
/// `array[i] = pointerAt(table[i])`.
void buildGatherLoop(OpBuilder &b, Location loc, Value array,
                     ArrayRef<int64_t> entries, const PointerSource &source,
                     runtime_abi::RuntimeCallees &callees) {
  RuntimeBuilder rb(b, loc, callees);
  Value table =
      source.tableBits == 32 ? rb.i32Array(entries) : rb.i64Array(entries);
  Type ptrTy = array.getType(), i64Ty = b.getI64Type();
  Type entryTy = b.getIntegerType(source.tableBits);
  Value lower = arith::ConstantIndexOp::create(b, loc, 0);
  Value upper = arith::ConstantIndexOp::create(b, loc, entries.size());
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  scf::ForOp::create(b, loc, lower, upper, step, ValueRange{},
                     [&](OpBuilder &nb, Location l, Value iv, ValueRange) {
                       Value i = arith::IndexCastOp::create(nb, l, i64Ty, iv);
                       Value at =
                           LLVM::GEPOp::create(nb, l, ptrTy, entryTy, table,
                                               ArrayRef<LLVM::GEPArg>{i});
                       Value entry = LLVM::LoadOp::create(nb, l, entryTy, at);
                       Value pointer = source.pointerAt(nb, l, entry);
                       Value to =
                           LLVM::GEPOp::create(nb, l, ptrTy, ptrTy, array,
                                               ArrayRef<LLVM::GEPArg>{i});
                       LLVM::StoreOp::create(nb, l, pointer, to);
                       scf::YieldOp::create(nb, l);
                     });
}

} // namespace

Value amp::createPointerArrayPlaceholder(OpBuilder &b, Location loc,
                                         ValueRange pointers) {
  auto placeholder = UnrealizedConversionCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), pointers);
  placeholder->setAttr(kPointerArrayAttr, b.getUnitAttr());
  return placeholder.getResult(0);
}

void amp::materializePointerArrays(func::FuncOp fn,
                                   const PointerSource &source) {
  runtime_abi::RuntimeCallees callees(fn->getParentOfType<ModuleOp>());
  SmallVector<UnrealizedConversionCastOp> placeholders;
  fn.walk([&](UnrealizedConversionCastOp op) {
    if (op->hasAttr(kPointerArrayAttr))
      placeholders.push_back(op);
  });
  for (UnrealizedConversionCastOp placeholder : placeholders) {
    OpBuilder b(placeholder);
    RuntimeBuilder rb(b, placeholder.getLoc(), callees);
    ValueRange pointers = placeholder.getInputs();
    SmallVector<int64_t> entries;
    for (Value pointer : pointers) {
      auto entry = source.entryOf.find(pointer);
      if (entry == source.entryOf.end())
        break;
      entries.push_back(entry->second);
    }
    Value array;
    if (static_cast<int64_t>(entries.size()) >= kMinGatheredPointers &&
        entries.size() == pointers.size()) {
      array = rb.uninitializedPtrArray(pointers.size());
      buildGatherLoop(b, placeholder.getLoc(), array, entries, source, callees);
    } else {
      array = rb.storedPtrArray(pointers);
    }
    placeholder.getResult(0).replaceAllUsesWith(array);
    placeholder.erase();
  }
}

void amp::gatherPointerArrays(func::FuncOp fn, const PointerSource &source) {
  runtime_abi::RuntimeCallees callees(fn->getParentOfType<ModuleOp>());
  assert((source.tableBits == 32 || source.tableBits == 64) &&
         "a table of int32_t or int64_t");
  SmallVector<LLVM::AllocaOp> arrays;
  fn.walk([&](LLVM::AllocaOp array) { arrays.push_back(array); });
  for (LLVM::AllocaOp array : arrays) {
    SmallVector<LLVM::StoreOp> stores;
    std::optional<SmallVector<int64_t>> entries =
        tableEntries(array, source, stores);
    if (!entries)
      continue;
    Operation *last = stores.front();
    for (LLVM::StoreOp store : stores)
      if (last->isBeforeInBlock(store))
        last = store;
    OpBuilder b(last->getContext());
    b.setInsertionPointAfter(last);
    buildGatherLoop(b, last->getLoc(), array, *entries, source, callees);
    for (LLVM::StoreOp store : stores) {
      Operation *address = store.getAddr().getDefiningOp();
      Operation *pointer = store.getValue().getDefiningOp();
      store.erase();
      address->erase();
      if (pointer && isOpTriviallyDead(pointer))
        pointer->erase();
    }
  }
}
