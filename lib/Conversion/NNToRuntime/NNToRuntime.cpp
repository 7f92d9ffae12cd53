//===- NNToRuntime.cpp - lower training steps to runtime calls ------------===//
//
// amp-lower-to-runtime. Shapes are static, so every tensor becomes one dense
// runtime buffer (an !llvm.ptr) and every op runtime calls on buffers. The
// pass
//   1. inlines amp.autocast and amp.skip_step_if (whose optimizer updates
//      take its found_inf as a predicate),
//   2. makes buffer ownership explicit with copies (BufferOwnership.cpp),
//   3. lowers each op on tensors with the lowering of its name, declared
//      per op family (*Patterns.cpp), in one walk over the function
//      (Lowerings.h): scf and the function's signature carry pointers,
//   4. gives each function the runner's calling convention: one array of
//      buffer pointers (arguments, then results) and an amp_status_t result;
//      a value computed in the function body is computed straight into its
//      result buffer (EntryPoint.cpp), or in place in the argument donated
//      to it (amp.aliasing_output, Donation.cpp),
//   5. unifies the equal constants the lowerings built (ConstantUniquing.cpp).
// Frees and status checks come after (amp-runtime-deallocate,
// amp-check-runtime-status), in the amp-to-runtime pipeline.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/NNToRuntime/NNToRuntime.h"

#include "BufferOwnership.h"
#include "ConstantUniquing.h"
#include "Donation.h"
#include "EntryPoint.h"
#include "Lowerings.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Dialect/NN/IR/NNOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace amp {
#define GEN_PASS_DEF_LOWERTORUNTIME
#include "amp/Conversion/Passes.h.inc"
} // namespace amp

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

