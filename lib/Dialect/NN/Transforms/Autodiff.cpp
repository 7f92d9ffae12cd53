//===- Autodiff.cpp - nn-autodiff: training steps from forward losses -----===//
//
// Reverse-mode differentiation of a forward loss function into the
// training step of docs/dialects.md: the backward pass from each op's
// DifferentiableOpInterface rule, optional gradient clipping, the optimizer
// update with its new opt_state arguments, and the convention's results.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/NN/Transforms/Autodiff.h"

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/NN/IR/NNDialect.h"
#include "amp/Dialect/NN/IR/NNOps.h"
#include "amp/Dialect/NN/Transforms/Passes.h"
#include "amp/Interfaces/DifferentiableOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace amp::nn {
#define GEN_PASS_DEF_NNAUTODIFF
#include "amp/Dialect/NN/Transforms/Passes.h.inc"
} // namespace amp::nn

using namespace mlir;
using namespace amp;
using namespace amp::nn;

std::optional<Optimizer> amp::nn::parseOptimizer(StringRef name) {
  return llvm::StringSwitch<std::optional<Optimizer>>(name)
      .Case("sgd", Optimizer::Sgd)
      .Case("adam", Optimizer::Adam)
      .Case("adamw", Optimizer::AdamW)
      .Case("radam", Optimizer::Radam)
      .Case("rmsprop", Optimizer::Rmsprop)
      .Case("adagrad", Optimizer::Adagrad)
      .Case("adafactor", Optimizer::Adafactor)
      .Case("none", Optimizer::None)
      .Default(std::nullopt);
}

bool amp::nn::isForwardLossFunction(func::FuncOp fn) {
  unsigned losses = 0;
  for (unsigned i = 0, e = fn.getNumResults(); i < e; ++i) {
    std::optional<Role> role = getResultRole(fn, i);
    if (role == Role::Loss)
      ++losses;
    else if (role != Role::Buffer)
      return false;
  }
  return losses == 1;
}

unsigned amp::nn::getLossResultIndex(func::FuncOp fn) {
  for (unsigned i = 0, e = fn.getNumResults(); i < e; ++i)
    if (getResultRole(fn, i) == Role::Loss)
      return i;
  llvm_unreachable("a forward loss function has a loss result");
}

static bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

/// Checks the form nn-autodiff takes: one block without nested regions,
/// forward roles on every argument, f32 params and buffers, one 0-d f32 loss
/// result and a buffer result per buffer argument.
static LogicalResult checkForwardFunction(func::FuncOp fn) {
  if (fn.isExternal())
    return fn.emitError() << "nn-autodiff: @" << fn.getSymName()
                          << " has no body to differentiate";
  if (!fn.getBody().hasOneBlock())
    return fn.emitError() << "nn-autodiff: @" << fn.getSymName()
                          << " must have a single block";
  for (Operation &op : fn.getBody().front()) {
    if (op.getNumRegions() != 0)
      return op.emitOpError()
             << "has regions; nn-autodiff differentiates straight-line "
                "forward functions";
    if (isa<GradSeedOp, OptimizerUpdateOpInterface, GradientClipOpInterface>(
            op))
      return op.emitOpError()
             << "is already part of a training step; nn-autodiff takes the "
                "forward function and its loss";
  }
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
    std::optional<Role> role = getArgRole(fn, i);
    Type type = fn.getArgument(i).getType();
    if (!role)
      return fn.emitError()
             << "nn-autodiff: argument #" << i << " of @" << fn.getSymName()
             << " has no nn.role; a forward function takes "
                "param, buffer, input and label arguments";
    if (*role != Role::Param && *role != Role::Input && *role != Role::Label &&
        *role != Role::Buffer)
      return fn.emitError()
             << "nn-autodiff: argument #" << i << " of @" << fn.getSymName()
             << " has role " << stringifyRole(*role)
             << "; a forward function takes param, buffer, "
                "input and label arguments (opt_state is "
                "added by the pass)";
    auto tensor = dyn_cast<RankedTensorType>(type);
    bool state = *role == Role::Param || *role == Role::Buffer;
    if (state && (!tensor || !tensor.getElementType().isF32()))
      return fn.emitError() << "nn-autodiff: " << stringifyRole(*role) << " #"
                            << i << " of @" << fn.getSymName() << " has type "
                            << type << "; params and buffers are f32 tensors";
  }
  if (!isForwardLossFunction(fn))
    return fn.emitError() << "nn-autodiff: @" << fn.getSymName()
                          << " must return exactly one loss (nn.role = "
                             "#nn.role<loss>) and otherwise only the new "
                             "values of its buffers (#nn.role<buffer>)";
  SmallVector<Type> bufferArgs, bufferResults;
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
    if (getArgRole(fn, i) == Role::Buffer)
      bufferArgs.push_back(fn.getArgument(i).getType());
  for (unsigned i = 0, e = fn.getNumResults(); i < e; ++i)
    if (getResultRole(fn, i) == Role::Buffer)
      bufferResults.push_back(fn.getResultTypes()[i]);
  if (bufferArgs != bufferResults)
    return fn.emitError() << "nn-autodiff: the buffer results of @"
                          << fn.getSymName()
                          << " must be the new values of its buffer "
                             "arguments, one per argument in order with its "
                             "type; it takes "
                          << bufferArgs.size() << " and returns "
                          << bufferResults.size()
                          << (bufferArgs.size() == bufferResults.size()
                                  ? " of other types"
                                  : "");
  auto loss =
      dyn_cast<RankedTensorType>(fn.getResultTypes()[getLossResultIndex(fn)]);
  if (!loss || loss.getRank() != 0 || !loss.getElementType().isF32())
    return fn.emitError() << "nn-autodiff: the loss of @" << fn.getSymName()
                          << " must be a 0-d f32 tensor (tensor<f32>), got "
                          << fn.getResultTypes()[getLossResultIndex(fn)];
  return success();
}

/// The values the loss gets a gradient through: float tensors that depend
/// on a param through float tensors only, and that the loss depends on. An
/// integer or i1 value (an nn.compare mask, an id) carries no derivative, so
/// what is computed from it (nn.convert's float result) is constant; so is
/// the result of a step function (ZeroDerivative: nn.floor, nn.sign), whose
/// derivative is zero.
static DenseSet<Value> activeValues(func::FuncOp fn, Value loss) {
  Block &body = fn.getBody().front();
  DenseSet<Value> varied;
  for (BlockArgument arg : fn.getArguments())
    if (getArgRole(fn, arg.getArgNumber()) == Role::Param &&
        isFloatTensor(arg.getType()))
      varied.insert(arg);
  for (Operation &op : body)
    if (!op.hasTrait<ZeroDerivative>() &&
        llvm::any_of(op.getOperands(),
                     [&](Value v) { return varied.contains(v); }))
      for (Value result : op.getResults())
        if (isFloatTensor(result.getType()))
          varied.insert(result);

  DenseSet<Value> useful{loss};
  for (Operation &op : llvm::reverse(body))
    if (llvm::any_of(op.getResults(),
                     [&](Value v) { return useful.contains(v); }))
      useful.insert(op.operand_begin(), op.operand_end());

  DenseSet<Value> active;
  for (Value v : varied)
    if (useful.contains(v))
      active.insert(v);
  return active;
}

/// What the forward function returns: the predictions, the first operand
/// of the one nn.cross_entropy or elementwise loss (nn.mse_loss ...) the loss
/// depends on, when that op reads a label argument itself as its labels or
/// targets (the runner scores the predictions against that argument's
/// values); otherwise the loss itself (a loss written out of other ops, or
/// of several losses).
static Value findForwardResult(func::FuncOp fn, Value loss) {
  SetVector<Operation *> lossOps;
  SmallVector<Value> worklist{loss};
  DenseSet<Value> seen{loss};
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def)
      continue;
    if (isa<CrossEntropyOp, ElementwiseLossOpInterface>(def))
      lossOps.insert(def);
    for (Value operand : def->getOperands())
      if (seen.insert(operand).second)
        worklist.push_back(operand);
  }
  if (lossOps.size() != 1)
    return loss;
  auto labels = dyn_cast<BlockArgument>(lossOps.front()->getOperand(1));
  if (!labels || labels.getOwner()->getParentOp() != fn ||
      getArgRole(fn, labels.getArgNumber()) != Role::Label)
    return loss;
  return lossOps.front()->getOperand(0);
}

