//===- RuntimeABI.h - the runtime functions lowered code calls --*- C++ -*-===//
//
// The compiler's view of the runtime's C ABI (runtime/include/amp_runtime):
// one table of the functions the lowering calls, generated from
// RuntimeFunctions.def and checked against the C headers' prototypes, and a
// builder that declares and calls them in the LLVM dialect (the way
// upstream's GPUToLLVMConversion declares mgpuMemAlloc and friends).
// docs/runtime-abi.md describes the boundary.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CONVERSION_NNTORUNTIME_RUNTIMEABI_H
#define AMP_CONVERSION_NNTORUNTIME_RUNTIMEABI_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace amp::runtime_abi {

/// The C types that appear in runtime signatures. Each enum type of the ABI
/// is its own kind, so that a dtype passed where an op code belongs does not
/// match.
enum class AbiType : uint8_t {
  Status,     // amp_status_t
  Ptr,        // T *
  ConstPtr,   // const T *
  I64,        // int64_t
  I32,        // int32_t
  F32,        // float
  F64,        // double
  Dtype,      // amp_dtype_t
  UnaryOp,    // amp_unary_op_t
  BinaryOp,   // amp_binary_op_t
  CompareOp,  // amp_compare_op_t
  ReduceOp,   // amp_reduce_op_t
  LrSchedule, // amp_lr_schedule_t
  LossOp,     // amp_elementwise_loss_t
};

/// "Status", "Ptr", ...: the spelling of RuntimeFunctions.def.
llvm::StringRef getAbiTypeName(AbiType type);

/// One runtime function: its C name, result and arguments.
struct RuntimeFunction {
  llvm::StringRef name;
  AbiType result;
  llvm::ArrayRef<AbiType> args;
};

/// The functions of RuntimeFunctions.def, in its order.
enum class RuntimeFn : unsigned {
#define AMP_RUNTIME_FUNCTION(NAME, RESULT, ARGS) NAME,
#include "amp/Conversion/NNToRuntime/RuntimeFunctions.def"
};

/// The table, indexed by RuntimeFn.
llvm::ArrayRef<RuntimeFunction> getRuntimeFunctions();
const RuntimeFunction &getRuntimeFunction(RuntimeFn fn);
/// The entry named `name`, or null when lowered code does not call it.
const RuntimeFunction *lookupRuntimeFunction(llvm::StringRef name);

/// Compares `table` with the prototypes that the runtime's C headers
/// declare, and returns one message per difference (an unknown function, a
/// wrong result, argument count or argument type). Empty when they agree.
/// The table the lowering uses is also checked at compile time; this form
/// lets a test show that a wrong table is caught.
std::vector<std::string>
checkAgainstRuntimeHeaders(llvm::ArrayRef<RuntimeFunction> table);

/// The LLVM-dialect type that carries `type` (pointers are !llvm.ptr, enums
/// and the status i32).
mlir::Type getLLVMType(mlir::MLIRContext *ctx, AbiType type);

/// Declares `fn` at the start of `module` unless it is there, and returns
/// the declaration.
mlir::LLVM::LLVMFuncOp declareRuntimeFunction(mlir::OpBuilder &b,
                                              mlir::ModuleOp module,
                                              RuntimeFn fn);

/// Calls `fn` (declaring it in the enclosing module) and returns its result:
/// the amp_status_t, or the pointer of amp_alloc. The arguments must have the
/// table's LLVM types (an invariant of the lowering, asserted).
mlir::Value createRuntimeCall(mlir::OpBuilder &b, mlir::Location loc,
                              RuntimeFn fn, mlir::ValueRange args);

/// The runtime functions of one module, each looked up (or declared) once:
/// what a lowering that makes a call per op uses instead of
/// createRuntimeCall, which scans the module's functions for the callee
/// (8% of amp-lower-to-runtime at 100k forward ops).
class RuntimeCallees {
public:
  explicit RuntimeCallees(mlir::ModuleOp module) : module(module) {}

  /// The declaration of `fn` in the module, made on first use.
  mlir::LLVM::LLVMFuncOp get(mlir::OpBuilder &b, RuntimeFn fn);
  /// As createRuntimeCall.
  mlir::Value call(mlir::OpBuilder &b, mlir::Location loc, RuntimeFn fn,
                   mlir::ValueRange args);

private:
  mlir::ModuleOp module;
  llvm::DenseMap<unsigned, mlir::LLVM::LLVMFuncOp> declared;
};

/// The runtime function a call targets, if it is one of the table's.
const RuntimeFunction *getCalledRuntimeFunction(mlir::LLVM::CallOp call);

/// Whether `op` is a call of the runtime function `fn`.
bool isRuntimeCall(mlir::Operation *op, RuntimeFn fn);

} // namespace amp::runtime_abi

#endif // AMP_CONVERSION_NNTORUNTIME_RUNTIMEABI_H
