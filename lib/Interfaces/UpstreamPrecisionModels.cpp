//===- UpstreamPrecisionModels.cpp - the interface on upstream ops --------===//
//
// MixedPrecisionOpInterface for arith and math ops on float tensors and for
// linalg on tensors as torch-mlir emits it (contractions, convolutions,
// elementwise named ops and linalg.generic, reductions, softmax), so that a
// policy can name them like nn ops; and PrecisionCastInterface for their
// dialects, so that their casts are arith.extf/arith.truncf.
//
//===----------------------------------------------------------------------===//

#include "amp/Interfaces/MixedPrecisionOpInterface.h"
#include "amp/Interfaces/PrecisionCastInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace amp;

/// arith.extf or arith.truncf from `value` to `type` (scalars or tensors of
/// the same shape); between two types of one width (f16 and bf16) through
/// f32.
static Value buildArithFloatCast(OpBuilder &b, Location loc, Value value,
                                 Type type) {
  auto width = [](Type t) {
    return cast<FloatType>(getElementTypeOrSelf(t)).getWidth();
  };
  unsigned from = width(value.getType()), to = width(type);
  if (from == to && value.getType() != type) {
    Type f32 = b.getF32Type();
    if (auto shaped = dyn_cast<ShapedType>(type))
      f32 = shaped.clone(f32);
    value = b.createOrFold<arith::ExtFOp>(loc, f32, value);
    from = 32;
  }
  if (from < to)
    return b.createOrFold<arith::ExtFOp>(loc, type, value);
  if (from > to)
    return b.createOrFold<arith::TruncFOp>(loc, type, value);
  return value;
}

namespace {
/// Casts next to arith, math and linalg ops are arith.extf/arith.truncf on
/// tensors. An empty tensor (a linalg init) is not converted but recreated
/// with the new element type.
struct ArithPrecisionCast : PrecisionCastInterface {
  using PrecisionCastInterface::PrecisionCastInterface;

  StringRef getCastNamespace() const override {
    return arith::ArithDialect::getDialectNamespace();
  }

  Value buildCast(OpBuilder &b, Location loc, Value input,
                  Type type) const override {
    if (auto empty = input.getDefiningOp<tensor::EmptyOp>())
      return tensor::EmptyOp::create(b, loc, cast<RankedTensorType>(type),
                                     empty.getDynamicSizes());
    return buildArithFloatCast(b, loc, input, type);
  }
};

template <typename OpT>
struct ElementwiseModel
    : MixedPrecisionOpInterface::ExternalModel<ElementwiseModel<OpT>, OpT> {};

/// A linalg op's payload reads and yields scalars of its operands' element
/// types: after a retype, the block arguments take the new types and are
/// converted back to what the payload computes in, and the yielded values
/// are converted to the new result types. The payload itself is unchanged.
void adaptLinalgPayload(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!body)
    return;
  OpBuilder b(op->getContext());
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    Type newType = getElementTypeOrSelf(operand.get().getType());
    Type oldType = arg.getType();
    if (oldType == newType || !isa<FloatType>(newType))
      continue;
    SmallVector<OpOperand *> uses(llvm::make_pointer_range(arg.getUses()));
    arg.setType(newType);
    if (uses.empty())
      continue;
    b.setInsertionPointToStart(body);
    Value converted = buildArithFloatCast(b, arg.getLoc(), arg, oldType);
    for (OpOperand *use : uses)
      use->set(converted);
  }
  Operation *yield = body->getTerminator();
  b.setInsertionPoint(yield);
  for (auto [yielded, init] :
       llvm::zip(yield->getOpOperands(), op.getDpsInitsMutable())) {
    Type want = getElementTypeOrSelf(init.get().getType());
    if (yielded.get().getType() != want && isa<FloatType>(want))
      yielded.set(
          buildArithFloatCast(b, yield->getLoc(), yielded.get(), want));
  }
}

/// Elementwise and data-movement linalg ops: every float tensor operand and
/// result follows the op; the payload catches up after a retype.
template <typename OpT>
struct LinalgElementwiseModel
    : MixedPrecisionOpInterface::ExternalModel<LinalgElementwiseModel<OpT>,
                                               OpT> {
  void adaptToNewTypes(Operation *op) const {
    adaptLinalgPayload(cast<linalg::LinalgOp>(op));
  }
};

