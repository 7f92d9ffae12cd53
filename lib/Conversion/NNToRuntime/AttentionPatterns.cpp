//===- AttentionPatterns.cpp - fused attention to runtime calls -----------===//
//
// nn.attention and nn.attention_grad become amp_attention and
// amp_attention_grad, which take the query's shape, the key count, the
// value's head size and the query heads per key/value head (kv_group, 1
// unless the key has fewer heads: grouped-query attention), the mask's
// shape padded with leading 1s to the scores' rank (the kernels broadcast
// it by strides), and the dropout seed's buffer and rate.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "amp/Dialect/NN/IR/NNOps.h"

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

Value orNull(RuntimeBuilder &rb, Value v) { return v ? v : rb.null(); }

/// The arguments the two kernels share after their pointers: the query's
/// dims and rank, Sk, Dv, kv_group, the mask's dims, the dtypes, scale and
/// causal, and the dropout seed's buffer (`seed`, null without dropout) and
/// rate.
template <typename OpT>
SmallVector<Value> attentionShapeArgs(RuntimeBuilder &rb, OpT op, Value seed) {
  Value query = op.getQuery(), mask = op.getMask();
  FloatAttr rate = op.getDropoutRateAttr();
  auto q = cast<RankedTensorType>(query.getType());
  auto k = cast<RankedTensorType>(op.getKey().getType());
  int64_t rank = q.getRank();
  Value maskDims = rb.null();
  Type maskElement = q.getElementType();
  if (mask) {
    auto m = cast<RankedTensorType>(mask.getType());
    SmallVector<int64_t> dims(rank - m.getRank(), 1);
    llvm::append_range(dims, m.getShape());
    maskDims = rb.i64Array(dims);
    maskElement = m.getElementType();
  }
  return {
      rb.dims(query),
      rb.rank(query),
      rb.i64(k.getDimSize(rank - 2)),
      rb.i64(cast<RankedTensorType>(op.getValue().getType()).getShape().back()),
      rb.i64(nn::attentionKvGroup(q, k)),
      maskDims,
      rb.dtype(q),
      rb.dtype(maskElement),
      rb.f32(op.getScaleValue()),
      rb.i32(op.getCausal()),
      orNull(rb, seed),
      rb.f32(rate ? rate.getValue().convertToFloat() : 0.0f),
      rb.stream()};
}

struct AttentionLowering : RuntimeOpLowering<nn::AttentionOp> {
  void lower(nn::AttentionOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    SmallVector<Value> args{adaptor.getQuery(), adaptor.getKey(),
                            adaptor.getValue(), orNull(rb, adaptor.getMask()),
                            results[0],         results[1]};
    llvm::append_range(args, attentionShapeArgs(rb, op, adaptor.getDropout()));
    rb.call(RuntimeFn::amp_attention, args);
  }
};

struct AttentionGradLowering : RuntimeOpLowering<nn::AttentionGradOp> {
  void lower(nn::AttentionGradOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    SmallVector<Value> args{adaptor.getGradOutput(),
                            adaptor.getQuery(),
                            adaptor.getKey(),
                            adaptor.getValue(),
                            orNull(rb, adaptor.getMask()),
                            adaptor.getOutput(),
                            adaptor.getLogsumexp(),
                            results[0],
                            results[1],
                            results[2]};
    llvm::append_range(args, attentionShapeArgs(rb, op, adaptor.getDropout()));
    rb.call(RuntimeFn::amp_attention_grad, args);
  }
};

} // namespace

void amp::addAttentionLowerings(LoweringTable &table) {
  table.add<AttentionLowering, AttentionGradLowering>();
}