/// Rejects what the lowering cannot take, with the op and the reason.
LogicalResult checkLowerable(func::FuncOp fn, int64_t maxConstantBytes) {
  if (!fn.getBody().hasOneBlock())
    return fn.emitError("amp-lower-to-runtime expects single-block functions");
  for (Type t :
       llvm::concat<const Type>(fn.getArgumentTypes(), fn.getResultTypes()))
    if (!isRuntimeTensorType(t))
      return fn.emitError() << "amp-lower-to-runtime: function arguments and "
                               "results must be static tensors of f32, f16, "
                               "bf16, i32, i64 or i1, got "
                            << t;
  WalkResult result = fn.walk([&](Operation *op) -> WalkResult {
    if (isa<nn::MatmulOp>(op) &&
        llvm::any_of(op->getOperandTypes(), [](Type t) {
          return cast<RankedTensorType>(t).getNumElements() == 0;
        }))
      return op->emitError("amp-lower-to-runtime: nn.matmul of zero-size "
                           "operands is not supported: the runtime GEMM has "
                           "no empty case");
    if (isa<nn::MatmulOp>(op))
      return op->emitError("amp-lower-to-runtime: nn.matmul must become "
                           "amp.gemm first (amp-lower-matmul-to-cublaslt "
                           "f32-gemm=true, or the amp-to-runtime pipeline)");
    bool known =
        isa<nn::NNDialect, AMPDialect>(op->getDialect()) ||
        isa<arith::ConstantOp, scf::ForOp, scf::IfOp, scf::WhileOp,
            scf::YieldOp, scf::ConditionOp, func::FuncOp, func::ReturnOp,
            tensor::EmptyOp, linalg::CopyOp>(op) ||
        (isa<arith::ArithDialect>(op->getDialect()) &&
         llvm::none_of(op->getResultTypes(), llvm::IsaPred<TensorType>));
    if (!known)
      return op->emitError()
             << "amp-lower-to-runtime: cannot lower '" << op->getName()
             << "'; the runtime runs nn and amp ops, tensor "
                "constants and scf control flow";
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto data = dyn_cast<DenseElementsAttr>(constant.getValue());
      auto type = dyn_cast<RankedTensorType>(constant.getType());
      std::optional<int64_t> bytes = type ? tensorByteSize(type) : std::nullopt;
      if (data && bytes && !data.isSplat() && *bytes > maxConstantBytes)
        return op->emitError()
               << "amp-lower-to-runtime: a constant of " << *bytes
               << " bytes is larger than the " << maxConstantBytes
               << " bytes the lowering embeds in a step (max-constant-bytes); "
                  "pass it as an argument instead";
    }
    for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                           op->getResultTypes())) {
      if (isa<TensorType>(t) && !isRuntimeTensorType(t))
        return op->emitError() << "amp-lower-to-runtime: " << t
                               << " is not a static tensor of f32, f16, bf16, "
                                  "i32, i64 or i1";
      // Sizes, strides and allocations of the lowering cannot wrap.
      if (auto tensor = dyn_cast<RankedTensorType>(t);
          tensor && !tensorByteSize(tensor))
        return op->emitError() << "amp-lower-to-runtime: " << t
                               << " is too large: its size in bytes does not "
                                  "fit in int64";
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Replaces a single-block region op by its body.
void inlineBody(Operation *op) {
  Block &body = op->getRegion(0).front();
  Operation *yield = body.getTerminator();
  op->replaceAllUsesWith(yield->getOperands());
  yield->erase();
  op->getBlock()->getOperations().splice(Block::iterator(op),
                                         body.getOperations());
  op->erase();
}

/// Inlines amp.autocast and amp.skip_step_if, recording the found_inf of
/// each optimizer update that was inside a skip.
void inlineScopes(func::FuncOp fn, SkipPredicates &predicates) {
  SmallVector<Operation *> scopes;
  fn.walk<WalkOrder::PostOrder>([&](Operation *op) {
    if (isa<AutocastOp, SkipStepIfOp>(op))
      scopes.push_back(op);
  });
  for (Operation *op : scopes) {
    if (auto skip = dyn_cast<SkipStepIfOp>(op))
      skip.getBody().walk([&](Operation *inner) {
        if (isa<nn::OptimizerUpdateOpInterface>(inner))
          predicates[inner] = skip.getFoundInf();
      });
    inlineBody(op);
  }
}

struct LowerToRuntimePass : amp::impl::LowerToRuntimeBase<LowerToRuntimePass> {
  using LowerToRuntimeBase::LowerToRuntimeBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<func::FuncOp> functions;
    llvm::DenseMap<func::FuncOp, FunctionType> originalTypes;
    SkipPredicates predicates;
    for (func::FuncOp fn : module.getOps<func::FuncOp>()) {
      if (fn.isExternal())
        continue;
      if (failed(checkLowerable(fn, maxConstantBytes)) ||
          failed(checkDonations(fn)))
        return signalPassFailure();
      functions.push_back(fn);
    }
    for (func::FuncOp fn : functions) {
      originalTypes[fn] = fn.getFunctionType();
      inlineScopes(fn, predicates);
      insertOwnershipCopies(fn);
    }

    LoweringTable table(ctx);
    addElementwiseLowerings(table);
    addShapeLowerings(table);
    addReductionLowerings(table);
    addNormLowerings(table);
    addAttentionLowerings(table);
    addConvLowerings(table);
    addPoolLowerings(table);
    addLossLowerings(table);
    addGemmLowerings(table);
    addOptimizerLowerings(table, predicates);
    addLossScaleLowerings(table);
    addBufferLowerings(table);
    for (func::FuncOp fn : functions)
      if (failed(lowerFunction(fn, table, inPlace)))
        return signalPassFailure();

    for (func::FuncOp fn : functions) {
      buildEntryPoint(fn, originalTypes.lookup(fn));
      uniqueConstants(fn.getBody());
    }
    // amp-runtime-deallocate runs per function, in parallel: declare what it
    // calls here.
    OpBuilder b(ctx);
    runtime_abi::declareRuntimeFunction(b, module, RuntimeFn::amp_free);
  }
};

} // namespace
