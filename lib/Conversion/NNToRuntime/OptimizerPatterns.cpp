//===- OptimizerPatterns.cpp - optimizer updates to runtime calls ---------===//
//
// The optimizer updates (nn.sgd_update, nn.adam_update, nn.radam_update,
// nn.rmsprop_update, nn.adagrad_update, nn.adafactor_update), which take the
// found_inf predicate of the amp.skip_step_if they were in (the kernels then
// leave every output bitwise equal to its input, with no host sync) and their
// lr_factor, and nn.clip_grad_norm, nn.clip_grad_value, nn.ema_update and
// nn.lr_schedule. The updates of a step with the same configuration become
// one multi-tensor call (amp_<optimizer>_update_multi): PyTorch's
// fused/foreach optimizers, one launch instead of one per param.
//
//===----------------------------------------------------------------------===//

#include "Donation.h"
#include "Lowerings.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include "amp_runtime/kernels.h"

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

/// The operands of an update that are per-param buffers: all but the
/// lr_factor, which is the last operand when present.
template <typename Op> size_t numBufferOperands(Op op) {
  return op->getNumOperands() - (op.getLrFactor() ? 1 : 0);
}

/// The run of updates one call lowers: `first` and the later updates of
/// the same kind in its block with the same attributes, lr_factor and skip
/// predicate whose operands are all defined before `first`, so that one
/// multi-tensor
/// call at `first` can compute them all (a step's updates are independent,
/// so a step has one run per optimizer configuration).
template <typename Op>
SmallVector<Op> updateRun(Op first, const SkipPredicates &predicates) {
  SmallVector<Op> run = {first};
  Value predicate = predicates.lookup(first);
  // An operand of a later update in this block dominates `first` unless an
  // op of this block between the two defines it (a value from an enclosing
  // region or a block argument always does).
  auto definedBefore = [&](Value v) {
    Operation *def = v.getDefiningOp();
    return !def || def->getBlock() != first->getBlock() ||
           def->isBeforeInBlock(first);
  };
  // The same hyperparameters: equal properties (getAttrDictionary would
  // build a dictionary per op) and discardable attributes.
  auto sameAttributes = [&](Op next) {
    return first->getName().compareOpProperties(first->getPropertiesStorage(),
                                                next->getPropertiesStorage()) &&
           first->getDiscardableAttrDictionary() ==
               next->getDiscardableAttrDictionary();
  };
  for (Operation *op = first->getNextNode(); op; op = op->getNextNode()) {
    auto next = dyn_cast<Op>(op);
    if (!next || !sameAttributes(next) ||
        next.getLrFactor() != first.getLrFactor() ||
        predicates.lookup(next) != predicate ||
        next->getNumOperands() != first->getNumOperands() ||
        !llvm::all_of(next->getOperands(), definedBefore))
      continue;
    run.push_back(next);
  }
  return run;
}

/// The sizes and dtypes of the params of a run, as arrays.
std::pair<Value, Value> sizesAndDtypes(ValueRange params, RuntimeBuilder &rb) {
  RuntimeBuilder::BufferLists l = rb.bufferLists(params, {}, {});
  return {l.sizes, l.dtypes};
}

