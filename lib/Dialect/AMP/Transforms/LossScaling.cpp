//===- LossScaling.cpp - loss scaling as a rewrite of the backward pass ---===//
//
// amp-loss-scaling: scaled seed, one fused unscale-and-check before the
// optimizer (and before gradient clipping), skip-step predication of the
// updates, the dynamic scale update, and the scale state threaded through
// the training step's arguments and results.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/Transforms/Passes.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Dialect/NN/IR/NNOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cmath>

namespace amp {
#define GEN_PASS_DEF_LOSSSCALING
#include "amp/Dialect/AMP/Transforms/Passes.h.inc"
} // namespace amp

using namespace mlir;
using namespace amp;

namespace {
struct LossScalingPass : amp::impl::LossScalingBase<LossScalingPass> {
  using LossScalingBase::LossScalingBase;

  LogicalResult initialize(MLIRContext *ctx) override {
    auto fail = [&](const Twine &msg) {
      return emitError(UnknownLoc::get(ctx)) << "amp-loss-scaling: " << msg;
    };
    if (mode != "dynamic" && mode != "static" && mode != "none")
      return fail("mode must be dynamic, static or none, got '" + mode + "'");
    if (!(initScale > 0.0) || !std::isfinite(static_cast<float>(initScale)))
      return fail("init-scale must be a positive finite f32 value");
    if (!(growthFactor > 1.0) || std::isinf(growthFactor))
      return fail("growth-factor must be finite and > 1");
    if (!(backoffFactor > 0.0 && backoffFactor < 1.0))
      return fail("backoff-factor must be in (0, 1)");
    if (growthInterval < 1)
      return fail("growth-interval must be >= 1");
    if (hysteresis < 1)
      return fail("hysteresis must be >= 1");
    if (!(minScale >= 0.0) || (maxScale != 0.0 && maxScale < minScale))
      return fail("min-scale must be >= 0 and max-scale (0: none) >= min-scale");
    return success();
  }

  void runOnOperation() override {
    if (mode == "none")
      return;
    func::FuncOp fn = getOperation();
    if (!fn.isExternal() && failed(rewrite(fn)))
      return signalPassFailure();
  }

  LogicalResult rewrite(func::FuncOp fn);
  LogicalResult checkGradientFlow(func::FuncOp fn,
                                  ArrayRef<nn::GradSeedOp> seeds,
                                  ArrayRef<Operation *> updates);
};
} // namespace

/// What a clipped gradient clips: through a chain of clipping ops (values
/// clipped, then the norm), the gradient the first of them reads.
static Value beforeClipping(Value grad) {
  while (auto clip = grad.getDefiningOp<nn::GradientClipOpInterface>()) {
    unsigned i = cast<OpResult>(grad).getResultNumber();
    if (i >= clip.getGradsMutable().size())
      break;
    grad = clip.getGradsMutable()[i].get();
  }
  return grad;
}

/// Every update's gradient must come from a seed, and no value computed from
/// a seed may leave the function except through an update (it would leave
/// scaled).
LogicalResult LossScalingPass::checkGradientFlow(
    func::FuncOp fn, ArrayRef<nn::GradSeedOp> seeds,
    ArrayRef<Operation *> updates) {
  llvm::DenseSet<Value> scaled;
  SmallVector<Value> work;
  for (nn::GradSeedOp seed : seeds)
    work.push_back(seed.getResult());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!scaled.insert(v).second)
      continue;
    for (Operation *user : v.getUsers()) {
      // Updates and clipping see unscaled gradients after the rewrite.
      if (isa<nn::OptimizerUpdateOpInterface, nn::GradientClipOpInterface>(
              user))
        continue;
      llvm::append_range(work, user->getResults());
    }
  }
  for (Operation *update : updates) {
    Value grad = beforeClipping(
        cast<nn::OptimizerUpdateOpInterface>(update).getGradMutable().get());
    if (!scaled.contains(grad))
      return update->emitError(
          "the gradient of this update does not come from nn.grad_seed: loss "
          "scaling would unscale a gradient that was never scaled");
  }
  Operation *ret = fn.getBody().front().getTerminator();
  for (OpOperand &operand : ret->getOpOperands())
    if (scaled.contains(operand.get()))
      return ret->emitError()
             << "result #" << operand.getOperandNumber()
             << " is computed from nn.grad_seed but does not go through an "
                "optimizer update: with loss scaling it would be returned "
                "scaled";
  return success();
}

