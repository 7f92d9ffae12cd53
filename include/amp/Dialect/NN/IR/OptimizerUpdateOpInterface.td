//===- OptimizerUpdateOpInterface.td - a param's update -*- tablegen -*-===//
//
// The interface of the optimizer updates (nn.sgd_update, nn.adam_update,
// nn.radam_update, nn.rmsprop_update, nn.adagrad_update,
// nn.adafactor_update): a param, its
// gradient and the optimizer state it reads, and results that are the new
// param and the new state. Loss
// scaling, master weights, the lowering and nn-autodiff find and rewrite
// every update through it, so a new optimizer is one op.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_NN_IR_OPTIMIZERUPDATEOPINTERFACE_TD
#define AMP_DIALECT_NN_IR_OPTIMIZERUPDATEOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def NN_OptimizerUpdateOpInterface
    : OpInterface<"OptimizerUpdateOpInterface"> {
  let cppNamespace = "::amp::nn";
  let description = [{
    One param's optimizer step. Its operands are the param, the gradient,
    then the state (tensors of the param's type or, for Adafactor's factored
    moments, of its shape with a dimension 1, and any 0-d f32 counters),
    then an optional 0-d `lr_factor`; its results are the new param, then
    the new state in operand order. A skipped step (amp.skip_step_if) leaves
    every result equal to the operand it updates.
  }];
  let methods = [
    InterfaceMethod<"The param.", "::mlir::Value", "getParam">,
    InterfaceMethod<"The gradient operand.", "::mlir::OpOperand &",
                    "getGradMutable">,
    InterfaceMethod<"The schedule's factor of the lr, or null.",
                    "::mlir::Value", "getLrFactor">,
  ];
  let extraSharedClassDeclaration = [{
    /// The operand that result `i` is the new value of: the param for
    /// result 0, else the state operand after the gradient.
    unsigned getUpdatedOperandIndex(unsigned i) { return i == 0 ? 0 : i + 1; }

    /// The operands the results are the new values of, in result order
    /// (what a skipped step returns).
    ::llvm::SmallVector<::mlir::Value> getUpdatedOperands() {
      ::llvm::SmallVector<::mlir::Value> updated;
      for (unsigned i = 0, e = $_op->getNumResults(); i < e; ++i)
        updated.push_back($_op->getOperand(getUpdatedOperandIndex(i)));
      return updated;
    }
  }];
}

#endif // AMP_DIALECT_NN_IR_OPTIMIZERUPDATEOPINTERFACE_TD
