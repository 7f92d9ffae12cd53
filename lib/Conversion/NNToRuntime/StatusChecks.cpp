//===- StatusChecks.cpp - check every runtime call's status ---------------===//
//
// amp-check-runtime-status, after amp-lower-to-runtime and scf-to-cf: every
// call of a runtime function that returns amp_status_t is followed by a
// branch that, on failure, stores the failing op's location in
// @__amp_error_site and returns the status; a NULL from amp_alloc returns
// AMP_STATUS_BACKEND_ERROR (the runtime's last error says why). The branches
// of a function share one failure block, which takes the status and the
// site as block arguments: a check costs a compare and a branch (an
// llvm.cond_br, which the conversion to LLVM does not visit again). The
// sites' strings are one constant global, @__amp_sites, and a site is the
// offset of its string there (an i64 constant): one global per site was about a
// fifth of a large step's ops. The branches reach the failure block through
// forwarding blocks, one per 64 checks: LLVM's instruction selection looks up a
// phi's incoming value for each predecessor by a linear scan, so one block with
// a phi over every check of a step was quadratic (a quarter of amp-compile's
// time at 100k forward ops).
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/NNToRuntime/NNToRuntime.h"
#include "amp/Conversion/NNToRuntime/RuntimeABI.h"

#include "amp_runtime/amp_runtime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

namespace amp {
#define GEN_PASS_DEF_CHECKRUNTIMESTATUS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp

using namespace mlir;
using namespace amp;
using namespace amp::runtime_abi;

/// The constant global of the sites' strings.
static constexpr llvm::StringLiteral kSitesGlobal = "__amp_sites";

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

