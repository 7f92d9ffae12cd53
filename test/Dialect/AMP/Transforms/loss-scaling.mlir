// RUN: amp-opt %s -split-input-file --amp-loss-scaling -verify-diagnostics | FileCheck %s
// RUN: amp-opt %s -split-input-file --amp-loss-scaling="mode=static skip-on-overflow=false" -verify-diagnostics | FileCheck %s --check-prefix=STATIC
// RUN: amp-opt %s -split-input-file --amp-loss-scaling="mode=none" -verify-diagnostics | FileCheck %s --check-prefix=NONE
// RUN: amp-opt %s -split-input-file --amp-loss-scaling --amp-loss-scaling -verify-diagnostics | FileCheck %s

// The state is threaded through: scale, growth tracker and found_inf are
// appended to the arguments (with their initial values) and to the results.
// CHECK-LABEL: func @sgd_step
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<8x4xf32> {nn.role = #nn.role<param>}
// CHECK-SAME: %[[M:[a-z0-9]+]]: tensor<8x4xf32> {nn.role = #nn.role<opt_state>}
// CHECK-SAME: %[[SCALE:[a-z0-9]+]]: tensor<f32> {nn.init = 6.553600e+04 : f32, nn.role = #nn.role<loss_scale>}
// CHECK-SAME: %[[TRACKER:[a-z0-9]+]]: tensor<i32> {nn.init = 0 : i32, nn.role = #nn.role<growth_tracker>}
// CHECK-SAME: %{{[a-z0-9]+}}: tensor<i1> {nn.init = false, nn.role = #nn.role<found_inf>}
// CHECK-SAME: -> (tensor<8x4xf32> {nn.role = #nn.role<param>}, tensor<8x4xf32> {nn.role = #nn.role<opt_state>}, tensor<f32> {nn.role = #nn.role<loss>}, tensor<f32> {nn.role = #nn.role<loss_scale>}, tensor<i32> {nn.role = #nn.role<growth_tracker>}, tensor<i1> {nn.role = #nn.role<found_inf>})
// The seed is the scale.
// CHECK: %[[LOSS:.*]] = nn.cross_entropy
// CHECK-NEXT: %[[SEED:.*]] = amp.scaled_grad_seed %[[LOSS]], %[[SCALE]] : tensor<f32>
// CHECK-NOT: nn.grad_seed
// CHECK: %[[G:.*]] = nn.matmul
// One unscale-and-check before the update, then the predicated update.
// CHECK-NEXT: %[[U:.*]], %[[INF:.*]] = amp.unscale_and_check %[[SCALE]], %[[G]] : tensor<8x4xf32>
// CHECK-NEXT: %[[NEW:.*]]:2 = amp.skip_step_if %[[INF]] keep(%[[W]], %[[M]] : tensor<8x4xf32>, tensor<8x4xf32>) {
// CHECK-NEXT: %{{.*}}, %{{.*}} = nn.sgd_update %[[W]], %[[U]], %[[M]]
// CHECK-NEXT: amp.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[S2:.*]], %[[T2:.*]] = amp.update_scale %[[SCALE]], %[[TRACKER]], %[[INF]] : tensor<f32>, tensor<i32>
// CHECK-NEXT: return %[[NEW]]#0, %[[NEW]]#1, %[[LOSS]], %[[S2]], %[[T2]], %[[INF]]
// STATIC-LABEL: func @sgd_step
// STATIC: amp.scaled_grad_seed
// STATIC: %[[U:.*]], %[[INF:.*]] = amp.unscale_and_check
// STATIC-NOT: amp.skip_step_if
// STATIC-NOT: amp.update_scale
// STATIC: return {{.*}}, %arg4, %arg5, %[[INF]]
// NONE-LABEL: func @sgd_step
// NONE: nn.grad_seed
// NONE-NOT: amp.
func.func @sgd_step(%w: tensor<8x4xf32> {nn.role = #nn.role<param>}, %m: tensor<8x4xf32> {nn.role = #nn.role<opt_state>},
                    %x: tensor<2x8xf32> {nn.role = #nn.role<input>}, %l: tensor<2xi32> {nn.role = #nn.role<label>})
    -> (tensor<8x4xf32> {nn.role = #nn.role<param>}, tensor<8x4xf32> {nn.role = #nn.role<opt_state>}, tensor<f32> {nn.role = #nn.role<loss>}) {
  %logits = nn.matmul %x, %w : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %loss = nn.cross_entropy %logits, %l : (tensor<2x4xf32>, tensor<2xi32>) -> tensor<f32>
  %seed = nn.grad_seed %loss : tensor<f32>
  %dl = nn.cross_entropy_grad %seed, %logits, %l : (tensor<f32>, tensor<2x4xf32>, tensor<2xi32>) -> tensor<2x4xf32>
  %dw = nn.matmul %x, %dl {transpose_a} : (tensor<2x8xf32>, tensor<2x4xf32>) -> tensor<8x4xf32>
  %w1, %m1 = nn.sgd_update %w, %dw, %m {lr = 0.1 : f32, momentum = 0.9 : f32} : tensor<8x4xf32>
  return %w1, %m1, %loss : tensor<8x4xf32>, tensor<8x4xf32>, tensor<f32>
}

// -----

// Clipping sees the unscaled gradients: the unscale-and-check comes first and
// covers every gradient, and the Adam step counter is kept on a skipped step.
// CHECK-LABEL: func @clip_then_adam
// CHECK: %[[U:.*]]:2, %[[INF:.*]] = amp.unscale_and_check %{{.*}}, %[[GA:.*]], %[[GB:.*]] : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: %[[C:.*]]:2, %{{.*}} = nn.clip_grad_norm %[[U]]#0, %[[U]]#1
// CHECK-NEXT: amp.skip_step_if %[[INF]] keep(%arg0, %arg2, %arg3, %arg4, %arg1, %arg5, %arg6, %arg7 :
// CHECK-NEXT: nn.adam_update %arg0, %[[C]]#0, %arg2, %arg3, %arg4
// CHECK-NEXT: nn.adam_update %arg1, %[[C]]#1, %arg5, %arg6, %arg7
func.func @clip_then_adam(%a: tensor<4xf32> {nn.role = #nn.role<param>}, %b: tensor<4xf32> {nn.role = #nn.role<param>},
    %ma: tensor<4xf32> {nn.role = #nn.role<opt_state>}, %va: tensor<4xf32> {nn.role = #nn.role<opt_state>}, %sa: tensor<f32> {nn.role = #nn.role<opt_state>},
    %mb: tensor<4xf32> {nn.role = #nn.role<opt_state>}, %vb: tensor<4xf32> {nn.role = #nn.role<opt_state>}, %sb: tensor<f32> {nn.role = #nn.role<opt_state>})
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>) {
  %prod = nn.mul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %loss = nn.reduce_sum %prod [0] : (tensor<4xf32>) -> tensor<f32>
  %seed = nn.grad_seed %loss : tensor<f32>
  %s = nn.broadcast_to %seed : tensor<f32> -> tensor<4xf32>
  %ga = nn.mul %s, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %gb = nn.mul %s, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %ca, %cb, %norm = nn.clip_grad_norm %ga, %gb {max_norm = 1.0 : f32} : tensor<4xf32>, tensor<4xf32>
  %a1, %ma1, %va1, %sa1 = nn.adam_update %a, %ca, %ma, %va, %sa {lr = 0.001 : f32} : tensor<4xf32>
  %b1, %mb1, %vb1, %sb1 = nn.adam_update %b, %cb, %mb, %vb, %sb {lr = 0.001 : f32} : tensor<4xf32>
  return %a1, %b1, %ma1, %va1, %sa1, %mb1, %vb1, %sb1 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>
}

// -----

// A chain of clipping ops (values clamped, then the norm, as nn-autodiff's
// clip-value with clip-norm) reads the unscaled gradients once: the norm
// clips the clamped values, not a second unscaling of them.
// CHECK-LABEL: func @clip_value_then_norm
// CHECK: %[[U:.*]]:2, %[[INF:.*]] = amp.unscale_and_check %{{.*}}, %[[GA:.*]], %[[GB:.*]] : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: %[[V:.*]]:2 = nn.clip_grad_value %[[U]]#0, %[[U]]#1 {clip_value = 5.000000e-01 : f32}
// CHECK-NEXT: %[[C:.*]]:2, %{{.*}} = nn.clip_grad_norm %[[V]]#0, %[[V]]#1 {max_norm = 1.000000e+00 : f32, norm_type = 0x7F800000 : f32}
// CHECK-NEXT: amp.skip_step_if %[[INF]] keep(%arg0, %arg1 :
// CHECK-NEXT: nn.sgd_update %arg0, %[[C]]#0
// CHECK-NEXT: nn.sgd_update %arg1, %[[C]]#1
// CHECK-NOT: amp.unscale_and_check
// NONE-LABEL: func @clip_value_then_norm
// NONE-NOT: amp.unscale_and_check
func.func @clip_value_then_norm(%a: tensor<4xf32> {nn.role = #nn.role<param>}, %b: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<4xf32>, tensor<4xf32>) {
  %prod = nn.mul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %loss = nn.reduce_sum %prod [0] : (tensor<4xf32>) -> tensor<f32>
  %seed = nn.grad_seed %loss : tensor<f32>
  %s = nn.broadcast_to %seed : tensor<f32> -> tensor<4xf32>
  %ga = nn.mul %s, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %gb = nn.mul %s, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %va, %vb = nn.clip_grad_value %ga, %gb {clip_value = 0.5 : f32} : tensor<4xf32>, tensor<4xf32>
  %ca, %cb, %norm = nn.clip_grad_norm %va, %vb {max_norm = 1.0 : f32, norm_type = 0x7F800000 : f32} : tensor<4xf32>, tensor<4xf32>
  %a1 = nn.sgd_update %a, %ca {lr = 0.1 : f32} : tensor<4xf32>
  %b1 = nn.sgd_update %b, %cb {lr = 0.1 : f32} : tensor<4xf32>
  return %a1, %b1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// RMSprop sees the unscaled gradient, and a skipped step keeps its param,
// square average, momentum buffer and gradient average, in its result
// order.
// CHECK-LABEL: func @rmsprop
// CHECK: %[[U:.*]], %[[INF:.*]] = amp.unscale_and_check %{{.*}}, %[[G:.*]] : tensor<4xf32>
// CHECK-NEXT: amp.skip_step_if %[[INF]] keep(%arg0, %arg1, %arg2, %arg3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT: nn.rmsprop_update %arg0, %[[U]], %arg1 momentum_buffer(%arg2) grad_avg(%arg3)
func.func @rmsprop(%a: tensor<4xf32> {nn.role = #nn.role<param>},
    %v: tensor<4xf32> {nn.role = #nn.role<opt_state>}, %m: tensor<4xf32> {nn.role = #nn.role<opt_state>}, %ga: tensor<4xf32> {nn.role = #nn.role<opt_state>})
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %loss = nn.reduce_sum %a [0] : (tensor<4xf32>) -> tensor<f32>
  %seed = nn.grad_seed %loss : tensor<f32>
  %g = nn.broadcast_to %seed : tensor<f32> -> tensor<4xf32>
  %a1, %v1, %s:2 = nn.rmsprop_update %a, %g, %v momentum_buffer(%m) grad_avg(%ga) {lr = 0.01 : f32, momentum = 0.9 : f32, centered} : tensor<4xf32>
  return %a1, %v1, %s#0, %s#1 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A skipped AMSGrad step keeps its running maxima after the step counter,
// and a skipped Adagrad step with lr_decay its counter.
// CHECK-LABEL: func @amsgrad_and_counted_adagrad
// CHECK: %[[U:.*]], %[[INF:.*]] = amp.unscale_and_check %{{.*}}, %[[G:.*]] : tensor<4xf32>
// CHECK-NEXT: amp.skip_step_if %[[INF]] keep(%arg0, %arg2, %arg3, %arg4, %arg5, %arg1, %arg6, %arg7 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>) {
// CHECK-NEXT: nn.adam_update %arg0, %[[U]], %arg2, %arg3, %arg4 max_exp_avg_sq(%arg5)
// CHECK-NEXT: nn.adagrad_update %arg1, %[[U]], %arg6 step(%arg7)
func.func @amsgrad_and_counted_adagrad(%a: tensor<4xf32> {nn.role = #nn.role<param>},
    %b: tensor<4xf32> {nn.role = #nn.role<param>},
    %m: tensor<4xf32> {nn.role = #nn.role<opt_state>}, %v: tensor<4xf32> {nn.role = #nn.role<opt_state>},
    %t: tensor<f32> {nn.role = #nn.role<opt_state>}, %x: tensor<4xf32> {nn.role = #nn.role<opt_state>},
    %s: tensor<4xf32> {nn.role = #nn.role<opt_state>}, %u: tensor<f32> {nn.role = #nn.role<opt_state>})
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>) {
  %ab = nn.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %loss = nn.reduce_sum %ab [0] : (tensor<4xf32>) -> tensor<f32>
  %seed = nn.grad_seed %loss : tensor<f32>
  %g = nn.broadcast_to %seed : tensor<f32> -> tensor<4xf32>
  %a1, %m1, %v1, %t1, %x1 = nn.adam_update %a, %g, %m, %v, %t max_exp_avg_sq(%x) {lr = 1.0e-3 : f32, amsgrad} : tensor<4xf32>
  %b1, %s1, %u1 = nn.adagrad_update %b, %g, %s step(%u) {lr = 0.01 : f32, lr_decay = 0.1 : f32} : tensor<4xf32>
  return %a1, %x1, %b1, %u1 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>
}

// -----

// What reads the new params (nn-autodiff's ema-decay moving averages) moves
// after the updates with them, in its order, and reads the skip's results:
// on a skipped step the averages move toward the kept params. An op that
// reads no update result (the averages' weight) stays where it was.
// CHECK-LABEL: func @ema_after_update
// CHECK: %[[WEIGHT:.*]] = nn.where
// CHECK: %[[U:.*]], %[[INF:.*]] = amp.unscale_and_check
// CHECK-NEXT: %[[NEW:.*]] = amp.skip_step_if %[[INF]] keep(%arg0 : tensor<4xf32>) {
// CHECK-NEXT: nn.sgd_update %arg0, %[[U]]
// CHECK-NEXT: amp.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[D:.*]] = nn.sub %[[NEW]], %arg1
// CHECK-NEXT: %[[T:.*]] = nn.mul %[[D]], %[[WEIGHT]]
// CHECK-NEXT: %[[E:.*]] = nn.add %arg1, %[[T]]
// CHECK-NEXT: amp.update_scale
// CHECK-NEXT: return %[[NEW]], %[[E]]
// STATIC-LABEL: func @ema_after_update
// STATIC: %[[NEW:.*]] = nn.sgd_update
// STATIC-NEXT: nn.sub %[[NEW]], %arg1
func.func @ema_after_update(%a: tensor<4xf32> {nn.role = #nn.role<param>},
    %e: tensor<4xf32> {nn.role = #nn.role<ema>}, %c: tensor<i64> {nn.role = #nn.role<ema_count>})
    -> (tensor<4xf32>, tensor<4xf32>) {
  %loss = nn.reduce_sum %a [0] : (tensor<4xf32>) -> tensor<f32>
  %seed = nn.grad_seed %loss : tensor<f32>
  %g = nn.broadcast_to %seed : tensor<f32> -> tensor<4xf32>
  %a1 = nn.sgd_update %a, %g {lr = 0.01 : f32} : tensor<4xf32>
  %zero = arith.constant dense<0> : tensor<i64>
  %first = nn.compare eq, %c, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %one = arith.constant dense<1.0> : tensor<f32>
  %w = arith.constant dense<0.1> : tensor<f32>
  %weight = nn.where %first, %one, %w : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %d = nn.sub %a1, %e : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %t = nn.mul %d, %weight : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %e1 = nn.add %e, %t : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %a1, %e1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A function without training ops is left alone.
// CHECK-LABEL: func @inference
// CHECK-SAME: (%{{.*}}: tensor<4xf32>) -> tensor<4xf32>
func.func @inference(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = nn.relu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

