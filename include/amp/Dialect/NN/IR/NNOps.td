//===- NNOps.td - nn dialect operations ---------------------*- tablegen -*-===//
//
// Forward, backward and optimizer operations of the nn dialect.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_NN_IR_NNOPS_TD
#define AMP_DIALECT_NN_IR_NNOPS_TD

include "amp/Dialect/NN/IR/NNAttributes.td"
include "amp/Dialect/NN/IR/NNDialect.td"
include "amp/Dialect/NN/IR/ElementwiseLossOpInterface.td"
include "amp/Dialect/NN/IR/GradientClipOpInterface.td"
include "amp/Dialect/NN/IR/OptimizerUpdateOpInterface.td"
include "amp/Interfaces/TensorSizeTrait.td"
include "amp/Interfaces/ZeroDerivativeTrait.td"
include "amp/Interfaces/ComputeBoundTrait.td"
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
def NN_BoolTensor : StaticShapeTensorOf<[I1]>;
// What the shape ops, nn.compare and nn.convert take: every element type a
// runtime buffer holds (float values, integer ids and masks).
def NN_AnyTensor : StaticShapeTensorOf<[F32, F16, BF16, I32, I64, I1]>;
// What the arithmetic that also runs on ids and positions takes (nn.add,
// nn.sub, nn.mul, nn.maximum, nn.minimum, nn.cumsum).
def NN_NumericTensor : StaticShapeTensorOf<[F32, F16, BF16, I32, I64]>;
def NN_I64Scalar : 0DTensorOf<[I64]> {
  let builderCall = "::mlir::RankedTensorType::get({}, $_builder.getI64Type())";
}

class NN_Op<string mnemonic, list<Trait> traits = []>
    : Op<NN_Dialect, mnemonic,
         !listconcat([TensorSizesFitInt64], traits, [Pure])>;

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

class NN_BinaryOp<string mnemonic, string desc,
                  string expr = "lhs " # desc # " rhs", string note = "",
                  Type tensor = NN_NumericTensor, dag attrs = (ins),
                  string exampleAttrs = "">
    : NN_Op<mnemonic, [InferTypeOpAdaptor]> {
  let summary = "elementwise " # desc # " with numpy broadcasting";
  let description = [{
    Computes `}] # expr # [{` elementwise. The operands must have the
    same element type; their shapes broadcast with numpy rules (trailing
    dimensions are aligned and must be equal or 1).}] # note # [{

    ```mlir
    %0 = nn.}] # mnemonic # [{ %a, %b}] # exampleAttrs # [{ : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = !con((ins tensor:$lhs, tensor:$rhs), attrs);
  let results = (outs tensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

defvar NN_IntegerWraps = " On `i32` and `i64` (ids, positions) it is the "
    "two's complement operation, which wraps on overflow as PyTorch's and "
    "numpy's integer tensors do; integer values carry no derivative.";
defvar NN_IntegerSigned = " On `i32` and `i64` it compares signed values; "
    "integer values carry no derivative.";

def NN_AddOp : NN_BinaryOp<"add", "+", "lhs + rhs", NN_IntegerWraps>;
def NN_SubOp : NN_BinaryOp<"sub", "-", "lhs - rhs", NN_IntegerWraps>;
def NN_MulOp : NN_BinaryOp<"mul", "*", "lhs * rhs", NN_IntegerWraps>;
def NN_DivOp : NN_BinaryOp<"div", "/", "lhs / rhs",
    " On `i32` and `i64` it truncates toward zero (C's and ONNX's integer "
    "Div; PyTorch's `//` floors, which its exporters write as this op and a "
    "correction); a zero divisor gives 0 and `INT_MIN / -1` wraps, as "
    "numpy's integer arrays do; integer values carry no derivative.">;
def NN_ModOp : NN_BinaryOp<"mod", "remainder", "lhs mod rhs",
    " With `fmod` it is C's `fmod`, whose sign is lhs's (PyTorch's "
    "`torch.fmod`, ONNX's Mod with fmod = 1); without, Python's and numpy's "
    "`%`, whose sign is rhs's: the fmod plus rhs where it is not 0 and the "
    "signs differ, and a zero takes rhs's sign (`torch.remainder`, ONNX's "
    "Mod on integers). Floats are computed in f32 (the fmod is exact). On "
    "`i32` and `i64` a zero divisor gives 0, as numpy's integer arrays; "
    "integer values carry no derivative. The derivatives are PyTorch's: "
    "`dy` for lhs, and `-dy * trunc(lhs / rhs)` (fmod) or "
    "`-dy * floor(lhs / rhs)` for rhs.",
    NN_NumericTensor, (ins UnitAttr:$fmod), " {fmod}">;
def NN_MaximumOp : NN_BinaryOp<"maximum", "maximum", "max(lhs, rhs)",
    " NaN propagates: if either operand is NaN, so is the result." #
    NN_IntegerSigned>;
def NN_MinimumOp : NN_BinaryOp<"minimum", "minimum", "min(lhs, rhs)",
    " NaN propagates: if either operand is NaN, so is the result." #
    NN_IntegerSigned>;
def NN_PowfOp : NN_BinaryOp<"powf", "power", "pow(lhs, rhs)",
    " Float operands only, computed in f32 (`powf`, as MLIR's `math.powf`), "
    "whose edge cases are C's: `pow(x, 0) = 1` (x NaN too), `pow(1, y) = 1`, "
    "a negative base with a non-integer exponent gives NaN. For one "
    "exponent known at compile time `nn.pow` takes it as an attribute. The "
    "derivatives are PyTorch's: `rhs * pow(lhs, rhs - 1)`, 0 where "
    "`rhs == 0`, and `result * log(lhs)`, 0 where `lhs == 0` and `rhs >= 0`.",
    NN_FloatTensor>;

class NN_UnaryOp<string mnemonic, string desc, dag attrs = (ins),
                 string exampleAttrs = "", string note = "",
                 list<Trait> traits = []>
    : NN_Op<mnemonic, !listconcat([SameOperandsAndResultType], traits)> {
  let summary = "elementwise " # desc;
  let description = [{
    Applies }] # desc # [{ to every element. The result has the operand's type.}]
    # note # [{

    ```mlir
    %0 = nn.}] # mnemonic # [{ %x}] # exampleAttrs # [{ : tensor<4x8xf32>
    ```
  }];
  let arguments = !con((ins NN_FloatTensor:$input), attrs);
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
def NN_GeluErfOp : NN_UnaryOp<"gelu_erf",
    "the exact GELU 0.5*x*(1+erf(x/sqrt(2))) (PyTorch's nn.GELU() and "
    "ONNX's Gelu by default)", (ins), "",
    " No GEMM epilogue computes it (cuBLASLt's GELU is the tanh form), so "
    "it is never fused into a matmul.">;
def NN_AbsOp : NN_UnaryOp<"abs", "the absolute value |x|">;
def NN_SinOp : NN_UnaryOp<"sin", "the sine (radians)", (ins), "",
    " It is computed in f32 (`sinf`) whatever the operand type.">;
def NN_CosOp : NN_UnaryOp<"cos", "the cosine (radians)", (ins), "",
    " It is computed in f32 (`cosf`) whatever the operand type.">;
def NN_ErfOp : NN_UnaryOp<"erf", "the error function erf(x)">;
// The other trigonometric and hyperbolic functions and their inverses, in
// f32 (the C library's) whatever the operand type; NaN outside a domain
// (asin and acos of |x| > 1, acosh below 1, atanh of |x| > 1).
class NN_F32UnaryOp<string mnemonic, string desc, string fn, string note = "">
    : NN_UnaryOp<mnemonic, desc, (ins), "",
          " It is computed in f32 (`" # fn # "`) whatever the operand type." #
          note>;
def NN_TanOp : NN_F32UnaryOp<"tan", "the tangent (radians)", "tanf">;
def NN_AsinOp : NN_F32UnaryOp<"asin", "the arcsine, in [-pi/2, pi/2]",
    "asinf", " It is NaN where |x| > 1.">;
def NN_AcosOp : NN_F32UnaryOp<"acos", "the arccosine, in [0, pi]", "acosf",
    " It is NaN where |x| > 1.">;
def NN_AtanOp : NN_F32UnaryOp<"atan", "the arctangent, in (-pi/2, pi/2)",
    "atanf">;
def NN_SinhOp : NN_F32UnaryOp<"sinh", "the hyperbolic sine", "sinhf">;
def NN_CoshOp : NN_F32UnaryOp<"cosh", "the hyperbolic cosine", "coshf">;
def NN_AsinhOp : NN_F32UnaryOp<"asinh", "the inverse hyperbolic sine",
    "asinhf">;
def NN_AcoshOp : NN_F32UnaryOp<"acosh", "the inverse hyperbolic cosine",
    "acoshf", " It is NaN where x < 1.">;
def NN_AtanhOp : NN_F32UnaryOp<"atanh", "the inverse hyperbolic tangent",
    "atanhf", " It is NaN where |x| > 1 and infinite at 1 and -1.">;
// Step functions: piecewise constant, so their derivative is zero wherever
// it exists (PyTorch's rule) and nn-autodiff treats their results as
// constants (ZeroDerivative). Exact in every float type.
class NN_StepOp<string mnemonic, string desc, string note = "">
    : NN_UnaryOp<mnemonic, desc, (ins), "", note #
          " Its derivative is zero: nn-autodiff sends no gradient through "
          "it, as PyTorch's autograd sends zeros.", [ZeroDerivative]>;
def NN_FloorOp : NN_StepOp<"floor", "rounding down to an integer (floor)",
    " NaN, infinities and zeros stay as they are.">;
def NN_CeilOp : NN_StepOp<"ceil", "rounding up to an integer (ceil)",
    " NaN, infinities and zeros stay as they are.">;
def NN_RoundOp : NN_StepOp<"round",
    "rounding to the nearest integer, halves to even (2.5 -> 2)",
    " As ONNX's Round, numpy's and PyTorch's round; NaN, infinities and "
    "zeros stay as they are.">;
def NN_SignOp : NN_StepOp<"sign", "the sign: 1, -1 or the value itself at "
    "zero and NaN",
    " As ONNX's Sign and numpy's: -1 below zero, 1 above, a zero keeps its "
    "sign and NaN stays NaN (PyTorch's sign gives 0 for NaN).">;

