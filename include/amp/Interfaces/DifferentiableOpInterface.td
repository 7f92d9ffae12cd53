//===- DifferentiableOpInterface.td - derivative rules -----*- tablegen -*-===//
//
// The interface through which nn-autodiff differentiates an op: given the
// gradients of its results, an op builds the gradients of its operands
// (reverse mode). nn ops implement it through external models, one file per
// dialect (lib/Interfaces/NNDerivativeModels.cpp), and so can an
// embedder's own ops.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_DIFFERENTIABLEOPINTERFACE_TD
#define AMP_INTERFACES_DIFFERENTIABLEOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def DifferentiableOpInterface : OpInterface<"DifferentiableOpInterface"> {
  let cppNamespace = "::amp";
  let description = [{
    An op with a reverse-mode derivative rule. `nn-autodiff` calls
    `buildGradients` once per op, in reverse program order, with the
    builder's insertion point after every forward op and its location set to
    a fused location that names the op (`GradientBuilder` carries both).
  }];
  let methods = [
    InterfaceMethod<[{
        Builds the gradients of the operands from `resultGrads` (one per
        result; a null value is a zero gradient, for results the loss does
        not depend on). Writes one value per operand into `operandGrads`:
        for each operand with `needed[i]` set, its gradient with exactly the
        operand's type (broadcasting is reduced back by the rule); null
        otherwise. Fails, after emitting an error at the op, when the
        gradient cannot be built (e.g. a gradient flows into a result that
        has no derivative, such as batch_norm's saved statistics).
      }],
      "::llvm::LogicalResult", "buildGradients",
      (ins "::amp::GradientBuilder &":$builder,
           "::llvm::ArrayRef<::mlir::Value>":$resultGrads,
           "::llvm::ArrayRef<bool>":$needed,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$operandGrads)>,
  ];
}

#endif // AMP_INTERFACES_DIFFERENTIABLEOPINTERFACE_TD
