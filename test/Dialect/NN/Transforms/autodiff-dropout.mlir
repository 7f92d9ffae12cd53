// nn-autodiff's step-dropout-masks (on by default): every step draws new
// dropout masks, as PyTorch's generator advances between steps. The step
// takes an rng_state argument t, the count of earlier steps (0-d i64, which
// the runner starts at 0 and threads like the optimizer state), and returns
// t + 1. A training dropout of n elements with seed s draws with
// s + t * n * 0x9E3779B97F4A7C15 (mod 2^64): elements [t n, (t + 1) n) of the
// mask stream of s (amp_runtime/dropout.h), so that step 0 draws the mask of
// s itself and no two steps share one. The forward dropout and its gradient
// share the new seed. autodiff-accumulate.mlir has the micro-batch case.
// RUN: amp-opt %s -split-input-file --nn-autodiff | FileCheck %s
// RUN: amp-opt %s -split-input-file --nn-autodiff="step-dropout-masks=false" | FileCheck %s --check-prefix=FIXED
// The count advances also on a step that loss scaling skips (PyTorch's
// generator state is not restored either), and it stays an i64 in the AMP
// pipeline.
// RUN: amp-opt %s -split-input-file --nn-autodiff="optimizer=adamw lr-schedule=linear total-steps=10" --amp-pipeline | FileCheck %s --check-prefix=AMP
// The forward pass kept for evaluation runs in eval mode: no dropout.
// RUN: amp-opt %s --nn-autodiff="entry=two keep-forward" | FileCheck %s --check-prefix=FORWARD

