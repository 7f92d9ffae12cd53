// Gradient checks of nn.l1_loss, nn.huber_loss and nn.bce_with_logits_loss
// with respect to both the prediction and the target (the rules' gradient
// ops, the negation for L1 and Huber, -x dl / n for BCE), scaled by a
// random 0-d weight so that grad_loss is not 1. Every element is checked.
// The f64 reference evaluator runs both the losses and the gradient ops.
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9). L1 and Huber are
// piecewise linear and quadratic, so the central difference is exact away
// from their kinks (|p - t| = 0 and delta), which random values miss by far
// more than h; BCE's truncation error is h^2 |f'''| / 6 < 1e-11.
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 --max-checks-per-param 100 | FileCheck %s

// CHECK-LABEL: @l1: loss {{.*}}: ok
// CHECK-NEXT:    %pred [4x3]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %target [4x3]: 12 of 12 elements, {{.*}}: ok
func.func @l1(%pred: tensor<4x3xf32> {nn.role = #nn.role<param>},
              %target: tensor<4x3xf32> {nn.role = #nn.role<param>},
              %w: tensor<f32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %m = nn.l1_loss %pred, %target : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<f32>
  %l = nn.mul %m, %w : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}

// A delta of 0.75 puts some random differences on each side of it.
// CHECK-LABEL: @huber: loss {{.*}}: ok
// CHECK-NEXT:    %pred [2x5]: 10 of 10 elements, {{.*}}: ok
// CHECK-NEXT:    %target [2x5]: 10 of 10 elements, {{.*}}: ok
func.func @huber(%pred: tensor<2x5xf32> {nn.role = #nn.role<param>},
                 %target: tensor<2x5xf32> {nn.role = #nn.role<param>},
                 %w: tensor<f32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %m = nn.huber_loss %pred, %target {delta = 0.75 : f32} : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<f32>
  %l = nn.mul %m, %w : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}

// The target is a sigmoid of a param, so that it is a probability.
// CHECK-LABEL: @bce_with_logits: loss {{.*}}: ok
// CHECK-NEXT:    %logits [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %t [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @bce_with_logits(%logits: tensor<3x4xf32> {nn.role = #nn.role<param>},
                           %t: tensor<3x4xf32> {nn.role = #nn.role<param>},
                           %w: tensor<f32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %target = nn.sigmoid %t : tensor<3x4xf32>
  %m = nn.bce_with_logits_loss %logits, %target : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<f32>
  %l = nn.mul %m, %w : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Summed (reduction sum): the gradients are not divided by the count.
// CHECK-LABEL: @summed: loss {{.*}}: ok
// CHECK-NEXT:    %pred [2x3]: 6 of 6 elements, {{.*}}: ok
// CHECK-NEXT:    %t [2x3]: 6 of 6 elements, {{.*}}: ok
func.func @summed(%pred: tensor<2x3xf32> {nn.role = #nn.role<param>},
                  %t: tensor<2x3xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %target = nn.sigmoid %t : tensor<2x3xf32>
  %a = nn.l1_loss %pred, %target reduction sum : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<f32>
  %b = nn.huber_loss %pred, %target reduction sum {delta = 0.75 : f32} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<f32>
  %c = nn.bce_with_logits_loss %pred, %target reduction sum : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<f32>
  %d = nn.mse_loss %pred, %target reduction sum : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<f32>
  %ab = nn.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %cd = nn.add %c, %d : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %l = nn.add %ab, %cd : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}
