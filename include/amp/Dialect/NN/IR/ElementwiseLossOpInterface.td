//===- ElementwiseLossOpInterface.td - mean of loss(p, t) -*- tablegen -*-===//
//
// The interface of the elementwise losses (nn.mse_loss, nn.l1_loss,
// nn.huber_loss, nn.bce_with_logits_loss) and of their gradients: a
// prediction and a target of one type, a loss kind, its parameter and its
// reduction. The
// lowering, nn-autodiff's keep-forward and the runner's label description
// handle every such loss through it.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_NN_IR_ELEMENTWISELOSSOPINTERFACE_TD
#define AMP_DIALECT_NN_IR_ELEMENTWISELOSSOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def NN_ElementwiseLossOpInterface
    : OpInterface<"ElementwiseLossOpInterface"> {
  let cppNamespace = "::amp::nn";
  let description = [{
    An op over a prediction and a target of one type whose loss is the mean
    (or the sum) over their elements of a per-element loss: the forward losses and their
    gradients (which also read the 0-d gradient of the loss).
  }];
  let methods = [
    InterfaceMethod<"The loss.", "::amp::nn::ElementwiseLossKind",
                    "getLossKind">,
    InterfaceMethod<"The loss's parameter: Huber's delta, 0 for the others.",
                    "float", "getLossParam">,
    InterfaceMethod<"The reduction: the mean (divided by the element "
                    "count) or the sum.", "::amp::nn::LossReduction",
                    "getReduction">,
    InterfaceMethod<"The prediction (for BCE the logits).", "::mlir::Value",
                    "getPred">,
    InterfaceMethod<"The target.", "::mlir::Value", "getTarget">,
  ];
  let extraSharedClassDeclaration = [{
    /// What the reduction divides the sum by: the element count for the
    /// mean, 1 for the sum.
    int64_t getReductionDivisor() {
      if ($_op.getReduction() == ::amp::nn::LossReduction::Sum)
        return 1;
      return ::llvm::cast<::mlir::ShapedType>($_op.getPred().getType())
          .getNumElements();
    }
  }];
}

#endif // AMP_DIALECT_NN_IR_ELEMENTWISELOSSOPINTERFACE_TD