/// `v` reshaped to `shape` with nn.reshape (`v` itself when it has it).
static Value reshapeTo(OpBuilder &b, Location loc, Value v,
                       ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getShape() == shape)
    return v;
  return ReshapeOp::create(b, loc, type.clone(shape), v);
}

/// In an inference function, the batch norm whose statistics `update` takes
/// normalizes with the running statistics instead (as PyTorch's BatchNorm in
/// eval mode): y = x * a + b with the per-channel a = scale *
/// rsqrt(running_var + epsilon) and b = bias - running_mean * a, computed
/// on [C, 1, ...] (two passes over x instead of four).
static LogicalResult useRunningStats(RunningStatsUpdateOp update) {
  auto norm = update.getMean().getDefiningOp<BatchNormOp>();
  if (!norm || norm.getMean() != update.getMean() ||
      norm.getInvstd() != update.getInvstd())
    return success();
  Value runningMean = update.getRunningMean(),
        runningVar = update.getRunningVar();
  auto dominatesNorm = [&](Value v) {
    Operation *def = v.getDefiningOp();
    return !def || def->isBeforeInBlock(norm);
  };
  auto input = cast<RankedTensorType>(norm.getInput().getType());
  if (!dominatesNorm(runningMean) || !dominatesNorm(runningVar))
    return update.emitOpError()
           << "nn-autodiff: keep-forward normalizes with the running "
              "statistics, which must be defined before the nn.batch_norm";
  auto isF32 = [](Value v) {
    return cast<RankedTensorType>(v.getType()).getElementType().isF32();
  };
  if (!isF32(norm.getInput()) || !isF32(norm.getScale()) ||
      !isF32(norm.getBias()))
    return norm.emitOpError()
           << "nn-autodiff: keep-forward normalizes with the running "
              "statistics only f32 batch norms (input, scale and bias), as "
              "written before amp-pipeline";
  OpBuilder b(norm);
  Location loc = norm.getLoc();
  SmallVector<int64_t> perChannel(input.getRank() - 1, 1);
  perChannel[0] = input.getDimSize(1);
  GradientBuilder gb(b, loc);
  auto channel = [&](Value v) { return reshapeTo(b, loc, v, perChannel); };
  Value var = AddOp::create(
      b, loc, channel(runningVar),
      gb.scalar(norm.getEpsilon().convertToDouble(), b.getF32Type()));
  Value a = MulOp::create(b, loc, channel(norm.getScale()),
                          RsqrtOp::create(b, loc, var));
  Value shift = SubOp::create(b, loc, channel(norm.getBias()),
                              MulOp::create(b, loc, channel(runningMean), a));
  Value y =
      AddOp::create(b, loc, MulOp::create(b, loc, norm.getInput(), a), shift);
  norm.getResult().replaceAllUsesWith(y);
  return success();
}

/// Adds @<name>_forward: params, buffers and inputs in, predictions (or
/// the loss, findForwardResult) out. Batch norms whose running statistics
/// the function updates normalize with those statistics (inference mode);
/// the buffers are read, not returned. Dropouts are the identity, as in
/// PyTorch's eval mode (also a fused attention's).
static LogicalResult keepForward(func::FuncOp fn, Value loss) {
  std::string name = (fn.getSymName() + "_forward").str();
  auto module = fn->getParentOfType<ModuleOp>();
  if (module && SymbolTable::lookupSymbolIn(module, name))
    return fn.emitError() << "nn-autodiff: keep-forward would add @" << name
                          << ", which exists already";

  IRMapping mapping;
  auto forward = cast<func::FuncOp>(fn->clone(mapping));
  forward.setSymName(name);
  OpBuilder(fn).insert(forward);
  forward->moveAfter(fn);

  Operation *ret = forward.getBody().front().getTerminator();
  Value result = mapping.lookup(findForwardResult(fn, loss));
  ret->setOperands(result);
  for (auto update : llvm::make_early_inc_range(
           forward.getBody().getOps<RunningStatsUpdateOp>()))
    if (failed(useRunningStats(update))) {
      forward.erase();
      return failure();
    }
  SmallVector<DropoutOp> dropouts;
  forward.walk([&](DropoutOp dropout) { dropouts.push_back(dropout); });
  for (DropoutOp dropout : dropouts) {
    dropout.getResult().replaceAllUsesWith(dropout.getInput());
    dropout.erase();
  }
  forward.walk([](AttentionOp attention) {
    attention.getDropoutMutable().clear();
    attention.removeDropoutRateAttr();
  });
  forward.setFunctionType(FunctionType::get(fn.getContext(),
                                            forward.getArgumentTypes(),
                                            ret->getOperand(0).getType()));
  forward.setAllResultAttrs(ArrayRef<DictionaryAttr>{DictionaryAttr()});

  // Drop the loss computation, then the arguments nothing reads any more
  // (the labels).
  Block &body = forward.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (&op != ret && op.use_empty())
      op.erase();
  llvm::BitVector unused(forward.getNumArguments());
  for (BlockArgument arg : forward.getArguments())
    if (arg.use_empty() && getArgRole(forward, arg.getArgNumber()) == Role::Label)
      unused.set(arg.getArgNumber());
  return forward.eraseArguments(unused);
}

namespace {
/// Builds the backward pass of one function before its return.
class Differentiator {
public:
  Differentiator(func::FuncOp fn, Value loss)
      : fn(fn), loss(loss), active(activeValues(fn, loss)) {}

  /// Fails before changing anything when an op on the path from a param to
  /// the loss has no rule.
  LogicalResult checkRules() {
    for (Operation &op : fn.getBody().front().without_terminator()) {
      bool activeResult = llvm::any_of(
          op.getResults(), [&](Value v) { return active.contains(v); });
      if (activeResult && !isa<DifferentiableOpInterface>(op))
        return op.emitOpError()
               << "has no derivative rule; nn-autodiff cannot differentiate "
                  "the loss through it";
    }
    return success();
  }

  /// Builds the seed and the backward ops; returns the gradient of every
  /// value that has one.
  LogicalResult build(OpBuilder &b) {
    SmallVector<Operation *> forward;
    for (Operation &op : fn.getBody().front().without_terminator())
      forward.push_back(&op);
    Operation *lossDef = loss.getDefiningOp();
    grads[loss] = GradSeedOp::create(
        b, lossDef ? getGradientLoc(lossDef) : fn.getLoc(), loss);

    for (Operation *op : llvm::reverse(forward)) {
      SmallVector<Value> resultGrads;
      for (Value result : op->getResults())
        resultGrads.push_back(grads.lookup(result));
      if (llvm::all_of(resultGrads, [](Value g) { return !g; }))
        continue;
      SmallVector<bool> needed;
      for (Value operand : op->getOperands())
        needed.push_back(active.contains(operand));
      if (llvm::none_of(needed, [](bool n) { return n; }))
        continue;
      GradientBuilder gb(b, getGradientLoc(op));
      SmallVector<Value> operandGrads;
      Block *block = b.getInsertionBlock();
      Block::iterator first = b.getInsertionPoint();
      bool atStart = first == block->begin();
      if (!atStart)
        --first;
      if (failed(cast<DifferentiableOpInterface>(op).buildGradients(
              gb, resultGrads, needed, operandGrads)))
        return failure();
      pinDerivatives(op, atStart ? block->begin() : std::next(first),
                     b.getInsertionPoint());
      for (auto [operand, grad] : llvm::zip(op->getOperands(), operandGrads)) {
        if (!grad)
          continue;
        Value &sum = grads[operand];
        sum = sum ? gb.add(sum, grad) : grad;
      }
    }
    return success();
  }