def NN_PowOp : NN_UnaryOp<"pow", "the power x^exponent",
    (ins F32Attr:$exponent), " {exponent = 2.0 : f32}",
    " It is computed in f32 (`powf`) whatever the operand type. An exponent "
    "that is a tensor (a param that trains) is `nn.powf`'s.">;
def NN_ClampOp : NN_UnaryOp<"clamp", "clamping min(max(x, min), max)",
    (ins OptionalAttr<F32Attr>:$min, OptionalAttr<F32Attr>:$max),
    " {min = 0.0 : f32, max = 6.0 : f32}",
    " At least one bound is required and min <= max; a missing bound is "
    "unbounded. NaN stays NaN."> {
  let hasVerifier = 1;
}

def NN_WhereOp : NN_Op<"where", [InferTypeOpAdaptor]> {
  let summary = "elementwise selection cond ? lhs : rhs with numpy broadcasting";
  let description = [{
    `result = cond ? lhs : rhs` elementwise. `cond` is a tensor of `i1`;
    `lhs` and `rhs` have the same element type (any: float values, ids, or
    `i1` masks, where it is a logical and / or), which is the result's. All
    three shapes broadcast together with numpy rules.

    ```mlir
    %0 = nn.where %c, %a, %b
        : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins NN_BoolTensor:$cond, NN_AnyTensor:$lhs,
                   NN_AnyTensor:$rhs);
  let results = (outs NN_AnyTensor:$result);
  let assemblyFormat = "$cond `,` $lhs `,` $rhs attr-dict `:` "
                       "functional-type(operands, results)";
}

def NN_CompareOp : NN_Op<"compare", [InferTypeOpAdaptor]> {
  let summary = "elementwise comparison with numpy broadcasting, an i1 result";
  let description = [{
    `result = lhs <predicate> rhs` elementwise, with the predicate one of
    `eq`, `ne`, `lt`, `le`, `gt`, `ge`. The operands have the same element
    type: a float type, `i32`, `i64` (signed) or `i1` (`false < true`);
    their shapes broadcast with numpy rules. Floats compare as IEEE values:
    `-0 == +0`, and a NaN operand makes every predicate false but `ne`.

    Nothing is differentiated through it: the result is `i1`, and
    derivatives flow through float values only (an attention mask computed
    from ids, `nn.where`'s condition). The default precision policies keep
    it in f32, so that comparing with a constant does not round the
    constant.

    ```mlir
    %pad = nn.compare eq, %ids, %zero
        : (tensor<4x8xi64>, tensor<i64>) -> tensor<4x8xi1>
    ```
  }];
  let arguments = (ins NN_ComparePredicate:$predicate, NN_AnyTensor:$lhs,
                   NN_AnyTensor:$rhs);
  let results = (outs NN_BoolTensor:$result);
  let assemblyFormat = "$predicate `,` $lhs `,` $rhs attr-dict `:` "
                       "functional-type(operands, results)";
  let extraClassDeclaration = [{
    /// Whether `lhs predicate rhs` holds for two values (as doubles: IEEE,
    /// a NaN fails every predicate but ne). The importer's folds and the
    /// reference interpreter evaluate the op with it.
    static bool holds(ComparePredicate predicate, double lhs, double rhs);
  }];
}

def NN_ConvertOp : NN_Op<"convert"> {
  let summary = "convert between integer, i1 and float element types";
  let description = [{
    Converts every element to the result's element type; the shape does not
    change. At least one side is an integer or `i1` type: a conversion
    between float types is the precision passes' (`amp.cast`), so it is an
    error here.

    - `i32`, `i64`, `i1` to a float type: the value rounded to f32 (to
      nearest even), then to the result type (PyTorch's rounding); `i1` is
      0 or 1.
    - a float type to `i32` or `i64`: truncated toward zero; NaN is 0, and
      values beyond the type's range saturate.
    - `i64` to `i32`: the low 32 bits (as NumPy and PyTorch); `i32` to `i64`
      and `i1` to an integer are exact.
    - to `i1`: `x != 0` (NaN is true, `-0` false).

    Nothing is differentiated through it (its float result, when it has one,
    does not depend on a float value).

    ```mlir
    %m = nn.convert %mask : tensor<4x8xi64> to tensor<4x8xf32>
    ```
  }];
  let arguments = (ins NN_AnyTensor:$input);
  let results = (outs NN_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
}

def NN_DropoutOp : NN_Op<"dropout", [AllTypesMatch<["input", "result"]>]> {
  let summary = "dropout with a counter-based mask derived from a seed";
  let description = [{
    With `training` and `rate > 0`, element `i` is kept (and scaled by
    `1 / (1 - rate)`) when `u < 2^24 * (1 - rate)`, where `u` is the top 24
    bits of `splitmix64(seed + i * 0x9E3779B97F4A7C15)`, and zeroed
    otherwise. Without `training`, or with `rate = 0`, it is the identity.
    `seed` is a 0-d `i64` tensor. The op is its own derivative: the gradient
    is `nn.dropout` of the output gradient with the same seed and attributes.

    ```mlir
    %0 = nn.dropout %x, %seed {rate = 0.1 : f32, training} : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins NN_FloatTensor:$input, NN_I64Scalar:$seed,
                   F32Attr:$rate, UnitAttr:$training);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "$input `,` $seed attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Window geometry (nn.conv2d, the pools and their gradients)
//===----------------------------------------------------------------------===//

// NCHW windows: `strides` = [h, w], zero `padding` = [top, left, bottom,
// right], `dilation` = [h, w]. A pool names its window size in `kernel` =
// [kh, kw]; a convolution's is its filter's shape.
defvar NN_StridesPadding = (ins
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
    DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding);
defvar NN_Dilation =
    (ins DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation);
defvar NN_ConvGeometry = !con(NN_StridesPadding, NN_Dilation,
                              (ins DefaultValuedAttr<I64Attr, "1">:$groups));
defvar NN_PoolGeometry = !con((ins DenseI64ArrayAttr:$kernel),
                              NN_StridesPadding);

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

def NN_MatmulOp : NN_Op<"matmul", [InferTypeOpAdaptorWithIsCompatible,
                                    ComputeBound]> {
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

def NN_Conv2DOp : NN_Op<"conv2d", [InferTypeOpAdaptorWithIsCompatible,
                                    ComputeBound]> {
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
  let arguments = !con((ins NN_FloatTensor:$input, NN_FloatTensor:$filter),
                       NN_ConvGeometry);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat =
      "$input `,` $filter attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

def NN_MaxPool2DOp : NN_Op<"max_pool2d", [InferTypeOpAdaptor]> {
  let summary = "2-D max pooling, NCHW";
  let description = [{
    The maximum over each `kernel` = [kh, kw] window of an `N x C x H x W`
    input, with the window geometry of `nn.conv2d` (`strides`, `padding` =
    [top, left, bottom, right], `dilation`). The output is
    `N x C x OH x OW` with
    `OH = (H + top + bottom - dilation_h * (kh - 1) - 1) / stride_h + 1`
    (>= 1), and the input's element type. Padded positions never win (they
    count as -inf) and NaN propagates.

    ```mlir
    %y = nn.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>}
        : (tensor<8x16x32x32xf32>) -> tensor<8x16x16x16xf32>
    ```
  }];
  let arguments = !con((ins NN_FloatTensor:$input), NN_PoolGeometry,
                       NN_Dilation);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat =
      "$input attr-dict `:` functional-type(operands, results)";
}

def NN_AvgPool2DOp : NN_Op<"avg_pool2d", [InferTypeOpAdaptor]> {
  let summary = "2-D average pooling, NCHW";
  let description = [{
    The mean over each `kernel` = [kh, kw] window of an `N x C x H x W`
    input, with `strides` and `padding` as for `nn.max_pool2d` (no
    dilation). The divisor is `kh * kw` with `count_include_pad`, else the
    number of in-bounds positions of the window (ONNX's default, PyTorch's
    `count_include_pad=False`). Accumulation is f32; the result has the
    input's element type.

    ```mlir
    %y = nn.avg_pool2d %x {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, count_include_pad}
        : (tensor<8x16x32x32xf32>) -> tensor<8x16x32x32xf32>
    ```
  }];
  let arguments = !con((ins NN_FloatTensor:$input), NN_PoolGeometry,
                       (ins UnitAttr:$count_include_pad));
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat =
      "$input attr-dict `:` functional-type(operands, results)";
}

def NN_GlobalAvgPoolOp : NN_Op<"global_avg_pool", [InferTypeOpAdaptor]> {
  let summary = "mean over the spatial dimensions, NCHW";
  let description = [{
    `result[n, c, 0, 0] = mean(input[n, c, :, :])` for an `N x C x H x W`
    input, accumulated in f32; the result is `N x C x 1 x 1` with the
    input's element type.

    ```mlir
    %y = nn.global_avg_pool %x : (tensor<8x512x7x7xf32>) -> tensor<8x512x1x1xf32>
    ```
  }];
  let arguments = (ins NN_FloatTensor:$input);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat =
      "$input attr-dict `:` functional-type(operands, results)";
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
  let extraClassDeclaration = [{
    /// The values each channel's statistics average for an input of this
    /// type (N x d2 x ...), 0 when it has no channel.
    static int64_t valuesPerChannel(::mlir::RankedTensorType input);
  }];
}

def NN_RunningStatsUpdateOp : NN_Op<"running_stats_update", [
    AllTypesMatch<["running_mean", "running_var", "mean", "invstd",
                   "new_running_mean", "new_running_var"]>]> {
  let summary = "the momentum update of batch normalization's running statistics";
  let description = [{
    Updates the running statistics that inference normalizes with from the
    batch statistics of one `nn.batch_norm` (its `mean` and `invstd`
    results), as `torch.nn.BatchNorm2d` does in training mode:

    ```
    var = 1 / invstd^2 - epsilon                      (the biased batch variance)
    new_running_mean = (1 - momentum) * running_mean + momentum * mean
    new_running_var  = (1 - momentum) * running_var
                       + momentum * var * (unbiased ? count / (count - 1) : 1)
    ```

    `count` is the number of values each channel's statistics average (N x
    H x W) and `epsilon` the batch norm's. PyTorch updates the running
    variance with the unbiased batch variance (`unbiased = true`, the
    default); ONNX's BatchNormalization in training mode with the biased
    one (and its `momentum` is this op's `1 - momentum`). All operands and
    results are the same `C`-element f32 tensors. When `mean` and `invstd`
    are results of an `nn.batch_norm`, `count` and `epsilon` must be its
    own, and `nn-autodiff`'s keep-forward normalizes that batch norm with
    `running_mean` and `running_var` in the inference function it builds.

    ```mlir
    %y, %mean, %invstd = nn.batch_norm %x, %scale, %bias {epsilon = 1.0e-05 : f32}
        : (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
        -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
    %rm1, %rv1 = nn.running_stats_update %rm, %rv, %mean, %invstd
        {count = 128 : i64, momentum = 1.0e-01 : f32} : tensor<16xf32>
    ```
  }];
  let arguments = (ins NN_F32Tensor:$running_mean, NN_F32Tensor:$running_var,
                   NN_F32Tensor:$mean, NN_F32Tensor:$invstd,
                   I64Attr:$count,
                   DefaultValuedAttr<F32Attr, "0.1">:$momentum,
                   DefaultValuedAttr<F32Attr, "1e-5">:$epsilon,
                   DefaultValuedAttr<BoolAttr, "true">:$unbiased);
  let results = (outs NN_F32Tensor:$new_running_mean,
                 NN_F32Tensor:$new_running_var);
  let assemblyFormat = "$running_mean `,` $running_var `,` $mean `,` $invstd "
                       "attr-dict `:` type($running_mean)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// What the biased batch variance is multiplied by: count / (count - 1)
    /// when `unbiased`, else 1.
    double getVarianceCorrection();
  }];
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
// Attention
//===----------------------------------------------------------------------===//

def NN_AttentionOp : NN_Op<"attention", [InferTypeOpAdaptor,
                                          AttrSizedOperandSegments,
                                          ComputeBound]> {
  let summary = "fused scaled-dot-product attention";
  let description = [{
    `softmax(scale * query @ key^T + mask) @ value` over the last two
    dimensions, as PyTorch's `scaled_dot_product_attention`, computed
    without storing the `[..., Sq, Sk]` scores (FlashAttention's method).
    `query` is `[B..., Sq, D]`, `key` `[B..., Sk, D]` and `value`
    `[B..., Sk, Dv]`, with the same leading dimensions and element type;
    the result is `[B..., Sq, Dv]` of that type. The scores, the softmax and
    the sums are f32. `scale` defaults to `1/sqrt(D)`.

    Grouped-query attention (PyTorch's `enable_gqa`): the key's and the
    value's last leading dimension (the heads, `Hkv`) may divide the
    query's (`H`) instead of equal it; query head `h` then attends with
    key/value head `h / (H / Hkv)`, as if each key/value head were repeated
    `H / Hkv` times in a row (Hugging Face's `repeat_kv`), and the gradient
    of each key/value head sums over its query heads.

    `mask` is optional and additive (`-inf` masks a key out): f32 or the
    query's element type, of at most the scores' rank, each dimension the
    scores' or 1, aligned at the end (numpy broadcasting). With `causal`,
    query `i` sees keys `j <= i` only (top-left aligned, as PyTorch's
    `is_causal`). A query that sees no key gets zeros.

    With `dropout` (a 0-d `i64` seed) and `dropout_rate` in [0, 1), the
    probabilities are dropped as `nn.dropout` in training with that seed
    and rate drops the `[B..., Sq, Sk]` probability tensor (PyTorch's
    `dropout_p`): a kept probability is divided by `1 - dropout_rate`, a
    dropped one adds nothing to the result. `nn-autodiff` offsets the seed
    per step as it does a dropout's.

    The second result is the f32 log-sum-exp of each query's scores
    (`[B..., Sq]`, before dropout), saved for `nn.attention_grad`; it has
    no derivative. `nn-fuse-attention` forms this op from the unfused
    matmul-scale-softmax-[dropout-]matmul chain.

    ```mlir
    %o, %lse = nn.attention %q, %k, %v {scale = 0.125 : f32}
        : (tensor<2x12x128x64xf16>, tensor<2x12x128x64xf16>,
           tensor<2x12x128x64xf16>)
        -> (tensor<2x12x128x64xf16>, tensor<2x12x128xf32>)
    ```
  }];
  let arguments = (ins NN_FloatTensor:$query, NN_FloatTensor:$key,
                   NN_FloatTensor:$value, Optional<NN_FloatTensor>:$mask,
                   Optional<NN_I64Scalar>:$dropout,
                   OptionalAttr<F32Attr>:$scale, UnitAttr:$causal,
                   OptionalAttr<F32Attr>:$dropout_rate);
  let results = (outs NN_FloatTensor:$result, NN_F32Tensor:$logsumexp);
  let assemblyFormat = "$query `,` $key `,` $value (`mask` $mask^)? "
                       "(`dropout` $dropout^)? attr-dict "
                       "`:` functional-type(operands, results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `scale`, or 1/sqrt(D) when it is absent.
    float getScaleValue();
  }];
}

def NN_AttentionGradOp : NN_Op<"attention_grad", [InferTypeOpAdaptor,
    AttrSizedOperandSegments, ComputeBound]> {
  let summary = "gradient of nn.attention";
  let description = [{
    Takes the output gradient, the forward op's query, key and value, its
    output and log-sum-exp, and its mask; returns the query, key and value
    gradients (the mask gets none). The probabilities are recomputed from
    the query, the key and the saved log-sum-exp, so nothing of size
    `[..., Sq, Sk]` is stored. `scale`, `causal`, the `dropout` seed and
    `dropout_rate` are the forward op's.
  }];
  let arguments = (ins NN_FloatTensor:$grad_output, NN_FloatTensor:$query,
                   NN_FloatTensor:$key, NN_FloatTensor:$value,
                   NN_FloatTensor:$output, NN_F32Tensor:$logsumexp,
                   Optional<NN_FloatTensor>:$mask,
                   Optional<NN_I64Scalar>:$dropout,
                   OptionalAttr<F32Attr>:$scale, UnitAttr:$causal,
                   OptionalAttr<F32Attr>:$dropout_rate);
  let results = (outs NN_FloatTensor:$grad_query, NN_FloatTensor:$grad_key,
                 NN_FloatTensor:$grad_value);
  let assemblyFormat = "$grad_output `,` $query `,` $key `,` $value `,` "
                       "$output `,` $logsumexp (`mask` $mask^)? "
                       "(`dropout` $dropout^)? attr-dict "
                       "`:` functional-type(operands, results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `scale`, or 1/sqrt(D) when it is absent.
    float getScaleValue();
  }];
}

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

def NN_CumsumOp : NN_Op<"cumsum", [SameOperandsAndResultType]> {
  let summary = "running sum along one axis";
  let description = [{
    `result[..., i, ...]` is the sum of `input[..., j, ...]` along `axis`
    (negative counts from the end) over `j <= i`; with `exclusive`, over
    `j < i` (the first is 0); with `reverse`, over `j >= i` (`j > i`), as
    PyTorch's `torch.cumsum` and ONNX's CumSum. Floats accumulate in f32
    in scan order and round each sum once; `i32` and `i64` (a mask's
    running count, which position ids are made of) wrap on overflow and
    carry no derivative. The gradient of a float input is the cumsum of
    the output gradient in the other direction.

    ```mlir
    %0 = nn.cumsum %x {axis = 1 : i64} : tensor<4x8xf32>
    %1 = nn.cumsum %ids {axis = -1 : i64, exclusive, reverse} : tensor<2x16xi64>
    ```
  }];
  let arguments = (ins NN_NumericTensor:$input, I64Attr:$axis,
                   UnitAttr:$exclusive, UnitAttr:$reverse);
  let results = (outs NN_NumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def NN_ArgMaxOp : NN_Op<"argmax", [InferTypeOpAdaptor]> {
  let summary = "position of the maximum along one axis";
  let description = [{
    The position (`i64`) along `axis` (negative counts from the end) of
    the largest element of each line of `input`: the first such position,
    or the last with `select_last`, as ONNX's ArgMax (PyTorch's `argmax`
    takes the first). A NaN is larger than every number and equal to
    another NaN, as in PyTorch; -0 equals +0. The axis is removed, or kept
    as size 1 with `keep_dims`; it must not be empty. The result carries no
    derivative (a sequence classifier picks each row's last token with it).

    ```mlir
    %0 = nn.argmax %x {axis = -1 : i64} : (tensor<4x8xi64>) -> tensor<4xi64>
    %1 = nn.argmax %y {axis = 0 : i64, keep_dims, select_last} : (tensor<4x8xf16>) -> tensor<1x8xi64>
    ```
  }];
  let arguments = (ins NN_NumericTensor:$input, I64Attr:$axis,
                   UnitAttr:$keep_dims, UnitAttr:$select_last);
  let results = (outs StaticShapeTensorOf<[I64]>:$result);
  let assemblyFormat =
      "$input attr-dict `:` functional-type(operands, results)";
}

def NN_TopKOp : NN_Op<"topk", [InferTypeOpAdaptor]> {
  let summary = "positions of the k largest (or smallest) along one axis";
  let description = [{
    The positions (`i64`) along `axis` (negative counts from the end) of
    the `k` largest elements of each line of `input`, largest first, or of
    the `k` smallest, smallest first, with `smallest`: ONNX's TopK and
    PyTorch's `topk` (sorted), whose values are `input` gathered at these
    positions. Of equal elements the lower position comes first (ONNX's
    rule); a NaN is larger than every number and equal to another NaN, as
    in PyTorch; -0 equals +0. The axis becomes `k` long, `k` in [0, its
    size]. The result carries no derivative: a mixture of experts routes
    each token to its top experts with it, and the gradient reaches the
    router through the gathered values.

    ```mlir
    %0 = nn.topk %logits {axis = -1 : i64, k = 2 : i64} : (tensor<16x8xf32>) -> tensor<16x2xi64>
    %1 = nn.topk %x {axis = 0 : i64, k = 1 : i64, smallest} : (tensor<4x8xi32>) -> tensor<1x8xi64>
    ```
  }];
  let arguments = (ins NN_NumericTensor:$input, I64Attr:$axis, I64Attr:$k,
                   UnitAttr:$smallest);
  let results = (outs StaticShapeTensorOf<[I64]>:$result);
  let assemblyFormat =
      "$input attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

// Reshape, transpose, broadcast_to, concat and slice move elements of any
// type (float values, integer ids, i1 masks); derivatives flow through their
// float instances only.

def NN_ReshapeOp : NN_Op<"reshape"> {
  let summary = "reshape to a static shape with the same element count";
  let description = [{
    Reinterprets the row-major elements of `input` with the result shape,
    which is given by the result type.
  }];
  let arguments = (ins NN_AnyTensor:$input);
  let results = (outs NN_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def NN_TransposeOp : NN_Op<"transpose", [InferTypeOpAdaptor]> {
  let summary = "permute dimensions";
  let description = [{
    `result.shape[i] = input.shape[perm[i]]`. `perm` is a permutation of
    `0..rank-1`.
  }];
  let arguments = (ins NN_AnyTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs NN_AnyTensor:$result);
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
  let arguments = (ins NN_AnyTensor:$input);
  let results = (outs NN_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def NN_ConcatOp : NN_Op<"concat", [InferTypeOpAdaptor]> {
  let summary = "concatenate tensors along one axis";
  let description = [{
    Concatenates one or more tensors of the same element type and rank along
    `axis` (negative counts from the end). Every other dimension must be
    equal; the result's `axis` dimension is the sum of the inputs'.

    ```mlir
    %0 = nn.concat %a, %b {axis = 1 : i64}
        : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>
    ```
  }];
  let arguments = (ins Variadic<NN_AnyTensor>:$inputs, I64Attr:$axis);
  let results = (outs NN_AnyTensor:$result);
  let assemblyFormat =
      "$inputs attr-dict `:` functional-type(operands, results)";
}

// A strided window of a larger tensor: what nn.slice reads and nn.slice_grad
// writes.
class NN_StridedSliceOp<string mnemonic, string operand, Type tensor>
    : NN_Op<mnemonic> {
  let arguments = !con(!dag(ins, [tensor], [operand]),
                       (ins DenseI64ArrayAttr:$offsets,
                        OptionalAttr<DenseI64ArrayAttr>:$strides));
  let results = (outs tensor:$result);
  let assemblyFormat = "$" # operand #
                       " attr-dict `:` type($" # operand # ") `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The strides, ones (one per offset) when the attribute is absent.
    ::llvm::SmallVector<int64_t> getStridesOrOnes() {
      if (std::optional<::llvm::ArrayRef<int64_t>> strides = getStrides())
        return ::llvm::SmallVector<int64_t>(*strides);
      return ::llvm::SmallVector<int64_t>(getOffsets().size(), 1);
    }
  }];
}

def NN_SliceOp : NN_StridedSliceOp<"slice", "input", NN_AnyTensor> {
  let summary = "strided slice with the shape of the result type";
  let description = [{
    `result[i...] = input[offsets + i * strides ...]`, where the result shape
    is given by the result type. `offsets` and `strides` have one entry per
    dimension; `strides` defaults to all ones, must be non-zero and may be
    negative (walking backwards). For every dimension of non-zero size, the
    first and the last index read, `offset` and
    `offset + (size - 1) * stride`, lie in `[0, dim)`.

    ```mlir
    %0 = nn.slice %x {offsets = array<i64: 0, 7>, strides = array<i64: 1, -2>}
        : tensor<4x8xf32> -> tensor<4x4xf32>
    ```
  }];
}

def NN_PadOp : NN_Op<"pad", [InferTypeOpAdaptor]> {
  let summary = "constant padding";
  let description = [{
    Surrounds `input` with `value` (default 0.0): `low[d]` elements before
    and `high[d]` after dimension `d` (one non-negative entry per
    dimension), so the result dimension is `low + dim + high`.

    ```mlir
    %0 = nn.pad %x {low = array<i64: 0, 1>, high = array<i64: 0, 2>}
        : tensor<4x8xf32> -> tensor<4x11xf32>
    ```
  }];
  let arguments = (ins NN_FloatTensor:$input, DenseI64ArrayAttr:$low,
                   DenseI64ArrayAttr:$high,
                   DefaultValuedAttr<F32Attr, "0.0">:$value);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat =
      "$input attr-dict `:` type($input) `->` type($result)";
}

//===----------------------------------------------------------------------===//
// Embedding and loss
//===----------------------------------------------------------------------===//

def NN_EmbeddingOp : NN_Op<"embedding", [InferTypeOpAdaptor]> {
  let summary = "gather rows of an embedding table";
  let description = [{
    `result[i..., :] = table[ids[i...], :]` for a `V x D` table. Ids outside
    `[0, V)` are a runtime error. The table is of floats (a learned
    embedding, whose gradient `nn.embedding_grad` scatters back) or of
    `i32`/`i64` (a gather of ids, as ONNX's Gather of integer data: it
    carries no derivative).

    With `padding_idx` = p in `[0, V)`, as PyTorch's
    `nn.Embedding(padding_idx=p)`, the lookup is the same but row p gets no
    gradient: the ids equal to p are left out of `nn.embedding_grad`'s
    scatter, so nothing flows back through the positions that read it.
    With `scale_grad_by_freq`, as PyTorch's
    `nn.Embedding(scale_grad_by_freq=True)`, each position's gradient is
    divided by the number of times its id occurs among the ids.

    ```mlir
    %e = nn.embedding %table, %ids
        : (tensor<50x32xf32>, tensor<4x8xi64>) -> tensor<4x8x32xf32>
    %p = nn.embedding %table, %ids {padding_idx = 0 : i64}
        : (tensor<50x32xf32>, tensor<4x8xi64>) -> tensor<4x8x32xf32>
    %t = nn.embedding %tokens, %rows
        : (tensor<8x1xi64>, tensor<2xi64>) -> tensor<2x1xi64>
    ```
  }];
  let arguments = (ins NN_NumericTensor:$table, NN_IndexTensor:$ids,
                   OptionalAttr<I64Attr>:$padding_idx,
                   UnitAttr:$scale_grad_by_freq);
  let results = (outs NN_NumericTensor:$result);
  let assemblyFormat =
      "$table `,` $ids attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def NN_CrossEntropyOp : NN_Op<"cross_entropy"> {
  let summary = "mean softmax cross-entropy of logits against integer labels";
  let description = [{
    For `logits` of shape `[..., C]` and integer `labels` of shape `[...]`,
    returns `mean(-log_softmax(logits)[..., labels])` as a 0-d f32 tensor. It
    is computed in f32 whatever the logits' type.

    With `ignore_index`, as PyTorch's `CrossEntropyLoss(ignore_index=...)`,
    positions whose label equals it (padding, usually -100) are left out:
    the mean is over the other positions (NaN when there are none), and
    their gradient is zero.

    With `label_smoothing` = e in [0, 1], as PyTorch's
    `CrossEntropyLoss(label_smoothing=e)`, the target of each position is
    `(1 - e) * onehot(label) + e / C`: its loss is
    `(1 - e) * -log_softmax[label] + (e / C) * sum_c -log_softmax[c]`.

    ```mlir
    %l = nn.cross_entropy %logits, %labels {ignore_index = -100 : i64}
        : (tensor<4x8x50xf32>, tensor<4x8xi32>) -> tensor<f32>
    %s = nn.cross_entropy %logits, %labels {label_smoothing = 0.1 : f32}
        : (tensor<4x8x50xf32>, tensor<4x8xi32>) -> tensor<f32>
    ```
  }];
  let arguments = (ins NN_FloatTensor:$logits, NN_IndexTensor:$labels,
                   OptionalAttr<I64Attr>:$ignore_index,
                   DefaultValuedAttr<F32Attr, "0.0">:$label_smoothing);
  let results = (outs NN_F32Scalar:$loss);
  let assemblyFormat =
      "$logits `,` $labels attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

// The elementwise losses: the mean over every element of loss(pred,
// target), a 0-d f32 tensor, computed in f32 whatever the operands' type
// (pred and target share one). `kind` is the ElementwiseLossKind case;
// `param` the C++ expression of getLossParam.
class NN_ElementwiseLossOp<string mnemonic, string kind, string title,
                           string formula, dag attrs = (ins),
                           string param = "0.0f", string details = "">
    : NN_Op<mnemonic, [NN_ElementwiseLossOpInterface]> {
  let summary = title;
  let description = [{
    `mean(}] # formula # [{)` over every element (with `reduction sum`,
    PyTorch's `reduction="sum"`: the sum), as a 0-d f32 tensor; `pred` and
    `target` have the same type. It is computed in f32 whatever their type,
    as PyTorch's autocast runs its losses.}] # details # [{

    ```mlir
    %l = nn.}] # mnemonic # [{ %p, %t : (tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<f32>
    %s = nn.}] # mnemonic # [{ %p, %t reduction sum : (tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<f32>
    ```
  }];
  let arguments = !con((ins NN_FloatTensor:$pred, NN_FloatTensor:$target),
                       attrs,
                       (ins DefaultValuedAttr<NN_LossReduction,
                            "::amp::nn::LossReduction::Mean">:$reduction));
  let results = (outs NN_F32Scalar:$loss);
  let assemblyFormat = "$pred `,` $target (`reduction` $reduction^)? "
                       "attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::amp::nn::ElementwiseLossKind getLossKind() {
      return ::amp::nn::ElementwiseLossKind::}] # kind # [{;
    }
    float getLossParam() { return }] # param # [{; }
  }];
}

def NN_MseLossOp : NN_ElementwiseLossOp<"mse_loss", "Mse",
    "mean squared error (PyTorch's MSELoss)", "(pred - target)^2">;

def NN_L1LossOp : NN_ElementwiseLossOp<"l1_loss", "L1",
    "mean absolute error (PyTorch's L1Loss)", "|pred - target|">;

def NN_HuberLossOp : NN_ElementwiseLossOp<"huber_loss", "Huber",
    "Huber loss (PyTorch's HuberLoss)",
    "|d| < delta ? 0.5 d^2 : delta (|d| - 0.5 delta)",
    (ins DefaultValuedAttr<F32Attr, "1.0">:$delta),
    "getDelta().convertToFloat()", [{

    Here `d = pred - target`: the loss is quadratic within `delta` of the
    target and linear beyond; `delta` is finite and above 0 (default 1).
    PyTorch's `SmoothL1Loss(beta)` is this loss with `delta = beta`,
    divided by `beta`.}]>;

def NN_BceWithLogitsLossOp : NN_ElementwiseLossOp<"bce_with_logits_loss",
    "BceWithLogits", "binary cross-entropy of logits (BCEWithLogitsLoss)",
    "(1 - target) pred - log_sigmoid(pred)", (ins), "0.0f", [{

    This is the binary cross-entropy of `sigmoid(pred)` against the
    probabilities `target`, with `log_sigmoid(x) = min(x, 0) -
    log1p(exp(-|x|))`, finite for every finite logit.}]>;

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

// `saved` is what the gradient reads of the forward op: its input x or its
// output y.
class NN_ActivationGradOp<string mnemonic, string fwd,
                          string formula = "dy * d" # fwd # "(x)/dx",
                          string saved = "input", dag attrs = (ins),
                          string exampleAttrs = "">
    : NN_Op<mnemonic, [SameOperandsAndResultType]> {
  let summary = "gradient of nn." # fwd;
  let description = [{
    `dx = }] # formula # [{`, where `}] # !if(!eq(saved, "input"), "x", "y")
    # [{` is the forward op's }] # saved # [{.

    ```mlir
    %dx = nn.}] # mnemonic # [{ %dy, %}] # !if(!eq(saved, "input"), "x", "y")
    # exampleAttrs # [{ : tensor<4x8xf32>
    ```
  }];
  let arguments = !con((ins NN_FloatTensor:$grad_output),
                       !dag(ins, [NN_FloatTensor], [saved]), attrs);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "$grad_output `,` $" # saved #
                       " attr-dict `:` type($result)";
}

def NN_ReluGradOp : NN_ActivationGradOp<"relu_grad", "relu">;
def NN_GeluGradOp : NN_ActivationGradOp<"gelu_grad", "gelu">;
def NN_GeluErfGradOp : NN_ActivationGradOp<"gelu_erf_grad", "gelu_erf",
    "dy * (cdf(x) + x * pdf(x))`, with the standard normal's `cdf(x) = "
    "0.5*(1+erf(x/sqrt(2)))` and `pdf(x) = exp(-x^2/2)/sqrt(2*pi)">;
def NN_ErfGradOp : NN_ActivationGradOp<"erf_grad", "erf",
    "dy * (2/sqrt(pi)) * exp(-x^2)">;
def NN_AbsGradOp : NN_ActivationGradOp<"abs_grad", "abs",
    "dy * sign(x)`, with `sign(0) = 0">;
def NN_PowGradOp : NN_ActivationGradOp<"pow_grad", "pow",
    "dy * exponent * x^(exponent - 1)` (`0` where `exponent = 0`)",
    "input", (ins F32Attr:$exponent), " {exponent = 2.0 : f32}">;
def NN_ClampGradOp : NN_ActivationGradOp<"clamp_grad", "clamp",
    "min <= x <= max ? dy : 0` (a missing bound is unbounded)", "input",
    (ins OptionalAttr<F32Attr>:$min, OptionalAttr<F32Attr>:$max),
    " {min = 0.0 : f32, max = 6.0 : f32}"> {
  let hasVerifier = 1;
}
def NN_TanhGradOp : NN_ActivationGradOp<"tanh_grad", "tanh",
    "dy * (1 - y * y)", "output">;
def NN_SigmoidGradOp : NN_ActivationGradOp<"sigmoid_grad", "sigmoid",
    "dy * y * (1 - y)", "output">;
def NN_SqrtGradOp : NN_ActivationGradOp<"sqrt_grad", "sqrt",
    "dy / (2 * y)", "output">;
def NN_RsqrtGradOp : NN_ActivationGradOp<"rsqrt_grad", "rsqrt",
    "-0.5 * dy * y * y * y", "output">;

class NN_BinaryGradOp<string mnemonic, string fwd, string which>
    : NN_Op<mnemonic, [InferTypeOpAdaptor]> {
  let summary = "gradient of nn." # fwd;
  let description = [{
    `lhs` and `rhs` are the operands of the forward `nn.}] # fwd # [{`,
    which broadcast to `grad_output`'s shape. The }] # which # [{ operand
    gets `dy` and the other 0; on ties each gets `dy / 2` (PyTorch). Both
    gradients have `grad_output`'s shape and type: an operand that was
    broadcast reduces its gradient with `nn.reduce_sum`.

    ```mlir
    %dl, %dr = nn.}] # mnemonic # [{ %dy, %a, %b
        : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
    ```
  }];
  let arguments = (ins NN_FloatTensor:$grad_output, NN_FloatTensor:$lhs,
                   NN_FloatTensor:$rhs);
  let results = (outs NN_FloatTensor:$grad_lhs, NN_FloatTensor:$grad_rhs);
  let assemblyFormat = "$grad_output `,` $lhs `,` $rhs attr-dict `:` "
                       "functional-type(operands, results)";
}

def NN_MaximumGradOp : NN_BinaryGradOp<"maximum_grad", "maximum", "larger">;
def NN_MinimumGradOp : NN_BinaryGradOp<"minimum_grad", "minimum", "smaller">;

def NN_WhereGradOp : NN_Op<"where_grad", [InferTypeOpAdaptor]> {
  let summary = "gradient of nn.where";
  let description = [{
    `grad_lhs = cond ? dy : 0` and `grad_rhs = cond ? 0 : dy`, where `cond`
    is the forward op's condition, which broadcasts to `grad_output`'s
    shape. Both gradients have `grad_output`'s shape and type.

    ```mlir
    %dl, %dr = nn.where_grad %dy, %c
        : (tensor<4x8xf32>, tensor<8xi1>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
    ```
  }];
  let arguments = (ins NN_FloatTensor:$grad_output, NN_BoolTensor:$cond);
  let results = (outs NN_FloatTensor:$grad_lhs, NN_FloatTensor:$grad_rhs);
  let assemblyFormat = "$grad_output `,` $cond attr-dict `:` "
                       "functional-type(operands, results)";
}

def NN_ReduceMaxGradOp : NN_Op<"reduce_max_grad", [InferTypeOpAdaptor]> {
  let summary = "gradient of nn.reduce_max";
  let description = [{
    `input` is the forward op's input and `output` its result, which has the
    reduced shape of `grad_output` (same `axes` and `keep_dims`). Each
    gradient is split evenly among the positions of its reduction that
    equal the maximum (PyTorch's `amax`). The result has the input's type.

    ```mlir
    %dx = nn.reduce_max_grad %dy, %x, %y [1]
        : (tensor<4xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins NN_FloatTensor:$grad_output, NN_FloatTensor:$input,
                   NN_FloatTensor:$output, DenseI64ArrayAttr:$axes,
                   UnitAttr:$keep_dims);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "$grad_output `,` $input `,` $output $axes "
                       "(`keep_dims` $keep_dims^)? attr-dict `:` "
                       "functional-type(operands, results)";
}

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
    : NN_Op<mnemonic, [ComputeBound]> {
  let summary = desc # " of nn.conv2d";
  let description = [{
    The geometry attributes are those of the forward `nn.conv2d`; the result
    type gives the shape of the }] # desc # [{, which the output size alone
    does not determine when a stride is > 1. Accumulation is f32 and the
    result may be `f32` for `f16`/`bf16` operands.
  }];
  let arguments = !con((ins NN_FloatTensor:$grad_output),
                       !dag(ins, [NN_FloatTensor], [other]), NN_ConvGeometry);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "$grad_output `,` $" # other #
                       " attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def NN_Conv2DGradInputOp
    : NN_Conv2DGradOp<"conv2d_grad_input", "input gradient", "filter">;

def NN_Conv2DGradFilterOp
    : NN_Conv2DGradOp<"conv2d_grad_filter", "filter gradient", "input">;

def NN_MaxPool2DGradOp : NN_Op<"max_pool2d_grad", [InferTypeOpAdaptor]> {
  let summary = "gradient of nn.max_pool2d";
  let description = [{
    Each element of `grad_output` goes to the first maximum of its window in
    row-major window order (PyTorch); overlapping windows accumulate in f32.
    `input` is the forward op's input and the attributes are its geometry;
    the result has the input's type.

    ```mlir
    %dx = nn.max_pool2d_grad %dy, %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>}
        : (tensor<8x16x16x16xf32>, tensor<8x16x32x32xf32>) -> tensor<8x16x32x32xf32>
    ```
  }];
  let arguments = !con((ins NN_FloatTensor:$grad_output,
                        NN_FloatTensor:$input),
                       NN_PoolGeometry, NN_Dilation);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "$grad_output `,` $input attr-dict `:` "
                       "functional-type(operands, results)";
}

def NN_AvgPool2DGradOp : NN_Op<"avg_pool2d_grad"> {
  let summary = "gradient of nn.avg_pool2d";
  let description = [{
    Adds `dy / divisor` to every in-bounds position of each window, with the
    forward op's geometry and divisor (`count_include_pad`). The result type
    gives the input shape, which the output shape alone does not determine
    when a stride is > 1; it has `grad_output`'s element type.

    ```mlir
    %dx = nn.avg_pool2d_grad %dy {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>}
        : (tensor<8x16x16x16xf32>) -> tensor<8x16x32x32xf32>
    ```
  }];
  let arguments = !con((ins NN_FloatTensor:$grad_output), NN_PoolGeometry,
                       (ins UnitAttr:$count_include_pad));
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat =
      "$grad_output attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def NN_SliceGradOp : NN_StridedSliceOp<"slice_grad", "grad_output",
                                         NN_FloatTensor> {
  let summary = "gradient of nn.slice";
  let description = [{
    Zeros with the input shape (given by the result type), with
    `grad_output` scattered to the positions the forward `nn.slice` read:
    `result[offsets + i * strides ...] = grad_output[i...]`. The attributes
    and their rules are the forward op's.

    ```mlir
    %dx = nn.slice_grad %dy {offsets = array<i64: 0, 7>, strides = array<i64: 1, -2>}
        : tensor<4x4xf32> -> tensor<4x8xf32>
    ```
  }];
}

def NN_EmbeddingGradOp : NN_Op<"embedding_grad"> {
  let summary = "gradient of nn.embedding (scatter-add into the table shape)";
  let description = [{
    `result[ids[i...], :] += grad_output[i..., :]` into a zero `V x D` table
    whose shape is the result type. Accumulation is f32 and the result may be
    `f32` for an `f16`/`bf16` output gradient. With `padding_idx` = p in
    `[0, V)` (nn.embedding's), the ids equal to p add nothing: row p stays
    zero. With `scale_grad_by_freq`, each addition is
    `grad_output[i..., :] * (1 / count)`, where count is the number of ids
    equal to `ids[i...]` (PyTorch's order of rounding).
  }];
  let arguments = (ins NN_FloatTensor:$grad_output, NN_IndexTensor:$ids,
                   OptionalAttr<I64Attr>:$padding_idx,
                   UnitAttr:$scale_grad_by_freq);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat =
      "$grad_output `,` $ids attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def NN_CrossEntropyGradOp : NN_Op<"cross_entropy_grad", [InferTypeOpAdaptor]> {
  let summary = "gradient of nn.cross_entropy with respect to the logits";
  let description = [{
    `dlogits = grad_loss * (softmax(logits) - target) / num_rows`, with
    `target = (1 - label_smoothing) * onehot(labels) + label_smoothing / C`
    (`onehot(labels)` without smoothing), where `grad_loss` is the 0-d loss
    gradient (the seed, or the scaled seed under loss scaling). The result
    has the logits' type. With `ignore_index` (nn.cross_entropy's),
    `num_rows` counts the rows whose label is not it, and those that are
    get zeros.
  }];
  let arguments = (ins NN_FloatScalar:$grad_loss, NN_FloatTensor:$logits,
                   NN_IndexTensor:$labels, OptionalAttr<I64Attr>:$ignore_index,
                   DefaultValuedAttr<F32Attr, "0.0">:$label_smoothing);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "$grad_loss `,` $logits `,` $labels attr-dict `:` "
                       "functional-type(operands, results)";
  let hasVerifier = 1;
}

// The gradient of an elementwise loss with respect to the prediction, from
// the 0-d gradient of the loss: the result has the prediction's type.
class NN_ElementwiseLossGradOp<string mnemonic, string kind, string fwd,
                               string formula, dag attrs = (ins),
                               string param = "0.0f">
    : NN_Op<mnemonic, [InferTypeOpAdaptor, NN_ElementwiseLossOpInterface]> {
  let summary = "gradient of nn." # fwd # " with respect to the prediction";
  let description = [{
    `dpred = }] # formula # [{`, where `grad_loss` is the 0-d loss gradient
    and `n` the element count (1 with `reduction sum`). The result has the
    prediction's type.

    ```mlir
    %dp = nn.}] # mnemonic # [{ %g, %p, %t
        : (tensor<f32>, tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<32x1xf32>
    ```
  }];
  let arguments = !con((ins NN_FloatScalar:$grad_loss, NN_FloatTensor:$pred,
                            NN_FloatTensor:$target), attrs,
                       (ins DefaultValuedAttr<NN_LossReduction,
                            "::amp::nn::LossReduction::Mean">:$reduction));
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "$grad_loss `,` $pred `,` $target "
                       "(`reduction` $reduction^)? attr-dict `:` "
                       "functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::amp::nn::ElementwiseLossKind getLossKind() {
      return ::amp::nn::ElementwiseLossKind::}] # kind # [{;
    }
    float getLossParam() { return }] # param # [{; }
  }];
}