    // The sites' strings back to back, each with its NUL; the offset of
    // each text there; the global that holds them (typed and filled at the
    // end).
    std::string siteText;
    llvm::StringMap<int64_t> siteOffsets;
    b.setInsertionPointToStart(module.getBody());
    auto sitesGlobal = LLVM::GlobalOp::create(
        b, module.getLoc(), b.getI8Type(), /*isConstant=*/true,
        LLVM::Linkage::Internal, kSitesGlobal, Attribute());
    symbols.insert(sitesGlobal); // renames it if the name is taken
    // The checked calls, with their sites' offsets in program order.
    struct Checked {
      LLVM::CallOp call;
      const RuntimeFunction *fn;
      int64_t site;
    };
    SmallVector<Checked> calls;
    module.walk([&](LLVM::CallOp call) {
      const RuntimeFunction *fn = getCalledRuntimeFunction(call);
      if (fn && call->getParentOfType<func::FuncOp>() &&
          (fn->result == AbiType::Status || fn->result == AbiType::Ptr))
        calls.push_back(
            {call, fn,
             siteOffset(siteText, siteOffsets, describeSite(call.getLoc()))});
    });
    DenseMap<Region *, FunctionChecks> functions;
    // From the last call to the first: splitting a block after a call moves
    // only the ops up to the next (already split) call, so the pass stays
    // linear in the function's size.
    for (auto [call, fn, siteAt] : llvm::reverse(calls)) {
      auto function = call->getParentOfType<func::FuncOp>();
      FunctionChecks &checks = functions[&function.getBody()];
      if (!checks.fail)
        checks = FunctionChecks::create(b, function, sitesGlobal);
      Location loc = call.getLoc();
      b.setInsertionPointAfter(call);
      Value status, failed;
      if (fn->result == AbiType::Status) {
        status = call.getResult();
        failed = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, status,
                                      checks.ok);
      } else {
        failed = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                      call.getResult(), checks.null);
        status = checks.backendError;
      }
      // Split after the check; a failure goes to the function's failure
      // block with the status and the site.
      Block *before = b.getInsertionBlock();
      Block *next = before->splitBlock(b.getInsertionPoint());
      Value site = checks.site(b, siteAt);
      b.setInsertionPointToEnd(before);
      LLVM::CondBrOp::create(b, loc, failed, checks.failTarget(b),
                             ValueRange{status, site}, next, ValueRange{});
    }
    if (siteText.empty()) {
      sitesGlobal.erase();
      return;
    }
    sitesGlobal.setGlobalType(
        LLVM::LLVMArrayType::get(b.getI8Type(), siteText.size()));
    sitesGlobal.setValueAttr(b.getStringAttr(siteText));
  }

  /// The offset of `text`'s string in `siteText`, appended with its NUL
  /// terminator the first time.
  static int64_t siteOffset(std::string &siteText,
                            llvm::StringMap<int64_t> &siteOffsets,
                            const std::string &text) {
    auto [it, inserted] = siteOffsets.try_emplace(text, siteText.size());
    if (inserted) {
      siteText += text;
      siteText.push_back('\0');
    }
    return it->second;
  }

  /// What the checks of one function share, built once: the constants they
  /// compare with and pass (statuses, site offsets; at the top of the
  /// function, so that they dominate every check) and one failure block
  /// `^fail(%status: i32, %site: i64)` at the end that stores the address of
  /// the site's string in @__amp_error_site and returns the status.
  struct FunctionChecks {
    /// Checks per forwarding block.
    static constexpr unsigned kChecksPerGroup = 64;

    Block *entry = nullptr;
    Block *fail = nullptr;
    /// The forwarding block of the current group of checks, and how many
    /// branch to it.
    Block *group = nullptr;
    unsigned inGroup = 0;
    Value ok, backendError, null;
    llvm::DenseMap<int64_t, Value> siteConstants;

    /// The i64 constant of a site's offset, one per function and offset.
    Value site(OpBuilder &b, int64_t offset) {
      Value &constant = siteConstants[offset];
      if (!constant) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(entry);
        constant = LLVM::ConstantOp::create(b, entry->getParentOp()->getLoc(),
                                            b.getI64Type(),
                                            b.getI64IntegerAttr(offset));
      }
      return constant;
    }

    /// The block a check's failure branches to: a block
    /// `^(%status: i32, %site: i64)` that forwards both to the
    /// failure block, shared by kChecksPerGroup checks.
    Block *failTarget(OpBuilder &b) {
      if (!group || inGroup == kChecksPerGroup) {
        OpBuilder::InsertionGuard guard(b);
        Location loc = fail->getParentOp()->getLoc();
        group = b.createBlock(fail, fail->getArgumentTypes(), {loc, loc});
        LLVM::BrOp::create(b, loc, group->getArguments(), fail);
        inGroup = 0;
      }
      ++inGroup;
      return group;
    }

    static FunctionChecks create(OpBuilder &b, func::FuncOp function,
                                 LLVM::GlobalOp sites) {
      FunctionChecks c;
      Location loc = function.getLoc();
      MLIRContext *ctx = function.getContext();
      Type ptrTy = LLVM::LLVMPointerType::get(ctx);
      Type i32Ty = b.getI32Type();
      c.entry = &function.getBody().front();
      b.setInsertionPointToStart(c.entry);
      c.ok = LLVM::ConstantOp::create(b, loc, i32Ty,
                                      b.getI32IntegerAttr(AMP_STATUS_OK));
      c.backendError = LLVM::ConstantOp::create(
          b, loc, i32Ty, b.getI32IntegerAttr(AMP_STATUS_BACKEND_ERROR));
      c.null = LLVM::ZeroOp::create(b, loc, ptrTy);
      c.fail = b.createBlock(&function.getBody(), function.getBody().end(),
                             {i32Ty, b.getI64Type()}, {loc, loc});
      Value strings = LLVM::AddressOfOp::create(b, loc, sites);
      Value site =
          LLVM::GEPOp::create(b, loc, ptrTy, b.getI8Type(), strings,
                              ArrayRef<LLVM::GEPArg>{c.fail->getArgument(1)});
      Value errorSite =
          LLVM::AddressOfOp::create(b, loc, ptrTy, kErrorSiteGlobal);
      LLVM::StoreOp::create(b, loc, site, errorSite);
      func::ReturnOp::create(b, loc, ValueRange{c.fail->getArgument(0)});
      return c;
    }
  };
};

} // namespace