/// Lowers a run of optimizer updates: one call of the single-tensor entry
/// point for a run of one, else one call of the multi-tensor one (the CUDA
/// backend updates every tensor in one or a few launches). Both take the
/// kernel's buffer operands, then its new buffers (NULL for an optional one
/// the op does not have), then the size and dtype (for the multi call: the
/// count first, pointer arrays, and arrays of sizes and dtypes), the
/// hyperparameters with lr_factor after lr, found_inf and the stream.
template <typename Op> struct UpdateRunLowering : TypedLowering<Op> {
  UpdateRunLowering(const SkipPredicates &predicates, RuntimeFn single,
                    RuntimeFn multi)
      : predicates(predicates), single(single), multi(multi) {}

  LogicalResult apply(Operation *op, BufferMap &buffers,
                      RuntimeBuilder &rb) const final {
    auto first = cast<Op>(op);
    SmallVector<Op> run = updateRun(first, predicates);
    // operands[i][k]: buffer operand i of update k (converted); results
    // likewise.
    size_t numOperands = numBufferOperands(first);
    size_t numResults = first->getNumResults();
    SmallVector<SmallVector<Value>> operands(numOperands), results(numResults);
    SmallVector<Value> params;
    for (Op update : run) {
      params.push_back(update.getParam());
      for (size_t i = 0; i < numOperands; ++i)
        operands[i].push_back(buffers.lookup(update->getOperand(i)));
      for (size_t i = 0; i < numResults; ++i) {
        unsigned updated = update.getUpdatedOperandIndex(i);
        assert(update->getOperand(updated).getType() ==
                   update->getResult(i).getType() &&
               "a result has the type of the operand it updates");
        // An update computes a donated state argument's new value in place
        // (Donation.cpp).
        Value inPlace = donatedBuffer(first, update, updated, i, buffers);
        results[i].push_back(inPlace ? inPlace
                                     : rb.alloc(cast<RankedTensorType>(
                                           update->getResult(i).getType())));
      }
    }
    Value foundInf = predicates.lookup(first);
    Value predicate = foundInf ? buffers.lookup(foundInf) : rb.null();
    Value lrFactor = first.getLrFactor();
    Value factor = lrFactor ? buffers.lookup(lrFactor) : rb.null();

    bool isMulti = run.size() > 1;
    SmallVector<Value> args;
    if (isMulti)
      args.push_back(rb.i32(run.size()));
    // The operands' slots, then the results' (the same without the grad).
    SmallVector<bool> slots = operandSlots(first);
    for (bool isResult : {false, true}) {
      const SmallVector<SmallVector<Value>> &lists =
          isResult ? results : operands;
      size_t next = 0;
      for (auto [slot, present] : llvm::enumerate(slots)) {
        if (isResult && slot == 1)
          continue;
        if (!present) {
          args.push_back(rb.null());
          continue;
        }
        const SmallVector<Value> &list = lists[next++];
        args.push_back(isMulti ? rb.ptrArray(list) : list.front());
      }
      assert(next == lists.size() && "every buffer list has a slot");
    }
    if (isMulti) {
      auto [sizes, dtypes] = sizesAndDtypes(params, rb);
      args.append({sizes, dtypes});
    } else {
      args.append({rb.i64(getNumElements(first.getParam())),
                   rb.dtype(first.getParam().getType())});
    }
    args.append(shapeArguments(run, isMulti, rb));
    args.append(hyperparameters(first, factor, rb));
    args.append({predicate, rb.stream()});
    rb.call(isMulti ? multi : single, args);

    for (auto [k, update] : llvm::enumerate(run)) {
      SmallVector<Value> replacement;
      for (size_t i = 0; i < numResults; ++i)
        replacement.push_back(results[i][k]);
      buffers.replace(update, replacement);
    }
    return success();
  }

protected:
  /// The kernel's buffer operands in order (param, grad, then the state),
  /// whether `op` has each: its buffer operands, in order, fill the slots
  /// it has.
  virtual SmallVector<bool> operandSlots(Op op) const = 0;
  /// What the kernel takes after the size and dtype (the arrays of them
  /// for a multi call) about the params' shapes: nothing but for Adafactor.
  virtual SmallVector<Value> shapeArguments(ArrayRef<Op>, bool,
                                            RuntimeBuilder &) const {
    return {};
  }
  /// lr, the schedule's factor (`lrFactor`), then the other
  /// hyperparameters, as the kernels take them.
  virtual SmallVector<Value> hyperparameters(Op op, Value lrFactor,
                                             RuntimeBuilder &rb) const = 0;

  static Value f32(FloatAttr attr, RuntimeBuilder &rb) {
    return rb.f32(attr.getValueAsDouble());
  }
  /// Adam's and RAdam's: lr, its factor, beta1, beta2, eps, weight_decay,
  /// decoupled_weight_decay.
  static SmallVector<Value> adamHyperparameters(Op op, Value lrFactor,
                                                RuntimeBuilder &rb) {
    return {f32(op.getLrAttr(), rb),
            lrFactor,
            f32(op.getBeta1Attr(), rb),
            f32(op.getBeta2Attr(), rb),
            f32(op.getEpsAttr(), rb),
            f32(op.getWeightDecayAttr(), rb),
            rb.i32(op.getDecoupledWeightDecay() ? 1 : 0)};
  }

private:
  const SkipPredicates &predicates;
  RuntimeFn single, multi;
};

