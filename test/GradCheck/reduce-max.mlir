// Gradient checks of nn.reduce_max over one, several and all axes, with and
// without keep_dims (its rule is nn.reduce_max_grad), through the scalar
// loss sum(reduce_max(p) * w) with a random weight input w. Every element
// is checked.
//
// Kinks: the maximum switches where two elements of a reduced slice tie;
// the central difference crosses it only when the two largest elements of
// a slice lie within h of each other, which no seeded value here does (so
// the tie split of reduce_max_grad is pinned by the unit tests, not here).
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9); the loss is
// linear in p between kinks (measured max abs error 6.2e-12 at seeds 0-2).
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 --max-checks-per-param 100 | FileCheck %s

// CHECK-LABEL: @max_rows: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @max_rows(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                    %w: tensor<3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.reduce_max %p [1] : (tensor<3x4xf32>) -> tensor<3xf32>
  %yw = nn.mul %y, %w : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %l = nn.reduce_sum %yw [0] : (tensor<3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @max_outer_keep_dims: loss {{.*}}: ok
// CHECK-NEXT:    %p [2x3x4]: 24 of 24 elements, {{.*}}: ok
func.func @max_outer_keep_dims(%p: tensor<2x3x4xf32> {nn.role = #nn.role<param>},
                               %w: tensor<1x3x1xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.reduce_max %p [0, -1] keep_dims : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  %yw = nn.mul %y, %w : (tensor<1x3x1xf32>, tensor<1x3x1xf32>) -> tensor<1x3x1xf32>
  %l = nn.reduce_sum %yw [0, 1, 2] : (tensor<1x3x1xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// A scalar maximum, scaled by a 0-d weight.
// CHECK-LABEL: @max_all: loss {{.*}}: ok
// CHECK-NEXT:    %p [2x3x4]: 24 of 24 elements, {{.*}}: ok
func.func @max_all(%p: tensor<2x3x4xf32> {nn.role = #nn.role<param>},
                   %w: tensor<f32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.reduce_max %p [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<f32>
  %l = nn.mul %y, %w : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}
