// Shapes that do not broadcast.
func.func @wrong_shape(%a: tensor<4x8xf32>, %b: tensor<3xf32>) -> tensor<4x8xf32> {
  %0 = nn.add %a, %b : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
