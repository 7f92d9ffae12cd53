//===- OptimizerPatterns.cpp - optimizer updates to runtime calls ---------===//
//
// nn.sgd_update, nn.adam_update, nn.rmsprop_update and nn.adagrad_update,
// which take the
// found_inf predicate of the amp.skip_step_if they were in (the kernels then
// leave every output bitwise equal to its input, with no host sync) and
// their lr_factor, and nn.clip_grad_norm and nn.lr_schedule. The updates of
// a step with the same configuration become one multi-tensor call
// (amp_sgd_update_multi, amp_adam_update_multi, amp_rmsprop_update_multi,
// amp_adagrad_update_multi):
// PyTorch's fused/foreach optimizers, one launch instead of one per param.
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

/// Lowers a run of optimizer updates: one call of the single-tensor entry
/// point for a run of one, else one call of the multi-tensor one (the CUDA
/// backend updates every tensor in one or a few launches).
template <typename Op> struct UpdateRunLowering : TypedLowering<Op> {
  explicit UpdateRunLowering(const SkipPredicates &predicates)
      : predicates(predicates) {}

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
    if (run.size() == 1)
      callSingle(first, operands, results, factor, predicate, rb);
    else
      callMulti(first, params, operands, results, factor, predicate, rb);
    for (auto [k, update] : llvm::enumerate(run)) {
      SmallVector<Value> replacement;
      for (size_t i = 0; i < numResults; ++i)
        replacement.push_back(results[i][k]);
      buffers.replace(update, replacement);
    }
    return success();
  }

protected:
  using Lists = SmallVector<SmallVector<Value>>;
  virtual void callSingle(Op op, const Lists &operands, const Lists &results,
                          Value lrFactor, Value predicate,
                          RuntimeBuilder &rb) const = 0;
  virtual void callMulti(Op first, ValueRange params, const Lists &operands,
                         const Lists &results, Value lrFactor, Value predicate,
                         RuntimeBuilder &rb) const = 0;

  const SkipPredicates &predicates;
};

/// The sizes and dtypes of the params of a run, as arrays.
std::pair<Value, Value> sizesAndDtypes(ValueRange params, RuntimeBuilder &rb) {
  RuntimeBuilder::BufferLists l = rb.bufferLists(params, {}, {});
  return {l.sizes, l.dtypes};
}

struct SgdUpdateLowering : UpdateRunLowering<nn::SgdUpdateOp> {
  using UpdateRunLowering::UpdateRunLowering;

  void callSingle(nn::SgdUpdateOp op, const Lists &operands,
                  const Lists &results, Value lrFactor, Value predicate,
                  RuntimeBuilder &rb) const override {
    bool momentum = op.getMomentumBuffer() != nullptr;
    rb.call(RuntimeFn::amp_sgd_update,
            {operands[0][0], operands[1][0],
             momentum ? operands[2][0] : rb.null(), results[0][0],
             momentum ? results[1][0] : rb.null(),
             rb.i64(getNumElements(op.getParam())),
             rb.dtype(op.getParam().getType()), lr(op, rb), lrFactor,
             mom(op, rb), dampening(op, rb), decay(op, rb), nesterov(op, rb),
             predicate, rb.stream()});
  }

  void callMulti(nn::SgdUpdateOp op, ValueRange params, const Lists &operands,
                 const Lists &results, Value lrFactor, Value predicate,
                 RuntimeBuilder &rb) const override {
    bool momentum = op.getMomentumBuffer() != nullptr;
    auto [sizes, dtypes] = sizesAndDtypes(params, rb);
    rb.call(RuntimeFn::amp_sgd_update_multi,
            {rb.i32(params.size()), rb.ptrArray(operands[0]),
             rb.ptrArray(operands[1]),
             momentum ? rb.ptrArray(operands[2]) : rb.null(),
             rb.ptrArray(results[0]),
             momentum ? rb.ptrArray(results[1]) : rb.null(), sizes, dtypes,
             lr(op, rb), lrFactor, mom(op, rb), dampening(op, rb),
             decay(op, rb), nesterov(op, rb), predicate, rb.stream()});
  }

private:
  static Value lr(nn::SgdUpdateOp op, RuntimeBuilder &rb) {
    return rb.f32(op.getLr().convertToDouble());
  }
  static Value mom(nn::SgdUpdateOp op, RuntimeBuilder &rb) {
    return rb.f32(op.getMomentum().convertToDouble());
  }
  static Value dampening(nn::SgdUpdateOp op, RuntimeBuilder &rb) {
    return rb.f32(op.getDampening().convertToDouble());
  }
  static Value decay(nn::SgdUpdateOp op, RuntimeBuilder &rb) {
    return rb.f32(op.getWeightDecay().convertToDouble());
  }
  static Value nesterov(nn::SgdUpdateOp op, RuntimeBuilder &rb) {
    return rb.i32(op.getNesterov() ? 1 : 0);
  }
};

