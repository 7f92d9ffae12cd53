// An op the nn dialect does not have.
func.func @unknown_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = nn.frobnicate %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