  Value gradOf(Value v) const { return grads.lookup(v); }

private:
  /// Gives the float nn ops of [begin, end), the derivative of `op`, the
  /// precision `op` is pinned to (amp.precision), as PyTorch's autocast
  /// runs an op's backward in its forward's type: the gradient of a
  /// computation kept in f32 stays in f32.
  static void pinDerivatives(Operation *op, Block::iterator begin,
                             Block::iterator end) {
    auto pin = op->getAttrOfType<TypeAttr>(AMPDialect::getPrecisionAttrName());
    if (!pin)
      return;
    for (Operation &made : llvm::make_range(begin, end))
      if (isa<NNDialect>(made.getDialect()) &&
          llvm::any_of(made.getResultTypes(), [](Type t) {
            return isa<FloatType>(getElementTypeOrSelf(t));
          }))
        made.setAttr(AMPDialect::getPrecisionAttrName(), pin);
  }

  func::FuncOp fn;
  Value loss;
  DenseSet<Value> active;
  DenseMap<Value, Value> grads;
};
} // namespace

namespace {
/// What the optimizer update of a step computes.
struct OptimizerResults {
  /// The new params, and the new state in argument order.
  SmallVector<Value> params, state;
  /// With a schedule: its new step counter and the step's learning rate.
  Value newCount, lr;
};
} // namespace

/// A param's name: that of its NameLoc (an imported weight's name, or the
/// SSA name amp-run's parser keeps), or "" when it has none.
static StringRef paramName(BlockArgument param) {
  if (auto name = dyn_cast<NameLoc>(param.getLoc()))
    return name.getName().getValue();
  return "";
}

/// For each param, the index of the first of `patterns` its name contains,
/// or -1. Warns about a pattern (of option `option`) that no param name
/// contains.
static SmallVector<int> matchParamNames(func::FuncOp fn,
                                        ArrayRef<BlockArgument> params,
                                        ArrayRef<std::string> patterns,
                                        StringRef option) {
  SmallVector<int> matches;
  llvm::BitVector used(patterns.size());
  for (BlockArgument param : params) {
    StringRef name = paramName(param);
    int match = -1;
    for (auto [i, pattern] : llvm::enumerate(patterns))
      if (!name.empty() && name.contains(pattern)) {
        used.set(i);
        if (match < 0)
          match = static_cast<int>(i);
      }
    matches.push_back(match);
  }
  for (auto [i, pattern] : llvm::enumerate(patterns))
    if (!used.test(i))
      mlir::emitWarning(fn.getLoc())
          << "nn-autodiff: " << option << " '" << pattern
          << "' is in no param name of @" << fn.getSymName();
  return matches;
}

/// Which params get weight decay: all but those the no-decay options pick
/// (rank <= 1 with no-decay-1d; a name containing a no-decay string).
static SmallVector<bool> decayedParams(func::FuncOp fn,
                                       ArrayRef<BlockArgument> params,
                                       const AutodiffOptions &options) {
  SmallVector<int> named =
      matchParamNames(fn, params, options.noDecay, "no-decay");
  SmallVector<bool> decayed;
  for (auto [param, match] : llvm::zip(params, named))
    decayed.push_back(
        match < 0 && !(options.noDecay1d &&
                       cast<RankedTensorType>(param.getType()).getRank() <= 1));
  return decayed;
}

/// Each param's learning rate: that of the first param-lr entry its name
/// matches, else `lr`.
static SmallVector<double> paramLrs(func::FuncOp fn,
                                    ArrayRef<BlockArgument> params,
                                    const AutodiffOptions &options) {
  SmallVector<std::string> patterns;
  for (const auto &entry : options.paramLr)
    patterns.push_back(entry.first);
  SmallVector<double> lrs;
  for (int match : matchParamNames(fn, params, patterns, "param-lr"))
    lrs.push_back(match < 0 ? options.lr : options.paramLr[match].second);
  return lrs;
}

