//===- Recompute.h - recompute activations in the backward pass -*- C++ -*-===//
//
// The C++ entry point behind nn-recompute, for embedders and for the
// runners, which recompute after amp-pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_NN_TRANSFORMS_RECOMPUTE_H
#define AMP_DIALECT_NN_TRANSFORMS_RECOMPUTE_H

#include "mlir/IR/Operation.h"

namespace amp::nn {

/// Recomputes, right before their first use after a gradient seed, the
/// forward values under `root` that nn-recompute's conditions allow
/// (Passes.td). Returns how many ops it cloned.
unsigned recompute(mlir::Operation *root);

} // namespace amp::nn

#endif // AMP_DIALECT_NN_TRANSFORMS_RECOMPUTE_H
