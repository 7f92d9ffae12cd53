// Gradient checks of nn.reduce_sum and nn.reduce_mean over one, several and
// all axes, with and without keep_dims (their rules reshape dy and
// broadcast it back). Loss: sum(y * w).
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9). The loss is
// linear in x (reduce_sum: measured max abs error ~1e-11), but the
// reduce_mean rule multiplies by 1/N as an f32 constant, which is off by up
// to 2^-24 relative (measured 3.0e-8 for N = 3 and 12, an abs error of
// 9.5e-9): rtol covers it.
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 | FileCheck %s

// CHECK-LABEL: @sum_rows: loss {{.*}}: ok
// CHECK-NEXT:    %x [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @sum_rows(%x: tensor<3x4xf32> {nn.role = #nn.role<param>},
                    %w: tensor<4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.reduce_sum %x [0] : (tensor<3x4xf32>) -> tensor<4xf32>
  %yw = nn.mul %y, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_sum %yw [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @sum_last_keep_dims: loss {{.*}}: ok
// CHECK-NEXT:    %x [2x3x4]: 24 of 24 elements, {{.*}}: ok
func.func @sum_last_keep_dims(%x: tensor<2x3x4xf32> {nn.role = #nn.role<param>},
                              %w: tensor<2x3x1xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.reduce_sum %x [-1] keep_dims : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  %yw = nn.mul %y, %w : (tensor<2x3x1xf32>, tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %l = nn.reduce_sum %yw [0, 1, 2] : (tensor<2x3x1xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @sum_outer: loss {{.*}}: ok
// CHECK-NEXT:    %x [2x3x4]: 24 of 24 elements, {{.*}}: ok
func.func @sum_outer(%x: tensor<2x3x4xf32> {nn.role = #nn.role<param>},
                     %w: tensor<3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.reduce_sum %x [0, 2] : (tensor<2x3x4xf32>) -> tensor<3xf32>
  %yw = nn.mul %y, %w : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %l = nn.reduce_sum %yw [0] : (tensor<3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @mean_middle: loss {{.*}}: ok
// CHECK-NEXT:    %x [2x3x4]: 24 of 24 elements, {{.*}}: ok
func.func @mean_middle(%x: tensor<2x3x4xf32> {nn.role = #nn.role<param>},
                       %w: tensor<2x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.reduce_mean %x [1] : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %yw = nn.mul %y, %w : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<2x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @mean_keep_dims: loss {{.*}}: ok
// CHECK-NEXT:    %x [2x3x4]: 24 of 24 elements, {{.*}}: ok
func.func @mean_keep_dims(%x: tensor<2x3x4xf32> {nn.role = #nn.role<param>},
                          %w: tensor<1x3x1xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.reduce_mean %x [0, 2] keep_dims : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  %yw = nn.mul %y, %w : (tensor<1x3x1xf32>, tensor<1x3x1xf32>) -> tensor<1x3x1xf32>
  %l = nn.reduce_sum %yw [0, 1, 2] : (tensor<1x3x1xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @mean_all: loss {{.*}}: ok
// CHECK-NEXT:    %x [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @mean_all(%x: tensor<3x4xf32> {nn.role = #nn.role<param>},
                    %w: tensor<f32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.reduce_mean %x [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  %yw = nn.mul %y, %w : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %yw : tensor<f32>
}

// CHECK: summary: 6 functions, 6 params, {{[0-9]+}} elements ({{.*}}): all passed