/// The optimizer updates of `params` with gradients `grads`: inserts the
/// opt_state arguments after the last param (all at once: one insertion per
/// argument would be quadratic in the argument count) and the
/// schedule_state argument after them.
static OptimizerResults buildOptimizer(func::FuncOp fn, OpBuilder &b,
                                       ArrayRef<BlockArgument> params,
                                       ArrayRef<Value> grads,
                                       const AutodiffOptions &options) {
  OptimizerResults out;
  MLIRContext *ctx = fn.getContext();
  bool adam = options.optimizer == Optimizer::Adam ||
              options.optimizer == Optimizer::AdamW;
  bool radam = options.optimizer == Optimizer::Radam;
  bool rmsprop = options.optimizer == Optimizer::Rmsprop;
  bool adagrad = options.optimizer == Optimizer::Adagrad;
  bool adafactor = options.optimizer == Optimizer::Adafactor;
  auto scalarF32 = RankedTensorType::get({}, b.getF32Type());

  // The state of each param, in order: Adam's (and RAdam's) exp_avg,
  // exp_avg_sq and step, then Adam's max_exp_avg_sq with AMSGrad;
  // RMSprop's square_avg, then its
  // momentum buffer when momentum > 0 and its grad_avg when centered;
  // Adagrad's state_sum, then its step when lr_decay > 0; Adafactor's
  // row_var and col_var (rank >= 2) or variance, then its step; or SGD's
  // momentum buffer when momentum > 0.
  SmallVector<Location> paramLocs;
  SmallVector<unsigned> indices;
  SmallVector<Type> types;
  SmallVector<Location> locs;
  SmallVector<unsigned> sums; // Adagrad's state_sums, indices into types
  unsigned insertAt = params.back().getArgNumber() + 1;
  for (BlockArgument param : params) {
    paramLocs.push_back(FusedLoc::get(ctx, {param.getLoc()},
                                      StringAttr::get(ctx, "optimizer")));
    SmallVector<Type, 4> state;
    if (adam || radam) {
      state = {param.getType(), param.getType(), scalarF32};
      if (options.amsgrad)
        state.push_back(param.getType());
    } else if (adafactor) {
      Type type = param.getType();
      if (cast<RankedTensorType>(type).getRank() >= 2)
        state = {adafactorRowVarType(type), adafactorColVarType(type)};
      else
        state = {type};
      state.push_back(scalarF32);
    } else if (adagrad) {
      sums.push_back(types.size());
      state = {param.getType()};
      if (options.lrDecay > 0)
        state.push_back(scalarF32);
    } else {
      if (rmsprop)
        state.push_back(param.getType());
      if (options.momentum > 0)
        state.push_back(param.getType());
      if (rmsprop && options.centered)
        state.push_back(param.getType());
    }
    for (Type type : state) {
      indices.push_back(insertAt);
      types.push_back(type);
      locs.push_back(paramLocs.back());
    }
  }
  // Adagrad's sums start at initial_accumulator_value (nn.init); its step
  // counters, like all other state, at zero.
  DictionaryAttr stateAttrs =
      b.getDictionaryAttr({getRoleNamedAttr(ctx, Role::OptState)});
  SmallVector<DictionaryAttr> attrs(types.size(), stateAttrs);
  if (adagrad && options.initialAccumulatorValue != 0.0) {
    DictionaryAttr sumAttrs = b.getDictionaryAttr(
        {getRoleNamedAttr(ctx, Role::OptState),
         b.getNamedAttr(NNDialect::getInitAttrName(),
                        b.getF32FloatAttr(static_cast<float>(
                            options.initialAccumulatorValue)))});
    for (unsigned i : sums)
      attrs[i] = sumAttrs;
  }
  // The schedule's step counter, after the state of every param.
  if (options.lrSchedule) {
    indices.push_back(insertAt);
    types.push_back(scalarF32);
    locs.push_back(
        FusedLoc::get(ctx, {fn.getLoc()}, StringAttr::get(ctx, "lr_schedule")));
    attrs.push_back(
        b.getDictionaryAttr({getRoleNamedAttr(ctx, Role::ScheduleState)}));
  }
  (void)fn.insertArguments(indices, types, attrs, locs);

  auto f32 = [&](double v) { return b.getF32FloatAttr(static_cast<float>(v)); };
  double weightDecay = options.weightDecay.value_or(
      options.optimizer == Optimizer::AdamW ? 0.01 : 0.0);
  SmallVector<bool> decayed = decayedParams(fn, params, options);
  SmallVector<double> lrs = paramLrs(fn, params, options);
  Value lrFactor;
  if (const std::optional<LrSchedule> &s = options.lrSchedule) {
    Value count = fn.getArgument(insertAt + types.size() - 1);
    auto i64 = [&](std::optional<int64_t> v) {
      return v ? b.getI64IntegerAttr(*v) : IntegerAttr();
    };
    auto f32Or = [&](std::optional<double> v) {
      return v ? f32(*v) : FloatAttr();
    };
    auto schedule = LrScheduleOp::create(
        b, count.getLoc(), count, LrScheduleKindAttr::get(ctx, s->kind),
        b.getI64IntegerAttr(s->warmupSteps), f32(s->warmupStartFactor),
        i64(s->totalSteps), f32Or(s->finalFactor), i64(s->stepSize),
        f32Or(s->gamma), f32Or(s->power),
        s->milestones ? b.getDenseI64ArrayAttr(*s->milestones)
                      : DenseI64ArrayAttr());
    lrFactor = schedule.getFactor();
    out.newCount = schedule.getNewCount();
    // The lr the updates use: lr x factor, rounded to f32 as they round it.
    out.lr = MulOp::create(b, schedule.getLoc(), lrFactor,
                           GradientBuilder(b, schedule.getLoc())
                               .scalar(options.lr, b.getF32Type()));
  }
  unsigned next = insertAt;
  auto state = [&] { return fn.getArgument(next++); };
  for (auto [param, grad, loc, decay, paramLr] :
       llvm::zip(params, grads, paramLocs, decayed, lrs)) {
    FloatAttr paramDecay = f32(decay ? weightDecay : 0.0);
    FloatAttr lr = f32(paramLr);
    if (adam) {
      Value m = state(), v = state(), step = state();
      Value vmax = options.amsgrad ? state() : Value();
      auto update = AdamUpdateOp::create(
          b, loc, param, grad, m, v, step, vmax, lrFactor, lr,
          f32(options.beta1), f32(options.beta2), f32(options.eps), paramDecay,
          b.getBoolAttr(options.optimizer == Optimizer::AdamW),
          options.amsgrad ? b.getUnitAttr() : UnitAttr());
      out.params.push_back(update.getNewParam());
      out.state.append({update.getNewExpAvg(), update.getNewExpAvgSq(),
                        update.getNewStep()});
      if (vmax)
        out.state.push_back(update.getNewMaxExpAvgSq());
      continue;
    }
    if (radam) {
      Value m = state(), v = state(), step = state();
      auto update = RadamUpdateOp::create(
          b, loc, param, grad, m, v, step, lrFactor, lr, f32(options.beta1),
          f32(options.beta2), f32(options.eps), paramDecay,
          options.decoupledWeightDecay ? b.getUnitAttr() : UnitAttr());
      out.params.push_back(update.getNewParam());
      out.state.append({update.getNewExpAvg(), update.getNewExpAvgSq(),
                        update.getNewStep()});
      continue;
    }
    if (adagrad) {
      Value sum = state();
      Value step = options.lrDecay > 0 ? state() : Value();
      auto update = AdagradUpdateOp::create(b, loc, param, grad, sum, step,
                                            lrFactor, lr, f32(options.lrDecay),
                                            f32(options.eps), paramDecay);
      out.params.push_back(update.getNewParam());
      out.state.push_back(update.getNewStateSum());
      if (step)
        out.state.push_back(update.getNewStep());
      continue;
    }
    if (adafactor) {
      auto type = cast<RankedTensorType>(param.getType());
      bool factored = type.getRank() >= 2;
      Value rowVar = factored ? state() : Value();
      Value colVar = factored ? state() : Value();
      Value variance = factored ? Value() : state();
      Value step = state();
      // PyTorch's eps[0] = None: the epsilon of the param's dtype (f32).
      double eps1 =
          options.eps1.value_or(std::numeric_limits<float>::epsilon());
      auto update = AdafactorUpdateOp::create(
          b, loc, param, grad, rowVar, colVar, variance, step, lrFactor, lr,
          f32(options.beta2Decay), f32(eps1), f32(options.eps2),
          f32(options.adafactorD), paramDecay);
      out.params.push_back(update.getNewParam());
      llvm::append_range(out.state, update.getNewState());
      out.state.push_back(update.getNewStep());
      continue;
    }
    if (rmsprop) {
      Value squareAvg = state();
      Value buffer = options.momentum > 0 ? state() : Value();
      Value gradAvg = options.centered ? state() : Value();
      auto update = RmspropUpdateOp::create(
          b, loc, param, grad, squareAvg, buffer, gradAvg, lrFactor, lr,
          f32(options.alpha), f32(options.eps), paramDecay,
          f32(options.momentum),
          options.centered ? b.getUnitAttr() : UnitAttr());
      out.params.push_back(update.getNewParam());
      out.state.push_back(update.getNewSquareAvg());
      llvm::append_range(out.state, update.getNewBuffers());
      continue;
    }
    Value buffer = options.momentum > 0 ? state() : Value();
    auto update = SgdUpdateOp::create(
        b, loc, param, grad, buffer, lrFactor, lr, f32(options.momentum),
        f32(0.0), paramDecay, options.nesterov ? b.getUnitAttr() : UnitAttr());
    out.params.push_back(update.getNewParam());
    if (buffer)
      out.state.push_back(update.getNewMomentumBuffer());
  }
  return out;
}

/// The gradient of `param` from `diff`, or zeros (with a remark when
/// `remark`) when the param does not reach the loss.
static Value gradOrZero(const Differentiator &diff, BlockArgument param,
                        func::FuncOp fn, OpBuilder &b, bool remark) {
  if (Value grad = diff.gradOf(param))
    return grad;
  if (remark)
    mlir::emitRemark(param.getLoc())
        << "nn-autodiff: param #" << param.getArgNumber() << " of @"
        << fn.getSymName() << " does not reach the loss; its gradient is "
        << "zero";
  GradientBuilder gb(b, param.getLoc());
  return gb.splat(0.0, cast<RankedTensorType>(param.getType()));
}

/// An op that drops elements with a seed: a training nn.dropout with rate
/// > 0, or an nn.attention (or its gradient) with a dropout of rate > 0.
/// Its seed operand and the count of elements its mask covers (the
/// attention's [B..., Sq, Sk] probabilities).
struct SeededDropout {
  OpOperand *seed;
  uint64_t elements;
};

template <typename AttentionT>
static std::optional<SeededDropout> attentionDropout(AttentionT op) {
  if (!op.getDropout() ||
      !(op.getDropoutRateAttr().getValue().convertToFloat() > 0))
    return std::nullopt;
  ArrayRef<int64_t> q = cast<ShapedType>(op.getQuery().getType()).getShape();
  int64_t sk = cast<ShapedType>(op.getKey().getType()).getShape()[q.size() - 2];
  uint64_t elements = static_cast<uint64_t>(sk);
  for (int64_t d : q.drop_back())
    elements *= static_cast<uint64_t>(d);
  return SeededDropout{&op.getDropoutMutable()[0], elements};
}

static std::optional<SeededDropout> seededDropout(Operation *op) {
  if (auto dropout = dyn_cast<DropoutOp>(op)) {
    if (!dropout.getTraining() || !(dropout.getRate().convertToFloat() > 0))
      return std::nullopt;
    return SeededDropout{
        &dropout.getSeedMutable(),
        static_cast<uint64_t>(
            cast<ShapedType>(dropout.getType()).getNumElements())};
  }
  if (auto attention = dyn_cast<AttentionOp>(op))
    return attentionDropout(attention);
  if (auto grad = dyn_cast<AttentionGradOp>(op))
    return attentionDropout(grad);
  return std::nullopt;
}

