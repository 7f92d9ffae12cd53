//===- OptimizerPatterns.cpp - optimizer updates to runtime calls ---------===//
//
// nn.sgd_update and nn.adam_update, which take the found_inf predicate of
// the amp.skip_step_if they were in (the kernels then leave every output
// bitwise equal to its input, with no host sync), and nn.clip_grad_norm.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "amp/Dialect/NN/IR/NNOps.h"

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

/// A pattern that needs the skip predicate of its op (null when the op was
/// not inside amp.skip_step_if).
template <typename Op>
struct PredicatedLowering : RuntimeOpPattern<Op> {
  PredicatedLowering(const TypeConverter &converter, MLIRContext *ctx,
                     const SkipPredicates &predicates)
      : RuntimeOpPattern<Op>(converter, ctx), predicates(predicates) {}

  Value predicate(Op op, RuntimeBuilder &rb) const {
    Value foundInf = predicates.lookup(op);
    if (!foundInf)
      return rb.null();
    auto &rewriter = static_cast<ConversionPatternRewriter &>(rb.builder());
    return rewriter.getRemappedValue(foundInf);
  }

  const SkipPredicates &predicates;
};

struct SgdUpdateLowering : PredicatedLowering<nn::SgdUpdateOp> {
  using PredicatedLowering::PredicatedLowering;
  void lower(nn::SgdUpdateOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value buf = adaptor.getMomentumBuffer();
    rb.call(RuntimeFn::amp_sgd_update,
            {adaptor.getParam(), adaptor.getGrad(), buf ? buf : rb.null(),
             results[0], results.size() > 1 ? results[1] : rb.null(),
             rb.i64(getNumElements(op.getParam())),
             rb.dtype(op.getParam().getType()),
             rb.f32(op.getLr().convertToDouble()),
             rb.f32(op.getMomentum().convertToDouble()),
             rb.f32(op.getDampening().convertToDouble()),
             rb.f32(op.getWeightDecay().convertToDouble()),
             rb.i32(op.getNesterov() ? 1 : 0), predicate(op, rb),
             rb.stream()});
  }
};

struct AdamUpdateLowering : PredicatedLowering<nn::AdamUpdateOp> {
  using PredicatedLowering::PredicatedLowering;
  void lower(nn::AdamUpdateOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    rb.call(RuntimeFn::amp_adam_update,
            {adaptor.getParam(), adaptor.getGrad(), adaptor.getExpAvg(),
             adaptor.getExpAvgSq(), adaptor.getStep(), results[0], results[1],
             results[2], results[3], rb.i64(getNumElements(op.getParam())),
             rb.dtype(op.getParam().getType()),
             rb.f32(op.getLr().convertToDouble()),
             rb.f32(op.getBeta1().convertToDouble()),
             rb.f32(op.getBeta2().convertToDouble()),
             rb.f32(op.getEps().convertToDouble()),
             rb.f32(op.getWeightDecay().convertToDouble()), predicate(op, rb),
             rb.stream()});
  }
};

struct ClipGradNormLowering : RuntimeOpPattern<nn::ClipGradNormOp> {
  using RuntimeOpPattern::RuntimeOpPattern;
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
};

} // namespace

void amp::populateOptimizerToRuntimePatterns(RewritePatternSet &patterns,
                                             const TypeConverter &converter,
                                             const SkipPredicates &predicates) {
  patterns.add<SgdUpdateLowering, AdamUpdateLowering>(
      converter, patterns.getContext(), predicates);
  patterns.add<ClipGradNormLowering>(converter, patterns.getContext());
}

