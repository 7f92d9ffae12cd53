// Gradient checks of nn.conv2d (through nn.conv2d_grad_input and
// nn.conv2d_grad_filter): strides, asymmetric padding, dilation, groups,
// depthwise, and a stride that leaves input rows unread; and of
// nn.conv2d_grad_input as a forward op (a transposed convolution, ONNX's
// ConvTranspose), through nn.conv2d and nn.conv2d_grad_filter. Loss:
// sum(conv2d(x, f) * w). Params with more than 32 elements are checked on a
// seeded sample of 32.
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9); the loss is
// bilinear (no truncation error); measured max abs error 4.0e-10 (7.9e-10
// over seeds 0-2), the rounding of the loss over 2h.
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 | FileCheck %s

// CHECK-LABEL: @plain: loss {{.*}}: ok
// CHECK-NEXT:    %x [2x3x5x5]: 32 of 150 elements, {{.*}}: ok
// CHECK-NEXT:    %f [4x3x3x3]: 32 of 108 elements, {{.*}}: ok
func.func @plain(%x: tensor<2x3x5x5xf32> {nn.role = #nn.role<param>},
                 %f: tensor<4x3x3x3xf32> {nn.role = #nn.role<param>},
                 %w: tensor<2x4x3x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.conv2d %x, %f : (tensor<2x3x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x3x3xf32>
  %yw = nn.mul %y, %w : (tensor<2x4x3x3xf32>, tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %l = nn.reduce_sum %yw [0, 1, 2, 3] : (tensor<2x4x3x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Stride 2 with padding [top 1, left 0, bottom 1, right 2].
// CHECK-LABEL: @stride_asymmetric_padding: loss {{.*}}: ok
// CHECK-NEXT:    %x [1x2x6x5]: 32 of 60 elements, {{.*}}: ok
// CHECK-NEXT:    %f [3x2x3x3]: 32 of 54 elements, {{.*}}: ok
func.func @stride_asymmetric_padding(%x: tensor<1x2x6x5xf32> {nn.role = #nn.role<param>},
                                     %f: tensor<3x2x3x3xf32> {nn.role = #nn.role<param>},
                                     %w: tensor<1x3x3x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.conv2d %x, %f {strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 2>} : (tensor<1x2x6x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  %yw = nn.mul %y, %w : (tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %l = nn.reduce_sum %yw [0, 1, 2, 3] : (tensor<1x3x3x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Stride 2 leaves the last row and column of the input unread: their
// gradient is zero, and the input gradient's shape comes from the op.
// CHECK-LABEL: @stride_uncovered: loss {{.*}}: ok
// CHECK-NEXT:    %x [1x2x6x6]: 32 of 72 elements, {{.*}}: ok
// CHECK-NEXT:    %f [2x2x3x3]: 32 of 36 elements, {{.*}}: ok
func.func @stride_uncovered(%x: tensor<1x2x6x6xf32> {nn.role = #nn.role<param>},
                            %f: tensor<2x2x3x3xf32> {nn.role = #nn.role<param>},
                            %w: tensor<1x2x2x2xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.conv2d %x, %f {strides = array<i64: 2, 2>} : (tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x2x2xf32>
  %yw = nn.mul %y, %w : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %l = nn.reduce_sum %yw [0, 1, 2, 3] : (tensor<1x2x2x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @dilation: loss {{.*}}: ok
// CHECK-NEXT:    %x [1x2x7x7]: 32 of 98 elements, {{.*}}: ok
// CHECK-NEXT:    %f [2x2x3x3]: 32 of 36 elements, {{.*}}: ok
func.func @dilation(%x: tensor<1x2x7x7xf32> {nn.role = #nn.role<param>},
                    %f: tensor<2x2x3x3xf32> {nn.role = #nn.role<param>},
                    %w: tensor<1x2x3x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.conv2d %x, %f {dilation = array<i64: 2, 2>} : (tensor<1x2x7x7xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %yw = nn.mul %y, %w : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %l = nn.reduce_sum %yw [0, 1, 2, 3] : (tensor<1x2x3x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Two groups: output channels 0-2 read input channels 0-1, 3-5 read 2-3.
// CHECK-LABEL: @groups: loss {{.*}}: ok
// CHECK-NEXT:    %x [2x4x5x5]: 32 of 200 elements, {{.*}}: ok
// CHECK-NEXT:    %f [6x2x3x3]: 32 of 108 elements, {{.*}}: ok
func.func @groups(%x: tensor<2x4x5x5xf32> {nn.role = #nn.role<param>},
                  %f: tensor<6x2x3x3xf32> {nn.role = #nn.role<param>},
                  %w: tensor<2x6x5x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.conv2d %x, %f {padding = array<i64: 1, 1, 1, 1>, groups = 2 : i64} : (tensor<2x4x5x5xf32>, tensor<6x2x3x3xf32>) -> tensor<2x6x5x5xf32>
  %yw = nn.mul %y, %w : (tensor<2x6x5x5xf32>, tensor<2x6x5x5xf32>) -> tensor<2x6x5x5xf32>
  %l = nn.reduce_sum %yw [0, 1, 2, 3] : (tensor<2x6x5x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @depthwise_strided_dilated: loss {{.*}}: ok
// CHECK-NEXT:    %x [1x3x8x8]: 32 of 192 elements, {{.*}}: ok
// CHECK-NEXT:    %f [3x1x2x2]: 12 of 12 elements, {{.*}}: ok
func.func @depthwise_strided_dilated(%x: tensor<1x3x8x8xf32> {nn.role = #nn.role<param>},
                                     %f: tensor<3x1x2x2xf32> {nn.role = #nn.role<param>},
                                     %w: tensor<1x3x4x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.conv2d %x, %f {strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 1>, dilation = array<i64: 1, 3>, groups = 3 : i64} : (tensor<1x3x8x8xf32>, tensor<3x1x2x2xf32>) -> tensor<1x3x4x3xf32>
  %yw = nn.mul %y, %w : (tensor<1x3x4x3xf32>, tensor<1x3x4x3xf32>) -> tensor<1x3x4x3xf32>
  %l = nn.reduce_sum %yw [0, 1, 2, 3] : (tensor<1x3x4x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// A transposed convolution, stride 2: output row 5 is read by no window
// of the convolution it transposes (ONNX's output_padding), so it is 0
// and its weight's gradient contributions are 0 too.
// CHECK-LABEL: @transposed_strided: loss {{.*}}: ok
// CHECK-NEXT:    %g [1x4x3x3]: 32 of 36 elements, {{.*}}: ok
// CHECK-NEXT:    %f [4x2x3x3]: 32 of 72 elements, {{.*}}: ok
func.func @transposed_strided(%g: tensor<1x4x3x3xf32> {nn.role = #nn.role<param>},
                              %f: tensor<4x2x3x3xf32> {nn.role = #nn.role<param>},
                              %w: tensor<1x2x6x7xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.conv2d_grad_input %g, %f {strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x6x7xf32>
  %yw = nn.mul %y, %w : (tensor<1x2x6x7xf32>, tensor<1x2x6x7xf32>) -> tensor<1x2x6x7xf32>
  %l = nn.reduce_sum %yw [0, 1, 2, 3] : (tensor<1x2x6x7xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @transposed_groups_dilated: loss {{.*}}: ok
// CHECK-NEXT:    %g [2x4x3x3]: 32 of 72 elements, {{.*}}: ok
// CHECK-NEXT:    %f [4x1x2x2]: 16 of 16 elements, {{.*}}: ok
func.func @transposed_groups_dilated(%g: tensor<2x4x3x3xf32> {nn.role = #nn.role<param>},
                                     %f: tensor<4x1x2x2xf32> {nn.role = #nn.role<param>},
                                     %w: tensor<2x2x5x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.conv2d_grad_input %g, %f {dilation = array<i64: 2, 2>, groups = 2 : i64} : (tensor<2x4x3x3xf32>, tensor<4x1x2x2xf32>) -> tensor<2x2x5x5xf32>
  %yw = nn.mul %y, %w : (tensor<2x2x5x5xf32>, tensor<2x2x5x5xf32>) -> tensor<2x2x5x5xf32>
  %l = nn.reduce_sum %yw [0, 1, 2, 3] : (tensor<2x2x5x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK: summary: 8 functions, 16 params, {{[0-9]+}} elements ({{.*}}): all passed
