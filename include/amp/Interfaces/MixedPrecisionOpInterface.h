//===- MixedPrecisionOpInterface.h - how an op changes precision -*- C++ -*-===//
//
// Declares MixedPrecisionOpInterface (generated from the .td), the
// registration of its external models for nn and upstream ops, and
// attachPrecisionClass, which gives an embedder's op a model in one line.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_MIXEDPRECISIONOPINTERFACE_H
#define AMP_INTERFACES_MIXEDPRECISIONOPINTERFACE_H

#include "amp/Interfaces/PrecisionClass.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/SmallVector.h"

namespace amp {
namespace detail {
/// Indices of the operands / results that are float tensors.
llvm::SmallVector<unsigned> floatTensorOperands(mlir::Operation *op);
llvm::SmallVector<unsigned> floatTensorResults(mlir::Operation *op);
} // namespace detail

/// Attaches MixedPrecisionOpInterface to every nn op.
void registerNNPrecisionModels(mlir::DialectRegistry &registry);

/// Attaches MixedPrecisionOpInterface to the arith, math, linalg and tosa
/// ops the default policy names (arith.addf on tensors, linalg.matmul,
/// linalg.generic, tosa.matmul, ...), and PrecisionCastInterface to their
/// dialects, so that their casts are arith.extf/arith.truncf and tosa.cast.
void registerUpstreamPrecisionModels(mlir::DialectRegistry &registry);

/// The TOSA part of registerUpstreamPrecisionModels.
void registerTosaPrecisionModels(mlir::DialectRegistry &registry);

/// Fails, with an error naming the op, when a loaded dialect promised
/// MixedPrecisionOpInterface for one of its ops (as nn does) but no model
/// was attached: the embedder forgot registerNNPrecisionModels.
mlir::LogicalResult checkPrecisionModelsRegistered(mlir::MLIRContext *ctx,
                                                   llvm::StringRef passName);
} // namespace amp

#include "amp/Interfaces/MixedPrecisionOpInterface.h.inc"

namespace amp {
/// The model attachPrecisionClass attaches: every float tensor operand and
/// result follows the op's precision, and `Class` is the op's class when
/// the policy does not name it. With `F32Accumulator` the op accumulates in
/// f32 (a matmul or reduction) and may keep an f32 result.
template <typename OpT, PrecisionClass Class, bool F32Accumulator = false>
struct PrecisionClassModel
    : MixedPrecisionOpInterface::ExternalModel<
          PrecisionClassModel<OpT, Class, F32Accumulator>, OpT> {
  std::optional<PrecisionClass> getDefaultPrecisionClass(mlir::Operation *) const {
    return Class;
  }
  bool hasF32Accumulator(mlir::Operation *) const { return F32Accumulator; }
};

/// Gives `OpT`, an op of `DialectT`, a precision class when the dialect is
/// loaded into a context built from `registry`:
///
///   amp::attachPrecisionClass<my::MatmulOp, my::MyDialect,
///                             amp::PrecisionClass::Allow>(registry);
///
/// A policy file or the allow=/deny=/infer=/clear= options still override
/// the class. Ops that need other operand sets write their own model.
template <typename OpT, typename DialectT, PrecisionClass Class,
          bool F32Accumulator = false>
void attachPrecisionClass(mlir::DialectRegistry &registry) {
  registry.addExtension(+[](mlir::MLIRContext *ctx, DialectT *) {
    OpT::template attachInterface<
        PrecisionClassModel<OpT, Class, F32Accumulator>>(*ctx);
  });
}
} // namespace amp

#endif // AMP_INTERFACES_MIXEDPRECISIONOPINTERFACE_H
