//===- StatusChecks.cpp - check every runtime call's status ---------------===//
//
// amp-check-runtime-status, after amp-lower-to-runtime and scf-to-cf. A
// function's runtime calls share a sticky status, an i32 on its stack: each
// call of a runtime function goes through a checked wrapper,
// @__amp_checked_<callee>(%status, %site, args...), one per callee in the
// module, which
//   - returns at once when the status already holds a failure (the calls
//     after a failed one do nothing; amp_alloc's wrapper returns NULL),
//   - else calls the runtime, and when the call fails (a status other than
//     AMP_STATUS_OK, or a NULL from amp_alloc, which is
//     AMP_STATUS_BACKEND_ERROR) stores the status and the address of the
//     site's string in @__amp_error_site.
// The function reads the status before each branch whose block made calls
// since its last check (so that no loop runs on after a failure), after
// every kCallsPerCheck calls of a block (so that a failure stops the step
// soon), and at each return, which returns the failure's status. A check
// branches to the function's one failure block, which returns the status.
//
// With a compare and a branch after every call, a large step was a block
// per call: for a 10k-op transformer ~61k of its 135k lowered lines were
// those compares, branches and blocks, which every later pass visited, the
// printer printed and LLVM's code generator compiled.
//
// The sites' strings are one constant global, @__amp_sites, each string
// once; a site is the offset of its string there (an i64 constant at the
// top of the function, one per offset).
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
/// The prefix of the checked wrappers' names.
static constexpr llvm::StringLiteral kCheckedPrefix = "__amp_checked_";
/// A block reads the status after this many calls.
static constexpr unsigned kCallsPerCheck = 64;

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

/// Builds the checked wrapper of `fn` (see the file comment) at the end of
/// `module`: `(ptr %status, i64 %site, args...) -> result of fn`.
static LLVM::LLVMFuncOp buildCheckedWrapper(OpBuilder &b, ModuleOp module,
                                            SymbolTable &symbols,
                                            LLVM::LLVMFuncOp callee,
                                            const RuntimeFunction &fn,
                                            StringRef sites) {
  MLIRContext *ctx = module.getContext();
  Location loc = callee.getLoc();
  Type ptrTy = LLVM::LLVMPointerType::get(ctx);
  Type i32Ty = b.getI32Type();
  Type i64Ty = b.getI64Type();
  Type resultTy = callee.getFunctionType().getReturnType();
  SmallVector<Type> argTys = {ptrTy, i64Ty};
  llvm::append_range(argTys, callee.getArgumentTypes());

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto wrapper = LLVM::LLVMFuncOp::create(
      b, loc, (kCheckedPrefix + fn.name).str(),
      LLVM::LLVMFunctionType::get(resultTy, argTys), LLVM::Linkage::Private);
  symbols.insert(wrapper); // renames it if the name is taken
  Block *entry = wrapper.addEntryBlock(b);
  Region &body = wrapper.getBody();
  Block *run = b.createBlock(&body, body.end());
  Block *record = b.createBlock(&body, body.end());
  Block *done = b.createBlock(&body, body.end());
  Block *skipped = b.createBlock(&body, body.end());
  Value status = entry->getArgument(0), site = entry->getArgument(1);
  bool returnsStatus = fn.result == AbiType::Status;

  // A failure before this call: do nothing, return it (or NULL).
  b.setInsertionPointToEnd(entry);
  Value ok = LLVM::ConstantOp::create(b, loc, i32Ty,
                                      b.getI32IntegerAttr(AMP_STATUS_OK));
  Value before = LLVM::LoadOp::create(b, loc, i32Ty, status);
  Value failedBefore =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, before, ok);
  LLVM::CondBrOp::create(b, loc, failedBefore, skipped, run);
  b.setInsertionPointToEnd(skipped);
  LLVM::ReturnOp::create(
      b, loc,
      returnsStatus ? before : LLVM::ZeroOp::create(b, loc, ptrTy).getResult());

  // The call, and whether it failed.
  b.setInsertionPointToEnd(run);
  Value result =
      LLVM::CallOp::create(b, loc, callee, entry->getArguments().drop_front(2))
          .getResult();
  Value failed, code;
  if (returnsStatus) {
    failed = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, result, ok);
    code = result;
  } else {
    failed = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, result,
                                  LLVM::ZeroOp::create(b, loc, ptrTy));
    code = LLVM::ConstantOp::create(
        b, loc, i32Ty, b.getI32IntegerAttr(AMP_STATUS_BACKEND_ERROR));
  }
  LLVM::CondBrOp::create(b, loc, failed, record, done);
  b.setInsertionPointToEnd(done);
  LLVM::ReturnOp::create(b, loc, result);

  // The failure: the status, and the site's string in @__amp_error_site.
  b.setInsertionPointToEnd(record);
  LLVM::StoreOp::create(b, loc, code, status);
  Value strings = LLVM::AddressOfOp::create(b, loc, ptrTy, sites);
  Value text = LLVM::GEPOp::create(b, loc, ptrTy, b.getI8Type(), strings,
                                   ArrayRef<LLVM::GEPArg>{site});
  LLVM::StoreOp::create(
      b, loc, text, LLVM::AddressOfOp::create(b, loc, ptrTy, kErrorSiteGlobal));
  LLVM::ReturnOp::create(b, loc, result);
  return wrapper;
}

