//===- StatusChecks.cpp - check every runtime call's status ---------------===//
//
// amp-check-runtime-status, after amp-lower-to-runtime and scf-to-cf: every
// call of a runtime function that returns amp_status_t is followed by a
// branch that, on failure, stores the failing op's location in
// @__amp_error_site and returns the status; a NULL from amp_alloc returns
// AMP_STATUS_BACKEND_ERROR (the runtime's last error says why).
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/NNToRuntime/NNToRuntime.h"
#include "amp/Conversion/NNToRuntime/RuntimeABI.h"

#include "amp_runtime/amp_runtime.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

namespace amp {
#define GEN_PASS_DEF_CHECKRUNTIMESTATUS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp

using namespace mlir;
using namespace amp;
using namespace amp::runtime_abi;

/// "file:line:col" of a FileLineColLoc, the name of a NameLoc, else the
/// location as printed.
static std::string describeSite(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  std::string site;
  llvm::raw_string_ostream os(site);
  loc.print(os);
  return site;
}

namespace {

struct CheckRuntimeStatusPass
    : amp::impl::CheckRuntimeStatusBase<CheckRuntimeStatusPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    OpBuilder b(&getContext());
    Type ptrTy = LLVM::LLVMPointerType::get(&getContext());
    Type i32Ty = b.getI32Type();
    if (!symbols.lookup(kErrorSiteGlobal)) {
      // A null pointer until a call fails.
      b.setInsertionPointToStart(module.getBody());
      auto global = LLVM::GlobalOp::create(
          b, module.getLoc(), ptrTy, /*isConstant=*/false,
          LLVM::Linkage::External, kErrorSiteGlobal, Attribute());
      b.createBlock(&global.getInitializerRegion());
      LLVM::ReturnOp::create(
          b, module.getLoc(),
          ValueRange{LLVM::ZeroOp::create(b, module.getLoc(), ptrTy)});
    }

    llvm::StringMap<LLVM::GlobalOp> sites;
    DenseMap<Region *, Block *> firstFailBlock;
    SmallVector<std::pair<LLVM::CallOp, const RuntimeFunction *>> calls;
    module.walk([&](LLVM::CallOp call) {
      if (const RuntimeFunction *fn = getCalledRuntimeFunction(call))
        if (call->getParentOfType<func::FuncOp>())
          calls.push_back({call, fn});
    });
    // From the last call to the first: splitting a block after a call moves
    // only the ops up to the next (already split) call, so the pass stays
    // linear in the function's size.
    for (auto [call, fn] : llvm::reverse(calls)) {
      Location loc = call.getLoc();
      b.setInsertionPointAfter(call);
      Value status, failed;
      if (fn->result == AbiType::Status) {
        status = call.getResult();
        Value ok = LLVM::ConstantOp::create(b, loc, i32Ty,
                                            b.getI32IntegerAttr(AMP_STATUS_OK));
        failed = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, status,
                                      ok);
      } else if (fn->result == AbiType::Ptr) {
        Value null = LLVM::ZeroOp::create(b, loc, ptrTy);
        failed = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                      call.getResult(), null);
        status = LLVM::ConstantOp::create(
            b, loc, i32Ty, b.getI32IntegerAttr(AMP_STATUS_BACKEND_ERROR));
      } else {
        continue;
      }
      // Split after the check; the failure block records the site.
      Block *before = b.getInsertionBlock();
      Block *next = before->splitBlock(b.getInsertionPoint());
      // Failure blocks go to the end of the function, in program order:
      // each before the one of the call that follows it.
      Region *region = before->getParent();
      Block *&firstFail = firstFailBlock[region];
      Block *fail = b.createBlock(
          region, firstFail ? Region::iterator(firstFail) : region->end());
      firstFail = fail;
      Value site = siteString(b, module, symbols, sites, loc);
      Value siteGlobal =
          LLVM::AddressOfOp::create(b, loc, ptrTy, kErrorSiteGlobal);
      LLVM::StoreOp::create(b, loc, site, siteGlobal);
      func::ReturnOp::create(b, loc, ValueRange{status});
      b.setInsertionPointToEnd(before);
      cf::CondBranchOp::create(b, loc, failed, fail, next);
    }
  }

  /// The address of a constant string naming `loc`'s site: one global per
  /// distinct site text.
  static Value siteString(OpBuilder &b, ModuleOp module, SymbolTable &symbols,
                          llvm::StringMap<LLVM::GlobalOp> &sites,
                          Location loc) {
    std::string text = describeSite(loc);
    LLVM::GlobalOp &global = sites[text];
    if (!global) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      std::string data = text;
      data.push_back('\0');
      auto type = LLVM::LLVMArrayType::get(b.getI8Type(), data.size());
      global = LLVM::GlobalOp::create(
          b, loc, type, /*isConstant=*/true, LLVM::Linkage::Internal,
          "__amp_site_" + std::to_string(sites.size() - 1),
          b.getStringAttr(data));
      symbols.insert(global); // renames it if the name is taken
    }
    return LLVM::AddressOfOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()),
        global.getSymName());
  }
};

} // namespace
