// Gradient checks of the shape ops: nn.reshape, nn.transpose (2-D and a
// 3-cycle), nn.broadcast_to (new dims, a stretched dim, a 0-d input).
// Loss: sum(y * w).
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9); the loss is
// linear in x, measured max abs error ~1e-11.
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 | FileCheck %s

// CHECK-LABEL: @reshape: loss {{.*}}: ok
// CHECK-NEXT:    %x [2x6]: 12 of 12 elements, {{.*}}: ok
func.func @reshape(%x: tensor<2x6xf32> {nn.role = #nn.role<param>},
                   %w: tensor<3x2x2xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.reshape %x : tensor<2x6xf32> -> tensor<3x2x2xf32>
  %yw = nn.mul %y, %w : (tensor<3x2x2xf32>, tensor<3x2x2xf32>) -> tensor<3x2x2xf32>
  %l = nn.reduce_sum %yw [0, 1, 2] : (tensor<3x2x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @transpose_2d: loss {{.*}}: ok
// CHECK-NEXT:    %x [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @transpose_2d(%x: tensor<3x4xf32> {nn.role = #nn.role<param>},
                        %w: tensor<4x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.transpose %x [1, 0] : tensor<3x4xf32> -> tensor<4x3xf32>
  %yw = nn.mul %y, %w : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<4x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// A 3-cycle: the gradient needs the inverse permutation [1, 2, 0].
// CHECK-LABEL: @transpose_3d: loss {{.*}}: ok
// CHECK-NEXT:    %x [2x3x4]: 24 of 24 elements, {{.*}}: ok
func.func @transpose_3d(%x: tensor<2x3x4xf32> {nn.role = #nn.role<param>},
                        %w: tensor<4x2x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.transpose %x [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %yw = nn.mul %y, %w : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %l = nn.reduce_sum %yw [0, 1, 2] : (tensor<4x2x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// New leading dims and a stretched dim of size 1.
// CHECK-LABEL: @broadcast_to: loss {{.*}}: ok
// CHECK-NEXT:    %x [3x1]: 3 of 3 elements, {{.*}}: ok
func.func @broadcast_to(%x: tensor<3x1xf32> {nn.role = #nn.role<param>},
                        %w: tensor<2x3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.broadcast_to %x : tensor<3x1xf32> -> tensor<2x3x4xf32>
  %yw = nn.mul %y, %w : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %l = nn.reduce_sum %yw [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @broadcast_scalar: loss {{.*}}: ok
// CHECK-NEXT:    %x []: 1 of 1 elements, {{.*}}: ok
func.func @broadcast_scalar(%x: tensor<f32> {nn.role = #nn.role<param>},
                            %w: tensor<2x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.broadcast_to %x : tensor<f32> -> tensor<2x3xf32>
  %yw = nn.mul %y, %w : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<2x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK: summary: 5 functions, 5 params, {{[0-9]+}} elements ({{.*}}): all passed