namespace {

/// What the checks of one function share, built once: the status slot and
/// the constants the calls pass (at the top of the function, so that they
/// dominate every use), and the failure block `^fail` at the end, which
/// returns the status (when some check branches to it).
struct FunctionChecks {
  Block *entry = nullptr;
  Block *fail = nullptr;
  Value status, ok;
  llvm::DenseMap<int64_t, Value> siteConstants;

  static FunctionChecks create(OpBuilder &b, func::FuncOp function) {
    FunctionChecks c;
    Location loc = function.getLoc();
    Type ptrTy = LLVM::LLVMPointerType::get(function.getContext());
    Type i32Ty = b.getI32Type();
    c.entry = &function.getBody().front();
    b.setInsertionPointToStart(c.entry);
    c.ok = LLVM::ConstantOp::create(b, loc, i32Ty,
                                    b.getI32IntegerAttr(AMP_STATUS_OK));
    Value one = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                         b.getI64IntegerAttr(1));
    c.status = LLVM::AllocaOp::create(b, loc, ptrTy, i32Ty, one);
    LLVM::StoreOp::create(b, loc, c.ok, c.status);
    return c;
  }

  /// The failure block, built by the first check that branches to it (an
  /// unreachable block would not be converted to LLVM).
  Block *failBlock(OpBuilder &b) {
    if (!fail) {
      OpBuilder::InsertionGuard guard(b);
      Region &body = *entry->getParent();
      Location loc = body.getParentOp()->getLoc();
      fail = b.createBlock(&body, body.end());
      func::ReturnOp::create(
          b, loc,
          ValueRange{LLVM::LoadOp::create(b, loc, b.getI32Type(), status)});
    }
    return fail;
  }

  /// The i64 constant of a site's offset, one per function and offset.
  Value site(OpBuilder &b, int64_t offset) {
    Value &constant = siteConstants[offset];
    if (!constant) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(entry);
      constant =
          LLVM::ConstantOp::create(b, entry->getParentOp()->getLoc(),
                                   b.getI64Type(), b.getI64IntegerAttr(offset));
    }
    return constant;
  }

  /// Ends `op`'s block after `op` with a check: on to a new block with the
  /// rest of it, or to the failure block.
  void checkAfter(OpBuilder &b, Operation *op) {
    Block *before = op->getBlock();
    Block *next = before->splitBlock(std::next(op->getIterator()));
    b.setInsertionPointToEnd(before);
    auto [now, failed] = readStatus(b, op->getLoc());
    LLVM::CondBrOp::create(b, op->getLoc(), failed, failBlock(b), next);
  }

  /// Makes `ret` return the status when it holds a failure.
  void checkReturn(OpBuilder &b, func::ReturnOp ret) {
    b.setInsertionPoint(ret);
    auto [now, failed] = readStatus(b, ret.getLoc());
    ret->setOperand(0, LLVM::SelectOp::create(b, ret.getLoc(), failed, now,
                                              ret->getOperand(0)));
  }

  /// The status now, and whether it holds a failure.
  std::pair<Value, Value> readStatus(OpBuilder &b, Location loc) {
    Value now = LLVM::LoadOp::create(b, loc, b.getI32Type(), status);
    return {now,
            LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, now, ok)};
  }
};

