//===- Passes.td - nn transformation passes -----------------*- tablegen -*-===//
//
// nn-autodiff: from a forward function and its loss to the training step.
// nn-fuse-attention: the attention chain to one nn.attention.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_NN_TRANSFORMS_PASSES_TD
#define AMP_DIALECT_NN_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def NNAutodiff : Pass<"nn-autodiff", "::mlir::ModuleOp"> {
  let summary = "Build the training step (backward + optimizer) of a forward loss function";
  let description = [{
    Turns a forward function into a training step in the convention of
    docs/dialects.md. The input is a `func.func` whose arguments carry the
    roles `param`, `input` and `label` and whose single result is the 0-d f32
    loss (`nn.role = #nn.role<loss>`). The pass appends, in the same
    function:

    1. `nn.grad_seed` of the loss and the reverse-mode backward pass, built
       op by op from each op's `DifferentiableOpInterface` rule (the rules
       of nn ops live in lib/Interfaces/NNDerivativeModels.cpp). Only values
       that depend on a param and reach the loss get gradients; integer
       operands (labels, token ids) get none. A value with several uses
       gets the sum of their gradients, and a gradient that flowed through
       numpy broadcasting (`nn.add` of a bias, `nn.broadcast_to`) is summed
       back to the operand's shape. Backward ops reuse the forward
       activations and carry the location `fused<"grad">[forward op]`, so
       reports and errors name the model's source line.
    2. Optionally `nn.clip_grad_value` (`clip-value`), then
       `nn.clip_grad_norm` (`clip-norm`, with `clip-norm-type`'s norm) over
       all param gradients.
    3. The optimizer update of every param (`nn.sgd_update`, with a momentum
       buffer when `momentum > 0`, or `nn.adam_update` with its two moments
       and step counter per param, and with `amsgrad` the running maximum
       of the second moment: `adam` with L2 weight decay, `adamw`
       with decoupled weight decay; `nn.radam_update` with the same moments
       and counter, `radam`; `nn.rmsprop_update` with its
       `square_avg`, a momentum buffer when `momentum > 0` and a `grad_avg`
       when `centered`, or `nn.adagrad_update` with its `state_sum`, whose
       `nn.init` is `initial-accumulator-value`, and a step counter when
       `lr-decay > 0`, or `nn.adafactor_update` with a `row_var` and a
       `col_var` per param of rank >= 2, else a `variance`, and a step
       counter), with the new `opt_state`
       arguments
       inserted after the last param (zero-initialized by runners). With
       `lr-schedule`, one `nn.lr_schedule` gives every update its
       `lr_factor`, and its step counter is a `schedule_state` argument
       after the `opt_state` ones.
       The options are PyTorch's scheduler arguments: `warmup-steps`,
       `warmup-start-factor`, `total-steps`, `final-factor`, `step-size`,
       `gamma`, `power`, `milestones` (see `nn.lr_schedule`).
       `no-decay` and `no-decay-1d` exempt params from weight decay, as a
       PyTorch param group with `weight_decay=0` does (Hugging Face's
       Trainer exempts biases and LayerNorm weights, timm every param of
       rank <= 1), and `param-lr` gives params their own learning rate by
       name, as a param group with its own `lr`. An option the optimizer
       does not take is an error.
    4. With `ema-decay`, an exponential moving average of every updated
       param, as PyTorch's `AveragedModel(model,
       multi_avg_fn=get_ema_multi_avg_fn(decay))` and its
       `update_parameters(model)` after each optimizer step: the first
       update copies the params, each later one computes `ema + (1 - decay)
       * (param - ema)`. The averages are `ema` arguments (one per param,
       then with `ema-buffers` one per buffer, as `use_buffers=True`;
       zero-initialized by runners) and their update count an `ema_count`
       argument, appended last. `ema-warmup` ramps the decay up over the
       first updates, as diffusers' `EMAModel` and timm's `ModelEmaV3` do.

    The results become the updated params, the optimizer state (in argument
    order), the schedule's new step counter, the dropout step count, the
    new averages and their count, the new buffers and the loss,
    with their roles; then, with `lr-schedule`, the step's learning rate
    (`#nn.role<lr>`: `lr` times the factor, what the updates used) and, with
    `clip-norm`, the gradients' norm before clipping
    (`#nn.role<grad_norm>`: what `clip_grad_norm_` returns), which runners
    log. With `optimizer=none` there is no
    update: the results are the gradients of the params (in argument order,
    without a role) and the loss. A param that does not reach the
    loss gets a zero gradient and a remark. An op on the path from a param
    to the loss that has no derivative rule, a loss that is not a 0-d f32
    tensor, an argument without a forward role, or an op with regions is an
    error naming the op and its location.

    With `keep-forward`, the function is first copied as `@<name>_forward`:
    params and inputs in, the predictions (the first operand of the one
    `nn.cross_entropy` or elementwise loss the loss is computed from, when
    it reads a label argument itself) out, for evaluation (`amp-run
    --eval-entry <name>_forward`); for any other loss (written out of other
    ops, a sum of losses) the loss itself, taking the label too.

    `entry` names the function to differentiate; by default every function
    whose results are one loss is. The C++ entry point is
    `amp::nn::buildTrainingStep` (amp/Dialect/NN/Transforms/Autodiff.h).
  }];
  let dependentDialects = [
    "::amp::nn::NNDialect", "::mlir::arith::ArithDialect"
  ];
  let options = [
    Option<"entry", "entry", "std::string", "\"\"",
           "The function to differentiate (default: every function whose "
           "single result has nn.role = #nn.role<loss>)">,
    Option<"optimizer", "optimizer", "std::string", "\"sgd\"",
           "sgd (torch.optim.SGD), adam (torch.optim.Adam: L2 weight "
           "decay), adamw (torch.optim.AdamW: decoupled weight decay), "
           "radam (torch.optim.RAdam), rmsprop (torch.optim.RMSprop), "
           "adagrad (torch.optim.Adagrad), adafactor "
           "(torch.optim.Adafactor), or none (return the param gradients, "
           "then the loss)">,
    Option<"lr", "lr", "double", "1e-3",
           "Learning rate (PyTorch's defaults: 1e-2 for rmsprop, adagrad "
           "and adafactor, else 1e-3)">,
    Option<"momentum", "momentum", "double", "0.0",
           "SGD and RMSprop momentum (a momentum buffer per param when > "
           "0)">,
    Option<"nesterov", "nesterov", "bool", "false",
           "SGD: Nesterov momentum (needs momentum > 0)">,
    Option<"beta1", "beta1", "double", "0.9", "Adam(W) and RAdam beta1">,
    Option<"beta2", "beta2", "double", "0.999", "Adam(W) and RAdam beta2">,
    Option<"decoupledWeightDecay", "decoupled-weight-decay", "bool", "false",
           "RAdam: decoupled weight decay (the param scaled by 1 - lr * "
           "weight-decay, as AdamW) instead of the L2 penalty">,
    Option<"amsgrad", "amsgrad", "bool", "false",
           "Adam(W): divide by the running maximum of the second moment "
           "(AMSGrad; a max_exp_avg_sq per param)">,
    Option<"eps", "eps", "double", "1e-8",
           "Adam(W), RAdam, RMSprop and Adagrad epsilon (PyTorch's "
           "defaults: 1e-10 "
           "for adagrad, else 1e-8)">,
    Option<"alpha", "alpha", "double", "0.99",
           "RMSprop smoothing constant of the squared-gradient average">,
    Option<"centered", "centered", "bool", "false",
           "RMSprop: normalize by the estimated variance of the gradient "
           "(a grad_avg per param)">,
    Option<"initialAccumulatorValue", "initial-accumulator-value", "double",
           "0.0", "Adagrad: the initial value of the squared-gradient sums">,
    Option<"lrDecay", "lr-decay", "double", "0.0",
           "Adagrad: step k's lr is lr / (1 + k * lr-decay) (a step counter "
           "per param when > 0)">,
    Option<"beta2Decay", "beta2-decay", "double", "-0.8",
           "Adafactor: the second moments' weight at step t is "
           "t^beta2-decay (<= 0)">,
    Option<"eps1", "eps1", "double", "0.0",
           "Adafactor: the floor of the second-moment estimate's square "
           "root (PyTorch's eps[0]; default: f32's epsilon, PyTorch's for "
           "f32 params)">,
    Option<"eps2", "eps2", "double", "1e-3",
           "Adafactor: the floor of a param's root mean square in its step "
           "size (PyTorch's eps[1])">,
    Option<"adafactorD", "d", "double", "1.0",
           "Adafactor: the clipping threshold of the update's root mean "
           "square (>= 1)">,
    Option<"weightDecay", "weight-decay", "double", "-1.0",
           "Weight decay; negative means the optimizer's PyTorch default "
           "(0.01 for adamw, else 0)">,
    ListOption<"noDecay", "no-decay", "std::string",
               "No weight decay for the params whose name contains one of "
               "these strings (e.g. bias,LayerNorm)">,
    ListOption<"paramLr", "param-lr", "std::string",
               "Learning rates of params by name, PyTorch's param groups "
               "with their own lr: STRING=LR entries (e.g. classifier=1e-3); "
               "a param whose name contains STRING trains with LR (the "
               "first entry that matches), the others with lr">,
    Option<"noDecay1d", "no-decay-1d", "bool", "false",
           "No weight decay for the params of rank 0 or 1 (biases, norm "
           "scales and shifts)">,
    Option<"lrSchedule", "lr-schedule", "std::string", "\"none\"",
           "Learning-rate schedule (nn.lr_schedule): none, constant, linear, "
           "cosine, step, exponential, polynomial or multistep">,
    Option<"warmupSteps", "warmup-steps", "int64_t", "0",
           "Steps of linear warmup from warmup-start-factor * lr to lr">,
    Option<"warmupStartFactor", "warmup-start-factor", "double", "0.0",
           "The lr factor of the first warmup step">,
    Option<"totalSteps", "total-steps", "int64_t", "0",
           "linear, cosine and polynomial: the step (warmup included) at "
           "which the lr reaches final-factor * lr">,
    Option<"finalFactor", "final-factor", "double", "0.0",
           "linear, cosine and polynomial: the lr factor at total-steps and "
           "after">,
    Option<"power", "power", "double", "1.0",
           "polynomial: the exponent of the decay (1: linear)">,
    ListOption<"milestones", "milestones", "int64_t",
               "multistep: the steps after the warmup at which the lr is "
               "multiplied by gamma (increasing, at most 16)">,
    Option<"stepSize", "step-size", "int64_t", "0",
           "step: multiply the lr by gamma every step-size steps">,
    Option<"gamma", "gamma", "double", "0.0",
           "step, exponential and multistep: the decay factor">,
    Option<"accumulateSteps", "accumulate-steps", "int64_t", "1",
           "Gradient accumulation: the step's inputs and labels hold this "
           "many micro-batches of the forward function's batch, whose "
           "forward and backward passes run in turn and whose gradients "
           "(each loss divided by it) are summed before one update">,
    Option<"clipNorm", "clip-norm", "double", "0.0",
           "Clip the global norm of the gradients to this, as "
           "clip_grad_norm_ (0: off)">,
    Option<"clipNormType", "clip-norm-type", "double", "2.0",
           "clip-norm's norm: p > 0 for the p-norm, inf for the largest "
           "magnitude (clip_grad_norm_'s norm_type)">,
    Option<"clipValue", "clip-value", "double", "0.0",
           "Clamp every gradient element to [-clip-value, clip-value], as "
           "clip_grad_value_, before any clip-norm (0: off)">,
    Option<"keepForward", "keep-forward", "bool", "false",
           "Also keep the forward pass as @<name>_forward, returning the "
           "predictions (or the loss), for evaluation">,
    Option<"stepDropoutMasks", "step-dropout-masks", "bool", "true",
           "Each step draws new dropout masks: a training dropout's seed is "
           "offset by an rng_state count of earlier steps, as PyTorch's "
           "generator advances; false keeps the seed's one mask for every "
           "step">,
    Option<"emaDecay", "ema-decay", "double", "0.0",
           "Keep an exponential moving average of the params with this "
           "decay (0: off; in (0, 1)): torch.optim.swa_utils.AveragedModel "
           "with get_ema_multi_avg_fn(decay), updated after every step">,
    Option<"emaBuffers", "ema-buffers", "bool", "false",
           "With ema-decay, average the buffers (running statistics) too, "
           "as AveragedModel(use_buffers=True) and timm's ModelEmaV3; "
           "without it the averaged model uses the model's buffers">,
    Option<"emaWarmup", "ema-warmup", "std::string", "\"none\"",
           "How ema-decay's decay d_t at update t (from 0; t = 0 copies) "
           "ramps up: none (d_t = ema-decay: AveragedModel), ratio "
           "(min(ema-decay, (1 + t) / (10 + t)): diffusers' EMAModel), or "
           "power (min(ema-decay, 1 - (1 + t / ema-warmup-gamma) ^ "
           "-ema-warmup-power): timm's ModelEmaV3 use_warmup, diffusers' "
           "use_ema_warmup)">,
    Option<"emaWarmupGamma", "ema-warmup-gamma", "double", "1.0",
           "ema-warmup=power's gamma (timm's warmup_gamma, diffusers' "
           "inv_gamma)">,
    Option<"emaWarmupPower", "ema-warmup-power", "double", "2.0 / 3.0",
           "ema-warmup=power's power (timm's warmup_power, diffusers' "
           "power)">,
  ];
}

