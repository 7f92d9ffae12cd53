//===- FuseAttention.h - the attention chain to nn.attention ----*- C++ -*-===//
//
// The C++ entry point behind nn-fuse-attention, for embedders and for the
// runners, which fuse before nn-autodiff.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_NN_TRANSFORMS_FUSEATTENTION_H
#define AMP_DIALECT_NN_TRANSFORMS_FUSEATTENTION_H

#include "mlir/IR/Operation.h"

namespace amp::nn {

/// Replaces every matmul-scale-[mask]-softmax-matmul chain under `root` that
/// nn-fuse-attention's conditions allow (Passes.td) with one nn.attention,
/// and makes every nn.attention on repeated key/value heads read the
/// unrepeated ones. Returns how many ops it fused or rewrote.
unsigned fuseAttention(mlir::Operation *root);

} // namespace amp::nn

#endif // AMP_DIALECT_NN_TRANSFORMS_FUSEATTENTION_H