struct CheckRuntimeStatusPass
    : amp::impl::CheckRuntimeStatusBase<CheckRuntimeStatusPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    OpBuilder b(&getContext());
    Type ptrTy = LLVM::LLVMPointerType::get(&getContext());

    // The checked calls of each function, in program order.
    llvm::MapVector<func::FuncOp, SmallVector<LLVM::CallOp>> calls;
    module.walk([&](LLVM::CallOp call) {
      const RuntimeFunction *fn = getCalledRuntimeFunction(call);
      auto function = call->getParentOfType<func::FuncOp>();
      if (fn && function &&
          (fn->result == AbiType::Status || fn->result == AbiType::Ptr))
        calls[function].push_back(call);
    });
    if (calls.empty())
      return;
    for (auto &[function, functionCalls] : calls) {
      for (LLVM::CallOp call : functionCalls) {
        if (call->getParentRegion() != &function.getBody()) {
          call.emitError("amp-check-runtime-status: runtime calls must be in "
                         "the function's body, not in a nested region "
                         "(convert-scf-to-cf first)");
          return signalPassFailure();
        }
      }
      FunctionType type = function.getFunctionType();
      if (type.getNumResults() != 1 || !type.getResult(0).isInteger(32)) {
        function.emitError()
            << "amp-check-runtime-status: a function that calls the runtime "
               "must return the i32 status of the runner's calling "
               "convention (amp-lower-to-runtime), not "
            << type;
        return signalPassFailure();
      }
    }

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
    // The sites' strings back to back, each with its NUL, in the order of
    // the calls; the offset of each text there; the global that holds them
    // (typed and filled at the end).
    std::string siteText;
    llvm::StringMap<int64_t> siteOffsets;
    b.setInsertionPointToStart(module.getBody());
    auto sitesGlobal = LLVM::GlobalOp::create(
        b, module.getLoc(), b.getI8Type(), /*isConstant=*/true,
        LLVM::Linkage::Internal, kSitesGlobal, Attribute());
    symbols.insert(sitesGlobal); // renames it if the name is taken

    llvm::DenseMap<Operation *, LLVM::LLVMFuncOp> wrappers;
    for (auto &[function, functionCalls] : calls) {
      FunctionChecks checks = FunctionChecks::create(b, function);
      // Each call through its callee's wrapper; how many since the last
      // check in its block.
      llvm::DenseMap<Block *, unsigned> sinceCheck;
      SmallVector<Operation *> checkAfter;
      for (LLVM::CallOp call : functionCalls) {
        // Verified IR: llvm.call's callee is an llvm.func of the module.
        auto callee =
            cast<LLVM::LLVMFuncOp>(symbols.lookup(*call.getCallee()));
        LLVM::LLVMFuncOp &wrapper = wrappers[callee];
        if (!wrapper)
          wrapper = buildCheckedWrapper(b, module, symbols, callee,
                                        *getCalledRuntimeFunction(call),
                                        sitesGlobal.getSymName());
        int64_t site =
            siteOffset(siteText, siteOffsets, describeSite(call.getLoc()));
        SmallVector<Value> args = {checks.status, checks.site(b, site)};
        llvm::append_range(args, call.getArgOperands());
        b.setInsertionPoint(call);
        auto checked = LLVM::CallOp::create(b, call.getLoc(), wrapper, args);
        call.getResult().replaceAllUsesWith(checked.getResult());
        call.erase();
        unsigned &count = sinceCheck[checked->getBlock()];
        if (++count == kCallsPerCheck) {
          count = 0;
          checkAfter.push_back(checked);
        }
      }
      // A block that ends in a branch reads the status before it when it
      // made calls since its last check; returns return the status. These
      // splits first (each moves only the terminator), then the others from
      // the last to the first, so that each split moves only the ops up to
      // the next (already split) check.
      SmallVector<Operation *> beforeTerminators;
      for (Block &block : function.getBody()) {
        Operation *terminator = block.getTerminator();
        if (auto ret = dyn_cast<func::ReturnOp>(terminator)) {
          checks.checkReturn(b, ret);
          continue;
        }
        auto it = sinceCheck.find(&block);
        if (it == sinceCheck.end() || it->second == 0)
          continue;
        if (Operation *prev = terminator->getPrevNode())
          beforeTerminators.push_back(prev);
      }
      for (Operation *op : llvm::concat<Operation *>(beforeTerminators,
                                                     llvm::reverse(checkAfter)))
        checks.checkAfter(b, op);
    }
    sitesGlobal.setGlobalType(
        LLVM::LLVMArrayType::get(b.getI8Type(), siteText.size()));
    sitesGlobal.setValueAttr(b.getStringAttr(siteText));
  }
};

} // namespace