def NNFuseAttention : Pass<"nn-fuse-attention"> {
  let summary = "Fuse matmul-scale-softmax-[dropout-]matmul chains into "
                "nn.attention";
  let description = [{
    Replaces each scaled-dot-product attention written out op by op,

    ```mlir
    %s = nn.matmul %q, %k {transpose_b}       // or nn.matmul %q, (nn.transpose %k)
    %t = nn.mul %s, %c                        // or nn.div %s, %c; optional
    %u = nn.add %t, %mask                     // optional
    %p = nn.softmax %u {axis = -1}
    %d = nn.dropout %p, %seed {rate = r, training}   // optional
    %o = nn.matmul %d, %v
    ```

    with one `nn.attention %q, %k, %v mask %mask {scale = c}`, which
    never stores the `[..., Sq, Sk]` scores and probabilities (and whose
    gradient, `nn.attention_grad`, recomputes them): this is what
    `torch.compile` does for PyTorch's unfused attention. `%c` must be a
    scalar constant (a 0-d or all-ones-shaped splat). The forms that
    PyTorch's ONNX exporters and Hugging Face models write are read too:
    - the key's transpose may move other dimensions as well (`[B, S, H, D]`
      to `[B, H, D, S]`: the key becomes that permutation with its last two
      entries swapped) and may sit under a reshape that only regroups the
      batch dimensions (`[B*H, D, S]` to `[B, H, D, S]`);
    - multiplications of the query or the key by scalar constants
      (`scaled_dot_product_attention`'s `D^-1/4` on each side) go into the
      scale;
    - `where(isnan(p), 0, p)` between the softmax and the last matmul (the
      exported SDPA's guard for a query that sees no key) is dropped, since
      nn.attention gives zeros there;
    - a training dropout of the probabilities (BERT's and GPT-2's attention
      dropout in training mode) becomes the fused op's `dropout %seed` and
      `dropout_rate = r`, which drops the same elements; a dropout that is
      the identity (not training, or rate 0) is dropped;
    - grouped-query attention (Llama, Mistral, Qwen): when the key and the
      value each have `H / G` heads repeated `G` times in a row before the
      attention (Hugging Face's `repeat_kv`, exported as
      `nn.reshape` to `[..., H / G, 1, S, D]`, `nn.broadcast_to`
      `[..., H / G, G, S, D]` and `nn.reshape` to `[..., H, S, D]` or
      `[B*H, S, D]`), the fused op reads the unrepeated key and value, so
      the repeated copies (and their gradients' sums) are never formed.
      An `nn.attention` that reads such copies already (amp-import-onnx's
      of ONNX's Attention op after `repeat_kv`, as PyTorch exports
      Hugging Face's Llama at opset 23) is rewritten to read the
      unrepeated ones the same way.

    The chain is fused only when:
    - every intermediate (`%s`, `%t`, `%u`, `%p`, `%d`) has this one use, so a
      backward pass written by hand that reads the probabilities keeps the
      unfused ops (run the pass before `nn-autodiff`);
    - query, key, value, the intermediates and the output have one element
      type (the pass runs before precision assignment) and the same batch
      dimensions (no broadcasting between query and key, but for a key and
      value whose heads divide the query's: grouped-query attention);
    - the mask is f32 or that element type, broadcasts to the scores
      without widening them, and depends on no argument with role `param`
      (nn.attention's mask has no derivative: a learned bias, as
      DeBERTa's relative attention, stays unfused);
    - the ops are in one block and none carries `amp.precision` (an
      override asks for those ops as written).

    The fused op's location fuses the chain's. The C++ entry point
    is `amp::nn::fuseAttention` (amp/Dialect/NN/Transforms/FuseAttention.h).
  }];
  let dependentDialects = ["::amp::nn::NNDialect"];
}

def NNRecompute : Pass<"nn-recompute"> {
  let summary = "Recompute activations in the backward pass instead of "
                "keeping them, where that costs no memory";
  let description = [{
    The backward pass of a training step reads forward values (a matmul's
    input for its weight gradient, a softmax's output), so each stays in
    memory from the forward op that makes it to its last use in the
    backward pass: the step's memory peaks where the forward pass ends.
    Many of those values are cheap functions of others the backward pass
    keeps anyway: a GELU's output of its input (which `nn.gelu_grad`
    reads), the f16 copy (`amp.cast`) of a layer norm's output of the
    layer norm's input (which `nn.layer_norm_grad` reads), the f16 copy of
    an f32 param. This pass computes such a value again right before its
    first use in the backward pass, so that the forward's copy dies at its
    last forward use: what PyTorch's `torch.utils.checkpoint` and the
    min-cut partitioner of `torch.compile` do, limited to what costs no
    memory.

    An op is recomputed when
    - it is an `nn` op or an `amp.cast` before a gradient seed
      (`nn.grad_seed`, `amp.scaled_grad_seed`) of its block, and a result
      is used after that seed (by the backward pass, the optimizer or a
      later micro-batch), and none is returned by the block's terminator
      (it lives to the end anyway);
    - it is not `ComputeBound` (nn.matmul, nn.conv2d and its gradients,
      nn.attention and its gradient, amp.gemm: their results are kept),
      has no regions, and is not `nn.relu` (its gradient reads only the
      sign of the relu's input, which the GEMM lowering takes from the
      relu's output: that output is what the step keeps);
    - every operand is available where the recomputation goes without
      living longer than it did: an argument, a constant, a value defined
      outside the block, a value used at or after that point anyway, or a
      value that can itself be recomputed there (up to 4 ops deep: a
      layer norm recomputed for its f16 cast).

    The recomputed op is a clone placed right before the first of those
    uses, with the location `fused<"recompute">[<op's location>]`; every
    use after the seed reads the clone, and an original left without uses
    is erased. The clone computes the same value (the kernels are
    deterministic, and `nn.dropout` draws its mask from its seed and the
    element's index), with one exception after the GEMM lowering: an f16
    or bf16 GELU fused into its GEMM's epilogue is computed there from the
    f32 pre-activation, and its clone from the rounded pre-activation the
    GEMM writes for the backward pass (as PyTorch's GELU reads it), so the
    two can differ by one rounding. Run it after `amp-pipeline`, so that
    the casts the pipeline inserts are recomputed too. `amp-run` and
    `amp-compile` run it there with `--recompute`. The C++ entry point is
    `amp::nn::recompute` (amp/Dialect/NN/Transforms/Recompute.h).
  }];
}

#endif // AMP_DIALECT_NN_TRANSFORMS_PASSES_TD
