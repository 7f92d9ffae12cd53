//===- RuntimeBuilder.cpp - helpers of the runtime lowerings -------------===//

#include "RuntimeBuilder.h"

#include "PointerArrays.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/Hashing.h"

#include "amp_runtime/checked_size.h"

using namespace mlir;
using namespace amp;
using namespace amp::runtime_abi;

std::optional<amp_dtype_t> amp::getRuntimeDtype(Type t) {
  if (t.isF32())
    return AMP_DTYPE_F32;
  if (t.isF16())
    return AMP_DTYPE_F16;
  if (t.isBF16())
    return AMP_DTYPE_BF16;
  if (t.isInteger(32))
    return AMP_DTYPE_I32;
  if (t.isInteger(64))
    return AMP_DTYPE_I64;
  if (t.isInteger(1))
    return AMP_DTYPE_BOOL; // one byte per element, as the int8_t flags
  return std::nullopt;
}

int64_t amp::getRuntimeElementBytes(Type t) {
  return amp_dtype_size(*getRuntimeDtype(t));
}

// checkLowerable (NNToRuntime.cpp) has rejected every tensor whose byte
// size does not fit int64, so the checked sizes below exist.
int64_t amp::getRuntimeBufferBytes(RankedTensorType type) {
  std::optional<int64_t> bytes =
      checked::byteSize(type.getShape().data(), type.getRank(),
                        getRuntimeElementBytes(type.getElementType()));
  assert(bytes && "checkLowerable rejects tensors too large for int64");
  return *bytes;
}

int64_t amp::getNumElements(Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  std::optional<int64_t> n =
      checked::elementCount(type.getShape().data(), type.getRank());
  assert(n && "checkLowerable rejects tensors too large for int64");
  return *n;
}

int64_t amp::normalizeAxis(int64_t axis, Value tensor) {
  return axis < 0 ? axis + cast<RankedTensorType>(tensor.getType()).getRank()
                  : axis;
}

std::optional<float> amp::getFillValue(DenseElementsAttr data) {
  if (!data.isSplat())
    return std::nullopt;
  Type elem = data.getElementType();
  if (isa<FloatType>(elem)) {
    APFloat value = data.getSplatValue<APFloat>();
    if (value.isNaN())
      return std::nullopt;
    // f32, f16 and bf16 values all convert to f32 exactly, and amp_fill
    // rounds them back.
    return static_cast<float>(value.convertToDouble());
  }
  if (elem.isInteger(1))
    return data.getSplatValue<bool>() ? 1.0f : 0.0f;
  if (elem.isInteger(32) || elem.isInteger(64)) {
    int64_t value = data.getSplatValue<APInt>().getSExtValue();
    if (value < -(int64_t(1) << 24) || value > (int64_t(1) << 24))
      return std::nullopt;
    return static_cast<float>(value);
  }
  return std::nullopt;
}

bool amp::isRuntimeTensorType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() &&
         getRuntimeDtype(tensor.getElementType());
}

RuntimeBuilder::RuntimeBuilder(OpBuilder &b, Location loc,
                               runtime_abi::RuntimeCallees &callees)
    : b(b), loc(loc), callees(callees),
      ptrTy(LLVM::LLVMPointerType::get(b.getContext())), i64Ty(b.getI64Type()),
      i32Ty(b.getI32Type()) {}

Value RuntimeBuilder::constant(TypedAttr value) {
  Value &v = constants[value];
  if (!v)
    v = LLVM::ConstantOp::create(b, loc, value.getType(), value);
  return v;
}

Value RuntimeBuilder::i64(int64_t v) {
  return constant(b.getI64IntegerAttr(v));
}

Value RuntimeBuilder::i32(int64_t v) {
  return constant(b.getI32IntegerAttr(v));
}

Value RuntimeBuilder::f32(double v) {
  return constant(b.getF32FloatAttr(static_cast<float>(v)));
}

Value RuntimeBuilder::f64(double v) { return constant(b.getF64FloatAttr(v)); }

Value RuntimeBuilder::null() {
  if (!nullPtr)
    nullPtr = LLVM::ZeroOp::create(b, loc, ptrTy);
  return nullPtr;
}

Value RuntimeBuilder::dtype(Type t) {
  return i32(*getRuntimeDtype(getElementTypeOrSelf(t)));
}

static ModuleOp getModule(OpBuilder &b) {
  Operation *parent = b.getInsertionBlock()->getParentOp();
  if (auto module = dyn_cast<ModuleOp>(parent))
    return module;
  return parent->getParentOfType<ModuleOp>();
}

Value RuntimeBuilder::i64Array(ArrayRef<int64_t> values) {
  return intArray(cast<IntegerType>(i64Ty), values);
}

