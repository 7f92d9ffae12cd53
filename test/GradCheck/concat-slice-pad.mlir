// Gradient checks of nn.concat, nn.slice and nn.pad, each alone through the
// scalar loss sum(op(...) * w) with a random weight input w: a concat of
// three params (negative axis; its rule slices dy per input), slices with
// unit, positive and negative strides (the rule scatters dy with
// nn.slice_grad), and a pad with a nonzero value (the rule slices dy at
// `low`). Every element is checked.
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9). The ops are
// linear in their params and move elements without arithmetic, so only the
// f64 rounding of the loss over 2h remains (measured max abs
// error 1.9e-11 at seeds 0-2).
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 --max-checks-per-param 100 | FileCheck %s

// CHECK-LABEL: @concat: loss {{.*}}: ok
// CHECK-NEXT:    %a [2x1x3]: 6 of 6 elements, {{.*}}: ok
// CHECK-NEXT:    %b [2x2x3]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %c [2x3x3]: 18 of 18 elements, {{.*}}: ok
func.func @concat(%a: tensor<2x1x3xf32> {nn.role = #nn.role<param>},
                  %b: tensor<2x2x3xf32> {nn.role = #nn.role<param>},
                  %c: tensor<2x3x3xf32> {nn.role = #nn.role<param>},
                  %w: tensor<2x6x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.concat %a, %b, %c {axis = -2 : i64} : (tensor<2x1x3xf32>, tensor<2x2x3xf32>, tensor<2x3x3xf32>) -> tensor<2x6x3xf32>
  %yw = nn.mul %y, %w : (tensor<2x6x3xf32>, tensor<2x6x3xf32>) -> tensor<2x6x3xf32>
  %l = nn.reduce_sum %yw [0, 1, 2] : (tensor<2x6x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @slice_window: loss {{.*}}: ok
// CHECK-NEXT:    %p [4x6]: 24 of 24 elements, {{.*}}: ok
func.func @slice_window(%p: tensor<4x6xf32> {nn.role = #nn.role<param>},
                        %w: tensor<2x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.slice %p {offsets = array<i64: 1, 2>} : tensor<4x6xf32> -> tensor<2x3xf32>
  %yw = nn.mul %y, %w : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<2x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Rows 3, 1 (stride -2) and columns 0, 2, 4 (stride 2).
// CHECK-LABEL: @slice_strided: loss {{.*}}: ok
// CHECK-NEXT:    %p [4x6]: 24 of 24 elements, {{.*}}: ok
func.func @slice_strided(%p: tensor<4x6xf32> {nn.role = #nn.role<param>},
                         %w: tensor<2x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.slice %p {offsets = array<i64: 3, 0>, strides = array<i64: -2, 2>} : tensor<4x6xf32> -> tensor<2x3xf32>
  %yw = nn.mul %y, %w : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<2x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @pad: loss {{.*}}: ok
// CHECK-NEXT:    %p [2x3]: 6 of 6 elements, {{.*}}: ok
func.func @pad(%p: tensor<2x3xf32> {nn.role = #nn.role<param>},
               %w: tensor<5x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.pad %p {low = array<i64: 1, 0>, high = array<i64: 2, 1>, value = 0.75 : f32} : tensor<2x3xf32> -> tensor<5x4xf32>
  %yw = nn.mul %y, %w : (tensor<5x4xf32>, tensor<5x4xf32>) -> tensor<5x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<5x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
