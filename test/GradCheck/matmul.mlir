// Gradient checks of nn.matmul: each transpose combination, batched
// operands, and batch broadcasting both ways (a rank-2 weight against a
// rank-3 batch, a rank-2 lhs against a batched rhs, [2, 1] against [3]), so
// that every matmul gradient rule and its sum over broadcast batch dims is
// exercised. Loss: sum(matmul(a, b) * w).
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9); the loss is
// bilinear, so the central difference has no truncation error and the
// measured max abs error (~1e-10) is the f64 rounding of the loss over 2h.
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 | FileCheck %s

// CHECK-LABEL: @plain: loss {{.*}}: ok
// CHECK-NEXT:    %a [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %b [4x5]: 20 of 20 elements, {{.*}}: ok
func.func @plain(%a: tensor<3x4xf32> {nn.role = #nn.role<param>},
                 %b: tensor<4x5xf32> {nn.role = #nn.role<param>},
                 %w: tensor<3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %yw = nn.mul %y, %w : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @transpose_a: loss {{.*}}: ok
// CHECK-NEXT:    %a [4x3]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %b [4x5]: 20 of 20 elements, {{.*}}: ok
func.func @transpose_a(%a: tensor<4x3xf32> {nn.role = #nn.role<param>},
                       %b: tensor<4x5xf32> {nn.role = #nn.role<param>},
                       %w: tensor<3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %a, %b {transpose_a} : (tensor<4x3xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %yw = nn.mul %y, %w : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @transpose_b: loss {{.*}}: ok
// CHECK-NEXT:    %a [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %b [5x4]: 20 of 20 elements, {{.*}}: ok
func.func @transpose_b(%a: tensor<3x4xf32> {nn.role = #nn.role<param>},
                       %b: tensor<5x4xf32> {nn.role = #nn.role<param>},
                       %w: tensor<3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %a, %b {transpose_b} : (tensor<3x4xf32>, tensor<5x4xf32>) -> tensor<3x5xf32>
  %yw = nn.mul %y, %w : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @transpose_both: loss {{.*}}: ok
// CHECK-NEXT:    %a [4x3]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %b [5x4]: 20 of 20 elements, {{.*}}: ok
func.func @transpose_both(%a: tensor<4x3xf32> {nn.role = #nn.role<param>},
                          %b: tensor<5x4xf32> {nn.role = #nn.role<param>},
                          %w: tensor<3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %a, %b {transpose_a, transpose_b} : (tensor<4x3xf32>, tensor<5x4xf32>) -> tensor<3x5xf32>
  %yw = nn.mul %y, %w : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @batched: loss {{.*}}: ok
// CHECK-NEXT:    %a [2x3x4]: 24 of 24 elements, {{.*}}: ok
// CHECK-NEXT:    %b [2x4x5]: 32 of 40 elements, {{.*}}: ok
func.func @batched(%a: tensor<2x3x4xf32> {nn.role = #nn.role<param>},
                   %b: tensor<2x4x5xf32> {nn.role = #nn.role<param>},
                   %w: tensor<2x3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %a, %b : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %yw = nn.mul %y, %w : (tensor<2x3x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %l = nn.reduce_sum %yw [0, 1, 2] : (tensor<2x3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @batched_transpose_b: loss {{.*}}: ok
// CHECK-NEXT:    %a [2x3x4]: 24 of 24 elements, {{.*}}: ok
// CHECK-NEXT:    %b [2x5x4]: 32 of 40 elements, {{.*}}: ok
func.func @batched_transpose_b(%a: tensor<2x3x4xf32> {nn.role = #nn.role<param>},
                               %b: tensor<2x5x4xf32> {nn.role = #nn.role<param>},
                               %w: tensor<2x3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %a, %b {transpose_b} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  %yw = nn.mul %y, %w : (tensor<2x3x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %l = nn.reduce_sum %yw [0, 1, 2] : (tensor<2x3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// A rank-2 weight multiplies every batch: its gradient sums over the batch.
// CHECK-LABEL: @weight_broadcast: loss {{.*}}: ok
// CHECK-NEXT:    %a [2x3x4]: 24 of 24 elements, {{.*}}: ok
// CHECK-NEXT:    %b [4x5]: 20 of 20 elements, {{.*}}: ok
func.func @weight_broadcast(%a: tensor<2x3x4xf32> {nn.role = #nn.role<param>},
                            %b: tensor<4x5xf32> {nn.role = #nn.role<param>},
                            %w: tensor<2x3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  %yw = nn.mul %y, %w : (tensor<2x3x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %l = nn.reduce_sum %yw [0, 1, 2] : (tensor<2x3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @weight_broadcast_transposed: loss {{.*}}: ok
// CHECK-NEXT:    %a [2x4x3]: 24 of 24 elements, {{.*}}: ok
// CHECK-NEXT:    %b [5x4]: 20 of 20 elements, {{.*}}: ok
func.func @weight_broadcast_transposed(%a: tensor<2x4x3xf32> {nn.role = #nn.role<param>},
                                       %b: tensor<5x4xf32> {nn.role = #nn.role<param>},
                                       %w: tensor<2x3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %a, %b {transpose_a, transpose_b} : (tensor<2x4x3xf32>, tensor<5x4xf32>) -> tensor<2x3x5xf32>
  %yw = nn.mul %y, %w : (tensor<2x3x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %l = nn.reduce_sum %yw [0, 1, 2] : (tensor<2x3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @lhs_broadcast: loss {{.*}}: ok
// CHECK-NEXT:    %a [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %b [2x4x5]: 32 of 40 elements, {{.*}}: ok
func.func @lhs_broadcast(%a: tensor<3x4xf32> {nn.role = #nn.role<param>},
                         %b: tensor<2x4x5xf32> {nn.role = #nn.role<param>},
                         %w: tensor<2x3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %a, %b : (tensor<3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %yw = nn.mul %y, %w : (tensor<2x3x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %l = nn.reduce_sum %yw [0, 1, 2] : (tensor<2x3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Batch dims broadcast both ways: [2, 1] against [3].
// CHECK-LABEL: @batch_dim_one: loss {{.*}}: ok
// CHECK-NEXT:    %a [2x1x3x4]: 24 of 24 elements, {{.*}}: ok
// CHECK-NEXT:    %b [3x4x5]: 32 of 60 elements, {{.*}}: ok
func.func @batch_dim_one(%a: tensor<2x1x3x4xf32> {nn.role = #nn.role<param>},
                         %b: tensor<3x4x5xf32> {nn.role = #nn.role<param>},
                         %w: tensor<2x3x3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %a, %b : (tensor<2x1x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x3x5xf32>
  %yw = nn.mul %y, %w : (tensor<2x3x3x5xf32>, tensor<2x3x3x5xf32>) -> tensor<2x3x3x5xf32>
  %l = nn.reduce_sum %yw [0, 1, 2, 3] : (tensor<2x3x3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK: summary: 10 functions, 20 params, {{[0-9]+}} elements ({{.*}}): all passed
