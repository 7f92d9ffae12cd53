// Gradient check of attention written out with a softcap and a mask that
// hides every key of a query, as amp-import-onnx builds ONNX's Attention
// when its scores are asked for: the dead row's scores are zeroed before
// the softmax (nn.where), its probabilities after, so the gradients of
// query, key and value are finite and equal central differences (without
// the first nn.where, the dead row's softmax is NaN, and so is its
// gradient). Loss: sum(o * w).
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9).
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 | FileCheck %s

// CHECK-LABEL: @softcap_dead_row: loss {{.*}}: ok
// CHECK-NEXT:    %q [1x2x3x4]: 24 of 24 elements, {{.*}}: ok
// CHECK-NEXT:    %k [1x2x4x4]: 32 of 32 elements, {{.*}}: ok
// CHECK-NEXT:    %v [1x2x4x2]: 16 of 16 elements, {{.*}}: ok
func.func @softcap_dead_row(%q: tensor<1x2x3x4xf32> {nn.role = #nn.role<param>},
                            %k: tensor<1x2x4x4xf32> {nn.role = #nn.role<param>},
                            %v: tensor<1x2x4x2xf32> {nn.role = #nn.role<param>},
                            %w: tensor<1x2x3x2xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %mask = arith.constant dense<[[0.0, 0.0, 0.0, 0xFF800000], [0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, -1.0, 0.5, 0.0]]> : tensor<3x4xf32>
  %scale = arith.constant dense<0.5> : tensor<f32>
  %cap = arith.constant dense<2.0> : tensor<f32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %ninf = arith.constant dense<0xFF800000> : tensor<f32>
  %s0 = nn.matmul %q, %k {transpose_b} : (tensor<1x2x3x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x3x4xf32>
  %s1 = nn.mul %s0, %scale : (tensor<1x2x3x4xf32>, tensor<f32>) -> tensor<1x2x3x4xf32>
  %s2 = nn.div %s1, %cap : (tensor<1x2x3x4xf32>, tensor<f32>) -> tensor<1x2x3x4xf32>
  %s3 = nn.tanh %s2 : tensor<1x2x3x4xf32>
  %s4 = nn.mul %s3, %cap : (tensor<1x2x3x4xf32>, tensor<f32>) -> tensor<1x2x3x4xf32>
  %s5 = nn.add %s4, %mask : (tensor<1x2x3x4xf32>, tensor<3x4xf32>) -> tensor<1x2x3x4xf32>
  %max = nn.reduce_max %mask [-1] keep_dims : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %dead = nn.compare eq, %max, %ninf : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xi1>
  %s6 = nn.where %dead, %zero, %s5 : (tensor<3x1xi1>, tensor<f32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %p0 = nn.softmax %s6 {axis = 3 : i64} : tensor<1x2x3x4xf32>
  %p1 = nn.where %dead, %zero, %p0 : (tensor<3x1xi1>, tensor<f32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %o = nn.matmul %p1, %v : (tensor<1x2x3x4xf32>, tensor<1x2x4x2xf32>) -> tensor<1x2x3x2xf32>
  %ow = nn.mul %o, %w : (tensor<1x2x3x2xf32>, tensor<1x2x3x2xf32>) -> tensor<1x2x3x2xf32>
  %l = nn.reduce_sum %ow [0, 1, 2, 3] : (tensor<1x2x3x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