def NN_MseLossGradOp : NN_ElementwiseLossGradOp<"mse_loss_grad", "Mse",
    "mse_loss", "grad_loss * 2 (pred - target) / n">;

def NN_L1LossGradOp : NN_ElementwiseLossGradOp<"l1_loss_grad", "L1",
    "l1_loss", "grad_loss * sign(pred - target) / n">;

def NN_HuberLossGradOp : NN_ElementwiseLossGradOp<"huber_loss_grad", "Huber",
    "huber_loss", "grad_loss * clamp(pred - target, -delta, delta) / n",
    (ins DefaultValuedAttr<F32Attr, "1.0">:$delta),
    "getDelta().convertToFloat()">;

def NN_BceWithLogitsLossGradOp : NN_ElementwiseLossGradOp<
    "bce_with_logits_loss_grad", "BceWithLogits", "bce_with_logits_loss",
    "grad_loss * (sigmoid(pred) - target) / n">;

//===----------------------------------------------------------------------===//
// Optimizer ops
//===----------------------------------------------------------------------===//

def NN_LrScheduleOp : NN_Op<"lr_schedule"> {
  let summary = "learning-rate schedule: the factor of the base lr at a step";
  let description = [{
    The schedules of `torch.optim.lr_scheduler` and of transformers'
    `get_*_schedule_with_warmup`, as a factor of the optimizer's base `lr`
    that `nn.sgd_update` and `nn.adam_update` take as their `lr_factor`
    operand. `count` is the number of earlier steps (a 0-d f32 state
    starting at 0, the role `schedule_state` in a training step; exact to
    2^24 steps); the op returns the factor of this step and `count + 1`. With `s = count`, `W = warmup_steps`,
    `a = warmup_start_factor`, `T = total_steps`, `b = final_factor`:

    ```
    s < W:        a + (1 - a) * s / W                  (linear warmup)
    otherwise, with d = s - W and D = T - W:
    constant:     1
    linear:       b + (1 - b) * max(D - d, 0) / D
    cosine:       b + (1 - b) * (1 + cos(pi * min(d / D, 1))) / 2
    step:         gamma ^ floor(d / step_size)
    exponential:  gamma ^ d
    polynomial:   b + (1 - b) * (max(D - d, 0) / D) ^ power
    multistep:    gamma ^ (the number of milestones m[i] <= d)
    ```

    computed in f64 and rounded to f32 once. PyTorch's `LinearLR` warmup is
    `a = start_factor`, `CosineAnnealingLR(T_max, eta_min)` is `cosine` with
    `T = T_max` and `b = eta_min / lr` (held at `b` after `T`, where
    PyTorch's cosine turns back up), `StepLR` and `ExponentialLR` are `step`
    and `exponential`, `PolynomialLR(total_iters, power)` is `polynomial`
    with `T = total_iters` and `b = 0`, `MultiStepLR(milestones, gamma)` is
    `multistep`; transformers' cosine and linear schedules with warmup
    are `a = 0`, `b = 0`, its polynomial one `b = lr_end / lr`.
    `total_steps` and `final_factor` (default 0) belong to `linear`,
    `cosine` and `polynomial`, `power` (default 1) to `polynomial`,
    `step_size` to `step`, `gamma` to `step`, `exponential` and `multistep`,
    `milestones` (1 to 16 increasing steps >= 0, counted after the warmup)
    to `multistep`.

    Schedules count every step, also one that loss scaling skips, as
    PyTorch's `scheduler.step()` runs whether or not `GradScaler` skipped
    `optimizer.step()`.

    ```mlir
    %factor, %count1 = nn.lr_schedule cosine %count
        {warmup_steps = 100 : i64, total_steps = 1000 : i64}
    %p1 = nn.sgd_update %p, %g lr_factor(%factor) {lr = 0.1 : f32}
        : tensor<64x128xf32>
    ```
  }];
  let arguments = (ins NN_F32Scalar:$count, NN_LrScheduleKind:$kind,
                   DefaultValuedAttr<I64Attr, "0">:$warmup_steps,
                   DefaultValuedAttr<F32Attr, "0.0">:$warmup_start_factor,
                   OptionalAttr<I64Attr>:$total_steps,
                   OptionalAttr<F32Attr>:$final_factor,
                   OptionalAttr<I64Attr>:$step_size,
                   OptionalAttr<F32Attr>:$gamma,
                   OptionalAttr<F32Attr>:$power,
                   OptionalAttr<DenseI64ArrayAttr>:$milestones);
  let results = (outs NN_F32Scalar:$factor, NN_F32Scalar:$new_count);
  let assemblyFormat = "$kind $count attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The kind and parameters as one value.
    LrSchedule getSchedule();
  }];
}

