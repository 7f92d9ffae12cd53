// RUN: amp-opt %s -split-input-file -verify-diagnostics --nn-autodiff
// The same errors whatever the optimizer:
// RUN: amp-opt %s -split-input-file -verify-diagnostics --nn-autodiff="optimizer=adamw clip-norm=1.0"

// Errors that depend on `entry` or `keep-forward` would change every other
// case, so these RUN lines read the whole file as one module (function names
// are unique for that reason) and pick their case with `entry`.
// RUN: not amp-opt %s --nn-autodiff="entry=external" 2>&1 | FileCheck %s --check-prefix=EXTERNAL
// RUN: not amp-opt %s --nn-autodiff="entry=two_results" 2>&1 | FileCheck %s --check-prefix=TWO-RESULTS
// RUN: not amp-opt %s --nn-autodiff="entry=no_loss_role" 2>&1 | FileCheck %s --check-prefix=NO-LOSS-ROLE
// RUN: not amp-opt %s --nn-autodiff="entry=missing" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not amp-opt %s --nn-autodiff="entry=f16_norm keep-forward=true" 2>&1 | FileCheck %s --check-prefix=F16-NORM
// RUN: not amp-opt %s --nn-autodiff="entry=late_stats keep-forward=true" 2>&1 | FileCheck %s --check-prefix=LATE-STATS
// RUN: not amp-opt %s --nn-autodiff="entry=twin keep-forward=true" 2>&1 | FileCheck %s --check-prefix=TWIN

// One case per error of nn-autodiff (lib/Dialect/NN/Transforms/Autodiff.cpp
// and the rules of lib/Interfaces/NNDerivativeModels.cpp).

//===----------------------------------------------------------------------===//
// The form of the forward function
//===----------------------------------------------------------------------===//