struct AdamUpdateLowering : UpdateRunLowering<nn::AdamUpdateOp> {
  using UpdateRunLowering::UpdateRunLowering;

  void callSingle(nn::AdamUpdateOp op, const Lists &operands,
                  const Lists &results, Value lrFactor, Value predicate,
                  RuntimeBuilder &rb) const override {
    SmallVector<Value> args;
    for (size_t i = 0; i < 5; ++i) // param, grad, exp_avg, exp_avg_sq, step
      args.push_back(operands[i][0]);
    for (size_t i = 0; i < 4; ++i)
      args.push_back(results[i][0]);
    args.append({rb.i64(getNumElements(op.getParam())),
                 rb.dtype(op.getParam().getType())});
    args.append(hyperparameters(op, lrFactor, rb));
    args.append({predicate, rb.stream()});
    rb.call(RuntimeFn::amp_adam_update, args);
  }

  void callMulti(nn::AdamUpdateOp op, ValueRange params, const Lists &operands,
                 const Lists &results, Value lrFactor, Value predicate,
                 RuntimeBuilder &rb) const override {
    SmallVector<Value> args = {rb.i32(params.size())};
    for (size_t i = 0; i < 5; ++i)
      args.push_back(rb.ptrArray(operands[i]));
    for (size_t i = 0; i < 4; ++i)
      args.push_back(rb.ptrArray(results[i]));
    auto [sizes, dtypes] = sizesAndDtypes(params, rb);
    args.append({sizes, dtypes});
    args.append(hyperparameters(op, lrFactor, rb));
    args.append({predicate, rb.stream()});
    rb.call(RuntimeFn::amp_adam_update_multi, args);
  }

private:
  static SmallVector<Value> hyperparameters(nn::AdamUpdateOp op, Value lrFactor,
                                            RuntimeBuilder &rb) {
    return {rb.f32(op.getLr().convertToDouble()),
            lrFactor,
            rb.f32(op.getBeta1().convertToDouble()),
            rb.f32(op.getBeta2().convertToDouble()),
            rb.f32(op.getEps().convertToDouble()),
            rb.f32(op.getWeightDecay().convertToDouble()),
            rb.i32(op.getDecoupledWeightDecay() ? 1 : 0)};
  }
};

struct RmspropUpdateLowering : UpdateRunLowering<nn::RmspropUpdateOp> {
  using UpdateRunLowering::UpdateRunLowering;

  void callSingle(nn::RmspropUpdateOp op, const Lists &operands,
                  const Lists &results, Value lrFactor, Value predicate,
                  RuntimeBuilder &rb) const override {
    SmallVector<Value> args;
    for (const SmallVector<Value> *list : buffers(op, operands))
      args.push_back(list ? (*list)[0] : rb.null());
    for (const SmallVector<Value> *list : buffers(op, results, 1))
      args.push_back(list ? (*list)[0] : rb.null());
    args.append({rb.i64(getNumElements(op.getParam())),
                 rb.dtype(op.getParam().getType())});
    args.append(hyperparameters(op, lrFactor, rb));
    args.append({predicate, rb.stream()});
    rb.call(RuntimeFn::amp_rmsprop_update, args);
  }