def NN_SgdUpdateOp : NN_Op<"sgd_update", [InferTypeOpAdaptor,
    AttrSizedOperandSegments, NN_OptimizerUpdateOpInterface,
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
    With an `lr_factor` (an `nn.lr_schedule`'s factor) the step's learning
    rate is `lr * lr_factor`, formed in f64 and rounded to f32.

    ```mlir
    %p1, %m1 = nn.sgd_update %p, %g, %m {lr = 0.1 : f32, momentum = 0.9 : f32}
        : tensor<64x128xf32>
    ```
  }];
  let arguments = (ins NN_FloatTensor:$param, NN_FloatTensor:$grad,
                   Optional<NN_FloatTensor>:$momentum_buffer,
                   Optional<NN_F32Scalar>:$lr_factor,
                   F32Attr:$lr,
                   DefaultValuedAttr<F32Attr, "0.0">:$momentum,
                   DefaultValuedAttr<F32Attr, "0.0">:$dampening,
                   DefaultValuedAttr<F32Attr, "0.0">:$weight_decay,
                   UnitAttr:$nesterov);
  let results = (outs NN_FloatTensor:$new_param,
                 Optional<NN_FloatTensor>:$new_momentum_buffer);
  let assemblyFormat = "$param `,` $grad (`,` $momentum_buffer^)? "
                       "(`lr_factor` `(` $lr_factor^ `)`)? attr-dict "
                       "`:` type($param)";
  let hasVerifier = 1;
}

