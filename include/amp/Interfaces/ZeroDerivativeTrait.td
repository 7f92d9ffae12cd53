//===- ZeroDerivativeTrait.td - ops whose derivative is zero -*- tablegen -*-===//
//
// The trait of step functions (nn.floor, nn.ceil, nn.round, nn.sign): their
// results are constant in their operands wherever the derivative exists, so
// nn-autodiff treats the results as constants (ZeroDerivativeTrait.h).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_ZERODERIVATIVETRAIT_TD
#define AMP_INTERFACES_ZERODERIVATIVETRAIT_TD

include "mlir/IR/OpBase.td"

def ZeroDerivative : NativeOpTrait<"ZeroDerivative"> {
  let cppNamespace = "::amp";
}

#endif // AMP_INTERFACES_ZERODERIVATIVETRAIT_TD
