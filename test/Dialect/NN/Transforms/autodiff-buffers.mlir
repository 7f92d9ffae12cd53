// RUN: amp-opt %s --nn-autodiff="momentum=0.9" | FileCheck %s
// RUN: amp-opt %s --nn-autodiff="keep-forward=true" | FileCheck %s --check-prefix=FORWARD
// RUN: amp-opt %s --nn-autodiff="optimizer=none" | FileCheck %s --check-prefix=NONE

// Buffers (#nn.role<buffer>): state a forward function updates without
// training it, here batch normalization's running statistics. nn-autodiff
// threads them through the step (results: params, optimizer state, buffers,
// loss), gives them no gradient, and keep-forward's inference function
// normalizes with them instead of the batch's statistics.

// CHECK-LABEL: func.func @bn(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<4x3xf32> {nn.role = #nn.role<param>}, %[[G:[a-z0-9]+]]: tensor<3xf32> {nn.role = #nn.role<param>}, %[[B:[a-z0-9]+]]: tensor<3xf32> {nn.role = #nn.role<param>},
// CHECK-SAME: %[[MW:[a-z0-9]+]]: tensor<4x3xf32> {nn.role = #nn.role<opt_state>}, %[[MG:[a-z0-9]+]]: tensor<3xf32> {nn.role = #nn.role<opt_state>}, %[[MB:[a-z0-9]+]]: tensor<3xf32> {nn.role = #nn.role<opt_state>},
// CHECK-SAME: %[[RM:[a-z0-9]+]]: tensor<3xf32> {nn.role = #nn.role<buffer>}, %[[RV:[a-z0-9]+]]: tensor<3xf32> {nn.init = 1.000000e+00 : f32, nn.role = #nn.role<buffer>},
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<8x4xf32> {nn.role = #nn.role<input>}, %[[L:[a-z0-9]+]]: tensor<8xi32> {nn.role = #nn.role<label>})
// CHECK-SAME: -> (tensor<4x3xf32> {nn.role = #nn.role<param>}, tensor<3xf32> {nn.role = #nn.role<param>}, tensor<3xf32> {nn.role = #nn.role<param>},
// CHECK-SAME: tensor<4x3xf32> {nn.role = #nn.role<opt_state>}, tensor<3xf32> {nn.role = #nn.role<opt_state>}, tensor<3xf32> {nn.role = #nn.role<opt_state>},
// CHECK-SAME: tensor<3xf32> {nn.role = #nn.role<buffer>}, tensor<3xf32> {nn.role = #nn.role<buffer>}, tensor<f32> {nn.role = #nn.role<loss>})
// CHECK:      %[[Y:.*]], %[[MEAN:.*]], %[[INVSTD:.*]] = nn.batch_norm
// CHECK-NEXT: %[[NRM:.*]], %[[NRV:.*]] = nn.running_stats_update %[[RM]], %[[RV]], %[[MEAN]], %[[INVSTD]] {count = 8 : i64, epsilon = 1.000000e-03 : f32}
// CHECK:      nn.batch_norm_grad
// CHECK-NOT:  %[[RM]]
// CHECK:      return {{.*}}, %[[NRM]], %[[NRV]], %{{.*}} : tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<f32>

// The inference function takes the buffers (read, not returned) and computes
// y = x * a + b with a = g * rsqrt(running_var + eps), b = bias -
// running_mean * a, per channel (reshaped to [C, 1, ...] for rank > 2;
// examples/cnn.mlir).
// FORWARD-LABEL: func.func @bn_forward(
// FORWARD-SAME: %[[W:[a-z0-9]+]]: tensor<4x3xf32> {nn.role = #nn.role<param>}, %[[G:[a-z0-9]+]]: tensor<3xf32> {nn.role = #nn.role<param>}, %[[B:[a-z0-9]+]]: tensor<3xf32> {nn.role = #nn.role<param>},
// FORWARD-SAME: %[[RM:[a-z0-9]+]]: tensor<3xf32> {nn.role = #nn.role<buffer>}, %[[RV:[a-z0-9]+]]: tensor<3xf32> {nn.init = 1.000000e+00 : f32, nn.role = #nn.role<buffer>},
// FORWARD-SAME: %[[X:[a-z0-9]+]]: tensor<8x4xf32> {nn.role = #nn.role<input>}) -> tensor<8x3xf32>
// FORWARD-NEXT: %[[H:.*]] = nn.matmul %[[X]], %[[W]]
// FORWARD-NEXT: %[[EPS:.*]] = arith.constant dense<1.000000e-03> : tensor<f32>
// FORWARD-NEXT: %[[VE:.*]] = nn.add %[[RV]], %[[EPS]]
// FORWARD-NEXT: %[[IS:.*]] = nn.rsqrt %[[VE]]
// FORWARD-NEXT: %[[A:.*]] = nn.mul %[[G]], %[[IS]]
// FORWARD-NEXT: %[[MA:.*]] = nn.mul %[[RM]], %[[A]]
// FORWARD-NEXT: %[[SHIFT:.*]] = nn.sub %[[B]], %[[MA]]
// FORWARD-NEXT: %[[XA:.*]] = nn.mul %[[H]], %[[A]]
// FORWARD-NEXT: %[[OUT:.*]] = nn.add %[[XA]], %[[SHIFT]]
// FORWARD-NEXT: return %[[OUT]] : tensor<8x3xf32>

// Without an optimizer the results are the gradients, then the buffers and
// the loss.
// NONE-LABEL: func.func @bn(
// NONE-SAME: -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32> {nn.role = #nn.role<buffer>}, tensor<3xf32> {nn.role = #nn.role<buffer>}, tensor<f32> {nn.role = #nn.role<loss>})
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
  // The loss need not come first: buffers are matched to their arguments
  // in order.
  return %rm1, %loss, %rv1 : tensor<3xf32>, tensor<f32>, tensor<3xf32>
}