LogicalResult LossScalingPass::rewrite(func::FuncOp fn) {
  SmallVector<nn::GradSeedOp> seeds;
  SmallVector<Operation *> updates, clips;
  bool alreadyScaled = false;
  fn.walk([&](Operation *op) {
    if (auto seed = dyn_cast<nn::GradSeedOp>(op))
      seeds.push_back(seed);
    else if (isa<nn::OptimizerUpdateOpInterface>(op))
      updates.push_back(op);
    else if (isa<nn::GradientClipOpInterface>(op))
      clips.push_back(op);
    else if (isa<ScaledGradSeedOp, UnscaleAndCheckOp>(op))
      alreadyScaled = true;
  });
  if (alreadyScaled || (seeds.empty() && updates.empty()))
    return success();
  if (seeds.empty())
    return fn.emitError("has optimizer updates but no nn.grad_seed: loss "
                        "scaling needs to know where the backward pass starts");
  if (updates.empty())
    return seeds.front().emitError(
        "no optimizer update consumes the gradients of this backward pass: "
        "loss-scaled gradients would never be unscaled");
  Block &body = fn.getBody().front();
  for (Operation *op : llvm::concat<Operation *>(updates, clips))
    if (op->getBlock() != &body)
      return op->emitError("loss scaling expects optimizer updates and "
                           "gradient clipping at the top level of the "
                           "training step, not inside a region");
  if (failed(checkGradientFlow(fn, seeds, updates)))
    return failure();

  MLIRContext *ctx = &getContext();
  OpBuilder b(ctx);
  Location loc = fn.getLoc();
  auto f32 = RankedTensorType::get({}, b.getF32Type());
  auto i32 = RankedTensorType::get({}, b.getI32Type());
  auto i1 = RankedTensorType::get({}, b.getI1Type());
  bool useHysteresis = mode == "dynamic" && hysteresis > 1;

  // State arguments: scale, growth tracker, [hysteresis tracker], found_inf.
  auto addArg = [&](Type type, nn::Role role, Attribute init) -> Value {
    unsigned index = fn.getNumArguments();
    NamedAttribute attrs[] = {
        nn::getRoleNamedAttr(ctx, role),
        b.getNamedAttr(nn::NNDialect::getInitAttrName(), init)};
    if (failed(fn.insertArgument(index, type, b.getDictionaryAttr(attrs), loc)))
      return Value();
    return fn.getArgument(index);
  };
  Value scale = addArg(f32, nn::Role::LossScale,
                       b.getF32FloatAttr(static_cast<float>(initScale)));
  Value tracker = addArg(i32, nn::Role::GrowthTracker, b.getI32IntegerAttr(0));
  Value hystTracker;
  if (useHysteresis)
    hystTracker = addArg(i32, nn::Role::HysteresisTracker,
                         b.getI32IntegerAttr(hysteresis));
  addArg(i1, nn::Role::FoundInf, b.getBoolAttr(false));

  // Seed.
  for (nn::GradSeedOp seed : seeds) {
    b.setInsertionPoint(seed);
    auto scaled = ScaledGradSeedOp::create(b, seed.getLoc(), seed.getLoss(), scale);
    seed.replaceAllUsesWith(scaled.getResult());
    seed.erase();
  }

  // Clipping and updates go to the end of the step, in their order, so that
  // one unscale-and-check can sit after every gradient and before all of
  // them; what reads their results (nn-autodiff's moving averages of the
  // new params) follows them, in its order.
  Operation *terminator = body.getTerminator();
  SmallVector<Operation *> tail, readers;
  llvm::SmallPtrSet<Operation *, 32> moved;
  for (Operation &op : body.without_terminator()) {
    if (isa<nn::OptimizerUpdateOpInterface, nn::GradientClipOpInterface>(op)) {
      tail.push_back(&op);
      moved.insert(&op);
    } else if (llvm::any_of(op.getOperands(), [&](Value v) {
                 return moved.contains(v.getDefiningOp());
               })) {
      readers.push_back(&op);
      moved.insert(&op);
    }
  }
  for (Operation *op : tail)
    op->moveBefore(terminator);
  for (Operation *op : readers)
    op->moveBefore(terminator);
  Operation *afterUpdates = readers.empty() ? terminator : readers.front();

  llvm::SetVector<Value> rawGrads;
  SmallVector<OpOperand *> rawUses;
  // The gradients that no clipping op has read yet: a clipping op's or an
  // update's operand that a clipping op computed is unscaled already.
  auto addRaw = [&](OpOperand &g) {
    if (g.get().getDefiningOp<nn::GradientClipOpInterface>())
      return;
    rawGrads.insert(g.get());
    rawUses.push_back(&g);
  };
  for (Operation *op : tail) {
    if (auto clip = dyn_cast<nn::GradientClipOpInterface>(op)) {
      for (OpOperand &g : clip.getGradsMutable())
        addRaw(g);
      continue;
    }
    addRaw(cast<nn::OptimizerUpdateOpInterface>(op).getGradMutable());
  }
  b.setInsertionPoint(tail.front());
  auto unscale = UnscaleAndCheckOp::create(b, loc, scale,
                                           rawGrads.getArrayRef());
  llvm::DenseMap<Value, Value> unscaledOf;
  for (auto [raw, unscaled] : llvm::zip(rawGrads, unscale.getUnscaled()))
    unscaledOf[raw] = unscaled;
  for (OpOperand *use : rawUses)
    use->set(unscaledOf.lookup(use->get()));
  Value foundInf = unscale.getFoundInf();

  // Skip-step predication of every update.
  if (skipOnOverflow) {
    SmallVector<Value> keep;
    SmallVector<Type> types;
    for (Operation *update : updates) {
      llvm::append_range(
          keep,
          cast<nn::OptimizerUpdateOpInterface>(update).getUpdatedOperands());
      llvm::append_range(types, update->getResultTypes());
    }
    b.setInsertionPoint(afterUpdates);
    auto skip = SkipStepIfOp::create(b, loc, types, foundInf, keep);
    Block *region = b.createBlock(&skip.getBody());
    SmallVector<Value> yielded;
    for (Operation *update : updates) {
      update->moveBefore(region, region->end());
      llvm::append_range(yielded, update->getResults());
    }
    b.setInsertionPointToEnd(region);
    YieldOp::create(b, loc, yielded);
    for (auto [inner, outer] : llvm::zip(yielded, skip.getResults()))
      inner.replaceUsesWithIf(outer, [&](OpOperand &use) {
        return use.getOwner()->getParentOp() != skip;
      });
  }

  // The scale update (dynamic) or the unchanged state (static).
  Value newScale = scale, newTracker = tracker, newHyst = hystTracker;
  if (mode == "dynamic") {
    b.setInsertionPoint(terminator);
    SmallVector<Type> resultTypes = {f32, i32};
    if (useHysteresis)
      resultTypes.push_back(i32);
    auto update = UpdateScaleOp::create(
        b, loc, resultTypes, scale, tracker, foundInf, hystTracker,
        b.getF64FloatAttr(growthFactor), b.getF64FloatAttr(backoffFactor),
        b.getI32IntegerAttr(growthInterval),
        b.getF32FloatAttr(static_cast<float>(minScale)),
        maxScale > 0.0 ? b.getF32FloatAttr(static_cast<float>(maxScale))
                       : FloatAttr(),
        b.getI32IntegerAttr(hysteresis));
    newScale = update.getNewScale();
    newTracker = update.getNewGrowthTracker();
    newHyst = update.getNewHysteresisTracker();
  }

  // Results: the same state, in the same order, after the params and loss.
  auto addResult = [&](Value v, nn::Role role) {
    unsigned index = fn.getNumResults();
    NamedAttribute attrs[] = {nn::getRoleNamedAttr(ctx, role)};
    if (failed(fn.insertResult(index, v.getType(), b.getDictionaryAttr(attrs))))
      return;
    terminator->insertOperands(terminator->getNumOperands(), v);
  };
  addResult(newScale, nn::Role::LossScale);
  addResult(newTracker, nn::Role::GrowthTracker);
  if (useHysteresis)
    addResult(newHyst, nn::Role::HysteresisTracker);
  addResult(foundInf, nn::Role::FoundInf);
  return success();
}