/// linalg contractions and convolutions take f16/bf16 inputs and
/// accumulate into their f32 init (the payload extends the inputs to f32).
/// For the coloring the result follows the op like nn.matmul's; where it is
/// wanted in the low type, the f32 accumulator is stored and then truncated
/// (linalg needs the init and the result to have one type), and f32 users
/// read the accumulator.
template <typename OpT>
struct LinalgContractionModel
    : MixedPrecisionOpInterface::ExternalModel<LinalgContractionModel<OpT>,
                                               OpT> {
  SmallVector<unsigned> getPrecisionOperands(Operation *) const {
    return {0, 1};
  }
  bool hasF32Accumulator(Operation *) const { return true; }
  void adaptToNewTypes(Operation *op) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    adaptLinalgPayload(linalgOp);
    OpBuilder b(op->getContext());
    b.setInsertionPointAfter(op);
    for (auto [result, init] :
         llvm::zip(op->getResults(), linalgOp.getDpsInits())) {
      Type lowType = result.getType();
      if (lowType == init.getType())
        continue;
      result.setType(init.getType());
      Value truncated = buildArithFloatCast(b, op->getLoc(), result, lowType);
      result.replaceAllUsesExcept(truncated, truncated.getDefiningOp());
      // Uses that wanted the f32 value read the accumulator itself rather
      // than its rounded copy widened again.
      for (Operation *user : llvm::make_early_inc_range(truncated.getUsers()))
        if (isa<arith::ExtFOp>(user) &&
            user->getResult(0).getType() == result.getType()) {
          user->getResult(0).replaceAllUsesWith(result);
          user->erase();
        }
    }
  }
};

/// linalg.generic is classified by what it computes: with a reduction
/// iterator it is a reduction (`linalg.reduce` in the policy); otherwise
/// the ops of its payload name its class (a payload of math.exp is exp).
struct LinalgGenericModel
    : MixedPrecisionOpInterface::ExternalModel<LinalgGenericModel,
                                               linalg::GenericOp> {
  void getPolicyNames(Operation *op, SmallVectorImpl<StringRef> &names) const {
    auto generic = cast<linalg::GenericOp>(op);
    if (generic.getNumReductionLoops() > 0) {
      names.push_back(linalg::ReduceOp::getOperationName());
      return;
    }
    for (Operation &inner : generic.getBody()->without_terminator())
      if (!inner.hasTrait<OpTrait::ConstantLike>() &&
          !isa<linalg::IndexOp>(inner))
        names.push_back(inner.getName().getStringRef());
  }
  void adaptToNewTypes(Operation *op) const {
    adaptLinalgPayload(cast<linalg::LinalgOp>(op));
  }
};

template <template <typename> class ModelT, typename... OpTs>
void attach(MLIRContext *ctx) {
  (OpTs::template attachInterface<ModelT<OpTs>>(*ctx), ...);
}
} // namespace

void amp::registerUpstreamPrecisionModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *dialect) {
    attach<ElementwiseModel, arith::AddFOp, arith::SubFOp, arith::MulFOp,
           arith::DivFOp, arith::NegFOp, arith::MaximumFOp,
           arith::MinimumFOp>(ctx);
    dialect->addInterfaces<ArithPrecisionCast>();
  });
  registry.addExtension(+[](MLIRContext *ctx, math::MathDialect *dialect) {
    attach<ElementwiseModel, math::AbsFOp, math::CosOp, math::ErfOp,
           math::ExpOp, math::LogOp, math::PowFOp, math::RsqrtOp, math::SinOp,
           math::SqrtOp, math::TanhOp>(ctx);
    dialect->addInterfaces<ArithPrecisionCast>();
  });
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *dialect) {
    attach<LinalgContractionModel, linalg::MatmulOp, linalg::BatchMatmulOp,
           linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcHwcfOp>(ctx);
    attach<LinalgElementwiseModel, linalg::AddOp, linalg::SubOp,
           linalg::MulOp, linalg::DivOp, linalg::ExpOp, linalg::LogOp,
           linalg::MaxOp, linalg::MinOp, linalg::AbsOp, linalg::NegFOp,
           linalg::TransposeOp, linalg::BroadcastOp, linalg::ReduceOp>(ctx);
    attach<ElementwiseModel, linalg::SoftmaxOp>(ctx);
    linalg::GenericOp::attachInterface<LinalgGenericModel>(*ctx);
    dialect->addInterfaces<ArithPrecisionCast>();
  });
  registerTosaPrecisionModels(registry);
}