Value RuntimeBuilder::intArray(IntegerType type, ArrayRef<int64_t> values) {
  if (values.empty())
    return null();
  // Named by the values (__amp_i64_2_3), or by their hash when there are
  // many (the sizes of every param).
  std::string base = "__amp_i" + std::to_string(type.getWidth());
  if (values.size() <= 8) {
    for (int64_t v : values)
      base += "_" + (v < 0 ? "m" + std::to_string(-v) : std::to_string(v));
  } else {
    base += "_h" + std::to_string(static_cast<size_t>(
                       llvm::hash_combine_range(values.begin(), values.end())));
  }
  auto tensorTy =
      RankedTensorType::get({static_cast<int64_t>(values.size())}, type);
  SmallVector<APInt> elements;
  for (int64_t v : values)
    elements.push_back(APInt(type.getWidth(), v, /*isSigned=*/true));
  auto value = DenseElementsAttr::get(tensorTy, elements);
  return constantGlobal(base, LLVM::LLVMArrayType::get(type, values.size()),
                        value);
}

Value RuntimeBuilder::constantBytes(StringRef bytes) {
  return constantGlobal("__amp_const_" + std::to_string(static_cast<size_t>(
                                             llvm::hash_value(bytes))),
                        LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size()),
                        b.getStringAttr(bytes));
}

Value RuntimeBuilder::constantGlobal(const std::string &base, Type type,
                                     Attribute value) {
  // A different global of the same name (a hash collision) gets a
  // numbered one.
  ModuleOp module = getModule(b);
  std::string name = base;
  for (unsigned i = 1;; ++i) {
    auto existing = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!existing) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                             LLVM::Linkage::Internal, name, value);
      break;
    }
    if (existing.getValueAttr() == value)
      break;
    name = base + "_" + std::to_string(i);
  }
  return LLVM::AddressOfOp::create(b, loc, ptrTy, name);
}

Value RuntimeBuilder::dims(Value tensor) {
  return i64Array(cast<RankedTensorType>(tensor.getType()).getShape());
}

Value RuntimeBuilder::rank(Value tensor) {
  return i32(cast<RankedTensorType>(tensor.getType()).getRank());
}

Value RuntimeBuilder::ptrArray(ValueRange values) {
  return createPointerArrayPlaceholder(b, loc, values);
}

Value RuntimeBuilder::uninitializedPtrArray(int64_t size) {
  auto arrayTy = LLVM::LLVMArrayType::get(ptrTy, size);
  return LLVM::AllocaOp::create(b, loc, ptrTy, arrayTy, i64(1));
}

Value RuntimeBuilder::storedPtrArray(ValueRange values) {
  // One store per element, as C compilers fill an array: an [N x ptr]
  // value built with insertvalue and stored whole made LLVM's instruction
  // selection quadratic in N (5525 params of a 10k-op transformer).
  Value slot = uninitializedPtrArray(values.size());
  for (auto [i, v] : llvm::enumerate(values)) {
    Value addr = LLVM::GEPOp::create(b, loc, ptrTy, ptrTy, slot,
                                     ArrayRef<LLVM::GEPArg>{int32_t(i)});
    LLVM::StoreOp::create(b, loc, v, addr);
  }
  return slot;
}

Value RuntimeBuilder::i32Array(ArrayRef<int64_t> values) {
  return intArray(cast<IntegerType>(i32Ty), values);
}

RuntimeBuilder::BufferLists RuntimeBuilder::bufferLists(ValueRange tensors,
                                                        ValueRange inputs,
                                                        ValueRange outputs) {
  SmallVector<int64_t> sizes, dtypes;
  for (Value t : tensors) {
    auto type = cast<RankedTensorType>(t.getType());
    sizes.push_back(type.getNumElements());
    dtypes.push_back(*getRuntimeDtype(type.getElementType()));
  }
  return {ptrArray(inputs), ptrArray(outputs), i64Array(sizes),
          i32Array(dtypes), i32(tensors.size())};
}

Value RuntimeBuilder::alloc(RankedTensorType type) {
  return call(RuntimeFn::amp_alloc, {i64(getRuntimeBufferBytes(type)), stream()});
}

Value RuntimeBuilder::call(RuntimeFn fn, ValueRange args) {
  return callees.call(b, loc, fn, args);
}

SmallVector<Value> amp::allocResults(RuntimeBuilder &rb, Operation *op) {
  SmallVector<Value> buffers;
  for (Type t : op->getResultTypes())
    buffers.push_back(rb.alloc(cast<RankedTensorType>(t)));
  return buffers;
}
