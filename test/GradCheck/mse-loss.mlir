// Gradient checks of nn.mse_loss with respect to both the prediction and
// the target (the rule's nn.mse_loss_grad and its negation), directly and
// scaled by a random 0-d weight so that grad_loss is not 1. Every element
// is checked.
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9). The loss is
// quadratic, so the central difference has no truncation error: only the
// f64 rounding of the loss over 2h remains (measured max abs
// error 1.3e-11 at seeds 0-2).
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 --max-checks-per-param 100 | FileCheck %s

// CHECK-LABEL: @mse: loss {{.*}}: ok
// CHECK-NEXT:    %pred [4x3]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %target [4x3]: 12 of 12 elements, {{.*}}: ok
func.func @mse(%pred: tensor<4x3xf32> {nn.role = #nn.role<param>},
               %target: tensor<4x3xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.mse_loss %pred, %target : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @mse_scaled: loss {{.*}}: ok
// CHECK-NEXT:    %pred [2x5]: 10 of 10 elements, {{.*}}: ok
func.func @mse_scaled(%pred: tensor<2x5xf32> {nn.role = #nn.role<param>},
                      %target: tensor<2x5xf32> {nn.role = #nn.role<input>},
                      %w: tensor<f32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %m = nn.mse_loss %pred, %target : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<f32>
  %l = nn.mul %m, %w : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}
