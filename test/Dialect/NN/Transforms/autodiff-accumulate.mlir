// nn-autodiff's accumulate-steps=K (gradient accumulation): the inputs and
// labels grow from [B, ...] to [K * B, ...]; each micro-batch's rows are
// sliced out, and its forward and backward passes run before the next
// micro-batch's, so that its activations die first. Each micro-batch loss is
// multiplied by 1/K (PyTorch's `loss / accumulation_steps`), the gradients
// are summed in micro-batch order before one update, and the step's loss is
// the sum of the scaled losses.
// RUN: amp-opt %s --nn-autodiff="entry=bn accumulate-steps=2 momentum=0.9 keep-forward" | FileCheck %s
// RUN: amp-opt %s --nn-autodiff="entry=dropout accumulate-steps=3" | FileCheck %s --check-prefix=DROPOUT
// Loss scaling sees one backward pass per micro-batch: a scaled seed each,
// then one unscale-and-check of the summed gradients and one scale update.
// RUN: amp-opt %s --nn-autodiff="entry=bn accumulate-steps=2" --amp-loss-scaling | FileCheck %s --check-prefix=SCALED
// Clipping takes the summed gradients (PyTorch clips after the last
// micro-batch's backward pass).
// RUN: amp-opt %s --nn-autodiff="entry=bn accumulate-steps=2 clip-norm=1" | FileCheck %s --check-prefix=CLIP
// accumulate-steps=1 is the plain step.
// RUN: amp-opt %s --nn-autodiff="entry=bn accumulate-steps=1" | FileCheck %s --check-prefix=ONE

// Bad options; the functions it cannot split are in
// autodiff-accumulate-invalid.mlir.
// RUN: not amp-opt %s --nn-autodiff="entry=bn accumulate-steps=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not amp-opt %s --nn-autodiff="entry=bn accumulate-steps=2 optimizer=none" 2>&1 | FileCheck %s --check-prefix=NONE

