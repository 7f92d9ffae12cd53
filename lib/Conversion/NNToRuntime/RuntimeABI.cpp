//===- RuntimeABI.cpp - the runtime functions lowered code calls ----------===//
//
// The table of RuntimeFunctions.def, checked against the runtime's C
// headers: every entry's types must be those of the header's prototype
// (decltype of the declared function), or this file does not compile.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/NNToRuntime/RuntimeABI.h"

#include "amp_runtime/gemm.h"
#include "amp_runtime/kernels.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

#include <array>
#include <type_traits>

using namespace mlir;
using namespace amp::runtime_abi;

namespace {

template <typename T>
inline constexpr bool kAlwaysFalse = false;

/// The AbiType of a C type of the runtime headers.
template <typename T>
constexpr AbiType abiTypeOf() {
  if constexpr (std::is_pointer_v<T>)
    return std::is_const_v<std::remove_pointer_t<T>> ? AbiType::ConstPtr
                                                     : AbiType::Ptr;
  else if constexpr (std::is_same_v<T, amp_status_t>)
    return AbiType::Status;
  else if constexpr (std::is_same_v<T, amp_dtype_t>)
    return AbiType::Dtype;
  else if constexpr (std::is_same_v<T, amp_unary_op_t>)
    return AbiType::UnaryOp;
  else if constexpr (std::is_same_v<T, amp_binary_op_t>)
    return AbiType::BinaryOp;
  else if constexpr (std::is_same_v<T, amp_compare_op_t>)
    return AbiType::CompareOp;
  else if constexpr (std::is_same_v<T, amp_reduce_op_t>)
    return AbiType::ReduceOp;
  else if constexpr (std::is_same_v<T, amp_lr_schedule_t>)
    return AbiType::LrSchedule;
  else if constexpr (std::is_same_v<T, amp_elementwise_loss_t>)
    return AbiType::LossOp;
  else if constexpr (std::is_same_v<T, int64_t>)
    return AbiType::I64;
  else if constexpr (std::is_same_v<T, int32_t>)
    return AbiType::I32;
  else if constexpr (std::is_same_v<T, float>)
    return AbiType::F32;
  else if constexpr (std::is_same_v<T, double>)
    return AbiType::F64;
  else
    static_assert(kAlwaysFalse<T>, "a C type the ABI table cannot express");
}

// The enums travel as i32 (what LLVM passes a C enum of int range as).
static_assert(sizeof(amp_status_t) == 4 && sizeof(amp_dtype_t) == 4 &&
                  sizeof(amp_unary_op_t) == 4 && sizeof(amp_binary_op_t) == 4 &&
                  sizeof(amp_compare_op_t) == 4 &&
                  sizeof(amp_reduce_op_t) == 4 &&
                  sizeof(amp_lr_schedule_t) == 4 &&
                  sizeof(amp_elementwise_loss_t) == 4,
              "ABI enums are passed as i32");

/// The result and argument types of a prototype, from its function type.
template <typename F>
struct Prototype;
template <typename R, typename... A>
struct Prototype<R (*)(A...)> {
  static constexpr AbiType result = abiTypeOf<R>();
  static constexpr std::array<AbiType, sizeof...(A)> args = {
      abiTypeOf<A>()...};
};

template <size_t N, size_t M>
constexpr bool sameTypes(const std::array<AbiType, N> &header,
                         const AbiType (&table)[M]) {
  if (N != M)
    return false;
  for (size_t i = 0; i < N; ++i)
    if (header[i] != table[i])
      return false;
  return true;
}

// The spellings RuntimeFunctions.def uses.
namespace spell {
constexpr AbiType Status = AbiType::Status, Ptr = AbiType::Ptr,
                  ConstPtr = AbiType::ConstPtr, I64 = AbiType::I64,
                  I32 = AbiType::I32, F32 = AbiType::F32, F64 = AbiType::F64,
                  Dtype = AbiType::Dtype, UnaryOp = AbiType::UnaryOp,
                  BinaryOp = AbiType::BinaryOp, CompareOp = AbiType::CompareOp,
                  ReduceOp = AbiType::ReduceOp,
                  LrSchedule = AbiType::LrSchedule, LossOp = AbiType::LossOp;
} // namespace spell

// Each entry's argument list, checked against the header at compile time.
namespace args {
using namespace spell;
#define AMP_RUNTIME_FUNCTION(NAME, RESULT, ARGS)                               \
  constexpr AbiType NAME[] = {AMP_UNPAREN ARGS};                               \
  static_assert(Prototype<decltype(&::NAME)>::result == RESULT,                \
                #NAME ": the table's result differs from the runtime header"); \
  static_assert(sameTypes(Prototype<decltype(&::NAME)>::args, NAME),           \
                #NAME ": the table's arguments differ from the runtime header");
#define AMP_UNPAREN(...) __VA_ARGS__
#include "amp/Conversion/NNToRuntime/RuntimeFunctions.def"
} // namespace args

const RuntimeFunction kTable[] = {
#define AMP_RUNTIME_FUNCTION(NAME, RESULT, ARGS)                               \
  {#NAME, spell::RESULT, args::NAME},
#include "amp/Conversion/NNToRuntime/RuntimeFunctions.def"
};

/// The headers' prototypes of the same functions, as data.
template <typename F>
struct HeaderPrototype {
  static constexpr auto args = Prototype<F>::args;
  static RuntimeFunction get(StringRef name) {
    return {name, Prototype<F>::result, args};
  }
};
const RuntimeFunction kHeaderPrototypes[] = {
#define AMP_RUNTIME_FUNCTION(NAME, RESULT, ARGS)                               \
  HeaderPrototype<decltype(&::NAME)>::get(#NAME),
#include "amp/Conversion/NNToRuntime/RuntimeFunctions.def"
};

} // namespace

StringRef amp::runtime_abi::getAbiTypeName(AbiType type) {
  switch (type) {
  case AbiType::Status:
    return "Status";
  case AbiType::Ptr:
    return "Ptr";
  case AbiType::ConstPtr:
    return "ConstPtr";
  case AbiType::I64:
    return "I64";
  case AbiType::I32:
    return "I32";
  case AbiType::F32:
    return "F32";
  case AbiType::F64:
    return "F64";
  case AbiType::Dtype:
    return "Dtype";
  case AbiType::UnaryOp:
    return "UnaryOp";
  case AbiType::BinaryOp:
    return "BinaryOp";
  case AbiType::CompareOp:
    return "CompareOp";
  case AbiType::ReduceOp:
    return "ReduceOp";
  case AbiType::LrSchedule:
    return "LrSchedule";
  case AbiType::LossOp:
    return "LossOp";
  }
  llvm_unreachable("unknown AbiType");
}

ArrayRef<RuntimeFunction> amp::runtime_abi::getRuntimeFunctions() {
  return kTable;
}

const RuntimeFunction &amp::runtime_abi::getRuntimeFunction(RuntimeFn fn) {
  return kTable[static_cast<unsigned>(fn)];
}

const RuntimeFunction *amp::runtime_abi::lookupRuntimeFunction(StringRef name) {
  // amp-check-runtime-status looks up the callee of every call.
  static const llvm::StringMap<const RuntimeFunction *> byName = [] {
    llvm::StringMap<const RuntimeFunction *> map;
    for (const RuntimeFunction &f : kTable)
      map[f.name] = &f;
    return map;
  }();
  return byName.lookup(name);
}

std::vector<std::string>
amp::runtime_abi::checkAgainstRuntimeHeaders(ArrayRef<RuntimeFunction> table) {
  std::vector<std::string> problems;
  auto list = [](ArrayRef<AbiType> types) {
    std::string s = "(";
    llvm::interleave(
        types, [&](AbiType t) { s += getAbiTypeName(t).str(); },
        [&] { s += ", "; });
    return s + ")";
  };
  for (const RuntimeFunction &entry : table) {
    const RuntimeFunction *header =
        llvm::find_if(kHeaderPrototypes, [&](const RuntimeFunction &h) {
          return h.name == entry.name;
        });
    if (header == std::end(kHeaderPrototypes)) {
      problems.push_back((entry.name + ": not a function of the runtime "
                                       "headers the lowering calls")
                             .str());
      continue;
    }
    if (entry.result != header->result)
      problems.push_back((entry.name + ": the table returns " +
                          getAbiTypeName(entry.result) + ", the header " +
                          getAbiTypeName(header->result))
                             .str());
    if (!llvm::equal(entry.args, header->args))
      problems.push_back((entry.name + ": the table takes " +
                          list(entry.args) + ", the header " +
                          list(header->args))
                             .str());
  }
  return problems;
}

Type amp::runtime_abi::getLLVMType(MLIRContext *ctx, AbiType type) {
  switch (type) {
  case AbiType::Ptr:
  case AbiType::ConstPtr:
    return LLVM::LLVMPointerType::get(ctx);
  case AbiType::I64:
    return IntegerType::get(ctx, 64);
  case AbiType::F32:
    return Float32Type::get(ctx);
  case AbiType::F64:
    return Float64Type::get(ctx);
  case AbiType::Status:
  case AbiType::I32:
  case AbiType::Dtype:
  case AbiType::UnaryOp:
  case AbiType::BinaryOp:
  case AbiType::CompareOp:
  case AbiType::ReduceOp:
  case AbiType::LrSchedule:
  case AbiType::LossOp:
    return IntegerType::get(ctx, 32);
  }
  llvm_unreachable("unknown AbiType");
}

LLVM::LLVMFuncOp amp::runtime_abi::declareRuntimeFunction(OpBuilder &b,
                                                          ModuleOp module,
                                                          RuntimeFn fn) {
  const RuntimeFunction &f = getRuntimeFunction(fn);
  // Every runtime call looks its callee up: compare the names of the
  // module's LLVM functions only (a symbol-table lookup reads the symbol
  // name of every global, a few percent of amp-lower-to-runtime).
  for (auto existing : module.getOps<LLVM::LLVMFuncOp>())
    if (existing.getSymName() == f.name)
      return existing;
  MLIRContext *ctx = module.getContext();
  SmallVector<Type> args;
  for (AbiType t : f.args)
    args.push_back(getLLVMType(ctx, t));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(
      b, module.getLoc(), f.name,
      LLVM::LLVMFunctionType::get(getLLVMType(ctx, f.result), args));
}

Value amp::runtime_abi::createRuntimeCall(OpBuilder &b, Location loc,
                                          RuntimeFn fn, ValueRange args) {
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  if (!module)
    module = cast<ModuleOp>(b.getInsertionBlock()->getParentOp());
  return RuntimeCallees(module).call(b, loc, fn, args);
}

LLVM::LLVMFuncOp amp::runtime_abi::RuntimeCallees::get(OpBuilder &b,
                                                       RuntimeFn fn) {
  LLVM::LLVMFuncOp &callee = declared[static_cast<unsigned>(fn)];
  if (!callee)
    callee = declareRuntimeFunction(b, module, fn);
  return callee;
}

Value amp::runtime_abi::RuntimeCallees::call(OpBuilder &b, Location loc,
                                             RuntimeFn fn, ValueRange args) {
  LLVM::LLVMFuncOp callee = get(b, fn);
  assert(llvm::equal(callee.getArgumentTypes(), args.getTypes()) &&
         "runtime call arguments differ from the ABI table");
  return LLVM::CallOp::create(b, loc, callee, args).getResult();
}

const RuntimeFunction *
amp::runtime_abi::getCalledRuntimeFunction(LLVM::CallOp call) {
  std::optional<StringRef> callee = call.getCallee();
  return callee ? lookupRuntimeFunction(*callee) : nullptr;
}

bool amp::runtime_abi::isRuntimeCall(Operation *op, RuntimeFn fn) {
  // One string comparison, not a lookup of the callee in the table: the
  // passes after the lowering ask this of every op.
  auto call = dyn_cast<LLVM::CallOp>(op);
  if (!call)
    return false;
  std::optional<StringRef> callee = call.getCallee();
  return callee && *callee == getRuntimeFunction(fn).name;
}