struct SgdUpdateLowering : UpdateRunLowering<nn::SgdUpdateOp> {
  explicit SgdUpdateLowering(const SkipPredicates &predicates)
      : UpdateRunLowering(predicates, RuntimeFn::amp_sgd_update,
                          RuntimeFn::amp_sgd_update_multi) {}

  /// param, grad, momentum_buf.
  SmallVector<bool> operandSlots(nn::SgdUpdateOp op) const override {
    return {true, true, op.getMomentumBuffer() != nullptr};
  }
  SmallVector<Value> hyperparameters(nn::SgdUpdateOp op, Value lrFactor,
                                     RuntimeBuilder &rb) const override {
    return {f32(op.getLrAttr(), rb),          lrFactor,
            f32(op.getMomentumAttr(), rb),    f32(op.getDampeningAttr(), rb),
            f32(op.getWeightDecayAttr(), rb), rb.i32(op.getNesterov() ? 1 : 0)};
  }
};

struct AdamUpdateLowering : UpdateRunLowering<nn::AdamUpdateOp> {
  explicit AdamUpdateLowering(const SkipPredicates &predicates)
      : UpdateRunLowering(predicates, RuntimeFn::amp_adam_update,
                          RuntimeFn::amp_adam_update_multi) {}

  /// param, grad, exp_avg, exp_avg_sq, step, max_exp_avg_sq.
  SmallVector<bool> operandSlots(nn::AdamUpdateOp op) const override {
    return {true, true, true, true, true, op.getMaxExpAvgSq() != nullptr};
  }
  SmallVector<Value> hyperparameters(nn::AdamUpdateOp op, Value lrFactor,
                                     RuntimeBuilder &rb) const override {
    SmallVector<Value> values = adamHyperparameters(op, lrFactor, rb);
    values.push_back(rb.i32(op.getAmsgrad() ? 1 : 0));
    return values;
  }
};

struct RadamUpdateLowering : UpdateRunLowering<nn::RadamUpdateOp> {
  explicit RadamUpdateLowering(const SkipPredicates &predicates)
      : UpdateRunLowering(predicates, RuntimeFn::amp_radam_update,
                          RuntimeFn::amp_radam_update_multi) {}

  /// param, grad, exp_avg, exp_avg_sq, step.
  SmallVector<bool> operandSlots(nn::RadamUpdateOp) const override {
    return SmallVector<bool>(5, true);
  }
  SmallVector<Value> hyperparameters(nn::RadamUpdateOp op, Value lrFactor,
                                     RuntimeBuilder &rb) const override {
    return adamHyperparameters(op, lrFactor, rb);
  }
};

struct RmspropUpdateLowering : UpdateRunLowering<nn::RmspropUpdateOp> {
  explicit RmspropUpdateLowering(const SkipPredicates &predicates)
      : UpdateRunLowering(predicates, RuntimeFn::amp_rmsprop_update,
                          RuntimeFn::amp_rmsprop_update_multi) {}

  /// param, grad, square_avg, momentum_buf, grad_avg.
  SmallVector<bool> operandSlots(nn::RmspropUpdateOp op) const override {
    return {true, true, true, op.getMomentumBuffer() != nullptr,
            op.getGradAvg() != nullptr};
  }
  SmallVector<Value> hyperparameters(nn::RmspropUpdateOp op, Value lrFactor,
                                     RuntimeBuilder &rb) const override {
    return {f32(op.getLrAttr(), rb),          lrFactor,
            f32(op.getAlphaAttr(), rb),       f32(op.getEpsAttr(), rb),
            f32(op.getWeightDecayAttr(), rb), f32(op.getMomentumAttr(), rb),
            rb.i32(op.getCentered() ? 1 : 0)};
  }
};

struct AdagradUpdateLowering : UpdateRunLowering<nn::AdagradUpdateOp> {
  explicit AdagradUpdateLowering(const SkipPredicates &predicates)
      : UpdateRunLowering(predicates, RuntimeFn::amp_adagrad_update,
                          RuntimeFn::amp_adagrad_update_multi) {}

