// Gradient checks of nn.softmax (through nn.softmax_grad) and
// nn.log_softmax (its rule: dy - exp(y) * sum(dy)) along the last, the
// first and a middle axis. Loss: sum(y * w).
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9); measured max abs
// error ~1e-10.
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 | FileCheck %s

// CHECK-LABEL: @softmax_last: loss {{.*}}: ok
// CHECK-NEXT:    %x [3x5]: 15 of 15 elements, {{.*}}: ok
func.func @softmax_last(%x: tensor<3x5xf32> {nn.role = #nn.role<param>},
                        %w: tensor<3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.softmax %x : tensor<3x5xf32>
  %yw = nn.mul %y, %w : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @softmax_axis0: loss {{.*}}: ok
// CHECK-NEXT:    %x [3x5]: 15 of 15 elements, {{.*}}: ok
func.func @softmax_axis0(%x: tensor<3x5xf32> {nn.role = #nn.role<param>},
                         %w: tensor<3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.softmax %x {axis = 0 : i64} : tensor<3x5xf32>
  %yw = nn.mul %y, %w : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @softmax_middle: loss {{.*}}: ok
// CHECK-NEXT:    %x [2x4x3]: 24 of 24 elements, {{.*}}: ok
func.func @softmax_middle(%x: tensor<2x4x3xf32> {nn.role = #nn.role<param>},
                          %w: tensor<2x4x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.softmax %x {axis = -2 : i64} : tensor<2x4x3xf32>
  %yw = nn.mul %y, %w : (tensor<2x4x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %l = nn.reduce_sum %yw [0, 1, 2] : (tensor<2x4x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @log_softmax_last: loss {{.*}}: ok
// CHECK-NEXT:    %x [3x5]: 15 of 15 elements, {{.*}}: ok
func.func @log_softmax_last(%x: tensor<3x5xf32> {nn.role = #nn.role<param>},
                            %w: tensor<3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.log_softmax %x : tensor<3x5xf32>
  %yw = nn.mul %y, %w : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @log_softmax_axis0: loss {{.*}}: ok
// CHECK-NEXT:    %x [3x5]: 15 of 15 elements, {{.*}}: ok
func.func @log_softmax_axis0(%x: tensor<3x5xf32> {nn.role = #nn.role<param>},
                             %w: tensor<3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.log_softmax %x {axis = 0 : i64} : tensor<3x5xf32>
  %yw = nn.mul %y, %w : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @log_softmax_middle: loss {{.*}}: ok
// CHECK-NEXT:    %x [2x4x3]: 24 of 24 elements, {{.*}}: ok
func.func @log_softmax_middle(%x: tensor<2x4x3xf32> {nn.role = #nn.role<param>},
                              %w: tensor<2x4x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.log_softmax %x {axis = 1 : i64} : tensor<2x4x3xf32>
  %yw = nn.mul %y, %w : (tensor<2x4x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %l = nn.reduce_sum %yw [0, 1, 2] : (tensor<2x4x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK: summary: 6 functions, 6 params, {{[0-9]+}} elements ({{.*}}): all passed
