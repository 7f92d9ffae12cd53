//===- UpstreamPrecisionModels.cpp - the interface on upstream ops --------===//
//
// MixedPrecisionOpInterface for arith and math ops on float tensors and for
// linalg contractions, so that a policy can name them like nn ops.
//
//===----------------------------------------------------------------------===//

#include "amp/Interfaces/MixedPrecisionOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace amp;

namespace {
template <typename OpT>
struct ElementwiseModel
    : MixedPrecisionOpInterface::ExternalModel<ElementwiseModel<OpT>, OpT> {};

/// linalg contractions accept f16/bf16 inputs with an f32 init and result:
/// only the inputs change; the accumulator stays as written.
template <typename OpT>
struct LinalgContractionModel
    : MixedPrecisionOpInterface::ExternalModel<LinalgContractionModel<OpT>,
                                               OpT> {
  SmallVector<unsigned> getPrecisionOperands(Operation *) const {
    return {0, 1};
  }
  SmallVector<unsigned> getPrecisionResults(Operation *) const { return {}; }
};

template <typename... OpTs> void attachElementwise(MLIRContext *ctx) {
  (OpTs::template attachInterface<ElementwiseModel<OpTs>>(*ctx), ...);
}
} // namespace

void amp::registerUpstreamPrecisionModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    attachElementwise<arith::AddFOp, arith::SubFOp, arith::MulFOp,
                      arith::DivFOp, arith::NegFOp, arith::MaximumFOp,
                      arith::MinimumFOp>(ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, math::MathDialect *) {
    attachElementwise<math::AbsFOp, math::CosOp, math::ErfOp, math::ExpOp,
                      math::LogOp, math::PowFOp, math::RsqrtOp, math::SinOp,
                      math::SqrtOp, math::TanhOp>(ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
    linalg::MatmulOp::attachInterface<LinalgContractionModel<linalg::MatmulOp>>(
        *ctx);
    linalg::BatchMatmulOp::attachInterface<
        LinalgContractionModel<linalg::BatchMatmulOp>>(*ctx);
  });
}