  /// param, grad, state_sum, step.
  SmallVector<bool> operandSlots(nn::AdagradUpdateOp op) const override {
    return {true, true, true, op.getStep() != nullptr};
  }
  SmallVector<Value> hyperparameters(nn::AdagradUpdateOp op, Value lrFactor,
                                     RuntimeBuilder &rb) const override {
    return {f32(op.getLrAttr(), rb), lrFactor, f32(op.getLrDecayAttr(), rb),
            f32(op.getEpsAttr(), rb), f32(op.getWeightDecayAttr(), rb)};
  }
};

struct AdafactorUpdateLowering : UpdateRunLowering<nn::AdafactorUpdateOp> {
  explicit AdafactorUpdateLowering(const SkipPredicates &predicates)
      : UpdateRunLowering(predicates, RuntimeFn::amp_adafactor_update,
                          RuntimeFn::amp_adafactor_update_multi) {}

  /// param, grad, row_var, col_var, variance, step.
  SmallVector<bool> operandSlots(nn::AdafactorUpdateOp op) const override {
    bool factored = op.isFactored();
    return {true, true, factored, factored, !factored, true};
  }
  /// rows and cols: the param's last two dimensions when factored (a run
  /// is factored or not as a whole: its ops have the same operand count),
  /// else 0 (NULL arrays for a multi call).
  SmallVector<Value> shapeArguments(ArrayRef<nn::AdafactorUpdateOp> run,
                                    bool isMulti,
                                    RuntimeBuilder &rb) const override {
    nn::AdafactorUpdateOp first = run.front();
    if (!first.isFactored())
      return isMulti ? SmallVector<Value>{rb.null(), rb.null()}
                     : SmallVector<Value>{rb.i64(0), rb.i64(0)};
    SmallVector<int64_t> rows, cols;
    for (nn::AdafactorUpdateOp op : run) {
      ArrayRef<int64_t> shape =
          cast<RankedTensorType>(op.getParam().getType()).getShape();
      rows.push_back(shape[shape.size() - 2]);
      cols.push_back(shape.back());
    }
    if (isMulti)
      return {rb.i64Array(rows), rb.i64Array(cols)};
    return {rb.i64(rows.front()), rb.i64(cols.front())};
  }
  SmallVector<Value> hyperparameters(nn::AdafactorUpdateOp op, Value lrFactor,
                                     RuntimeBuilder &rb) const override {
    return {f32(op.getLrAttr(), rb),         lrFactor,
            f32(op.getBeta2DecayAttr(), rb), f32(op.getEps1Attr(), rb),
            f32(op.getEps2Attr(), rb),       f32(op.getDAttr(), rb),
            f32(op.getWeightDecayAttr(), rb)};
  }
};

/// A clipping op: one call over the lists of its gradients and clipped
/// gradients, then `extraArguments` (its attributes and any measure's
/// result buffer). clipped[i] may be grads[i].
template <typename OpT> struct ClipLowering : RuntimeOpLowering<OpT> {
  using Adaptor = typename RuntimeOpLowering<OpT>::Adaptor;
  ClipLowering(RuntimeFn fn) : fn(fn) {}
  virtual SmallVector<Value> extraArguments(OpT op, ValueRange results,
                                            RuntimeBuilder &rb) const = 0;
  void lower(OpT op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    size_t n = op.getGrads().size();
    RuntimeBuilder::BufferLists l =
        rb.bufferLists(op.getGrads(), adaptor.getGrads(), results.take_front(n));
    SmallVector<Value> args = {l.count, l.inputs, l.outputs, l.sizes, l.dtypes};
    llvm::append_range(args, extraArguments(op, results, rb));
    args.push_back(rb.stream());
    rb.call(fn, args);
  }
  InPlaceOperands inPlaceOperands(OpT op, unsigned result) const override {
    if (result >= op.getGrads().size())
      return {};
    return {op.getGrads().getBeginOperandIndex() + result};
  }
  RuntimeFn fn;
};

struct ClipGradNormLowering : ClipLowering<nn::ClipGradNormOp> {
  ClipGradNormLowering() : ClipLowering(RuntimeFn::amp_clip_grad_norm) {}
  SmallVector<Value> extraArguments(nn::ClipGradNormOp op, ValueRange results,
                                    RuntimeBuilder &rb) const override {
    return {rb.f32(op.getMaxNorm().convertToDouble()),
            rb.f32(op.getNormType().convertToDouble()),
            results[op.getGrads().size()]};
  }
};