// Two dropouts of one seed and other sizes: each its own offset (6 and 12
// elements: 6 * 0x9E3779B97F4A7C15 and 12 * 0x9E3779B97F4A7C15 as i64).
// CHECK-LABEL: func.func @two(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<2x4xf32> {nn.role = #nn.role<param>}, %[[X:[a-z0-9]+]]: tensor<3x2xf32> {nn.role = #nn.role<input>}, %{{.*}}: tensor<3xi32> {nn.role = #nn.role<label>}, %[[T:[a-z0-9]+]]: tensor<i64> {nn.role = #nn.role<rng_state>})
// CHECK-SAME: -> (tensor<2x4xf32> {nn.role = #nn.role<param>}, tensor<i64> {nn.role = #nn.role<rng_state>}, tensor<f32> {nn.role = #nn.role<loss>})
// CHECK:      %[[S:.*]] = arith.constant dense<5> : tensor<i64>
// CHECK-NEXT: %[[K12:.*]] = arith.constant dense<7681369315911520508> : tensor<i64>
// CHECK-NEXT: %[[O12:.*]] = nn.mul %[[T]], %[[K12]] : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT: %[[S12:.*]] = nn.add %[[S]], %[[O12]] : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT: %[[K6:.*]] = arith.constant dense<-5382687378899015554> : tensor<i64>
// CHECK-NEXT: %[[O6:.*]] = nn.mul %[[T]], %[[K6]] : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT: %[[S6:.*]] = nn.add %[[S]], %[[O6]] : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT: %[[XD:.*]] = nn.dropout %[[X]], %[[S6]] {rate = 2.000000e-01 : f32, training} : tensor<3x2xf32>
// CHECK-NEXT: %[[H:.*]] = nn.matmul %[[XD]], %[[W]]
// CHECK-NEXT: %[[HD:.*]] = nn.dropout %[[H]], %[[S12]] {rate = 5.000000e-01 : f32, training} : tensor<3x4xf32>
// CHECK:      %[[DHD:.*]] = nn.cross_entropy_grad
// CHECK-NEXT: %[[DH:.*]] = nn.dropout %[[DHD]], %[[S12]] {rate = 5.000000e-01 : f32, training} : tensor<3x4xf32>
// CHECK-NEXT: %[[DW:.*]] = nn.matmul %[[XD]], %[[DH]] {transpose_a}
// CHECK-NEXT: %[[INC:.*]] = arith.constant dense<1> : tensor<i64>
// CHECK-NEXT: %[[NT:.*]] = nn.add %[[T]], %[[INC]] : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT: %[[NW:.*]] = nn.sgd_update %[[W]], %[[DW]]
// CHECK-NEXT: return %[[NW]], %[[NT]], %{{.*}} : tensor<2x4xf32>, tensor<i64>, tensor<f32>
// FIXED-LABEL: func.func @two(
// FIXED-NOT:   rng_state
// FIXED:       %[[S:.*]] = arith.constant dense<5> : tensor<i64>
// FIXED-NEXT:  nn.dropout %{{.*}}, %[[S]] {rate = 2.000000e-01 : f32, training}
// FIXED-NOT:   rng_state
// FIXED:       return
// AMP-LABEL: func.func @two(
// AMP-SAME: %[[T:[a-z0-9]+]]: tensor<i64> {nn.role = #nn.role<rng_state>}
// AMP:      %[[NT:.*]] = nn.add %[[T]], %{{.*}} {amp.precision = f32} : (tensor<i64>, tensor<i64>) -> tensor<i64>
// AMP:      nn.lr_schedule
// AMP:      amp.skip_step_if
// AMP-NOT:  %[[T]]
// AMP:      return {{.*}}, %new_count, %[[NT]], {{.*}} : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>, tensor<f32>, tensor<i64>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>, tensor<i1>
// FORWARD-LABEL: func.func @two_forward(
// FORWARD-SAME: %[[W:[a-z0-9]+]]: tensor<2x4xf32> {nn.role = #nn.role<param>}, %[[X:[a-z0-9]+]]: tensor<3x2xf32> {nn.role = #nn.role<input>})
// FORWARD-NEXT: %[[H:.*]] = nn.matmul %[[X]], %[[W]]
// FORWARD-NEXT: return %[[H]] : tensor<3x4xf32>
func.func @two(%w: tensor<2x4xf32> {nn.role = #nn.role<param>},
               %x: tensor<3x2xf32> {nn.role = #nn.role<input>},
               %labels: tensor<3xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %s = arith.constant dense<5> : tensor<i64>
  %xd = nn.dropout %x, %s {rate = 0.2 : f32, training} : tensor<3x2xf32>
  %h = nn.matmul %xd, %w : (tensor<3x2xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  %hd = nn.dropout %h, %s {rate = 0.5 : f32, training} : tensor<3x4xf32>
  %loss = nn.cross_entropy %hd, %labels : (tensor<3x4xf32>, tensor<3xi32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// Two dropouts of one seed and one size share the new seed, and so draw
// the same mask, as they did before.
// CHECK-LABEL: func.func @same_size(
// CHECK-SAME: %[[S:[a-z0-9]+]]: tensor<i64> {nn.role = #nn.role<input>}, %[[T:[a-z0-9]+]]: tensor<i64> {nn.role = #nn.role<rng_state>})
// CHECK-NEXT: %[[K:.*]] = arith.constant
// CHECK-NEXT: %[[O:.*]] = nn.mul %[[T]], %[[K]]
// CHECK-NEXT: %[[NS:.*]] = nn.add %[[S]], %[[O]]
// CHECK-NOT:  nn.add %[[S]]
// CHECK-COUNT-4: nn.dropout %{{.*}}, %[[NS]] {rate = 1.000000e-01 : f32, training}
// CHECK-NOT:  nn.dropout
// CHECK:      return
func.func @same_size(%w: tensor<4xf32> {nn.role = #nn.role<param>},
                     %v: tensor<4xf32> {nn.role = #nn.role<param>},
                     %s: tensor<i64> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %a = nn.dropout %w, %s {rate = 0.1 : f32, training} : tensor<4xf32>
  %b = nn.dropout %v, %s {rate = 0.1 : f32, training} : tensor<4xf32>
  %c = nn.mul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_sum %c [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A dropout that drops nothing (not training, or rate 0) is the identity on
// every step: no rng_state.
// CHECK-LABEL: func.func @no_drop(
// CHECK-NOT:  rng_state
// CHECK:      nn.dropout %{{.*}}, %[[S:[a-z0-9]+]] {rate = 5.000000e-01 : f32}
// CHECK-NOT:  rng_state
// CHECK:      return
func.func @no_drop(%w: tensor<4xf32> {nn.role = #nn.role<param>},
                   %s: tensor<i64> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %a = nn.dropout %w, %s {rate = 0.5 : f32} : tensor<4xf32>
  %b = nn.dropout %a, %s {rate = 0.0 : f32, training} : tensor<4xf32>
  %l = nn.reduce_sum %b [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A fused attention's dropout draws per step as an nn.dropout of its
// [2, 4, 6] probabilities would: 48 elements, so its seed gets
// t * 48 * 0x9E3779B97F4A7C15, shared with its gradient. keep-forward's
// evaluation function runs the attention without dropout.
// RUN: amp-opt %s --nn-autodiff="entry=attention keep-forward" | FileCheck %s --check-prefix=ATTN
// ATTN-LABEL: func.func @attention(
// ATTN-SAME: %[[T:[a-z0-9]+]]: tensor<i64> {nn.role = #nn.role<rng_state>})
// ATTN:      %[[S:.*]] = arith.constant dense<99> : tensor<i64>
// ATTN-NEXT: %[[K48:.*]] = arith.constant dense<-6168010883773021200> : tensor<i64>
// ATTN-NEXT: %[[O:.*]] = nn.mul %[[T]], %[[K48]]
// ATTN-NEXT: %[[NS:.*]] = nn.add %[[S]], %[[O]]
// ATTN:      %{{.*}}, %[[LSE:.*]] = nn.attention %{{.*}}, %{{.*}}, %{{.*}} dropout %[[NS]] {dropout_rate = 2.000000e-01 : f32
// ATTN:      nn.attention_grad {{.*}}, %[[LSE]] dropout %[[NS]] {dropout_rate = 2.000000e-01 : f32
// ATTN-LABEL: func.func @attention_forward(
// ATTN-NOT:  rng_state
// ATTN:      nn.attention %{{.*}}, %{{.*}}, %{{.*}} {scale
// ATTN-NOT:  dropout
// ATTN:      return
func.func @attention(%wq: tensor<8x8xf32> {nn.role = #nn.role<param>},
                     %x: tensor<2x4x8xf32> {nn.role = #nn.role<input>},
                     %kv: tensor<2x6x8xf32> {nn.role = #nn.role<input>},
                     %labels: tensor<2x4xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %s = arith.constant dense<99> : tensor<i64>
  %q = nn.matmul %x, %wq : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
  %o, %lse = nn.attention %q, %kv, %kv dropout %s {dropout_rate = 0.2 : f32, scale = 0.5 : f32} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>, tensor<i64>) -> (tensor<2x4x8xf32>, tensor<2x4xf32>)
  %loss = nn.cross_entropy %o, %labels : (tensor<2x4x8xf32>, tensor<2x4xi32>) -> tensor<f32>
  return %loss : tensor<f32>
}