/// What adding to a dropout's seed skips `elements` elements of its mask
/// stream: keep(seed, i) hashes seed + i * 0x9E3779B97F4A7C15 (mod 2^64;
/// amp_runtime/dropout.h), so seed + e * 0x9E3779B97F4A7C15 draws elements
/// e, e + 1, ... of the stream of seed.
static uint64_t seedOffsetOf(uint64_t elements) {
  return elements * 0x9E3779B97F4A7C15ull;
}

/// A 0-d i64 constant holding `bits`.
static Value i64Scalar(OpBuilder &b, Location loc, uint64_t bits) {
  auto type = RankedTensorType::get({}, b.getI64Type());
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, ArrayRef<APInt>(APInt(64, bits))));
}

/// step-dropout-masks: adds the rng_state argument t (0-d i64, the count of
/// earlier steps; the runner starts it at 0) and gives every op that drops
/// (seededDropout), forward and gradient alike, the seed s + t * K * n *
/// 0x9E3779B97F4A7C15, with n its element count and K the micro-batches
/// of a step: step t draws elements [t K n, (t + 1) K n) of the stream of
/// s, so no two steps share a mask, and step 0 draws the mask of s itself.
/// Returns t + 1, or null when nothing drops.
static Value offsetDropoutSeedsPerStep(func::FuncOp fn, int64_t microBatches) {
  SmallVector<SeededDropout> dropouts;
  fn.walk([&](Operation *op) {
    if (std::optional<SeededDropout> dropout = seededDropout(op))
      dropouts.push_back(*dropout);
  });
  if (dropouts.empty())
    return Value();
  MLIRContext *ctx = fn.getContext();
  Location loc =
      FusedLoc::get(ctx, {fn.getLoc()}, StringAttr::get(ctx, "dropout"));
  auto i64 = RankedTensorType::get({}, IntegerType::get(ctx, 64));
  unsigned index = fn.getNumArguments();
  if (failed(fn.insertArgument(
          index, i64,
          DictionaryAttr::get(ctx, {getRoleNamedAttr(ctx, Role::RngState)}),
          loc)))
    return Value();
  Value count = fn.getArgument(index);

  // A forward dropout and its gradient share their seed and element count,
  // so they share the new seed.
  DenseMap<std::pair<Value, uint64_t>, Value> newSeeds;
  OpBuilder b(ctx);
  for (const SeededDropout &dropout : dropouts) {
    Value seed = dropout.seed->get();
    uint64_t stride =
        seedOffsetOf(dropout.elements * static_cast<uint64_t>(microBatches));
    Value &newSeed = newSeeds[{seed, stride}];
    if (!newSeed) {
      if (Operation *def = seed.getDefiningOp())
        b.setInsertionPointAfter(def);
      else
        b.setInsertionPointToStart(cast<BlockArgument>(seed).getOwner());
      Value offset = MulOp::create(b, loc, count, i64Scalar(b, loc, stride));
      newSeed = AddOp::create(b, loc, seed, offset);
    }
    dropout.seed->set(newSeed);
  }
  OpBuilder end(fn.getBody().front().getTerminator());
  return AddOp::create(end, loc, count, i64Scalar(end, loc, 1));
}

namespace {
/// The new values of the moving averages of ema-decay.
struct EmaResults {
  SmallVector<Value> averages;
  Value newCount;
};
} // namespace

/// ema-decay: a moving average of every param after its update (`newValues`;
/// with ema-buffers, then of every buffer), as
/// torch.optim.swa_utils.AveragedModel(model,
/// multi_avg_fn=get_ema_multi_avg_fn(decay), use_buffers=...) whose
/// update_parameters(model) follows each optimizer step. Appends an `ema`
/// argument per value (zero at the start) and the `ema_count` of earlier
/// updates (0-d i64, AveragedModel's n_averaged). The first update copies the
/// values, each later one is torch.lerp's `ema + w * (value - ema)` with w
/// = 1 - decay (one nn.ema_update over every value); as `ema` starts at zero,
/// the copy is the same formula with w = 1. With ema-warmup the decay of update
/// t > 0 is min(decay, f(t)) instead, f(t) computed in f32 from t = count
/// (PyTorch's trainers form it in f64: w is within an ulp of theirs). The count
/// advances on every step, as update_parameters runs also after a step
/// loss scaling skips (the average then moves toward the unchanged
/// params).
static EmaResults buildEma(func::FuncOp fn, OpBuilder &b,
                           ArrayRef<Value> newValues,
                           const AutodiffOptions &options) {
  MLIRContext *ctx = fn.getContext();
  Location loc = FusedLoc::get(ctx, {fn.getLoc()}, StringAttr::get(ctx, "ema"));
  unsigned first = fn.getNumArguments();
  SmallVector<unsigned> indices;
  SmallVector<Type> types;
  SmallVector<DictionaryAttr> attrs;
  for (Value value : newValues) {
    indices.push_back(first);
    types.push_back(value.getType());
    attrs.push_back(b.getDictionaryAttr({getRoleNamedAttr(ctx, Role::Ema)}));
  }
  indices.push_back(first);
  types.push_back(RankedTensorType::get({}, b.getI64Type()));
  attrs.push_back(b.getDictionaryAttr({getRoleNamedAttr(ctx, Role::EmaCount)}));
  SmallVector<Location> locs(types.size(), loc);
  (void)fn.insertArguments(indices, types, attrs, locs);

  Value count = fn.getArgument(first + newValues.size());
  GradientBuilder gb(b, loc);
  auto f32 = [&](double v) { return gb.scalar(v, b.getF32Type()); };
  Value later;
  if (options.emaWarmup == EmaWarmup::None) {
    later = f32(1.0 - options.emaDecay);
  } else {
    Value t = ConvertOp::create(
        b, loc, RankedTensorType::get({}, b.getF32Type()), count);
    Value ramp;
    if (options.emaWarmup == EmaWarmup::Ratio) {
      ramp = DivOp::create(b, loc, AddOp::create(b, loc, t, f32(1.0)),
                           AddOp::create(b, loc, t, f32(10.0)));
    } else {
      Value base = AddOp::create(
          b, loc, DivOp::create(b, loc, t, f32(options.emaWarmupGamma)),
          f32(1.0));
      Value power = PowOp::create(
          b, loc, base,
          b.getF32FloatAttr(static_cast<float>(-options.emaWarmupPower)));
      ramp = SubOp::create(b, loc, f32(1.0), power);
    }
    Value decay = MinimumOp::create(b, loc, ramp, f32(options.emaDecay));
    later = SubOp::create(b, loc, f32(1.0), decay);
  }
  Value firstUpdate = CompareOp::create(b, loc, ComparePredicate::EQ, count,
                                        i64Scalar(b, loc, 0));
  Value weight = WhereOp::create(b, loc, firstUpdate, f32(1.0), later);
  EmaResults out;
  ValueRange averages = fn.getArguments().slice(first, newValues.size());
  auto update = EmaUpdateOp::create(b, loc, averages.getTypes(), averages,
                                    newValues, weight);
  llvm::append_range(out.averages, update.getNewAverages());
  out.newCount = AddOp::create(b, loc, count, i64Scalar(b, loc, 1));
  return out;
}

