//===- AMPOps.td - amp dialect operations -------------------*- tablegen -*-===//
//
// Casts and the autocast scope of the amp dialect.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_AMP_IR_AMPOPS_TD
#define AMP_DIALECT_AMP_IR_AMPOPS_TD

include "amp/Dialect/AMP/IR/AMPDialect.td"
include "amp/Interfaces/ComputeBoundTrait.td"
include "amp/Interfaces/TensorSizeTrait.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/CastInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def AMP_FloatTensor : StaticShapeTensorOf<[F32, F16, BF16]>;

class AMP_Op<string mnemonic, list<Trait> traits = []>
    : Op<AMP_Dialect, mnemonic, !listconcat([TensorSizesFitInt64], traits)>;

def AMP_CastOp : AMP_Op<"cast", [Pure,
    DeclareOpInterfaceMethods<CastOpInterface>]> {
  let summary = "convert a float tensor between f32, f16 and bf16";
  let description = [{
    Converts every element to the result element type with
    round-to-nearest-even; values beyond the target's range become infinity
    and NaN stays NaN. The shape does not change.

    Folds: a cast to the operand's own type is the operand; a cast back to
    the original type through a wider type (`f16 -> f32 -> f16`,
    `bf16 -> f32 -> bf16`) is the original value; a cast whose first step is
    exact (a widening to f32) is replaced by a single cast; a cast of a
    constant is a constant converted at compile time.

    ```mlir
    %h = amp.cast %x : tensor<32x64xf32> to tensor<32x64xf16>
    ```
  }];
  let arguments = (ins AMP_FloatTensor:$input);
  let results = (outs AMP_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasFolder = 1;
}

def AMP_AutocastOp : AMP_Op<"autocast", [
    RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<RegionBranchOpInterface,
                              ["getRegionInvocationBounds"]>]> {
  let summary = "a scope with its own mixed-precision setting";
  let description = [{
    The ops in the region are assigned precisions as if the scope's settings
    were the global ones: with `enabled = false` every op inside stays f32
    (like `with torch.autocast(enabled=False)`), and `compute_type` (`f16` or
    `bf16`; `f32` keeps the ops inside in f32) replaces the pipeline's
    low-precision type inside. The region runs exactly once and has no
    arguments: it uses values from above and yields the results.

    ```mlir
    %0 = amp.autocast enabled = false -> tensor<4x8xf32> {
      %1 = nn.softmax %x : tensor<4x8xf32>
      amp.yield %1 : tensor<4x8xf32>
    }
    ```
  }];
  let arguments = (ins DefaultValuedAttr<BoolAttr, "true">:$enabled,
                   OptionalAttr<TypeAttr>:$compute_type);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`enabled` `=` $enabled^)? (`compute_type` `=` $compute_type^)?
    (`->` type($results)^)? $body attr-dict
  }];
  let hasVerifier = 1;
}

def AMP_YieldOp : AMP_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["AutocastOp", "SkipStepIfOp"]>]> {
  let summary = "yield the results of an amp.autocast or amp.skip_step_if region";
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

include "amp/Dialect/AMP/IR/AMPLossScaleOps.td"
include "amp/Dialect/AMP/IR/AMPGemmOps.td"

#endif // AMP_DIALECT_AMP_IR_AMPOPS_TD
