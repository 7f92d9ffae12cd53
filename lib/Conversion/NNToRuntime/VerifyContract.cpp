//===- VerifyContract.cpp - check that a module runs on the runtime ABI ---===//
//
// amp-verify-runtime-contract, the last step of amp-to-runtime: the module
// may hold only LLVM-dialect ops and types, and may call only functions it
// defines or the runtime functions of the ABI table, declared with the
// table's signatures. Anything else would fail at JIT or link time with a
// message that no longer names the op.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/NNToRuntime/NNToRuntime.h"
#include "amp/Conversion/NNToRuntime/RuntimeABI.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace amp {
#define GEN_PASS_DEF_VERIFYRUNTIMECONTRACT
#include "amp/Conversion/Passes.h.inc"
} // namespace amp

using namespace mlir;
using namespace amp;
using namespace amp::runtime_abi;

namespace {

LogicalResult verifyDeclaration(LLVM::LLVMFuncOp fn) {
  const RuntimeFunction *abi = lookupRuntimeFunction(fn.getName());
  if (!abi)
    return fn.emitError() << "amp-verify-runtime-contract: '@" << fn.getName()
                          << "' is declared but is not a runtime function "
                             "(docs/runtime-abi.md lists them)";
  MLIRContext *ctx = fn.getContext();
  SmallVector<Type> args;
  for (AbiType t : abi->args)
    args.push_back(getLLVMType(ctx, t));
  auto expected =
      LLVM::LLVMFunctionType::get(getLLVMType(ctx, abi->result), args);
  if (fn.getFunctionType() != expected)
    return fn.emitError() << "amp-verify-runtime-contract: '@" << fn.getName()
                          << "' is declared as " << fn.getFunctionType()
                          << " but the runtime ABI has " << expected;
  return success();
}

struct VerifyRuntimeContractPass
    : amp::impl::VerifyRuntimeContractBase<VerifyRuntimeContractPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module); // one lookup per call stays O(1)
    WalkResult result = module.walk([&](Operation *op) -> WalkResult {
      if (op == module.getOperation())
        return WalkResult::advance();
      if (!isa<LLVM::LLVMDialect>(op->getDialect()))
        return op->emitError()
               << "amp-verify-runtime-contract: '" << op->getName()
               << "' is not part of what the runtime ABI runs (only the LLVM "
                  "dialect and calls of runtime functions are); lower it "
                  "with amp-to-runtime";
      for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                             op->getResultTypes()))
        if (!LLVM::isCompatibleType(t))
          return op->emitError() << "amp-verify-runtime-contract: type " << t
                                 << " is not an LLVM type";
      if (auto fn = dyn_cast<LLVM::LLVMFuncOp>(op))
        if (fn.isExternal() && failed(verifyDeclaration(fn)))
          return WalkResult::interrupt();
      if (auto call = dyn_cast<LLVM::CallOp>(op)) {
        std::optional<StringRef> callee = call.getCallee();
        if (!callee)
          return op->emitError("amp-verify-runtime-contract: indirect calls "
                               "are not part of the runtime ABI");
        if (!symbols.lookup<LLVM::LLVMFuncOp>(*callee))
          return op->emitError() << "amp-verify-runtime-contract: '@"
                                 << *callee << "' is not defined or declared";
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
