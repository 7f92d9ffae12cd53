//===- ComputeBoundTrait.h - ops whose cost is their arithmetic -*- C++ -*-===//
//
// ComputeBound marks an op whose run time is its arithmetic, not the bytes
// it moves: the contractions that run on tensor cores (nn.matmul,
// nn.conv2d and its gradients, nn.attention and its gradient, amp.gemm).
// nn-recompute keeps the results of these ops for the backward pass and
// recomputes those of every other op when that costs no memory.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_COMPUTEBOUNDTRAIT_H
#define AMP_INTERFACES_COMPUTEBOUNDTRAIT_H

#include "mlir/IR/OpDefinition.h"

namespace amp {

template <typename ConcreteType>
class ComputeBound
    : public mlir::OpTrait::TraitBase<ConcreteType, ComputeBound> {};

} // namespace amp

#endif // AMP_INTERFACES_COMPUTEBOUNDTRAIT_H