// expected-error @below {{nn-autodiff: argument #1 of @no_role has no nn.role; a forward function takes param, buffer, input and label arguments}}
func.func @no_role(%w: tensor<4xf32> {nn.role = #nn.role<param>}, %x: tensor<4xf32>)
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.mul %w, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The pass adds the optimizer state itself.
// expected-error @below {{nn-autodiff: argument #1 of @opt_state_role has role opt_state; a forward function takes param, buffer, input and label arguments (opt_state is added by the pass)}}
func.func @opt_state_role(%w: tensor<4xf32> {nn.role = #nn.role<param>}, %m: tensor<4xf32> {nn.role = #nn.role<opt_state>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// expected-error @below {{nn-autodiff: argument #0 of @loss_scale_role has role loss_scale; a forward function takes param, buffer, input and label arguments (opt_state is added by the pass)}}
func.func @loss_scale_role(%s: tensor<f32> {nn.role = #nn.role<loss_scale>}, %w: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// expected-error @below {{nn-autodiff: param #1 of @f16_param has type 'tensor<4xf16>'; params and buffers are f32 tensors}}
func.func @f16_param(%x: tensor<4xf16> {nn.role = #nn.role<input>}, %w: tensor<4xf16> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.mul %x, %w : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %l = nn.reduce_sum %y [0] : (tensor<4xf16>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// expected-error @below {{nn-autodiff: buffer #1 of @f16_buffer has type 'tensor<4xf16>'; params and buffers are f32 tensors}}
func.func @f16_buffer(%w: tensor<4xf32> {nn.role = #nn.role<param>}, %r: tensor<4xf16> {nn.role = #nn.role<buffer>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}, tensor<4xf16> {nn.role = #nn.role<buffer>}) {
  %l = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  return %l, %r : tensor<f32>, tensor<4xf16>
}

// -----

// expected-error @below {{nn-autodiff: the buffer results of @missing_buffer_result must be the new values of its buffer arguments, one per argument in order with its type; it takes 2 and returns 1}}
func.func @missing_buffer_result(%w: tensor<4xf32> {nn.role = #nn.role<param>}, %r: tensor<4xf32> {nn.role = #nn.role<buffer>},
                                 %s: tensor<4xf32> {nn.role = #nn.role<buffer>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}, tensor<4xf32> {nn.role = #nn.role<buffer>}) {
  %l = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  return %l, %r : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @below {{nn-autodiff: the buffer results of @buffer_order must be the new values of its buffer arguments, one per argument in order with its type; it takes 2 and returns 2 of other types}}
func.func @buffer_order(%w: tensor<4xf32> {nn.role = #nn.role<param>}, %r: tensor<4xf32> {nn.role = #nn.role<buffer>},
                        %s: tensor<2xf32> {nn.role = #nn.role<buffer>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}, tensor<2xf32> {nn.role = #nn.role<buffer>}, tensor<4xf32> {nn.role = #nn.role<buffer>}) {
  %l = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  return %l, %s, %r : tensor<f32>, tensor<2xf32>, tensor<4xf32>
}

// -----

// expected-error @below {{nn-autodiff: param #0 of @scalar_param has type 'f32'; params and buffers are f32 tensors}}
func.func @scalar_param(%w: f32 {nn.role = #nn.role<param>}, %x: tensor<4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.reduce_sum %x [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// expected-error @below {{nn-autodiff: the loss of @vector_loss must be a 0-d f32 tensor (tensor<f32>), got 'tensor<4xf32>'}}
func.func @vector_loss(%w: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<4xf32> {nn.role = #nn.role<loss>}) {
  %y = nn.exp %w : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// expected-error @below {{nn-autodiff: the loss of @f16_loss must be a 0-d f32 tensor (tensor<f32>), got 'tensor<f16>'}}
func.func @f16_loss(%w: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f16> {nn.role = #nn.role<loss>}) {
  %l = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  %h = arith.truncf %l : tensor<f32> to tensor<f16>
  return %h : tensor<f16>
}

// -----

// expected-error @below {{nn-autodiff: @two_blocks must have a single block}}
func.func @two_blocks(%w: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  llvm.br ^bb1
^bb1:
  return %l : tensor<f32>
}

// -----

func.func @scf_if(%w: tensor<4xf32> {nn.role = #nn.role<param>}, %c: tensor<i1> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %cond = tensor.extract %c[] : tensor<i1>
  // expected-error @below {{'scf.if' op has regions; nn-autodiff differentiates straight-line forward functions}}
  %y = scf.if %cond -> tensor<4xf32> {
    %e = nn.exp %w : tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  } else {
    scf.yield %w : tensor<4xf32>
  }
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @scf_for(%w: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  // expected-error @below {{'scf.for' op has regions; nn-autodiff differentiates straight-line forward functions}}
  %y = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %w) -> tensor<4xf32> {
    %t = nn.tanh %acc : tensor<4xf32>
    scf.yield %t : tensor<4xf32>
  }
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A training step is not differentiated again.
func.func @has_grad_seed(%w: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  // expected-error @below {{'nn.grad_seed' op is already part of a training step; nn-autodiff takes the forward function and its loss}}
  %s = nn.grad_seed %l : tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @has_sgd_update(%w: tensor<4xf32> {nn.role = #nn.role<param>}, %g: tensor<4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  // expected-error @below {{'nn.sgd_update' op is already part of a training step; nn-autodiff takes the forward function and its loss}}
  %w1 = nn.sgd_update %w, %g {lr = 0.1 : f32} : tensor<4xf32>
  %l = nn.reduce_sum %w1 [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @has_clip_grad_norm(%w: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  // expected-error @below {{'nn.clip_grad_norm' op is already part of a training step; nn-autodiff takes the forward function and its loss}}
  %c, %n = nn.clip_grad_norm %w {max_norm = 1.0 : f32} : tensor<4xf32>
  %l = nn.reduce_sum %c [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @has_clip_grad_value(%w: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  // expected-error @below {{'nn.clip_grad_value' op is already part of a training step; nn-autodiff takes the forward function and its loss}}
  %c = nn.clip_grad_value %w {clip_value = 1.0 : f32} : tensor<4xf32>
  %l = nn.reduce_sum %c [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// expected-error @below {{nn-autodiff: @no_params has no param arguments to train}}
func.func @no_params(%x: tensor<4xf32> {nn.role = #nn.role<input>}, %l: tensor<4xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %s = nn.reduce_sum %x [0] : (tensor<4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

//===----------------------------------------------------------------------===//
// Ops without a derivative on the path from a param to the loss
//===----------------------------------------------------------------------===//

// -----

// Backward ops have no rule of their own (no second derivatives).
func.func @relu_grad(%w: tensor<4xf32> {nn.role = #nn.role<param>}, %x: tensor<4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  // expected-error @below {{'nn.relu_grad' op has no derivative rule; nn-autodiff cannot differentiate the loss through it}}
  %g = nn.relu_grad %w, %x : tensor<4xf32>
  %l = nn.reduce_sum %g [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Ops of other dialects have no rule either.
func.func @arith_op(%w: tensor<4xf32> {nn.role = #nn.role<param>}, %x: tensor<4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  // expected-error @below {{'arith.mulf' op has no derivative rule; nn-autodiff cannot differentiate the loss through it}}
  %y = arith.mulf %w, %x : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The saved statistics of the norms have no derivative.
func.func @batch_norm_mean(%x: tensor<2x3x4x4xf32> {nn.role = #nn.role<input>}, %g: tensor<3xf32> {nn.role = #nn.role<param>},
                           %b: tensor<3xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  // expected-error @below {{'nn.batch_norm' op result #1 (the saved mean) has no derivative, but the loss depends on it}}
  %y, %mean, %invstd = nn.batch_norm %x, %g, %b : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>)
  %s = nn.reduce_sum %y [0, 1, 2, 3] : (tensor<2x3x4x4xf32>) -> tensor<f32>
  %m = nn.reduce_sum %mean [0] : (tensor<3xf32>) -> tensor<f32>
  %l = nn.add %s, %m : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @layer_norm_rstd(%w: tensor<2x8xf32> {nn.role = #nn.role<param>}, %g: tensor<8xf32> {nn.role = #nn.role<param>},
                           %b: tensor<8xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  // expected-error @below {{'nn.layer_norm' op result #2 (the saved inverse standard deviation) has no derivative, but the loss depends on it}}
  %y, %mean, %rstd = nn.layer_norm %w, %g, %b : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2xf32>, tensor<2xf32>)
  %l = nn.reduce_sum %rstd [0] : (tensor<2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The attention's saved log-sum-exp has no derivative; its mask has none
// either (the fused backward never forms the scores' gradient).
func.func @attention_lse(%q: tensor<4x8xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  // expected-error @below {{'nn.attention' op result #1 (the saved log-sum-exp) has no derivative, but the loss depends on it}}
  %o, %lse = nn.attention %q, %q, %q : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>)
  %l = nn.reduce_sum %lse [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @attention_mask(%q: tensor<4x8xf32> {nn.role = #nn.role<input>}, %m: tensor<4x4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  // expected-error @below {{'nn.attention' op the loss depends on the mask, but nn.attention's mask has no derivative (apply a learned bias before the attention unfused)}}
  %o, %lse = nn.attention %q, %q, %q mask %m : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x4xf32>) -> (tensor<4x8xf32>, tensor<4xf32>)
  %l = nn.reduce_sum %o [0, 1] : (tensor<4x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The target's gradient -x dl / n is built in the logits' type, which the
// f32 loss gradient must have.
func.func @bce_f16_target(%x: tensor<4xf16> {nn.role = #nn.role<input>}, %w: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %t = amp.cast %w : tensor<4xf32> to tensor<4xf16>
  // expected-error @below {{'nn.bce_with_logits_loss' op cannot differentiate the target: its gradient needs the loss's gradient in the logits' type ('f16')}}
  %l = nn.bce_with_logits_loss %x, %t : (tensor<4xf16>, tensor<4xf16>) -> tensor<f32>
  return %l : tensor<f32>
}

//===----------------------------------------------------------------------===//
// Cases of the RUN lines with options (valid for the split RUN lines above)
//===----------------------------------------------------------------------===//

// -----

// Without `entry`, an external function or one that does not return a
// single loss is not a forward function and is left alone; naming it is an
// error.
// EXTERNAL: autodiff-invalid.mlir:[[# @LINE + 1]]:1: error: nn-autodiff: @external has no body to differentiate
func.func private @external(tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>})

// -----

// TWO-RESULTS: autodiff-invalid.mlir:[[# @LINE + 1]]:1: error: nn-autodiff: @two_results must return exactly one loss (nn.role = #nn.role<loss>) and otherwise only the new values of its buffers (#nn.role<buffer>)
func.func @two_results(%w: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}, tensor<4xf32>) {
  %l = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  return %l, %w : tensor<f32>, tensor<4xf32>
}

// -----

// NO-LOSS-ROLE: autodiff-invalid.mlir:[[# @LINE + 1]]:1: error: nn-autodiff: @no_loss_role must return exactly one loss (nn.role = #nn.role<loss>) and otherwise only the new values of its buffers (#nn.role<buffer>)
func.func @no_loss_role(%w: tensor<4xf32> {nn.role = #nn.role<param>}) -> tensor<f32> {
  %l = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// MISSING: error: nn-autodiff: no function @missing

// -----

// TWIN: autodiff-invalid.mlir:[[# @LINE + 1]]:1: error: nn-autodiff: keep-forward would add @twin_forward, which exists already
func.func @twin(%w: tensor<4x3xf32> {nn.role = #nn.role<param>}, %x: tensor<2x4xf32> {nn.role = #nn.role<input>},
                %lab: tensor<2xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %x, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %l = nn.cross_entropy %y, %lab : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
  return %l : tensor<f32>
}

func.func @twin_forward(%w: tensor<4x3xf32>, %x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %y = nn.matmul %x, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// keep-forward normalizes with the running statistics only in f32 (the form
// before amp-pipeline).
// F16-NORM: autodiff-invalid.mlir:[[# @LINE + 6]]:{{[0-9]+}}: error: 'nn.batch_norm' op nn-autodiff: keep-forward normalizes with the running statistics only f32 batch norms (input, scale and bias), as written before amp-pipeline
func.func @f16_norm(%w: tensor<4x3xf16> {nn.role = #nn.role<input>}, %g: tensor<3xf32> {nn.role = #nn.role<param>},
                    %rm: tensor<3xf32> {nn.role = #nn.role<buffer>}, %rv: tensor<3xf32> {nn.role = #nn.role<buffer>},
                    %x: tensor<2x4xf16> {nn.role = #nn.role<input>}, %lab: tensor<2xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}, tensor<3xf32> {nn.role = #nn.role<buffer>}, tensor<3xf32> {nn.role = #nn.role<buffer>}) {
  %h = nn.matmul %x, %w : (tensor<2x4xf16>, tensor<4x3xf16>) -> tensor<2x3xf16>
  %y, %m, %i = nn.batch_norm %h, %g, %g : (tensor<2x3xf16>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf16>, tensor<3xf32>, tensor<3xf32>)
  %rm1, %rv1 = nn.running_stats_update %rm, %rv, %m, %i {count = 2 : i64} : tensor<3xf32>
  %l = nn.cross_entropy %y, %lab : (tensor<2x3xf16>, tensor<2xi32>) -> tensor<f32>
  return %l, %rm1, %rv1 : tensor<f32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// LATE-STATS: autodiff-invalid.mlir:[[# @LINE + 9]]:{{[0-9]+}}: error: 'nn.running_stats_update' op nn-autodiff: keep-forward normalizes with the running statistics, which must be defined before the nn.batch_norm
func.func @late_stats(%w: tensor<4x3xf32> {nn.role = #nn.role<param>},
                      %rm: tensor<3xf32> {nn.role = #nn.role<buffer>}, %rv: tensor<3xf32> {nn.role = #nn.role<buffer>},
                      %x: tensor<2x4xf32> {nn.role = #nn.role<input>}, %lab: tensor<2xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}, tensor<3xf32> {nn.role = #nn.role<buffer>}, tensor<3xf32> {nn.role = #nn.role<buffer>}) {
  %h = nn.matmul %x, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %g = nn.abs %rv : tensor<3xf32>
  %y, %m, %i = nn.batch_norm %h, %g, %g : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  %rm0 = nn.neg %rm : tensor<3xf32>
  %rm1, %rv1 = nn.running_stats_update %rm0, %rv, %m, %i {count = 2 : i64} : tensor<3xf32>
  %l = nn.cross_entropy %y, %lab : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
  return %l, %rm1, %rv1 : tensor<f32>, tensor<3xf32>, tensor<3xf32>
}