struct ClipGradValueLowering : ClipLowering<nn::ClipGradValueOp> {
  ClipGradValueLowering() : ClipLowering(RuntimeFn::amp_clip_grad_value) {}
  SmallVector<Value> extraArguments(nn::ClipGradValueOp op, ValueRange,
                                    RuntimeBuilder &rb) const override {
    return {rb.f32(op.getClipValue().convertToDouble())};
  }
};

/// nn.ema_update: one amp_ema_update over every average; a new average may
/// be computed in its average's buffer (a donated ema argument's).
struct EmaUpdateLowering : RuntimeOpLowering<nn::EmaUpdateOp> {
  void lower(nn::EmaUpdateOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    RuntimeBuilder::BufferLists l =
        rb.bufferLists(op.getAverages(), adaptor.getAverages(), results);
    rb.call(RuntimeFn::amp_ema_update,
            {l.count, l.inputs, rb.ptrArray(adaptor.getValues()), l.outputs,
             l.sizes, l.dtypes, adaptor.getWeight(), rb.stream()});
  }
  InPlaceOperands inPlaceOperands(nn::EmaUpdateOp op,
                                  unsigned result) const override {
    return {op.getAverages().getBeginOperandIndex() + result};
  }
};

/// nn.lr_schedule: amp_lr_schedule with the kind (LrScheduleKind's values
/// are amp_lr_schedule_t's); a parameter the kind does not use is 0 (power:
/// 1; milestones: NULL), and the milestones a constant array.
struct LrScheduleLowering : RuntimeOpLowering<nn::LrScheduleOp> {
  static_assert(static_cast<int>(nn::LrScheduleKind::Constant) ==
                        AMP_LR_SCHEDULE_CONSTANT &&
                    static_cast<int>(nn::LrScheduleKind::Linear) ==
                        AMP_LR_SCHEDULE_LINEAR &&
                    static_cast<int>(nn::LrScheduleKind::Cosine) ==
                        AMP_LR_SCHEDULE_COSINE &&
                    static_cast<int>(nn::LrScheduleKind::Step) ==
                        AMP_LR_SCHEDULE_STEP &&
                    static_cast<int>(nn::LrScheduleKind::Exponential) ==
                        AMP_LR_SCHEDULE_EXPONENTIAL &&
                    static_cast<int>(nn::LrScheduleKind::Polynomial) ==
                        AMP_LR_SCHEDULE_POLYNOMIAL &&
                    static_cast<int>(nn::LrScheduleKind::Multistep) ==
                        AMP_LR_SCHEDULE_MULTISTEP,
                "nn.lr_schedule's kinds are the runtime's amp_lr_schedule_t");

  void lower(nn::LrScheduleOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    nn::LrSchedule s = op.getSchedule();
    const std::vector<int64_t> milestones =
        s.milestones.value_or(std::vector<int64_t>());
    rb.call(RuntimeFn::amp_lr_schedule,
            {adaptor.getCount(), results[0], results[1],
             rb.i32(static_cast<int32_t>(s.kind)), rb.i64(s.warmupSteps),
             rb.f32(s.warmupStartFactor), rb.i64(s.totalSteps.value_or(0)),
             rb.f32(s.finalFactor.value_or(0.0)),
             rb.i64(s.stepSize.value_or(0)), rb.f32(s.gamma.value_or(0.0)),
             rb.f32(s.power.value_or(1.0)), rb.i64Array(milestones),
             rb.i32(static_cast<int32_t>(milestones.size())), rb.stream()});
  }
};

} // namespace

void amp::addOptimizerLowerings(LoweringTable &table,
                                const SkipPredicates &predicates) {
  table.add<SgdUpdateLowering, AdamUpdateLowering, RadamUpdateLowering,
            RmspropUpdateLowering, AdagradUpdateLowering,
            AdafactorUpdateLowering>(predicates);
  table.add<ClipGradNormLowering, ClipGradValueLowering, EmaUpdateLowering,
            LrScheduleLowering>();
}
