// A function whose results are not the loss alone: nothing to check.
func.func @predict(%w: tensor<4x3xf32> {nn.role = #nn.role<param>},
                   %x: tensor<2x4xf32> {nn.role = #nn.role<input>})
    -> tensor<2x3xf32> {
  %y = nn.matmul %x, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