// CHECK-LABEL: func.func @bn(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<4x3xf32> {nn.role = #nn.role<param>}, %[[G:[a-z0-9]+]]: tensor<3xf32> {nn.role = #nn.role<param>}, %[[B:[a-z0-9]+]]: tensor<3xf32> {nn.role = #nn.role<param>},
// CHECK-SAME: %[[RM:[a-z0-9]+]]: tensor<3xf32> {nn.role = #nn.role<buffer>}, %[[RV:[a-z0-9]+]]: tensor<3xf32> {nn.init = 1.000000e+00 : f32, nn.role = #nn.role<buffer>},
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<16x4xf32> {nn.role = #nn.role<input>}, %[[L:[a-z0-9]+]]: tensor<16xi32> {nn.role = #nn.role<label>})
// Micro-batch 0: rows [0, 8), forward then backward.
// CHECK:      %[[X0:.*]] = nn.slice %[[X]] {offsets = array<i64: 0, 0>} : tensor<16x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT: %[[L0:.*]] = nn.slice %[[L]] {offsets = array<i64: 0>} : tensor<16xi32> -> tensor<8xi32>
// CHECK-NEXT: %[[H0:.*]] = nn.matmul %[[X0]], %[[W]]
// CHECK-NEXT: %{{.*}}, %[[MEAN0:.*]], %[[INVSTD0:.*]] = nn.batch_norm %[[H0]]
// CHECK-NEXT: %[[RM1:.*]], %[[RV1:.*]] = nn.running_stats_update %[[RM]], %[[RV]], %[[MEAN0]], %[[INVSTD0]]
// CHECK:      %[[CE0:.*]] = nn.cross_entropy %{{.*}}, %[[L0]]
// CHECK-NEXT: %[[HALF:.*]] = arith.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT: %[[LOSS0:.*]] = nn.mul %[[CE0]], %[[HALF]]
// CHECK-NEXT: nn.grad_seed %[[LOSS0]]
// CHECK:      nn.batch_norm_grad
// CHECK:      %[[GW0:.*]] = nn.matmul %[[X0]], %{{.*}} {transpose_a}
// Micro-batch 1: rows [8, 16), the running statistics micro-batch 0 left.
// CHECK-NEXT: %[[X1:.*]] = nn.slice %[[X]] {offsets = array<i64: 8, 0>} : tensor<16x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT: %[[L1:.*]] = nn.slice %[[L]] {offsets = array<i64: 8>} : tensor<16xi32> -> tensor<8xi32>
// CHECK-NEXT: %[[H1:.*]] = nn.matmul %[[X1]], %[[W]]
// CHECK-NEXT: %{{.*}}, %[[MEAN1:.*]], %[[INVSTD1:.*]] = nn.batch_norm %[[H1]]
// CHECK-NEXT: %[[RM2:.*]], %[[RV2:.*]] = nn.running_stats_update %[[RM1]], %[[RV1]], %[[MEAN1]], %[[INVSTD1]]
// CHECK:      %[[CE1:.*]] = nn.cross_entropy %{{.*}}, %[[L1]]
// CHECK:      %[[LOSS1:.*]] = nn.mul %[[CE1]],
// CHECK-NEXT: nn.grad_seed %[[LOSS1]]
// CHECK:      %[[GW1:.*]] = nn.matmul %[[X1]], %{{.*}} {transpose_a}
// The sums, in micro-batch order, then one update per param.
// CHECK-NEXT: %[[GW:.*]] = nn.add %[[GW0]], %[[GW1]] : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: nn.add %{{.*}} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: nn.add %{{.*}} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[LOSS:.*]] = nn.add %[[LOSS0]], %[[LOSS1]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[NW:.*]], %{{.*}} = nn.sgd_update %[[W]], %[[GW]],
// CHECK-NEXT: nn.sgd_update
// CHECK-NEXT: nn.sgd_update
// CHECK-NEXT: return %[[NW]], {{.*}}, %[[RM2]], %[[RV2]], %[[LOSS]] :
// The inference function takes one micro-batch.
// CHECK-LABEL: func.func @bn_forward(
// CHECK-SAME: tensor<8x4xf32> {nn.role = #nn.role<input>}) -> tensor<8x3xf32>
func.func @bn(%w: tensor<4x3xf32> {nn.role = #nn.role<param>},
              %g: tensor<3xf32> {nn.role = #nn.role<param>},
              %b: tensor<3xf32> {nn.role = #nn.role<param>},
              %rm: tensor<3xf32> {nn.role = #nn.role<buffer>},
              %rv: tensor<3xf32> {nn.init = 1.0 : f32, nn.role = #nn.role<buffer>},
              %x: tensor<8x4xf32> {nn.role = #nn.role<input>},
              %labels: tensor<8xi32> {nn.role = #nn.role<label>})
    -> (tensor<3xf32> {nn.role = #nn.role<buffer>},
        tensor<f32> {nn.role = #nn.role<loss>},
        tensor<3xf32> {nn.role = #nn.role<buffer>}) {
  %h = nn.matmul %x, %w : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
  %y, %mean, %invstd = nn.batch_norm %h, %g, %b {epsilon = 1.0e-3 : f32} : (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>)
  %rm1, %rv1 = nn.running_stats_update %rm, %rv, %mean, %invstd {count = 8 : i64, epsilon = 1.0e-3 : f32} : tensor<3xf32>
  %loss = nn.cross_entropy %y, %labels : (tensor<8x3xf32>, tensor<8xi32>) -> tensor<f32>
  return %rm1, %loss, %rv1 : tensor<3xf32>, tensor<f32>, tensor<3xf32>
}

// SCALED-LABEL: func.func @bn(
// SCALED-SAME: %[[SCALE:[a-z0-9]+]]: tensor<f32> {nn.init = 6.553600e+04 : f32, nn.role = #nn.role<loss_scale>}
// SCALED:     amp.scaled_grad_seed %{{.*}}, %[[SCALE]]
// SCALED:     amp.scaled_grad_seed %{{.*}}, %[[SCALE]]
// SCALED-NOT: amp.scaled_grad_seed
// SCALED:     %{{.*}}:3, %[[INF:.*]] = amp.unscale_and_check %[[SCALE]], %{{.*}}, %{{.*}}, %{{.*}} :
// SCALED:     amp.skip_step_if %[[INF]]
// SCALED:     amp.update_scale %[[SCALE]], %{{.*}}, %[[INF]]
// SCALED-NOT: amp.update_scale
// SCALED-NOT: amp.unscale_and_check

// CLIP-LABEL: func.func @bn(
// CLIP:      %[[GW:.*]] = nn.add %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CLIP-NEXT: %[[GG:.*]] = nn.add %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CLIP-NEXT: %[[GB:.*]] = nn.add %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CLIP-NEXT: nn.add %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CLIP-NEXT: nn.clip_grad_norm %[[GW]], %[[GG]], %[[GB]]

// ONE-LABEL: func.func @bn(
// ONE-SAME: tensor<8x4xf32> {nn.role = #nn.role<input>}
// ONE-NOT: nn.slice
// ONE: return

// Dropout with a constant seed: micro-batch i adds i * 12 * 0x9E3779B97F4A7C15
// (mod 2^64) to it, so that element j of micro-batch i draws as element
// 12 i + j of one dropout over the whole [12, 3] batch: seeds 7,
// 7 + 12 * 0x9E3779B97F4A7C15 and 7 + 24 * 0x9E3779B97F4A7C15 (as i64).
// Each then gets t * 36 * 0x9E3779B97F4A7C15 for the step count t
// (rng_state; step-dropout-masks): step t draws as elements [36 t, 36 t + 36).
// DROPOUT-LABEL: func.func @dropout(
// DROPOUT-SAME: tensor<12x2xf32> {nn.role = #nn.role<input>}
// DROPOUT-SAME: %[[T:[a-z0-9]+]]: tensor<i64> {nn.role = #nn.role<rng_state>})
// DROPOUT-SAME: -> (tensor<2x3xf32> {nn.role = #nn.role<param>}, tensor<i64> {nn.role = #nn.role<rng_state>}, tensor<f32> {nn.role = #nn.role<loss>})
// The backward pass of each reuses its seed.
// DROPOUT:      %[[S0:.*]] = arith.constant dense<7> : tensor<i64>
// DROPOUT-NEXT: %[[K0:.*]] = arith.constant dense<4597363874025009908> : tensor<i64>
// DROPOUT-NEXT: %[[O0:.*]] = nn.mul %[[T]], %[[K0]]
// DROPOUT-NEXT: %[[N0:.*]] = nn.add %[[S0]], %[[O0]]
// DROPOUT:      nn.dropout %{{.*}}, %[[N0]] {rate = 5.000000e-01 : f32, training}
// DROPOUT:      nn.dropout %{{.*}}, %[[N0]] {rate = 5.000000e-01 : f32, training}
// DROPOUT-NOT:  arith.constant dense<7> : tensor<i64>
// DROPOUT:      %[[S1:.*]] = arith.constant dense<7681369315911520515> : tensor<i64>
// DROPOUT-NEXT: %[[K1:.*]] = arith.constant dense<4597363874025009908> : tensor<i64>
// DROPOUT-NEXT: %[[O1:.*]] = nn.mul %[[T]], %[[K1]]
// DROPOUT-NEXT: %[[N1:.*]] = nn.add %[[S1]], %[[O1]]
// DROPOUT-NEXT: nn.dropout %{{.*}}, %[[N1]] {rate = 5.000000e-01 : f32, training}
// DROPOUT:      nn.dropout %{{.*}}, %[[N1]] {rate = 5.000000e-01 : f32, training}
// DROPOUT:      %[[S2:.*]] = arith.constant dense<-3084005441886510593> : tensor<i64>
// DROPOUT-NEXT: %[[K2:.*]] = arith.constant dense<4597363874025009908> : tensor<i64>
// DROPOUT-NEXT: %[[O2:.*]] = nn.mul %[[T]], %[[K2]]
// DROPOUT-NEXT: %[[N2:.*]] = nn.add %[[S2]], %[[O2]]
// DROPOUT-NEXT: nn.dropout %{{.*}}, %[[N2]] {rate = 5.000000e-01 : f32, training}
// DROPOUT:      nn.dropout %{{.*}}, %[[N2]] {rate = 5.000000e-01 : f32, training}
// The step returns t + 1 as its rng_state.
// DROPOUT:      %[[INC:.*]] = arith.constant dense<1> : tensor<i64>
// DROPOUT-NEXT: %[[NEXT:.*]] = nn.add %[[T]], %[[INC]]
// DROPOUT:      return %{{.*}}, %[[NEXT]], %{{.*}} : tensor<2x3xf32>, tensor<i64>, tensor<f32>
func.func @dropout(%w: tensor<2x3xf32> {nn.role = #nn.role<param>},
                   %x: tensor<4x2xf32> {nn.role = #nn.role<input>},
                   %labels: tensor<4xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %seed = arith.constant dense<7> : tensor<i64>
  %h = nn.matmul %x, %w : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %d = nn.dropout %h, %seed {rate = 0.5 : f32, training} : tensor<4x3xf32>
  %loss = nn.cross_entropy %d, %labels : (tensor<4x3xf32>, tensor<4xi32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// A dropout that drops nothing (rate 0) keeps its seed, constant or not.
// RUN: amp-opt %s --nn-autodiff="entry=dropout_off accumulate-steps=2" | FileCheck %s --check-prefix=OFF
// OFF-LABEL: func.func @dropout_off(
// OFF-COUNT-2: nn.dropout %{{.*}}, %[[SEED:.*]] {rate = 0.000000e+00 : f32, training}
func.func @dropout_off(%w: tensor<2x3xf32> {nn.role = #nn.role<param>},
                       %x: tensor<4x2xf32> {nn.role = #nn.role<input>},
                       %labels: tensor<4xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %c = arith.constant dense<7> : tensor<i64>
  %seed = arith.addi %c, %c : tensor<i64>
  %h = nn.matmul %x, %w : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %d = nn.dropout %h, %seed {rate = 0.0 : f32, training} : tensor<4x3xf32>
  %loss = nn.cross_entropy %d, %labels : (tensor<4x3xf32>, tensor<4xi32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// ZERO: error: nn-autodiff: accumulate-steps must be in [1, 2^20]
// NONE: error: nn-autodiff: accumulate-steps needs an optimizer (optimizer=none returns the gradients of one batch)
