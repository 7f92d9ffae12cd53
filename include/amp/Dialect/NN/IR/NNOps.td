//===- NNOps.td - nn dialect operations ---------------------*- tablegen -*-===//
//
// Forward, backward and optimizer operations of the nn dialect.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_NN_IR_NNOPS_TD
#define AMP_DIALECT_NN_IR_NNOPS_TD

include "amp/Dialect/NN/IR/NNAttributes.td"
include "amp/Dialect/NN/IR/NNDialect.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def NN_FloatTensor : StaticShapeTensorOf<[F32, F16, BF16]>;
def NN_IndexTensor : StaticShapeTensorOf<[I32, I64]>;
def NN_F32Tensor : StaticShapeTensorOf<[F32]>;
def NN_F32Scalar : 0DTensorOf<[F32]> {
  let builderCall = "::mlir::RankedTensorType::get({}, $_builder.getF32Type())";
}
def NN_FloatScalar : 0DTensorOf<[F32, F16, BF16]>;

class NN_Op<string mnemonic, list<Trait> traits = []>
    : Op<NN_Dialect, mnemonic, !listconcat(traits, [Pure])>;

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

class NN_BinaryOp<string mnemonic, string desc>
    : NN_Op<mnemonic, [InferTypeOpAdaptor]> {
  let summary = "elementwise " # desc # " with numpy broadcasting";
  let description = [{
    Computes `lhs }] # desc # [{ rhs` elementwise. The operands must have the
    same element type; their shapes broadcast with numpy rules (trailing
    dimensions are aligned and must be equal or 1).

    ```mlir
    %0 = nn.}] # mnemonic # [{ %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins NN_FloatTensor:$lhs, NN_FloatTensor:$rhs);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def NN_AddOp : NN_BinaryOp<"add", "+">;
def NN_SubOp : NN_BinaryOp<"sub", "-">;
def NN_MulOp : NN_BinaryOp<"mul", "*">;
def NN_DivOp : NN_BinaryOp<"div", "/">;

class NN_UnaryOp<string mnemonic, string desc>
    : NN_Op<mnemonic, [SameOperandsAndResultType]> {
  let summary = "elementwise " # desc;
  let description = [{
    Applies }] # desc # [{ to every element. The result has the operand's type.

    ```mlir
    %0 = nn.}] # mnemonic # [{ %x : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins NN_FloatTensor:$input);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def NN_NegOp : NN_UnaryOp<"neg", "negation">;
def NN_ExpOp : NN_UnaryOp<"exp", "the exponential e^x">;
def NN_LogOp : NN_UnaryOp<"log", "the natural logarithm">;
def NN_SqrtOp : NN_UnaryOp<"sqrt", "the square root">;
def NN_RsqrtOp : NN_UnaryOp<"rsqrt", "the reciprocal square root 1/sqrt(x)">;
def NN_TanhOp : NN_UnaryOp<"tanh", "the hyperbolic tangent">;
def NN_SigmoidOp : NN_UnaryOp<"sigmoid", "the logistic sigmoid 1/(1+e^-x)">;
def NN_ReluOp : NN_UnaryOp<"relu", "max(x, 0)">;
def NN_GeluOp : NN_UnaryOp<"gelu",
    "GELU with the tanh approximation "
    "0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3)))">;

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

def NN_MatmulOp : NN_Op<"matmul", [InferTypeOpAdaptorWithIsCompatible]> {
  let summary = "batched matrix multiplication with f32 accumulation";
  let description = [{
    `result[..., m, n] = sum_k op(lhs)[..., m, k] * op(rhs)[..., k, n]`, where
    `op` transposes the last two dimensions when `transpose_a` /
    `transpose_b` is set. Both operands have rank >= 2 and the same element
    type. Leading (batch) dimensions broadcast with numpy rules, so a rank-2
    weight multiplies every batch of a rank-3 activation.

    Accumulation is always f32. The result element type is the operands'
    element type or `f32`: an `f16` matmul may store its f32 accumulator
    directly, which is how mixed precision keeps weight gradients in f32.

    ```mlir
    %y = nn.matmul %x, %w {transpose_b}
        : (tensor<32x64xf16>, tensor<128x64xf16>) -> tensor<32x128xf32>
    ```
  }];
  let arguments = (ins NN_FloatTensor:$lhs, NN_FloatTensor:$rhs,
                   UnitAttr:$transpose_a, UnitAttr:$transpose_b);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def NN_Conv2DOp : NN_Op<"conv2d", [InferTypeOpAdaptorWithIsCompatible]> {
  let summary = "2-D convolution, NCHW input and OIHW filter";
  let description = [{
    Cross-correlation of an `N x C x H x W` input with an
    `O x C/groups x KH x KW` filter. `strides` and `dilation` are
    `[h, w]`; `padding` is `[top, left, bottom, right]` in zeros. The output
    is `N x O x OH x OW` with
    `OH = (H + top + bottom - dilation_h * (KH - 1) - 1) / stride_h + 1`.

    Accumulation is f32; as for `nn.matmul` the result may be `f32` when the
    operands are `f16`/`bf16`. There is no bias operand: add one with
    `nn.add` and a `Cx1x1` tensor.

    ```mlir
    %y = nn.conv2d %x, %w {strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>}
        : (tensor<8x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<8x16x32x32xf32>
    ```
  }];
  let arguments = (ins NN_FloatTensor:$input, NN_FloatTensor:$filter,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
                   DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat =
      "$input `,` $filter attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Normalization and softmax
//===----------------------------------------------------------------------===//

def NN_BatchNormOp : NN_Op<"batch_norm", [InferTypeOpAdaptor]> {
  let summary = "batch normalization with training (batch) statistics";
  let description = [{
    Normalizes an `N x C x ...` input per channel with the mean and biased
    variance over every dimension except 1, then applies `scale` and `bias`
    (both `C`). Returns the output and, for the backward pass, the batch mean
    and `invstd = 1/sqrt(var + epsilon)` (both `C x f32`). Statistics are
    always computed in f32. Running statistics for inference are left to the
    model (a momentum update is a few `nn.mul`/`nn.add` ops).
  }];
  let arguments = (ins NN_FloatTensor:$input, NN_FloatTensor:$scale,
                   NN_FloatTensor:$bias,
                   DefaultValuedAttr<F32Attr, "1e-5">:$epsilon);
  let results = (outs NN_FloatTensor:$result, NN_F32Tensor:$mean,
                 NN_F32Tensor:$invstd);
  let assemblyFormat =
      "$input `,` $scale `,` $bias attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def NN_LayerNormOp : NN_Op<"layer_norm", [InferTypeOpAdaptor]> {
  let summary = "layer normalization over the trailing dimensions";
  let description = [{
    Normalizes over dimensions `axis..rank-1` (the normalized shape), then
    applies `scale` and `bias`, which have the normalized shape. Returns the
    output plus the per-row `mean` and `rstd = 1/sqrt(var + epsilon)` (shape
    `input.shape[:axis]`, f32) saved for `nn.layer_norm_grad`. Statistics are
    always computed in f32.
  }];
  let arguments = (ins NN_FloatTensor:$input, NN_FloatTensor:$scale,
                   NN_FloatTensor:$bias,
                   DefaultValuedAttr<I64Attr, "-1">:$axis,
                   DefaultValuedAttr<F32Attr, "1e-5">:$epsilon);
  let results = (outs NN_FloatTensor:$result, NN_F32Tensor:$mean,
                 NN_F32Tensor:$rstd);
  let assemblyFormat =
      "$input `,` $scale `,` $bias attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

class NN_SoftmaxBase<string mnemonic, string desc>
    : NN_Op<mnemonic, [SameOperandsAndResultType]> {
  let summary = desc # " along one axis";
  let description = [{
    Computes }] # desc # [{ along `axis` (negative counts from the end) with
    the max-subtraction that keeps it finite.
  }];
  let arguments = (ins NN_FloatTensor:$input,
                   DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def NN_SoftmaxOp : NN_SoftmaxBase<"softmax", "softmax">;
def NN_LogSoftmaxOp : NN_SoftmaxBase<"log_softmax", "log-softmax">;

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class NN_ReduceOp<string mnemonic, string desc>
    : NN_Op<mnemonic, [InferTypeOpAdaptorWithIsCompatible]> {
  let summary = desc # " over a set of axes";
  let description = [{
    Reduces `input` over `axes` (unique, negative counts from the end) with
    }] # desc # [{. With `keep_dims` the reduced dimensions stay as size 1.
    Accumulation is f32; the result element type is the input's or `f32`.

    ```mlir
    %s = nn.}] # mnemonic # [{ %x [0] : (tensor<32x10xf32>) -> tensor<10xf32>
    ```
  }];
  let arguments = (ins NN_FloatTensor:$input, DenseI64ArrayAttr:$axes,
                   UnitAttr:$keep_dims);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "$input $axes (`keep_dims` $keep_dims^)? attr-dict "
                       "`:` functional-type(operands, results)";
}

def NN_ReduceSumOp : NN_ReduceOp<"reduce_sum", "a sum">;
def NN_ReduceMeanOp : NN_ReduceOp<"reduce_mean", "the arithmetic mean">;
def NN_ReduceMaxOp : NN_ReduceOp<"reduce_max", "the maximum">;

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

def NN_ReshapeOp : NN_Op<"reshape"> {
  let summary = "reshape to a static shape with the same element count";
  let description = [{
    Reinterprets the row-major elements of `input` with the result shape,
    which is given by the result type.
  }];
  let arguments = (ins NN_FloatTensor:$input);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def NN_TransposeOp : NN_Op<"transpose", [InferTypeOpAdaptor]> {
  let summary = "permute dimensions";
  let description = [{
    `result.shape[i] = input.shape[perm[i]]`. `perm` is a permutation of
    `0..rank-1`.
  }];
  let arguments = (ins NN_FloatTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat =
      "$input $perm attr-dict `:` type($input) `->` type($result)";
}

def NN_BroadcastToOp : NN_Op<"broadcast_to"> {
  let summary = "broadcast to a larger shape with numpy rules";
  let description = [{
    Broadcasts `input` to the result shape (given by the result type):
    trailing dimensions are aligned and each input dimension must be 1 or
    equal to the result's.
  }];
  let arguments = (ins NN_FloatTensor:$input);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Embedding and loss
//===----------------------------------------------------------------------===//

def NN_EmbeddingOp : NN_Op<"embedding", [InferTypeOpAdaptor]> {
  let summary = "gather rows of an embedding table";
  let description = [{
    `result[i..., :] = table[ids[i...], :]` for a `V x D` table. Ids outside
    `[0, V)` are a runtime error.
  }];
  let arguments = (ins NN_FloatTensor:$table, NN_IndexTensor:$ids);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat =
      "$table `,` $ids attr-dict `:` functional-type(operands, results)";
}

def NN_CrossEntropyOp : NN_Op<"cross_entropy"> {
  let summary = "mean softmax cross-entropy of logits against integer labels";
  let description = [{
    For `logits` of shape `[..., C]` and integer `labels` of shape `[...]`,
    returns `mean(-log_softmax(logits)[..., labels])` as a 0-d f32 tensor. It
    is computed in f32 whatever the logits' type.
  }];
  let arguments = (ins NN_FloatTensor:$logits, NN_IndexTensor:$labels);
  let results = (outs NN_F32Scalar:$loss);
  let assemblyFormat =
      "$logits `,` $labels attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Backward ops
//===----------------------------------------------------------------------===//

def NN_GradSeedOp : NN_Op<"grad_seed", [SameOperandsAndResultType]> {
  let summary = "the backward seed: ones shaped like the loss";
  let description = [{
    Returns ones with the loss's type and marks where the backward pass
    starts. Loss scaling replaces it with the loss scale.
  }];
  let arguments = (ins NN_FloatTensor:$loss);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "$loss attr-dict `:` type($result)";
}

class NN_ActivationGradOp<string mnemonic, string fwd>
    : NN_Op<mnemonic, [SameOperandsAndResultType]> {
  let summary = "gradient of nn." # fwd;
  let description = [{
    `dx = dy * d}] # fwd # [{(x)/dx`, where `x` is the forward op's input.
  }];
  let arguments = (ins NN_FloatTensor:$grad_output, NN_FloatTensor:$input);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "$grad_output `,` $input attr-dict `:` type($result)";
}

def NN_ReluGradOp : NN_ActivationGradOp<"relu_grad", "relu">;
def NN_GeluGradOp : NN_ActivationGradOp<"gelu_grad", "gelu">;

def NN_SoftmaxGradOp : NN_Op<"softmax_grad", [SameOperandsAndResultType]> {
  let summary = "gradient of nn.softmax";
  let description = [{
    `dx = y * (dy - sum(dy * y, axis))`, where `y` is the softmax output.
  }];
  let arguments = (ins NN_FloatTensor:$grad_output, NN_FloatTensor:$output,
                   DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "$grad_output `,` $output attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def NN_LayerNormGradOp : NN_Op<"layer_norm_grad", [InferTypeOpAdaptor]> {
  let summary = "gradient of nn.layer_norm";
  let description = [{
    Takes the output gradient, the forward input, the saved `mean` and `rstd`
    and the scale; returns the input, scale and bias gradients.
  }];
  let arguments = (ins NN_FloatTensor:$grad_output, NN_FloatTensor:$input,
                   NN_F32Tensor:$mean, NN_F32Tensor:$rstd,
                   NN_FloatTensor:$scale,
                   DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs NN_FloatTensor:$grad_input, NN_FloatTensor:$grad_scale,
                 NN_FloatTensor:$grad_bias);
  let assemblyFormat = "$grad_output `,` $input `,` $mean `,` $rstd `,` $scale "
                       "attr-dict `:` functional-type(operands, results)";
}

def NN_BatchNormGradOp : NN_Op<"batch_norm_grad", [InferTypeOpAdaptor]> {
  let summary = "gradient of nn.batch_norm (training statistics)";
  let description = [{
    Takes the output gradient, the forward input, the saved batch `mean` and
    `invstd` and the scale; returns the input, scale and bias gradients.
  }];
  let arguments = (ins NN_FloatTensor:$grad_output, NN_FloatTensor:$input,
                   NN_F32Tensor:$mean, NN_F32Tensor:$invstd,
                   NN_FloatTensor:$scale);
  let results = (outs NN_FloatTensor:$grad_input, NN_FloatTensor:$grad_scale,
                 NN_FloatTensor:$grad_bias);
  let assemblyFormat = "$grad_output `,` $input `,` $mean `,` $invstd `,` "
                       "$scale attr-dict `:` functional-type(operands, results)";
}

class NN_Conv2DGradOp<string mnemonic, string desc, string other>
    : NN_Op<mnemonic> {
  let summary = desc # " of nn.conv2d";
  let description = [{
    The geometry attributes are those of the forward `nn.conv2d`; the result
    type gives the shape of the }] # desc # [{, which the output size alone
    does not determine when a stride is > 1. Accumulation is f32 and the
    result may be `f32` for `f16`/`bf16` operands.
  }];
  let arguments = !con((ins NN_FloatTensor:$grad_output),
                       !dag(ins, [NN_FloatTensor], [other]),
                       (ins DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                        DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
                        DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
                        DefaultValuedAttr<I64Attr, "1">:$groups));
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "$grad_output `,` $" # other #
                       " attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def NN_Conv2DGradInputOp
    : NN_Conv2DGradOp<"conv2d_grad_input", "input gradient", "filter">;

def NN_Conv2DGradFilterOp
    : NN_Conv2DGradOp<"conv2d_grad_filter", "filter gradient", "input">;

def NN_EmbeddingGradOp : NN_Op<"embedding_grad"> {
  let summary = "gradient of nn.embedding (scatter-add into the table shape)";
  let description = [{
    `result[ids[i...], :] += grad_output[i..., :]` into a zero `V x D` table
    whose shape is the result type. Accumulation is f32 and the result may be
    `f32` for an `f16`/`bf16` output gradient.
  }];
  let arguments = (ins NN_FloatTensor:$grad_output, NN_IndexTensor:$ids);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat =
      "$grad_output `,` $ids attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def NN_CrossEntropyGradOp : NN_Op<"cross_entropy_grad", [InferTypeOpAdaptor]> {
  let summary = "gradient of nn.cross_entropy with respect to the logits";
  let description = [{
    `dlogits = grad_loss * (softmax(logits) - onehot(labels)) / num_rows`,
    where `grad_loss` is the 0-d loss gradient (the seed, or the scaled seed
    under loss scaling). The result has the logits' type.
  }];
  let arguments = (ins NN_FloatScalar:$grad_loss, NN_FloatTensor:$logits,
                   NN_IndexTensor:$labels);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "$grad_loss `,` $logits `,` $labels attr-dict `:` "
                       "functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Optimizer ops
//===----------------------------------------------------------------------===//

def NN_SgdUpdateOp : NN_Op<"sgd_update", [InferTypeOpAdaptor,
    AllTypesMatch<["param", "grad"]>,
    OptionalTypesMatchWith<"momentum_buffer has the param's type", "param",
                           "momentum_buffer", "$_self">]> {
  let summary = "SGD step with momentum, dampening, Nesterov and weight decay";
  let description = [{
    PyTorch's `torch.optim.SGD` step. With `g = grad + weight_decay * param`:
    without momentum `param' = param - lr * g`; with momentum
    `buf' = momentum * buf + (1 - dampening) * g` and
    `param' = param - lr * (nesterov ? g + momentum * buf' : buf')`. The
    momentum buffer operand and result are present exactly when
    `momentum > 0`. Start the buffer at zero: the first step then gives
    `buf' = (1 - dampening) * g`, which matches PyTorch when `dampening = 0`.

    ```mlir
    %p1, %m1 = nn.sgd_update %p, %g, %m {lr = 0.1 : f32, momentum = 0.9 : f32}
        : tensor<64x128xf32>
    ```
  }];
  let arguments = (ins NN_FloatTensor:$param, NN_FloatTensor:$grad,
                   Optional<NN_FloatTensor>:$momentum_buffer,
                   F32Attr:$lr,
                   DefaultValuedAttr<F32Attr, "0.0">:$momentum,
                   DefaultValuedAttr<F32Attr, "0.0">:$dampening,
                   DefaultValuedAttr<F32Attr, "0.0">:$weight_decay,
                   UnitAttr:$nesterov);
  let results = (outs NN_FloatTensor:$new_param,
                 Optional<NN_FloatTensor>:$new_momentum_buffer);
  let assemblyFormat = "$param `,` $grad (`,` $momentum_buffer^)? attr-dict "
                       "`:` type($param)";
  let hasVerifier = 1;
}

def NN_AdamUpdateOp : NN_Op<"adam_update", [InferTypeOpAdaptor,
    AllTypesMatch<["param", "grad", "exp_avg", "exp_avg_sq"]>]> {
  let summary = "AdamW step (decoupled weight decay) with bias correction";
  let description = [{
    PyTorch's `torch.optim.AdamW` step. `step` is the 0-d f32 step counter
    before this update; with `t = step + 1`:
    `param *= 1 - lr * weight_decay`, `m' = beta1 * m + (1 - beta1) * g`,
    `v' = beta2 * v + (1 - beta2) * g^2`,
    `param' = param - lr * (m' / (1 - beta1^t)) / (sqrt(v' / (1 - beta2^t)) + eps)`.
    Returns the new param, moments and step counter `t`.
  }];
  let arguments = (ins NN_FloatTensor:$param, NN_FloatTensor:$grad,
                   NN_FloatTensor:$exp_avg, NN_FloatTensor:$exp_avg_sq,
                   NN_F32Scalar:$step,
                   F32Attr:$lr,
                   DefaultValuedAttr<F32Attr, "0.9">:$beta1,
                   DefaultValuedAttr<F32Attr, "0.999">:$beta2,
                   DefaultValuedAttr<F32Attr, "1e-8">:$eps,
                   DefaultValuedAttr<F32Attr, "0.01">:$weight_decay);
  let results = (outs NN_FloatTensor:$new_param, NN_FloatTensor:$new_exp_avg,
                 NN_FloatTensor:$new_exp_avg_sq, NN_F32Scalar:$new_step);
  let assemblyFormat = "$param `,` $grad `,` $exp_avg `,` $exp_avg_sq `,` "
                       "$step attr-dict `:` type($param)";
  let hasVerifier = 1;
}

def NN_ClipGradNormOp : NN_Op<"clip_grad_norm", [InferTypeOpAdaptor]> {
  let summary = "scale gradients so that their global L2 norm is <= max_norm";
  let description = [{
    PyTorch's `clip_grad_norm_`: `total_norm` is the L2 norm over all
    gradients together (computed in f32); each gradient is multiplied by
    `min(1, max_norm / (total_norm + 1e-6))`. Returns the clipped gradients
    and the total norm.
  }];
  let arguments = (ins Variadic<NN_FloatTensor>:$grads, F32Attr:$max_norm);
  let results = (outs Variadic<NN_FloatTensor>:$clipped,
                 NN_F32Scalar:$total_norm);
  let assemblyFormat = "$grads attr-dict `:` type($grads)";
  let hasVerifier = 1;
}

#endif // AMP_DIALECT_NN_IR_NNOPS_TD