/// Gradient accumulation (accumulate-steps = K): the input and label
/// arguments grow from [B, ...] to [K * B, ...], and the forward pass and
/// its backward pass run once per micro-batch, rows [i * B, (i + 1) * B)
/// (nn.slice), in that order, so that a micro-batch's activations die
/// before the next one's forward pass (the arena reuses them). Each
/// micro-batch's loss is multiplied by 1/K, as PyTorch's `loss /
/// accumulation_steps` idiom does; the param gradients are summed in
/// micro-batch order (as `.grad` accumulates), the step's loss is the sum
/// of the scaled losses, and buffers (running statistics) are threaded
/// through the micro-batches. A training-mode nn.dropout's constant seed is
/// offset per micro-batch so that micro-batches draw other masks: those of
/// one dropout over the whole [K * B] batch when the dropped tensor's first
/// dimension is the batch. On failure the function's argument types are
/// restored; the caller erases the new ops.
static LogicalResult accumulateMicroBatches(func::FuncOp fn, OpBuilder &b,
                                            ArrayRef<BlockArgument> params,
                                            int64_t steps, Value &loss,
                                            SmallVectorImpl<Value> &buffers,
                                            SmallVectorImpl<Value> &grads) {
  Block &body = fn.getBody().front();
  Operation *ret = body.getTerminator();
  SmallVector<Operation *> forward;
  for (Operation &op : body.without_terminator())
    forward.push_back(&op);

  auto fail = [&](const Twine &why) {
    return fn.emitError() << "nn-autodiff: accumulate-steps=" << steps
                          << " splits the batch of @" << fn.getSymName() << ": "
                          << why;
  };
  SmallVector<BlockArgument> data, bufferArgs;
  int64_t batch = 0;
  for (BlockArgument arg : fn.getArguments()) {
    std::optional<Role> role = getArgRole(fn, arg.getArgNumber());
    if (role == Role::Buffer)
      bufferArgs.push_back(arg);
    if (role != Role::Input && role != Role::Label)
      continue;
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || type.getRank() == 0 || type.isDynamicDim(0) ||
        type.getDimSize(0) < 1)
      return fail("argument #" + Twine(arg.getArgNumber()) +
                  " has no static batch dimension (dimension 0)");
    if (data.empty())
      batch = type.getDimSize(0);
    else if (type.getDimSize(0) != batch)
      return fail("argument #" + Twine(arg.getArgNumber()) + " has batch " +
                  Twine(type.getDimSize(0)) + ", argument #" +
                  Twine(data.front().getArgNumber()) + " has " + Twine(batch));
    data.push_back(arg);
  }
  if (data.empty())
    return fail("it has no input or label arguments");
  // The grown batch and every element count must stay countable.
  for (BlockArgument arg : data) {
    auto type = cast<RankedTensorType>(arg.getType());
    if (type.getNumElements() > std::numeric_limits<int64_t>::max() / steps)
      return fail("argument #" + Twine(arg.getArgNumber()) + " would have " +
                  "more than 2^63 elements");
  }
  // A dropout that drops: its seed is offset per micro-batch.
  for (Operation *op : forward)
    if (std::optional<SeededDropout> dropout = seededDropout(op)) {
      auto seed = dropout->seed->get().getDefiningOp<arith::ConstantOp>();
      if (!(seed && isa<DenseIntElementsAttr>(seed.getValue())))
        return op->emitOpError()
               << "nn-autodiff: accumulate-steps offsets a training dropout's "
                  "seed per micro-batch, which needs a constant seed";
    }

  SmallVector<Type> oldTypes;
  for (BlockArgument arg : data) {
    auto type = cast<RankedTensorType>(arg.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[0] *= steps;
    oldTypes.push_back(type);
    arg.setType(type.clone(shape));
  }
  auto restoreTypes = [&] {
    for (auto [arg, type] : llvm::zip(data, oldTypes))
      arg.setType(type);
  };

  SmallVector<Value> bufferResults;
  for (unsigned i = 0, e = fn.getNumResults(); i < e; ++i)
    if (getResultRole(fn, i) == Role::Buffer)
      bufferResults.push_back(ret->getOperand(i));
  SmallVector<Value> current(bufferArgs.begin(), bufferArgs.end());
  Value total;
  grads.assign(params.size(), Value());
  Location loc = fn.getLoc();
  for (int64_t micro = 0; micro < steps; ++micro) {
    IRMapping map;
    for (auto [arg, type] : llvm::zip(data, oldTypes)) {
      SmallVector<int64_t> offsets(cast<RankedTensorType>(type).getRank(), 0);
      offsets[0] = micro * batch;
      map.map(arg, SliceOp::create(b, arg.getLoc(), type, arg,
                                   b.getDenseI64ArrayAttr(offsets),
                                   DenseI64ArrayAttr()));
    }
    for (auto [arg, value] : llvm::zip(bufferArgs, current))
      map.map(arg, value);
    for (Operation *op : forward) {
      Operation *clone = b.clone(*op, map);
      std::optional<SeededDropout> dropout = seededDropout(clone);
      if (!dropout || micro == 0)
        continue;
      // Element j of micro-batch i is element i * n + j of the whole batch.
      auto seed = dropout->seed->get().getDefiningOp<arith::ConstantOp>();
      auto value = cast<DenseIntElementsAttr>(seed.getValue());
      uint64_t shifted =
          value.getSplatValue<APInt>().getZExtValue() +
          seedOffsetOf(static_cast<uint64_t>(micro) * dropout->elements);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(clone);
      dropout->seed->set(i64Scalar(b, seed.getLoc(), shifted));
      if (seed->use_empty())
        seed->erase();
    }
    Value microLoss = map.lookup(loss);
    GradientBuilder gb(b, loc);
    microLoss = MulOp::create(
        b, loc, microLoss,
        gb.scalar(1.0 / static_cast<double>(steps), b.getF32Type()));
    Differentiator diff(fn, microLoss);
    if (failed(diff.build(b))) {
      restoreTypes();
      return failure();
    }
    for (auto [param, sum] : llvm::zip(params, grads)) {
      Value grad = gradOrZero(diff, param, fn, b, micro == 0);
      sum = sum ? gb.add(sum, grad) : grad;
    }
    total = total ? gb.add(total, microLoss) : microLoss;
    for (auto [value, result] : llvm::zip(current, bufferResults))
      value = map.lookupOrDefault(result);
  }
  // The original forward pass has no users left but the return, which the
  // caller rewrites.
  for (Operation *op : llvm::reverse(forward)) {
    op->dropAllUses();
    op->erase();
  }
  SmallVector<Type> argTypes(fn.getBody().getArgumentTypes());
  fn.setFunctionType(
      FunctionType::get(fn.getContext(), argTypes, fn.getResultTypes()));
  loss = total;
  buffers.assign(current.begin(), current.end());
  return success();
}

