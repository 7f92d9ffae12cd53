//===- AMPLossScaleOps.td - loss-scale ops of the amp dialect -*- tablegen -*-===//
//
// The loss-scale machinery that amp-loss-scaling adds to a training step:
// the scaled seed, the fused unscale-and-check, the scale-state update and
// skip-step predication. All of it stays on the device: no op here needs the
// host to read a value.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_AMP_IR_AMPLOSSSCALEOPS_TD
#define AMP_DIALECT_AMP_IR_AMPLOSSSCALEOPS_TD

include "mlir/Interfaces/InferTypeOpInterface.td"

class AMP_Scalar<Type element, string builder> : 0DTensorOf<[element]> {
  let builderCall = "::mlir::RankedTensorType::get({}, $_builder." # builder # ")";
}
def AMP_F32Scalar : AMP_Scalar<F32, "getF32Type()">;
def AMP_I32Scalar : AMP_Scalar<I32, "getI32Type()">;
def AMP_I1Scalar : AMP_Scalar<I1, "getI1Type()">;

def AMP_ScaledGradSeedOp : AMP_Op<"scaled_grad_seed", [Pure,
    AllTypesMatch<["loss", "result"]>]> {
  let summary = "the backward seed multiplied by the loss scale";
  let description = [{
    Replaces `nn.grad_seed`: returns the loss scale broadcast to the loss's
    shape and type instead of ones, so every gradient of the backward pass is
    scaled.

    ```mlir
    %seed = amp.scaled_grad_seed %loss, %scale : tensor<f32>
    ```
  }];
  let arguments = (ins AMP_FloatTensor:$loss, AMP_F32Scalar:$scale);
  let results = (outs AMP_FloatTensor:$result);
  let assemblyFormat = "$loss `,` $scale attr-dict `:` type($loss)";
}

def AMP_UnscaleAndCheckOp : AMP_Op<"unscale_and_check", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "unscale every gradient and check them all for inf/NaN, fused";
  let description = [{
    For each gradient `g`, returns `g * inv` computed in f32 with
    `inv = f32(1 / f64(scale))`, and `found_inf`, true when any element of
    any *scaled* gradient is NaN or +-Inf. One op covers all the gradients
    of a step, so the runtime can check them in one launch.

    ```mlir
    %u0, %u1, %found_inf = amp.unscale_and_check %scale, %g0, %g1
        : tensor<64x128xf32>, tensor<128xf32>
    ```
  }];
  let arguments = (ins AMP_F32Scalar:$scale,
                   Variadic<AMP_FloatTensor>:$grads);
  let results = (outs Variadic<AMP_FloatTensor>:$unscaled,
                 AMP_I1Scalar:$found_inf);
  let assemblyFormat = "$scale `,` $grads attr-dict `:` type($grads)";
  let hasVerifier = 1;
}

def AMP_UpdateScaleOp : AMP_Op<"update_scale", [Pure,
    ]> {
  let summary = "dynamic loss-scale update (PyTorch GradScaler semantics)";
  let description = [{
    On `found_inf`: `scale *= backoff_factor` (not below `min_scale`) and
    the growth tracker resets. Otherwise the tracker counts clean steps; on
    the `growth_interval`-th one `scale *= growth_factor` (not above
    `max_scale`) unless that overflows f32, and the tracker resets either way.
    Products are computed in f64 and rounded to f32 once. With
    `hysteresis > 1` the scale backs off only after that many overflowing
    steps, counted by the optional hysteresis tracker (Megatron semantics).
    The runtime's `amp_loss_scale_update` (runtime/include/amp_runtime/
    loss_scale.h, docs/loss-scaling.md) implements exactly this.
  }];
  let arguments = (ins AMP_F32Scalar:$scale, AMP_I32Scalar:$growth_tracker,
                   AMP_I1Scalar:$found_inf,
                   Optional<AMP_I32Scalar>:$hysteresis_tracker,
                   DefaultValuedAttr<F64Attr, "2.0">:$growth_factor,
                   DefaultValuedAttr<F64Attr, "0.5">:$backoff_factor,
                   DefaultValuedAttr<I32Attr, "2000">:$growth_interval,
                   DefaultValuedAttr<F32Attr, "0.0">:$min_scale,
                   OptionalAttr<F32Attr>:$max_scale,
                   DefaultValuedAttr<I32Attr, "1">:$hysteresis);
  let results = (outs AMP_F32Scalar:$new_scale,
                 AMP_I32Scalar:$new_growth_tracker,
                 Optional<AMP_I32Scalar>:$new_hysteresis_tracker);
  let assemblyFormat = [{
    $scale `,` $growth_tracker `,` $found_inf
    (`hysteresis_tracker` `(` $hysteresis_tracker^ `)`)? attr-dict
    `:` type(results)
  }];
  let hasVerifier = 1;
}

def AMP_SkipStepIfOp : AMP_Op<"skip_step_if", [
    RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "predicate optimizer updates on found_inf";
  let description = [{
    When `found_inf` is false the results are the values the region yields
    (the updated params and optimizer state); when it is true they are the
    `keep` operands, bitwise: params, masters, moments and step counters are
    unchanged. This is predication, not a host branch: the runtime passes
    the flag to the update kernels, which read it on the device.

    ```mlir
    %p1, %m1 = amp.skip_step_if %found_inf keep(%p, %m : tensor<8xf32>, tensor<8xf32>) {
      %a, %b = nn.sgd_update %p, %g, %m {lr = 0.1 : f32, momentum = 0.9 : f32} : tensor<8xf32>
      amp.yield %a, %b : tensor<8xf32>, tensor<8xf32>
    } -> tensor<8xf32>, tensor<8xf32>
    ```
  }];
  let arguments = (ins AMP_I1Scalar:$found_inf, Variadic<AnyType>:$keep);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $found_inf `keep` `(` ($keep^ `:` type($keep))? `)` $body attr-dict
    (`->` type($results)^)?
  }];
  let hasVerifier = 1;
}

#endif // AMP_DIALECT_AMP_IR_AMPLOSSSCALEOPS_TD
