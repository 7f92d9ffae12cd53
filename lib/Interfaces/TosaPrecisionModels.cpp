//===- TosaPrecisionModels.cpp - the interface on TOSA ops ----------------===//
//
// MixedPrecisionOpInterface for TOSA as TFLite and torch-mlir emit it
// (tosa.matmul, tosa.conv2d, elementwise ops, reductions, clamp and data
// movement), and PrecisionCastInterface for the dialect, so that the casts
// amp-insert-casts adds to TOSA code are tosa.cast.
//
//===----------------------------------------------------------------------===//

#include "amp/Interfaces/MixedPrecisionOpInterface.h"
#include "amp/Interfaces/PrecisionCastInterface.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace amp;

namespace {
struct TosaPrecisionCast : PrecisionCastInterface {
  using PrecisionCastInterface::PrecisionCastInterface;

  StringRef getCastNamespace() const override {
    return tosa::TosaDialect::getDialectNamespace();
  }

  Value buildCast(OpBuilder &b, Location loc, Value input,
                  Type type) const override {
    return b.createOrFold<tosa::CastOp>(loc, type, input);
  }
};

/// Every float tensor operand and result follows the op (including the
/// zero points of matmul and conv2d, which must match the inputs).
template <typename OpT>
struct TosaModel
    : MixedPrecisionOpInterface::ExternalModel<TosaModel<OpT>, OpT> {};

/// tosa.matmul with f16/bf16 inputs may produce its f32 accumulator.
struct TosaMatMulModel
    : MixedPrecisionOpInterface::ExternalModel<TosaMatMulModel,
                                               tosa::MatMulOp> {
  bool hasF32Accumulator(Operation *) const { return true; }
};

/// tosa.clamp's bounds are attributes of the input's element type: they are
/// converted with it.
struct TosaClampModel
    : MixedPrecisionOpInterface::ExternalModel<TosaClampModel, tosa::ClampOp> {
  void adaptToNewTypes(Operation *op) const {
    auto clamp = cast<tosa::ClampOp>(op);
    auto type = dyn_cast<FloatType>(
        getElementTypeOrSelf(clamp.getInput().getType()));
    if (!type)
      return;
    auto convert = [&](Attribute attr) -> Attribute {
      auto value = dyn_cast<FloatAttr>(attr);
      if (!value || value.getType() == type)
        return attr;
      APFloat v = value.getValue();
      bool lost = false;
      // Out-of-range bounds (f32's max as "no bound") saturate to inf.
      v.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      return FloatAttr::get(type, v);
    };
    clamp.setMinValAttr(convert(clamp.getMinValAttr()));
    clamp.setMaxValAttr(convert(clamp.getMaxValAttr()));
  }
};

template <typename... OpTs> void attachTosa(MLIRContext *ctx) {
  (OpTs::template attachInterface<TosaModel<OpTs>>(*ctx), ...);
}
} // namespace

void amp::registerTosaPrecisionModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tosa::TosaDialect *dialect) {
    attachTosa<tosa::Conv2DOp, tosa::DepthwiseConv2DOp, tosa::AddOp,
               tosa::SubOp, tosa::MulOp, tosa::MaximumOp, tosa::MinimumOp,
               tosa::NegateOp, tosa::AbsOp, tosa::TanhOp, tosa::SigmoidOp,
               tosa::ErfOp, tosa::ExpOp, tosa::LogOp, tosa::ReciprocalOp,
               tosa::RsqrtOp, tosa::PowOp, tosa::ReduceSumOp,
               tosa::ReduceMaxOp, tosa::ReshapeOp, tosa::TransposeOp,
               tosa::SliceOp, tosa::ConcatOp, tosa::AvgPool2dOp,
               tosa::MaxPool2dOp>(ctx);
    tosa::MatMulOp::attachInterface<TosaMatMulModel>(*ctx);
    tosa::ClampOp::attachInterface<TosaClampModel>(*ctx);
    dialect->addInterfaces<TosaPrecisionCast>();
  });
}