  void callMulti(nn::RmspropUpdateOp op, ValueRange params,
                 const Lists &operands, const Lists &results, Value lrFactor,
                 Value predicate, RuntimeBuilder &rb) const override {
    SmallVector<Value> args = {rb.i32(params.size())};
    for (const SmallVector<Value> *list : buffers(op, operands))
      args.push_back(list ? rb.ptrArray(*list) : rb.null());
    for (const SmallVector<Value> *list : buffers(op, results, 1))
      args.push_back(list ? rb.ptrArray(*list) : rb.null());
    auto [sizes, dtypes] = sizesAndDtypes(params, rb);
    args.append({sizes, dtypes});
    args.append(hyperparameters(op, lrFactor, rb));
    args.append({predicate, rb.stream()});
    rb.call(RuntimeFn::amp_rmsprop_update_multi, args);
  }

private:
  /// The lists of `lists` (operands, or with `skip` = 1 the results, which
  /// have no grad) in the kernels' order: param, grad, square_avg,
  /// momentum_buf, grad_avg, the optional ones null when absent.
  static SmallVector<const SmallVector<Value> *>
  buffers(nn::RmspropUpdateOp op, const Lists &lists, unsigned skip = 0) {
    SmallVector<const SmallVector<Value> *> out;
    unsigned next = 0;
    for (unsigned i = 0; i < 3 - skip; ++i)
      out.push_back(&lists[next++]);
    for (bool present :
         {op.getMomentumBuffer() != nullptr, op.getGradAvg() != nullptr})
      out.push_back(present ? &lists[next++] : nullptr);
    return out;
  }

  static SmallVector<Value>
  hyperparameters(nn::RmspropUpdateOp op, Value lrFactor, RuntimeBuilder &rb) {
    return {rb.f32(op.getLr().convertToDouble()),
            lrFactor,
            rb.f32(op.getAlpha().convertToDouble()),
            rb.f32(op.getEps().convertToDouble()),
            rb.f32(op.getWeightDecay().convertToDouble()),
            rb.f32(op.getMomentum().convertToDouble()),
            rb.i32(op.getCentered() ? 1 : 0)};
  }
};

struct AdagradUpdateLowering : UpdateRunLowering<nn::AdagradUpdateOp> {
  using UpdateRunLowering::UpdateRunLowering;

  void callSingle(nn::AdagradUpdateOp op, const Lists &operands,
                  const Lists &results, Value lrFactor, Value predicate,
                  RuntimeBuilder &rb) const override {
    SmallVector<Value> args = {operands[0][0],
                               operands[1][0],
                               operands[2][0],
                               results[0][0],
                               results[1][0],
                               rb.i64(getNumElements(op.getParam())),
                               rb.dtype(op.getParam().getType())};
    args.append(hyperparameters(op, lrFactor, rb));
    args.append({predicate, rb.stream()});
    rb.call(RuntimeFn::amp_adagrad_update, args);
  }

  void callMulti(nn::AdagradUpdateOp op, ValueRange params,
                 const Lists &operands, const Lists &results, Value lrFactor,
                 Value predicate, RuntimeBuilder &rb) const override {
    auto [sizes, dtypes] = sizesAndDtypes(params, rb);
    SmallVector<Value> args = {rb.i32(params.size()),
                               rb.ptrArray(operands[0]),
                               rb.ptrArray(operands[1]),
                               rb.ptrArray(operands[2]),
                               rb.ptrArray(results[0]),
                               rb.ptrArray(results[1]),
                               sizes,
                               dtypes};
    args.append(hyperparameters(op, lrFactor, rb));
    args.append({predicate, rb.stream()});
    rb.call(RuntimeFn::amp_adagrad_update_multi, args);
  }

private:
  static SmallVector<Value>
  hyperparameters(nn::AdagradUpdateOp op, Value lrFactor, RuntimeBuilder &rb) {
    return {rb.f32(op.getLr().convertToDouble()), lrFactor,
            rb.f32(op.getEps().convertToDouble()),
            rb.f32(op.getWeightDecay().convertToDouble())};
  }
};

struct ClipGradNormLowering : RuntimeOpLowering<nn::ClipGradNormOp> {
  void lower(nn::ClipGradNormOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    size_t n = op.getGrads().size();
    RuntimeBuilder::BufferLists l =
        rb.bufferLists(op.getGrads(), adaptor.getGrads(), results.take_front(n));
    rb.call(RuntimeFn::amp_clip_grad_norm,
            {l.count, l.inputs, l.outputs, l.sizes, l.dtypes,
             rb.f32(op.getMaxNorm().convertToDouble()), results[n],
             rb.stream()});
  }
  /// clipped[i] may be grads[i].
  InPlaceOperands inPlaceOperands(nn::ClipGradNormOp op,
                                  unsigned result) const override {
    if (result >= op.getGrads().size())
      return {};
    return {op.getGrads().getBeginOperandIndex() + result};
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
  table.add<SgdUpdateLowering, AdamUpdateLowering, RmspropUpdateLowering,
            AdagradUpdateLowering>(predicates);
  table.add<ClipGradNormLowering, LrScheduleLowering>();
}
