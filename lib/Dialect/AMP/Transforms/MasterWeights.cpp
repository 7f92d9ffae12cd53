//===- MasterWeights.cpp - f32 masters, one working copy per step ---------===//
//
// amp-master-weights: checks that params and optimizer state are f32 at the
// boundary and in the updates, merges duplicate low-precision copies of a
// param into one at the top of the step, and lets weight-gradient GEMMs
// store f32 instead of casting their f16 result.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/Transforms/Passes.h"

#include "PrecisionUtils.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Dialect/NN/IR/NNOps.h"
#include "amp/Interfaces/MixedPrecisionOpInterface.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/MapVector.h"

namespace amp {
#define GEN_PASS_DEF_MASTERWEIGHTS
#include "amp/Dialect/AMP/Transforms/Passes.h.inc"
} // namespace amp

using namespace mlir;
using namespace amp;

/// Params, buffers and optimizer state: the f32 masters.
static bool isMasterRole(std::optional<nn::Role> role) {
  return role == nn::Role::Param || role == nn::Role::OptState ||
         role == nn::Role::Buffer;
}

static bool isF32Tensor(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && tensor.getElementType().isF32();
}

namespace {
struct MasterWeightsPass : amp::impl::MasterWeightsBase<MasterWeightsPass> {
  LogicalResult initialize(MLIRContext *ctx) override {
    return checkPrecisionModelsRegistered(ctx, "amp-master-weights");
  }

  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (!fn.isExternal() && failed(runOnFunction(fn)))
      signalPassFailure();
  }

  LogicalResult checkBoundary(FunctionOpInterface fn);
  void mergeWorkingCopies(FunctionOpInterface fn);
  void fuseGradientCasts(FunctionOpInterface fn);
  LogicalResult checkUpdates(FunctionOpInterface fn);

  LogicalResult runOnFunction(FunctionOpInterface fn) {
    if (failed(checkBoundary(fn)))
      return failure();
    mergeWorkingCopies(fn);
    fuseGradientCasts(fn);
    return checkUpdates(fn);
  }
};
} // namespace

LogicalResult MasterWeightsPass::checkBoundary(FunctionOpInterface fn) {
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
    std::optional<nn::Role> role = nn::getArgRole(fn, i);
    if (isMasterRole(role) && !isF32Tensor(fn.getArgument(i).getType()))
      return fn.emitError()
             << "argument #" << i << " (" << nn::stringifyRole(*role)
             << ") must be an f32 tensor: params, buffers and "
                "optimizer state are f32 masters, got "
             << fn.getArgument(i).getType();
  }
  for (unsigned i = 0, e = fn.getNumResults(); i < e; ++i) {
    std::optional<nn::Role> role = nn::getResultRole(fn, i);
    if (isMasterRole(role) && !isF32Tensor(fn.getResultTypes()[i]))
      return fn.emitError()
             << "result #" << i << " (" << nn::stringifyRole(*role)
             << ") must be an f32 tensor: params, buffers and "
                "optimizer state are f32 masters, got "
             << fn.getResultTypes()[i];
  }
  return success();
}

void MasterWeightsPass::mergeWorkingCopies(FunctionOpInterface fn) {
  Block &entry = fn.getFunctionBody().front();
  Operation *insertAfter = nullptr;
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
    if (nn::getArgRole(fn, i) != nn::Role::Param)
      continue;
    BlockArgument param = fn.getArgument(i);
    llvm::MapVector<Type, SmallVector<CastOp>> copies;
    for (Operation *user : param.getUsers())
      if (auto cast = dyn_cast<CastOp>(user))
        copies[cast.getType()].push_back(cast);
    for (auto &[type, casts] : copies) {
      // The first copy in program order stays and moves to the top.
      llvm::sort(casts, [](CastOp a, CastOp b) {
        return a->getBlock() == b->getBlock() && a->isBeforeInBlock(b);
      });
      CastOp kept = casts.front();
      if (insertAfter)
        kept->moveAfter(insertAfter);
      else
        kept->moveBefore(&entry, entry.begin());
      insertAfter = kept;
      ++numWorkingCopies;
      for (CastOp dup : ArrayRef<CastOp>(casts).drop_front()) {
        dup.getResult().replaceAllUsesWith(kept.getResult());
        dup.erase();
        ++numMergedCasts;
      }
    }
  }
}

void MasterWeightsPass::fuseGradientCasts(FunctionOpInterface fn) {
  fn->walk([&](Operation *op) {
    auto update = dyn_cast<nn::OptimizerUpdateOpInterface>(op);
    if (!update)
      return;
    Value grad = update.getGradMutable().get();
    auto cast = grad.getDefiningOp<CastOp>();
    if (!cast || !isF32Tensor(cast.getType()))
      return;
    auto result = dyn_cast<OpResult>(cast.getInput());
    if (!result || !result.hasOneUse())
      return;
    auto producer = dyn_cast<MixedPrecisionOpInterface>(result.getOwner());
    if (!producer || !producer.hasF32Accumulator() ||
        !llvm::is_contained(producer.getPrecisionResults(),
                            result.getResultNumber()))
      return;
    result.setType(cast.getType());
    cast.getResult().replaceAllUsesWith(result);
    cast.erase();
    ++numFusedGradCasts;
  });
}

LogicalResult MasterWeightsPass::checkUpdates(FunctionOpInterface fn) {
  WalkResult walk = fn->walk([&](Operation *op) {
    if (!isa<nn::OptimizerUpdateOpInterface>(op))
      return WalkResult::advance();
    for (Value v : op->getOperands()) {
      if (!isF32Tensor(v.getType())) {
        op->emitError() << "optimizer updates must read f32 masters, state "
                           "and gradients, got "
                        << v.getType();
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}
