//===- GradientClipOpInterface.td - gradient clipping ---*- tablegen -*-===//
//
// The interface of the gradient clipping ops (nn.clip_grad_norm,
// nn.clip_grad_value): gradients in, the clipped gradients out, one for
// one. Loss scaling unscales the gradients before the first of them, and
// nn-autodiff refuses a forward function that holds one, through it.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_NN_IR_GRADIENTCLIPOPINTERFACE_TD
#define AMP_DIALECT_NN_IR_GRADIENTCLIPOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def NN_GradientClipOpInterface : OpInterface<"GradientClipOpInterface"> {
  let cppNamespace = "::amp::nn";
  let description = [{
    Clipping of a training step's gradients: its operands are the
    gradients, its first results their clipped values in operand order (any
    further result, such as nn.clip_grad_norm's total norm, is a measure).
    A clipping op reads unscaled gradients: under loss scaling it sits after
    amp.unscale_and_check, and a chain of them (values clipped, then the
    norm) reads the unscaled gradients once.
  }];
  let methods = [
    InterfaceMethod<"The gradients.", "::mlir::MutableOperandRange",
                    "getGradsMutable">,
    InterfaceMethod<"The clipped gradients, in the gradients' order.",
                    "::mlir::ResultRange", "getClipped">,
  ];
}

#endif // AMP_DIALECT_NN_IR_GRADIENTCLIPOPINTERFACE_TD