LogicalResult amp::nn::buildTrainingStep(func::FuncOp fn,
                                         const AutodiffOptions &options) {
  if (failed(checkDerivativeModelsRegistered(fn.getContext(), "nn-autodiff")) ||
      failed(checkForwardFunction(fn)))
    return failure();
  Block &body = fn.getBody().front();
  Operation *ret = body.getTerminator();
  Value loss = ret->getOperand(getLossResultIndex(fn));
  SmallVector<Value> newBuffers;
  for (unsigned i = 0, e = fn.getNumResults(); i < e; ++i)
    if (getResultRole(fn, i) == Role::Buffer)
      newBuffers.push_back(ret->getOperand(i));

  SmallVector<BlockArgument> params;
  for (BlockArgument arg : fn.getArguments())
    if (getArgRole(fn, arg.getArgNumber()) == Role::Param)
      params.push_back(arg);
  if (params.empty())
    return fn.emitError() << "nn-autodiff: @" << fn.getSymName()
                          << " has no param arguments to train";
  if (options.optimizer == Optimizer::Adafactor)
    for (BlockArgument param : params)
      if (cast<RankedTensorType>(param.getType()).getNumElements() == 0)
        return fn.emitError()
               << "nn-autodiff: param #" << param.getArgNumber() << " of @"
               << fn.getSymName()
               << " has no elements: Adafactor scales each step by the "
                  "param's root mean square (torch.optim.Adafactor fails "
                  "on it too)";

  Differentiator diff(fn, loss);
  if (failed(diff.checkRules()))
    return failure();

  // Everything new goes before the return; on failure it is erased again.
  Operation *lastForward = ret->getPrevNode();
  OpBuilder b(ret);
  auto eraseNewOps = [&] {
    while (ret->getPrevNode() != lastForward) {
      Operation *op = ret->getPrevNode();
      op->dropAllUses();
      op->erase();
    }
  };
  SmallVector<Value> grads;
  if (options.accumulateSteps > 1) {
    // The forward copy takes one micro-batch: it is taken before the data
    // arguments grow.
    std::string forwardName = (fn.getSymName() + "_forward").str();
    if (options.keepForward && failed(keepForward(fn, loss)))
      return failure();
    if (failed(accumulateMicroBatches(fn, b, params, options.accumulateSteps,
                                      loss, newBuffers, grads))) {
      eraseNewOps();
      if (auto module = fn->getParentOfType<ModuleOp>())
        if (auto forward = module.lookupSymbol<func::FuncOp>(forwardName);
            forward && options.keepForward)
          forward.erase();
      return failure();
    }
  } else {
    // The forward copy is taken after the backward ops are built (its
    // cleanup drops them) and before the signature changes.
    if (failed(diff.build(b)) ||
        (options.keepForward && failed(keepForward(fn, loss)))) {
      eraseNewOps();
      return failure();
    }
    for (BlockArgument param : params)
      grads.push_back(gradOrZero(diff, param, fn, b, /*remark=*/true));
  }
  Value newRngCount;
  if (options.stepDropoutMasks)
    newRngCount = offsetDropoutSeedsPerStep(fn, options.accumulateSteps);
  Value gradNorm;
  Location optimizerLoc =
      FusedLoc::get(fn.getContext(), {fn.getLoc()},
                    StringAttr::get(fn.getContext(), "optimizer"));
  if (options.clipValue > 0) {
    auto clip = ClipGradValueOp::create(
        b, optimizerLoc, grads,
        b.getF32FloatAttr(static_cast<float>(options.clipValue)));
    grads.assign(clip.getClipped().begin(), clip.getClipped().end());
  }
  if (options.clipNorm > 0) {
    auto clip = ClipGradNormOp::create(
        b, optimizerLoc, grads,
        b.getF32FloatAttr(static_cast<float>(options.clipNorm)),
        b.getF32FloatAttr(static_cast<float>(options.clipNormType)));
    grads.assign(clip.getClipped().begin(), clip.getClipped().end());
    gradNorm = clip.getTotalNorm();
  }

  OptimizerResults update;
  if (options.optimizer == Optimizer::None)
    update.params.assign(grads.begin(), grads.end());
  else
    update = buildOptimizer(fn, b, params, grads, options);

  EmaResults ema;
  if (options.emaDecay > 0) {
    SmallVector<Value> averaged(update.params);
    if (options.emaBuffers)
      averaged.append(newBuffers.begin(), newBuffers.end());
    ema = buildEma(fn, b, averaged, options);
  }

  // Results: params, optimizer state, schedule state, rng state, averages
  // and their count, buffers, loss, and what the step reports besides the
  // loss: its lr and gradient norm.
  MLIRContext *ctx = fn.getContext();
  SmallVector<Value> results;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  auto addResult = [&](Value v, std::optional<Role> role) {
    if (!v)
      return;
    results.push_back(v);
    resultTypes.push_back(v.getType());
    resultAttrs.push_back(
        role ? DictionaryAttr::get(ctx, {getRoleNamedAttr(ctx, *role)})
             : DictionaryAttr::get(ctx));
  };
  for (Value v : update.params)
    addResult(v, options.optimizer == Optimizer::None
                     ? std::nullopt
                     : std::optional<Role>(Role::Param));
  for (Value v : update.state)
    addResult(v, Role::OptState);
  addResult(update.newCount, Role::ScheduleState);
  addResult(newRngCount, Role::RngState);
  for (Value v : ema.averages)
    addResult(v, Role::Ema);
  addResult(ema.newCount, Role::EmaCount);
  for (Value v : newBuffers)
    addResult(v, Role::Buffer);
  addResult(loss, Role::Loss);
  addResult(update.lr, Role::Lr);
  addResult(gradNorm, Role::GradNorm);
  ret->setOperands(results);
  fn.setFunctionType(
      FunctionType::get(ctx, fn.getArgumentTypes(), resultTypes));
  fn.setAllResultAttrs(resultAttrs);
  return success();
}

namespace {
struct NNAutodiffPass : amp::nn::impl::NNAutodiffBase<NNAutodiffPass> {
  using NNAutodiffBase::NNAutodiffBase;

  LogicalResult initialize(MLIRContext *ctx) override {
    std::string error;
    if (failed(readOptions(error)))
      return emitError(UnknownLoc::get(ctx)) << "nn-autodiff: " << error;
    return success();
  }

  /// Checks the option values and converts them to `options`.
  LogicalResult readOptions(std::string &error) {
    auto fail = [&](StringRef msg) {
      error = msg.str();
      return failure();
    };
    std::optional<Optimizer> parsed = parseOptimizer(optimizer);
    if (!parsed)
      return fail(
          "optimizer must be sgd, adam, adamw, radam, rmsprop, adagrad, "
          "adafactor or none, got '" +
          optimizer + "'");
    options.optimizer = *parsed;
    if (failed(checkOptimizerTakes(error)))
      return failure();
    auto positive = [](double v) { return v > 0 && std::isfinite(v); };
    if (!positive(lr))
      return fail("lr must be a positive finite number");
    if (!(momentum >= 0 && momentum < 1))
      return fail("momentum must be in [0, 1)");
    if (!(beta1 >= 0 && beta1 < 1) || !(beta2 >= 0 && beta2 < 1))
      return fail("beta1 and beta2 must be in [0, 1)");
    if (!(alpha >= 0 && alpha <= 1))
      return fail("alpha must be in [0, 1]");
    if (!(initialAccumulatorValue >= 0) || std::isinf(initialAccumulatorValue))
      return fail("initial-accumulator-value must be finite and >= 0");
    if (!(lrDecay >= 0) || std::isinf(lrDecay))
      return fail("lr-decay must be finite and >= 0");
    if (!positive(eps))
      return fail("eps must be a positive finite number");
    if (!(beta2Decay <= 0) || std::isinf(beta2Decay))
      return fail("beta2-decay must be finite and <= 0");
    if (eps1.hasValue() && (!(eps1 >= 0) || std::isinf(eps1)))
      return fail("eps1 must be finite and >= 0");
    if (!(eps2 >= 0) || std::isinf(eps2))
      return fail("eps2 must be finite and >= 0");
    if (!(adafactorD >= 1) || std::isinf(adafactorD))
      return fail("d must be finite and >= 1");
    if (!(clipNorm >= 0) || std::isinf(clipNorm))
      return fail("clip-norm must be >= 0 (0: off)");
    if (!(clipNormType > 0))
      return fail("clip-norm-type must be > 0 or inf");
    if (clipNormType.hasValue() && clipNorm == 0)
      return fail("clip-norm-type needs clip-norm > 0");
    if (!(clipValue >= 0) || std::isinf(clipValue))
      return fail("clip-value must be >= 0 (0: off)");
    if (std::isnan(weightDecay) || std::isinf(weightDecay))
      return fail("weight-decay must be finite");
    if (nesterov && momentum <= 0)
      return fail("nesterov needs momentum > 0");
    for (const std::string &pattern : noDecay)
      if (pattern.empty())
        return fail("no-decay takes non-empty strings");
    options.paramLr.clear();
    for (const std::string &entry : paramLr) {
      // STRING=LR, split at the last '=' (a name may hold one).
      size_t at = entry.rfind('=');
      double value = 0;
      if (at == std::string::npos || at == 0 ||
          StringRef(entry).drop_front(at + 1).getAsDouble(value) ||
          !positive(value))
        return fail("param-lr takes STRING=LR entries, LR a positive finite "
                    "number, got '" +
                    entry + "'");
      options.paramLr.emplace_back(entry.substr(0, at), value);
    }
    if (accumulateSteps < 1 || accumulateSteps > (int64_t{1} << 20))
      return fail("accumulate-steps must be in [1, 2^20]");
    if (accumulateSteps > 1 && options.optimizer == Optimizer::None)
      return fail("accumulate-steps needs an optimizer (optimizer=none "
                  "returns the gradients of one batch)");
    if (!(emaDecay >= 0 && emaDecay < 1))
      return fail("ema-decay must be in [0, 1) (0: off)");
    if (emaBuffers && !(emaDecay > 0))
      return fail("ema-buffers needs ema-decay");
    if (emaWarmup == "none")
      options.emaWarmup = EmaWarmup::None;
    else if (emaWarmup == "ratio")
      options.emaWarmup = EmaWarmup::Ratio;
    else if (emaWarmup == "power")
      options.emaWarmup = EmaWarmup::Power;
    else
      return fail("ema-warmup must be none, ratio or power, got '" + emaWarmup +
                  "'");
    if (options.emaWarmup != EmaWarmup::None && !(emaDecay > 0))
      return fail("ema-warmup needs ema-decay");
    if ((emaWarmupGamma.hasValue() || emaWarmupPower.hasValue()) &&
        options.emaWarmup != EmaWarmup::Power)
      return fail("ema-warmup-gamma and ema-warmup-power need "
                  "ema-warmup=power");
    if (!positive(emaWarmupGamma) || !positive(emaWarmupPower))
      return fail("ema-warmup-gamma and ema-warmup-power must be positive "
                  "finite numbers");
    if (emaDecay > 0 && options.optimizer == Optimizer::None)
      return fail("ema-decay needs an optimizer (optimizer=none updates no "
                  "params to average)");
    if (failed(readLrSchedule(error)))
      return failure();
    options.accumulateSteps = accumulateSteps;
    // PyTorch's defaults: lr 0.01 for RMSprop, Adagrad and Adafactor (0.001
    // for the others), eps 1e-10 for Adagrad (1e-8 for the others).
    bool adagrad = options.optimizer == Optimizer::Adagrad;
    bool lr01 = adagrad || options.optimizer == Optimizer::Rmsprop ||
                options.optimizer == Optimizer::Adafactor;
    options.lr = lr.hasValue() || !lr01 ? lr : 1e-2;
    options.momentum = momentum;
    options.nesterov = nesterov;
    options.beta1 = beta1;
    options.beta2 = beta2;
    options.amsgrad = amsgrad;
    options.decoupledWeightDecay = decoupledWeightDecay;
    options.eps = eps.hasValue() || !adagrad ? eps : 1e-10;
    options.alpha = alpha;
    options.centered = centered;
    options.initialAccumulatorValue = initialAccumulatorValue;
    options.lrDecay = lrDecay;
    options.beta2Decay = beta2Decay;
    options.eps1 = eps1.hasValue() ? std::optional<double>(eps1) : std::nullopt;
    options.eps2 = eps2;
    options.adafactorD = adafactorD;
    options.weightDecay =
        weightDecay < 0 ? std::nullopt : std::optional<double>(weightDecay);
    options.noDecay.assign(noDecay.begin(), noDecay.end());
    options.noDecay1d = noDecay1d;
    options.clipNorm = clipNorm;
    options.clipNormType = clipNormType;
    options.clipValue = clipValue;
    options.keepForward = keepForward;
    options.stepDropoutMasks = stepDropoutMasks;
    options.emaDecay = emaDecay;
    options.emaBuffers = emaBuffers;
    options.emaWarmupGamma = emaWarmupGamma;
    options.emaWarmupPower = emaWarmupPower;
    return success();
  }

