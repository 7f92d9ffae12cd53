//===- ZeroDerivativeTrait.h - ops whose derivative is zero -----*- C++ -*-===//
//
// ZeroDerivative marks an op whose results are piecewise constant in its
// operands (a step function: floor, ceil, round, sign). Its derivative is
// zero wherever it exists, as PyTorch's autograd defines it, so nn-autodiff
// treats its results as constants: no gradient flows back through it, and
// it needs no derivative rule (DifferentiableOpInterface).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_ZERODERIVATIVETRAIT_H
#define AMP_INTERFACES_ZERODERIVATIVETRAIT_H

#include "mlir/IR/OpDefinition.h"

namespace amp {

template <typename ConcreteType>
class ZeroDerivative
    : public mlir::OpTrait::TraitBase<ConcreteType, ZeroDerivative> {};

} // namespace amp

#endif // AMP_INTERFACES_ZERODERIVATIVETRAIT_H
