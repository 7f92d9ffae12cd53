//===- NNAttributes.td - nn dialect attributes --------------*- tablegen -*-===//
//
// The training-step role of a function argument or result (`nn.role`),
// nn.compare's predicate, nn.lr_schedule's kind and the elementwise losses'
// kinds and reductions, each declared once: their cases, spellings and C++ enums are
// generated from here.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_NN_IR_NNATTRIBUTES_TD
#define AMP_DIALECT_NN_IR_NNATTRIBUTES_TD

include "amp/Dialect/NN/IR/NNDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

// The roles of docs/architecture.md §3 (amp-loss-scaling adds loss_scale to
// found_inf).
def NN_Role : I32EnumAttr<"Role",
    "the role of a training-step argument or result", [
  I32EnumAttrCase<"Param", 0, "param">,
  I32EnumAttrCase<"OptState", 1, "opt_state">,
  I32EnumAttrCase<"Input", 2, "input">,
  I32EnumAttrCase<"Label", 3, "label">,
  I32EnumAttrCase<"Loss", 4, "loss">,
  I32EnumAttrCase<"LossScale", 5, "loss_scale">,
  I32EnumAttrCase<"GrowthTracker", 6, "growth_tracker">,
  I32EnumAttrCase<"HysteresisTracker", 7, "hysteresis_tracker">,
  I32EnumAttrCase<"FoundInf", 8, "found_inf">,
  I32EnumAttrCase<"Buffer", 9, "buffer">,
  I32EnumAttrCase<"ScheduleState", 10, "schedule_state">,
  I32EnumAttrCase<"Lr", 11, "lr">,
  I32EnumAttrCase<"GradNorm", 12, "grad_norm">,
  I32EnumAttrCase<"RngState", 13, "rng_state">,
  I32EnumAttrCase<"Ema", 14, "ema">,
  I32EnumAttrCase<"EmaCount", 15, "ema_count">
]> {
  let cppNamespace = "::amp::nn";
  let genSpecializedAttr = 0;
}

def NN_RoleAttr : EnumAttr<NN_Dialect, NN_Role, "role"> {
  let summary = "the role of a training-step argument or result";
  let description = [{
    Marks what a runner binds to a function argument or result of a training
    step: `#nn.role<param>`, `#nn.role<opt_state>`, `#nn.role<input>`,
    `#nn.role<label>`, `#nn.role<loss>`, and the loss-scale state that
    `amp-loss-scaling` appends (`loss_scale`, `growth_tracker`,
    `hysteresis_tracker`, `found_inf`), and `#nn.role<buffer>`: state a
    step updates without training it (batch normalization's running
    statistics, PyTorch's buffers), threaded like params and saved with
    them; and `#nn.role<schedule_state>`: the step counter of a
    learning-rate schedule (`nn.lr_schedule`), threaded, which advances also
    on a step that loss scaling skips (PyTorch's scheduler state); and
    `#nn.role<rng_state>`: a 0-d `i64` count of earlier steps that offsets
    each training dropout's seed, so that every step draws new masks,
    threaded, which also advances on a skipped step (PyTorch's generator
    state); and `#nn.role<ema>`, an exponential moving average of a param
    (nn-autodiff's `ema-decay`; the k-th `ema` argument averages the k-th
    param, and those after the params' averages, with `ema-buffers`, the
    buffers; each has its value's type and starts at zero), with
    `#nn.role<ema_count>`,
    the 0-d `i64` count of the updates the averages have had (PyTorch's
    `AveragedModel.n_averaged`), both threaded. Two
    results report on the step for the runner's log, and are not threaded:
    `#nn.role<lr>`, the learning rate the step's updates used (PyTorch's
    `scheduler.get_last_lr()` before `scheduler.step()`), and
    `#nn.role<grad_norm>`, the global norm (`nn.clip_grad_norm`'s
    `norm_type`) of the unscaled gradients before clipping (the value
    `clip_grad_norm_` returns; inf or NaN on a
    step that loss scaling skips). It is the value of the discardable
    attribute `nn.role`:

    ```mlir
    func.func @step(%w: tensor<4x4xf32> {nn.role = #nn.role<param>}) -> ...
    ```
  }];
  let assemblyFormat = "`<` $value `>`";
}

// nn.compare's predicate. The values are those of the runtime's
// amp_compare_op_t (the lowering checks it at compile time).
def NN_ComparePredicate : I32EnumAttr<"ComparePredicate",
    "the comparison of nn.compare", [
  I32EnumAttrCase<"EQ", 0, "eq">,
  I32EnumAttrCase<"NE", 1, "ne">,
  I32EnumAttrCase<"LT", 2, "lt">,
  I32EnumAttrCase<"LE", 3, "le">,
  I32EnumAttrCase<"GT", 4, "gt">,
  I32EnumAttrCase<"GE", 5, "ge">
]> {
  let cppNamespace = "::amp::nn";
}

// nn.lr_schedule's kind. The values are those of the runtime's
// amp_lr_schedule_t (the lowering checks it at compile time).
def NN_LrScheduleKind : I32EnumAttr<"LrScheduleKind",
    "the learning-rate schedule of nn.lr_schedule", [
  I32EnumAttrCase<"Constant", 0, "constant">,
  I32EnumAttrCase<"Linear", 1, "linear">,
  I32EnumAttrCase<"Cosine", 2, "cosine">,
  I32EnumAttrCase<"Step", 3, "step">,
  I32EnumAttrCase<"Exponential", 4, "exponential">,
  I32EnumAttrCase<"Polynomial", 5, "polynomial">,
  I32EnumAttrCase<"Multistep", 6, "multistep">
]> {
  let cppNamespace = "::amp::nn";
}

// The loss of an elementwise loss op (nn.mse_loss, nn.l1_loss,
// nn.huber_loss, nn.bce_with_logits_loss) and of its gradient
// (ElementwiseLossOpInterface). The values are those of the runtime's
// amp_elementwise_loss_t (the lowering checks it at compile time); the
// spellings are the ops' names without `nn.` and `_loss`.
// How an elementwise loss reduces its per-element losses: PyTorch's
// `reduction="mean"` (the default) or `"sum"`.
def NN_LossReduction : I32EnumAttr<"LossReduction",
    "the reduction of an elementwise loss", [
  I32EnumAttrCase<"Mean", 0, "mean">,
  I32EnumAttrCase<"Sum", 1, "sum">
]> {
  let cppNamespace = "::amp::nn";
}

def NN_ElementwiseLossKind : I32EnumAttr<"ElementwiseLossKind",
    "the loss of an elementwise loss op", [
  I32EnumAttrCase<"Mse", 0, "mse">,
  I32EnumAttrCase<"L1", 1, "l1">,
  I32EnumAttrCase<"Huber", 2, "huber">,
  I32EnumAttrCase<"BceWithLogits", 3, "bce_with_logits">
]> {
  let cppNamespace = "::amp::nn";
  let genSpecializedAttr = 0;
}

#endif // AMP_DIALECT_NN_IR_NNATTRIBUTES_TD
