// An operand without its `%`.
func.func @syntax_error(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = nn.relu x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
