// Gradient checks of the pooling ops, each alone through the scalar loss
// sum(pool(p) * w) with a random weight input w: max_pool2d with
// overlapping windows (kernel 3, stride 2) in the padding and with
// dilation, avg_pool2d with and without count_include_pad, and
// global_avg_pool.
//
// Every element is checked (--max-checks-per-param 100).
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9); the pools are
// linear in p, so only the f64 rounding of the loss over 2h remains
// (measured max abs error 2.7e-11 at seeds 0-2). max_pool2d is piecewise
// linear: its kink (two elements of a window tying for the maximum) is
// crossed only when two elements of a window lie within h of each other,
// which no seeded value here does.
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 --max-checks-per-param 100 | FileCheck %s

// CHECK-LABEL: @max_pool_overlap_padding: loss {{.*}}: ok
// CHECK-NEXT:    %p [1x2x5x5]: 50 of 50 elements, {{.*}}: ok
func.func @max_pool_overlap_padding(%p: tensor<1x2x5x5xf32> {nn.role = #nn.role<param>},
                                    %w: tensor<1x2x3x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.max_pool2d %p {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  %yw = nn.mul %y, %w : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %l = nn.reduce_sum %yw [0, 1, 2, 3] : (tensor<1x2x3x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @max_pool_dilation: loss {{.*}}: ok
// CHECK-NEXT:    %p [2x1x5x5]: 50 of 50 elements, {{.*}}: ok
func.func @max_pool_dilation(%p: tensor<2x1x5x5xf32> {nn.role = #nn.role<param>},
                             %w: tensor<2x1x3x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.max_pool2d %p {kernel = array<i64: 2, 2>, dilation = array<i64: 2, 2>} : (tensor<2x1x5x5xf32>) -> tensor<2x1x3x3xf32>
  %yw = nn.mul %y, %w : (tensor<2x1x3x3xf32>, tensor<2x1x3x3xf32>) -> tensor<2x1x3x3xf32>
  %l = nn.reduce_sum %yw [0, 1, 2, 3] : (tensor<2x1x3x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @avg_pool_include_pad: loss {{.*}}: ok
// CHECK-NEXT:    %p [1x2x4x4]: 32 of 32 elements, {{.*}}: ok
func.func @avg_pool_include_pad(%p: tensor<1x2x4x4xf32> {nn.role = #nn.role<param>},
                                %w: tensor<1x2x2x2xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.avg_pool2d %p {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, count_include_pad} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  %yw = nn.mul %y, %w : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %l = nn.reduce_sum %yw [0, 1, 2, 3] : (tensor<1x2x2x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @avg_pool_exclude_pad: loss {{.*}}: ok
// CHECK-NEXT:    %p [1x2x4x4]: 32 of 32 elements, {{.*}}: ok
func.func @avg_pool_exclude_pad(%p: tensor<1x2x4x4xf32> {nn.role = #nn.role<param>},
                                %w: tensor<1x2x2x2xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.avg_pool2d %p {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  %yw = nn.mul %y, %w : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %l = nn.reduce_sum %yw [0, 1, 2, 3] : (tensor<1x2x2x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @global_avg_pool: loss {{.*}}: ok
// CHECK-NEXT:    %p [2x3x3x4]: 72 of 72 elements, {{.*}}: ok
func.func @global_avg_pool(%p: tensor<2x3x3x4xf32> {nn.role = #nn.role<param>},
                           %w: tensor<2x3x1x1xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.global_avg_pool %p : (tensor<2x3x3x4xf32>) -> tensor<2x3x1x1xf32>
  %yw = nn.mul %y, %w : (tensor<2x3x1x1xf32>, tensor<2x3x1x1xf32>) -> tensor<2x3x1x1xf32>
  %l = nn.reduce_sum %yw [0, 1, 2, 3] : (tensor<2x3x1x1xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
