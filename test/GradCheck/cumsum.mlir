// Gradient checks of nn.cumsum along the inner, the outer and a negative
// axis, with each of exclusive and reverse (its rule is the cumsum of dy
// in the other direction). Loss: sum(cumsum(x) * w), w a random input of
// the output's shape, so that every element of dx differs.
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9); the loss is
// linear in x.
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 | FileCheck %s

// CHECK-LABEL: @inner: loss {{.*}}: ok
// CHECK-NEXT:    %x [3x5]: 15 of 15 elements, {{.*}}: ok
func.func @inner(%x: tensor<3x5xf32> {nn.role = #nn.role<param>},
    %w: tensor<3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.cumsum %x {axis = 1 : i64} : tensor<3x5xf32>
  %yw = nn.mul %y, %w : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @outer_reverse: loss {{.*}}: ok
// CHECK-NEXT:    %x [3x5]: 15 of 15 elements, {{.*}}: ok
func.func @outer_reverse(%x: tensor<3x5xf32> {nn.role = #nn.role<param>},
    %w: tensor<3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.cumsum %x {axis = 0 : i64, reverse} : tensor<3x5xf32>
  %yw = nn.mul %y, %w : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @last_exclusive: loss {{.*}}: ok
// CHECK-NEXT:    %x [3x5]: 15 of 15 elements, {{.*}}: ok
func.func @last_exclusive(%x: tensor<3x5xf32> {nn.role = #nn.role<param>},
    %w: tensor<3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.cumsum %x {axis = -1 : i64, exclusive} : tensor<3x5xf32>
  %yw = nn.mul %y, %w : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @inner_exclusive_reverse: loss {{.*}}: ok
// CHECK-NEXT:    %x [3x5]: 15 of 15 elements, {{.*}}: ok
func.func @inner_exclusive_reverse(%x: tensor<3x5xf32> {nn.role = #nn.role<param>},
    %w: tensor<3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.cumsum %x {axis = 1 : i64, exclusive, reverse} : tensor<3x5xf32>
  %yw = nn.mul %y, %w : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
