// Multi-query attention written with the matmuls' broadcasting (one
// key/value head for the 4 query heads): attention-fusion.test runs it
// fused (nn-fuse-attention makes the heads dimension of 1 a group of all
// query heads) and as written.
func.func @attention(%q: tensor<2x4x8x16xf32>, %k: tensor<2x1x8x16xf32>, %v: tensor<2x1x8x16xf32>) -> tensor<2x4x8x16xf32> {
  %c = arith.constant dense<2.500000e-01> : tensor<f32>
  %s = nn.matmul %q, %k {transpose_b} : (tensor<2x4x8x16xf32>, tensor<2x1x8x16xf32>) -> tensor<2x4x8x8xf32>
  %t = nn.mul %s, %c : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8x8xf32>
  %p = nn.softmax %t {axis = -1 : i64} : tensor<2x4x8x8xf32>
  %o = nn.matmul %p, %v : (tensor<2x4x8x8xf32>, tensor<2x1x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}