  /// An option given that options.optimizer does not take is an error, as
  /// an argument torch.optim's class does not take is.
  LogicalResult checkOptimizerTakes(std::string &error) {
    bool sgd = options.optimizer == Optimizer::Sgd;
    bool adam = options.optimizer == Optimizer::Adam ||
                options.optimizer == Optimizer::AdamW;
    bool radam = options.optimizer == Optimizer::Radam;
    bool rmsprop = options.optimizer == Optimizer::Rmsprop;
    bool adagrad = options.optimizer == Optimizer::Adagrad;
    bool adafactor = options.optimizer == Optimizer::Adafactor;
    bool any = options.optimizer != Optimizer::None;
    auto takes = [&](const auto &option, bool taken) {
      if (taken || !option.hasValue())
        return true;
      error = option.getArgStr().str() +
              " is not an option of optimizer=" + optimizer.getValue();
      return false;
    };
    bool ok = takes(this->lr, any) && takes(momentum, sgd || rmsprop) &&
              takes(nesterov, sgd) && takes(beta1, adam || radam) &&
              takes(beta2, adam || radam) && takes(amsgrad, adam) &&
              takes(decoupledWeightDecay, radam) &&
              takes(eps, adam || radam || rmsprop || adagrad) &&
              takes(alpha, rmsprop) && takes(centered, rmsprop) &&
              takes(initialAccumulatorValue, adagrad) &&
              takes(lrDecay, adagrad) && takes(beta2Decay, adafactor) &&
              takes(eps1, adafactor) && takes(eps2, adafactor) &&
              takes(adafactorD, adafactor) && takes(weightDecay, any) &&
              takes(noDecay, any) && takes(noDecay1d, any) &&
              takes(paramLr, any);
    return success(ok);
  }

  /// The lr-schedule options as options.lrSchedule: a parameter is given
  /// when its option is.
  LogicalResult readLrSchedule(std::string &error) {
    auto spell = [](StringRef name) {
      std::string option = name.str();
      std::replace(option.begin(), option.end(), '_', '-');
      return option;
    };
    options.lrSchedule.reset();
    if (lrSchedule == "none") {
      // The first schedule parameter given, if any.
      std::string given;
      auto note = [&](const auto &option) {
        if (given.empty() && option.hasValue())
          given = option.getArgStr().str();
      };
      note(warmupSteps);
      note(warmupStartFactor);
      note(totalSteps);
      note(finalFactor);
      note(stepSize);
      note(gamma);
      note(power);
      note(milestones);
      if (given.empty())
        return success();
      error = given + " needs an lr-schedule";
      return failure();
    }
    if (options.optimizer == Optimizer::None) {
      error = "lr-schedule needs an optimizer (optimizer=none has no lr)";
      return failure();
    }
    std::optional<LrScheduleKind> kind = symbolizeLrScheduleKind(lrSchedule);
    if (!kind) {
      error = "lr-schedule must be none, constant, linear, cosine, step, "
              "exponential, polynomial or multistep, got '" +
              lrSchedule + "'";
      return failure();
    }
    LrSchedule s;
    s.kind = *kind;
    s.warmupSteps = warmupSteps;
    s.warmupStartFactor = warmupStartFactor;
    if (totalSteps.hasValue())
      s.totalSteps = totalSteps;
    if (finalFactor.hasValue())
      s.finalFactor = finalFactor;
    if (stepSize.hasValue())
      s.stepSize = stepSize;
    if (gamma.hasValue())
      s.gamma = gamma;
    if (power.hasValue())
      s.power = power;
    if (milestones.hasValue())
      s.milestones.emplace(milestones.begin(), milestones.end());
    error = s.check(spell);
    if (!error.empty())
      return failure();
    options.lrSchedule = s;
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> functions;
    if (!entry.empty()) {
      auto fn = module.lookupSymbol<func::FuncOp>(entry);
      if (!fn) {
        module.emitError() << "nn-autodiff: no function @" << entry;
        return signalPassFailure();
      }
      functions.push_back(fn);
    } else {
      for (auto fn : module.getOps<func::FuncOp>())
        if (!fn.isExternal() && isForwardLossFunction(fn))
          functions.push_back(fn);
    }
    for (func::FuncOp fn : functions)
      if (failed(buildTrainingStep(fn, options)))
        return signalPassFailure();
  }

  bool namesEntry() const { return !entry.empty(); }

  AutodiffOptions options;
};
} // namespace

FailureOr<AutodiffOptions> amp::nn::parseAutodiffOptions(StringRef text,
                                                         std::string &error) {
  NNAutodiffPass pass;
  auto onError = [&](const Twine &msg) {
    error = msg.str();
    return failure();
  };
  if (failed(pass.initializeOptions(text, onError)))
    return failure();
  if (pass.namesEntry()) {
    error = "entry is chosen by the caller, not by the options";
    return failure();
  }
  if (failed(pass.readOptions(error)))
    return failure();
  return pass.options;
}
