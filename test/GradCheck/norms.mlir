// Gradient checks of nn.layer_norm and nn.batch_norm (through
// nn.layer_norm_grad and nn.batch_norm_grad): input, scale and bias
// gradients, layer norm over one and over two trailing dims, batch norm on
// NCHW and on [batch, features]. Loss: sum(y * w).
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9). The input
// gradient goes through the mean and the variance, the most nonlinear rule
// checked here; measured max abs error ~1e-10.
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 | FileCheck %s

// CHECK-LABEL: @layer_norm_last: loss {{.*}}: ok
// CHECK-NEXT:    %x [3x5]: 15 of 15 elements, {{.*}}: ok
// CHECK-NEXT:    %s [5]: 5 of 5 elements, {{.*}}: ok
// CHECK-NEXT:    %b [5]: 5 of 5 elements, {{.*}}: ok
func.func @layer_norm_last(%x: tensor<3x5xf32> {nn.role = #nn.role<param>},
                           %s: tensor<5xf32> {nn.role = #nn.role<param>},
                           %b: tensor<5xf32> {nn.role = #nn.role<param>},
                           %w: tensor<3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y, %mean, %rstd = nn.layer_norm %x, %s, %b : (tensor<3x5xf32>, tensor<5xf32>, tensor<5xf32>) -> (tensor<3x5xf32>, tensor<3xf32>, tensor<3xf32>)
  %yw = nn.mul %y, %w : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Normalized over the trailing [3, 4]: scale and bias are [3, 4].
// CHECK-LABEL: @layer_norm_axis1: loss {{.*}}: ok
// CHECK-NEXT:    %x [2x3x4]: 24 of 24 elements, {{.*}}: ok
// CHECK-NEXT:    %s [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %b [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @layer_norm_axis1(%x: tensor<2x3x4xf32> {nn.role = #nn.role<param>},
                            %s: tensor<3x4xf32> {nn.role = #nn.role<param>},
                            %b: tensor<3x4xf32> {nn.role = #nn.role<param>},
                            %w: tensor<2x3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y, %mean, %rstd = nn.layer_norm %x, %s, %b {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2xf32>, tensor<2xf32>)
  %yw = nn.mul %y, %w : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %l = nn.reduce_sum %yw [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @batch_norm_nchw: loss {{.*}}: ok
// CHECK-NEXT:    %x [4x3x2x2]: 32 of 48 elements, {{.*}}: ok
// CHECK-NEXT:    %s [3]: 3 of 3 elements, {{.*}}: ok
// CHECK-NEXT:    %b [3]: 3 of 3 elements, {{.*}}: ok
func.func @batch_norm_nchw(%x: tensor<4x3x2x2xf32> {nn.role = #nn.role<param>},
                           %s: tensor<3xf32> {nn.role = #nn.role<param>},
                           %b: tensor<3xf32> {nn.role = #nn.role<param>},
                           %w: tensor<4x3x2x2xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y, %mean, %invstd = nn.batch_norm %x, %s, %b : (tensor<4x3x2x2xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<4x3x2x2xf32>, tensor<3xf32>, tensor<3xf32>)
  %yw = nn.mul %y, %w : (tensor<4x3x2x2xf32>, tensor<4x3x2x2xf32>) -> tensor<4x3x2x2xf32>
  %l = nn.reduce_sum %yw [0, 1, 2, 3] : (tensor<4x3x2x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Rank 2: per feature over the batch; a large epsilon enters the gradient.
// CHECK-LABEL: @batch_norm_rank2: loss {{.*}}: ok
// CHECK-NEXT:    %x [6x3]: 18 of 18 elements, {{.*}}: ok
// CHECK-NEXT:    %s [3]: 3 of 3 elements, {{.*}}: ok
// CHECK-NEXT:    %b [3]: 3 of 3 elements, {{.*}}: ok
func.func @batch_norm_rank2(%x: tensor<6x3xf32> {nn.role = #nn.role<param>},
                            %s: tensor<3xf32> {nn.role = #nn.role<param>},
                            %b: tensor<3xf32> {nn.role = #nn.role<param>},
                            %w: tensor<6x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y, %mean, %invstd = nn.batch_norm %x, %s, %b {epsilon = 1.000000e-01 : f32} : (tensor<6x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<6x3xf32>, tensor<3xf32>, tensor<3xf32>)
  %yw = nn.mul %y, %w : (tensor<6x3xf32>, tensor<6x3xf32>) -> tensor<6x3xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<6x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK: summary: 4 functions, 12 params, {{[0-9]+}} elements ({{.*}}): all passed
