//===- MixedPrecisionOpInterface.h - how an op changes precision -*- C++ -*-===//
//
// Declares MixedPrecisionOpInterface (generated from the .td) and the
// registration of its external models for nn and upstream ops.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_MIXEDPRECISIONOPINTERFACE_H
#define AMP_INTERFACES_MIXEDPRECISIONOPINTERFACE_H

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

/// Attaches MixedPrecisionOpInterface to the arith, math and linalg ops the
/// default policy names (arith.addf on tensors, linalg.matmul, ...).
void registerUpstreamPrecisionModels(mlir::DialectRegistry &registry);

/// Fails, with an error naming the op, when a loaded dialect promised
/// MixedPrecisionOpInterface for one of its ops (as nn does) but no model
/// was attached: the embedder forgot registerNNPrecisionModels.
mlir::LogicalResult checkPrecisionModelsRegistered(mlir::MLIRContext *ctx,
                                                   llvm::StringRef passName);
} // namespace amp

#include "amp/Interfaces/MixedPrecisionOpInterface.h.inc"

#endif // AMP_INTERFACES_MIXEDPRECISIONOPINTERFACE_H