def NN_AdamUpdateOp : NN_Op<"adam_update", [InferTypeOpAdaptor,
    AttrSizedOperandSegments, NN_OptimizerUpdateOpInterface,
    AllTypesMatch<["param", "grad", "exp_avg", "exp_avg_sq"]>,
    OptionalTypesMatchWith<"max_exp_avg_sq has the param's type", "param",
                           "max_exp_avg_sq", "$_self">]> {
  let summary = "Adam or AdamW step with bias correction, optionally AMSGrad";
  let description = [{
    PyTorch's `torch.optim.AdamW` step, or with `decoupled_weight_decay =
    false` its `torch.optim.Adam` step (the attribute is PyTorch's
    argument of that name). `step` is the 0-d f32 step counter before this
    update; with `t = step + 1` and `g = grad`:
    decoupled (AdamW): `param *= 1 - lr * weight_decay`; otherwise (Adam's
    L2 penalty): `g = grad + weight_decay * param`. Then
    `m' = beta1 * m + (1 - beta1) * g`,
    `v' = beta2 * v + (1 - beta2) * g^2`,
    `param' = param - lr * (m' / (1 - beta1^t)) / (sqrt(v' / (1 - beta2^t)) + eps)`.
    With `amsgrad` (PyTorch's argument of that name) the denominator uses
    `vmax' = max(vmax, v')` (`max_exp_avg_sq`, present exactly then and
    starting at zero) in place of `v'`. Returns the new param, moments and
    step counter `t`, then the new `max_exp_avg_sq` when present. With an
    `lr_factor` (an `nn.lr_schedule`'s factor) `lr` is `lr * lr_factor`,
    formed in f64 and rounded to f32, in both places.

    ```mlir
    %p1, %m1, %v1, %t1 = nn.adam_update %p, %g, %m, %v, %t
        {lr = 1.0e-3 : f32, weight_decay = 1.0e-4 : f32,
         decoupled_weight_decay = false} : tensor<64x128xf32>
    %q1, %n1, %w1, %u1, %x1 = nn.adam_update %q, %h, %n, %w, %u
        max_exp_avg_sq(%x) {lr = 1.0e-3 : f32, amsgrad} : tensor<128xf32>
    ```
  }];
  let arguments = (ins NN_FloatTensor:$param, NN_FloatTensor:$grad,
                   NN_FloatTensor:$exp_avg, NN_FloatTensor:$exp_avg_sq,
                   NN_F32Scalar:$step,
                   Optional<NN_FloatTensor>:$max_exp_avg_sq,
                   Optional<NN_F32Scalar>:$lr_factor,
                   F32Attr:$lr,
                   DefaultValuedAttr<F32Attr, "0.9">:$beta1,
                   DefaultValuedAttr<F32Attr, "0.999">:$beta2,
                   DefaultValuedAttr<F32Attr, "1e-8">:$eps,
                   DefaultValuedAttr<F32Attr, "0.01">:$weight_decay,
                   DefaultValuedAttr<BoolAttr, "true">:$decoupled_weight_decay,
                   UnitAttr:$amsgrad);
  let results = (outs NN_FloatTensor:$new_param, NN_FloatTensor:$new_exp_avg,
                 NN_FloatTensor:$new_exp_avg_sq, NN_F32Scalar:$new_step,
                 Optional<NN_FloatTensor>:$new_max_exp_avg_sq);
  let assemblyFormat = "$param `,` $grad `,` $exp_avg `,` $exp_avg_sq `,` "
                       "$step (`max_exp_avg_sq` `(` $max_exp_avg_sq^ `)`)? "
                       "(`lr_factor` `(` $lr_factor^ `)`)? attr-dict "
                       "`:` type($param)";
  let hasVerifier = 1;
}

def NN_RadamUpdateOp : NN_Op<"radam_update", [InferTypeOpAdaptor,
    NN_OptimizerUpdateOpInterface,
    AllTypesMatch<["param", "grad", "exp_avg", "exp_avg_sq"]>]> {
  let summary = "RAdam step (Adam with the variance rectified)";
  let description = [{
    PyTorch's `torch.optim.RAdam` step. `step` is the 0-d f32 step counter
    before this update; with `t = step + 1` and `g = grad`: with
    `decoupled_weight_decay` `param *= 1 - lr * weight_decay`, otherwise
    `g = grad + weight_decay * param` (PyTorch's default). Then
    `m' = beta1 * m + (1 - beta1) * g`, `v' = beta2 * v + (1 - beta2) * g^2`
    and, with `rho_inf = 2 / (1 - beta2) - 1` and
    `rho_t = rho_inf - 2 t beta2^t / (1 - beta2^t)`:
    when `rho_t > 5`,
    `param' = param - lr * m' / (1 - beta1^t) * sqrt(1 - beta2^t) / (sqrt(v') + eps) * r`
    with `r = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t))`,
    else (the first steps, while the variance estimate is unreliable)
    `param' = param - lr * m' / (1 - beta1^t)`, SGD with momentum. Returns
    the new param, moments and step counter `t`. With an `lr_factor` (an
    `nn.lr_schedule`'s factor) `lr` is `lr * lr_factor`, formed in f64 and
    rounded to f32, in both places.

    ```mlir
    %p1, %m1, %v1, %t1 = nn.radam_update %p, %g, %m, %v, %t
        {lr = 1.0e-3 : f32} : tensor<64x128xf32>
    ```
  }];
  let arguments = (ins NN_FloatTensor:$param, NN_FloatTensor:$grad,
                   NN_FloatTensor:$exp_avg, NN_FloatTensor:$exp_avg_sq,
                   NN_F32Scalar:$step, Optional<NN_F32Scalar>:$lr_factor,
                   F32Attr:$lr,
                   DefaultValuedAttr<F32Attr, "0.9">:$beta1,
                   DefaultValuedAttr<F32Attr, "0.999">:$beta2,
                   DefaultValuedAttr<F32Attr, "1e-8">:$eps,
                   DefaultValuedAttr<F32Attr, "0.0">:$weight_decay,
                   UnitAttr:$decoupled_weight_decay);
  let results = (outs NN_FloatTensor:$new_param, NN_FloatTensor:$new_exp_avg,
                 NN_FloatTensor:$new_exp_avg_sq, NN_F32Scalar:$new_step);
  let assemblyFormat = "$param `,` $grad `,` $exp_avg `,` $exp_avg_sq `,` "
                       "$step (`lr_factor` `(` $lr_factor^ `)`)? attr-dict "
                       "`:` type($param)";
  let hasVerifier = 1;
}

def NN_RmspropUpdateOp : NN_Op<"rmsprop_update", [InferTypeOpAdaptor,
    AttrSizedOperandSegments, NN_OptimizerUpdateOpInterface,
    AllTypesMatch<["param", "grad", "square_avg"]>,
    OptionalTypesMatchWith<"momentum_buffer has the param's type", "param",
                           "momentum_buffer", "$_self">,
    OptionalTypesMatchWith<"grad_avg has the param's type", "param",
                           "grad_avg", "$_self">]> {
  let summary = "RMSprop step with momentum, centering and weight decay";
  let description = [{
    PyTorch's `torch.optim.RMSprop` step. With `g = grad + weight_decay *
    param`: `v' = alpha * v + (1 - alpha) * g^2` (`square_avg`); centered:
    `a' = alpha * a + (1 - alpha) * g` (`grad_avg`) and
    `d = sqrt(v' - a'^2) + eps`, else `d = sqrt(v') + eps`; with momentum
    `buf' = momentum * buf + g / d` and `param' = param - lr * buf'`,
    without `param' = param - lr * g / d`. The momentum buffer is present
    exactly when `momentum > 0` and the gradient average exactly when
    `centered`; the results are the new param, `square_avg`, then those
    present, in that order. Start the state at zero, as PyTorch does. With an
    `lr_factor` (an `nn.lr_schedule`'s factor) the step's learning rate is
    `lr * lr_factor`, formed in f64 and rounded to f32.

    ```mlir
    %p1, %v1, %b1 = nn.rmsprop_update %p, %g, %v momentum_buffer(%b)
        {lr = 0.01 : f32, momentum = 0.9 : f32} : tensor<64x128xf32>
    ```
  }];
  let arguments = (ins NN_FloatTensor:$param, NN_FloatTensor:$grad,
                   NN_FloatTensor:$square_avg,
                   Optional<NN_FloatTensor>:$momentum_buffer,
                   Optional<NN_FloatTensor>:$grad_avg,
                   Optional<NN_F32Scalar>:$lr_factor,
                   F32Attr:$lr,
                   DefaultValuedAttr<F32Attr, "0.99">:$alpha,
                   DefaultValuedAttr<F32Attr, "1e-8">:$eps,
                   DefaultValuedAttr<F32Attr, "0.0">:$weight_decay,
                   DefaultValuedAttr<F32Attr, "0.0">:$momentum,
                   UnitAttr:$centered);
  // The new momentum buffer and gradient average, those present, follow
  // new_square_avg.
  let results = (outs NN_FloatTensor:$new_param,
                 NN_FloatTensor:$new_square_avg,
                 Variadic<NN_FloatTensor>:$new_buffers);
  let assemblyFormat = "$param `,` $grad `,` $square_avg "
                       "(`momentum_buffer` `(` $momentum_buffer^ `)`)? "
                       "(`grad_avg` `(` $grad_avg^ `)`)? "
                       "(`lr_factor` `(` $lr_factor^ `)`)? attr-dict "
                       "`:` type($param)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The new momentum buffer, or null without momentum.
    ::mlir::Value getNewMomentumBuffer() {
      return getMomentumBuffer() ? getNewBuffers()[0] : ::mlir::Value();
    }
    /// The new gradient average, or null when not centered.
    ::mlir::Value getNewGradAvg() {
      return getGradAvg() ? getNewBuffers().back() : ::mlir::Value();
    }
  }];
}

def NN_AdagradUpdateOp : NN_Op<"adagrad_update", [InferTypeOpAdaptor,
    AttrSizedOperandSegments, NN_OptimizerUpdateOpInterface,
    AllTypesMatch<["param", "grad", "state_sum"]>]> {
  let summary = "Adagrad step with learning-rate decay and weight decay";
  let description = [{
    PyTorch's `torch.optim.Adagrad` step. With
    `g = grad + weight_decay * param`: `sum' = sum + g^2` (`state_sum`,
    which starts at PyTorch's `initial_accumulator_value`) and
    `param' = param - clr * g / (sqrt(sum') + eps)`, where `clr = lr` when
    `lr_decay = 0`, else `clr = lr / (1 + step * lr_decay)` with `step` the
    0-d f32 count of earlier steps, present exactly when `lr_decay > 0`
    (the results then end with the new count `step + 1`). With an
    `lr_factor` (an `nn.lr_schedule`'s factor) `lr` is `lr * lr_factor`,
    formed in f64 and rounded to f32.

    ```mlir
    %p1, %s1 = nn.adagrad_update %p, %g, %s {lr = 0.01 : f32}
        : tensor<64x128xf32>
    %q1, %r1, %t1 = nn.adagrad_update %q, %h, %r step(%t)
        {lr = 0.01 : f32, lr_decay = 1.0e-3 : f32} : tensor<128xf32>
    ```
  }];
  let arguments = (ins NN_FloatTensor:$param, NN_FloatTensor:$grad,
                   NN_FloatTensor:$state_sum,
                   Optional<NN_F32Scalar>:$step,
                   Optional<NN_F32Scalar>:$lr_factor,
                   F32Attr:$lr,
                   DefaultValuedAttr<F32Attr, "0.0">:$lr_decay,
                   DefaultValuedAttr<F32Attr, "1e-10">:$eps,
                   DefaultValuedAttr<F32Attr, "0.0">:$weight_decay);
  let results = (outs NN_FloatTensor:$new_param,
                 NN_FloatTensor:$new_state_sum,
                 Optional<NN_F32Scalar>:$new_step);
  let assemblyFormat = "$param `,` $grad `,` $state_sum "
                       "(`step` `(` $step^ `)`)? "
                       "(`lr_factor` `(` $lr_factor^ `)`)? attr-dict "
                       "`:` type($param)";
  let hasVerifier = 1;
}

def NN_AdafactorUpdateOp : NN_Op<"adafactor_update", [InferTypeOpAdaptor,
    AttrSizedOperandSegments, NN_OptimizerUpdateOpInterface,
    AllTypesMatch<["param", "grad"]>,
    OptionalTypesMatchWith<"row_var has the param's type with its last "
                           "dimension 1", "param", "row_var",
                           "::amp::nn::adafactorRowVarType($_self)">,
    OptionalTypesMatchWith<"col_var has the param's type with its "
                           "second-to-last dimension 1", "param", "col_var",
                           "::amp::nn::adafactorColVarType($_self)">,
    OptionalTypesMatchWith<"variance has the param's type", "param",
                           "variance", "$_self">]> {
  let summary = "Adafactor step (factored second moments, relative step size)";
  let description = [{
    PyTorch's `torch.optim.Adafactor` step. `step` is the 0-d f32 step
    counter before this update; with `t = step + 1`,
    `beta = t^beta2_decay`, `rho = min(lr, 1 / sqrt(t))` and
    `alpha = max(eps2, rms(param)) * rho` (the param before decay): with
    `weight_decay` `param *= 1 - lr * weight_decay`. A param of rank >= 2
    is factored over its last two dimensions `[..., R, C]`: `row_var`
    (`[..., R, 1]`) moves toward the mean of `g^2` over each row,
    `col_var` (`[..., 1, C]`) toward its mean over each column (both by
    `lerp(state, mean, beta)`), and the second moment is estimated as
    `v = row_var' * col_var' / max(mean(row_var'), eps1)`; a param of rank
    0 or 1 keeps it whole (`variance`, the param's type: `lerp(variance,
    g^2, beta)`). Then `u = g / sqrt(max(v, eps1^2))` and
    `param' = param - alpha / max(1, rms(u) / d) * u`. `eps1` is PyTorch's
    `eps[0]` (its default, None, is the param dtype's epsilon; the
    attribute's default is f32's), `eps2` its `eps[1]`. The results are the new param, the new state in operand order
    and the new counter `t`. The state starts at zero, as PyTorch's does.
    With an `lr_factor` (an `nn.lr_schedule`'s factor) `lr` is
    `lr * lr_factor`, formed in f64 and rounded to f32.

    An Adafactor update keeps `R + C` second-moment values per `R x C`
    matrix where Adam keeps `2 R C` moments.

    ```mlir
    %p1, %r1, %c1, %t1 = nn.adafactor_update %p, %g factored(%r, %c) step(%t)
        {lr = 1.0e-2 : f32} : tensor<64x128xf32>
    %q1, %v1, %u1 = nn.adafactor_update %q, %h variance(%v) step(%u)
        {lr = 1.0e-2 : f32, weight_decay = 1.0e-2 : f32} : tensor<128xf32>
    ```
  }];
  let arguments = (ins NN_FloatTensor:$param, NN_FloatTensor:$grad,
                   Optional<NN_FloatTensor>:$row_var,
                   Optional<NN_FloatTensor>:$col_var,
                   Optional<NN_FloatTensor>:$variance,
                   NN_F32Scalar:$step,
                   Optional<NN_F32Scalar>:$lr_factor,
                   F32Attr:$lr,
                   DefaultValuedAttr<F32Attr, "-0.8">:$beta2_decay,
                   DefaultValuedAttr<F32Attr, "1.1920929e-07">:$eps1,
                   DefaultValuedAttr<F32Attr, "1e-3">:$eps2,
                   DefaultValuedAttr<F32Attr, "1.0">:$d,
                   DefaultValuedAttr<F32Attr, "0.0">:$weight_decay);
  // The new row_var and col_var, or the new variance.
  let results = (outs NN_FloatTensor:$new_param,
                 Variadic<NN_FloatTensor>:$new_state,
                 NN_F32Scalar:$new_step);
  let assemblyFormat = "$param `,` $grad "
                       "(`factored` `(` $row_var^ `,` $col_var `)`)? "
                       "(`variance` `(` $variance^ `)`)? "
                       "`step` `(` $step `)` "
                       "(`lr_factor` `(` $lr_factor^ `)`)? attr-dict "
                       "`:` type($param)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether the second moment is factored (row_var and col_var).
    bool isFactored() { return static_cast<bool>(getRowVar()); }
  }];
}

def NN_ClipGradNormOp : NN_Op<"clip_grad_norm", [InferTypeOpAdaptor,
    NN_GradientClipOpInterface]> {
  let summary = "scale gradients so that their global norm is <= max_norm";
  let description = [{
    PyTorch's `clip_grad_norm_(grads, max_norm, norm_type)`: `total_norm`
    is the `norm_type`-norm over all gradients together (computed in f32):
    with `norm_type = p` (> 0, default 2), `(sum_i norm_i^p)^(1/p)` where
    `norm_i` is the p-norm of gradient `i`; with `norm_type = inf`, the
    largest magnitude of any element. Each gradient is multiplied by
    `min(1, max_norm / (total_norm + 1e-6))`. Returns the clipped gradients
    and the total norm. As in PyTorch, a NaN element makes the total norm
    and every clipped value NaN, and an infinite one makes the total norm
    inf and the coefficient 0 (the clipped values 0, the inf itself NaN).

    ```mlir
    %g0c, %g1c, %norm = nn.clip_grad_norm %g0, %g1 {max_norm = 1.0 : f32}
        : tensor<64x32xf32>, tensor<32xf32>
    %h0c, %inorm = nn.clip_grad_norm %h0
        {max_norm = 5.0 : f32, norm_type = 0x7F800000 : f32}
        : tensor<64x32xf32>
    ```
  }];
  let arguments = (ins Variadic<NN_FloatTensor>:$grads, F32Attr:$max_norm,
                   DefaultValuedAttr<F32Attr, "2.0">:$norm_type);
  let results = (outs Variadic<NN_FloatTensor>:$clipped,
                 NN_F32Scalar:$total_norm);
  let assemblyFormat = "$grads attr-dict `:` type($grads)";
  let hasVerifier = 1;
}

def NN_ClipGradValueOp : NN_Op<"clip_grad_value", [InferTypeOpAdaptor,
    NN_GradientClipOpInterface]> {
  let summary = "clamp every gradient element to [-clip_value, clip_value]";
  let description = [{
    PyTorch's `clip_grad_value_(grads, clip_value)`: each element of each
    gradient is clamped to `[-clip_value, clip_value]` (`clip_value` > 0;
    NaN stays NaN, as `torch.clamp` keeps it). Returns the clipped
    gradients.

    ```mlir
    %g0c, %g1c = nn.clip_grad_value %g0, %g1 {clip_value = 0.5 : f32}
        : tensor<64x32xf32>, tensor<32xf32>
    ```
  }];
  let arguments = (ins Variadic<NN_FloatTensor>:$grads, F32Attr:$clip_value);
  let results = (outs Variadic<NN_FloatTensor>:$clipped);
  let assemblyFormat = "$grads attr-dict `:` type($grads)";
  let hasVerifier = 1;
}

def NN_EmaUpdateOp : NN_Op<"ema_update", [AttrSizedOperandSegments,
    AllTypesMatch<["averages", "values", "new_averages"]>]> {
  let summary = "move moving averages toward their values by a weight";
  let description = [{
    The update of exponential moving averages of weights, as
    `torch.optim.swa_utils.get_ema_multi_avg_fn`'s `torch._foreach_lerp_`
    (and timm's `ModelEmaV3`): each `new_average` is `average + weight *
    (value - average)`, computed in f32 in that order (a subtraction, a
    product, a sum, each rounded to f32: the form of `torch.lerp` for a
    weight below 0.5) and rounded once to the average's type. `weight` is
    a 0-d f32 tensor (1 - decay; 1 copies the values). Each value has its
    average's type. nn-autodiff's `ema-decay` builds one over every param
    (and with `ema-buffers` every buffer), and the lowering makes it one
    multi-tensor call.

    ```mlir
    %a1, %b1 = nn.ema_update %a, %b toward %p, %q weight(%w)
        : tensor<64x32xf32>, tensor<32xf32>
    ```
  }];
  let arguments = (ins Variadic<NN_FloatTensor>:$averages,
                   Variadic<NN_FloatTensor>:$values, NN_F32Scalar:$weight);
  let results = (outs Variadic<NN_FloatTensor>:$new_averages);
  let assemblyFormat = "$averages `toward` $values `weight` `(` $weight `)` "
                       "attr-dict `:` type($averages)";
  let hasVerifier = 1;
}

#endif // AMP_DIALECT_NN_IR_NNOPS_TD
