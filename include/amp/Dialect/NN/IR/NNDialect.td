//===- NNDialect.td - The nn dialect ------------------------*- tablegen -*-===//
//
// The `nn` dialect: forward ops, backward ops and optimizer updates of a
// training step, on statically shaped ranked tensors.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_NN_IR_NNDIALECT_TD
#define AMP_DIALECT_NN_IR_NNDIALECT_TD

include "mlir/IR/OpBase.td"

def NN_Dialect : Dialect {
  let name = "nn";
  let cppNamespace = "::amp::nn";
  let summary = "Neural-network ops for training steps: forward, backward, optimizer";
  let description = [{
    The `nn` dialect describes one training step as a pure dataflow graph on
    statically shaped ranked tensors. Floating-point data is `f32`, `f16` or
    `bf16`; labels and ids are `i32` or `i64`.

    * Forward ops: numpy-broadcasting elementwise arithmetic and selection,
      activations, `nn.dropout`, `nn.matmul`, `nn.conv2d`, pooling,
      normalizations, softmax, reductions, shape ops, `nn.embedding` and the
      losses `nn.cross_entropy` and `nn.mse_loss`.
    * Backward ops: `nn.grad_seed` marks where the backward pass starts;
      `*_grad` ops compute gradients. Matmul gradients are `nn.matmul` with
      transposes and broadcast gradients are `nn.reduce_sum`.
    * Optimizer ops: `nn.sgd_update`, `nn.adam_update` (AdamW),
      `nn.rmsprop_update`, `nn.adagrad_update` and `nn.clip_grad_norm`
      return updated values
      instead of mutating state.

    Ops that accumulate (`nn.matmul`, `nn.conv2d`, the reductions, the weight
    gradients) always accumulate in f32 and may store an `f32` result from
    `f16`/`bf16` operands.

    Function arguments and results of a training step carry the discardable
    attribute `nn.role`, whose value is a `#nn.role<...>` enum attribute
    (`param`, `opt_state`, `input`, `label`, `loss`, `loss_scale`,
    `growth_tracker`, `hysteresis_tracker`, `found_inf`), and scalar state
    arguments may carry `nn.init`, the value a runner initializes them with.
    Arguments may carry `nn.check_range = [lo, hi]` (numbers, `lo < hi`):
    where `amp-grad-check` draws their values (uniformly from `[lo, hi)`;
    integer tensors from the integers in it), e.g. positive inputs for
    `nn.log`. No other `nn.*` attribute exists, and none is valid on an
    operation.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The name of the discardable training-step role attribute.
    static constexpr llvm::StringLiteral getRoleAttrName() { return "nn.role"; }
    /// The initial value of a scalar state argument (e.g. the loss scale).
    static constexpr llvm::StringLiteral getInitAttrName() { return "nn.init"; }
    /// The range amp-grad-check draws an argument's values from.
    static constexpr llvm::StringLiteral getCheckRangeAttrName() {
      return "nn.check_range";
    }
  }];
}

#endif // AMP_DIALECT_NN_IR_NNDIALECT_TD
