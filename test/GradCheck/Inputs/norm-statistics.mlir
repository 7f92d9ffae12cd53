// The loss reads batch_norm's saved mean, which has no derivative.
func.func @stats(%x: tensor<4x3xf32> {nn.role = #nn.role<param>},
                 %s: tensor<3xf32> {nn.role = #nn.role<input>},
                 %b: tensor<3xf32> {nn.role = #nn.role<input>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y, %mean, %invstd = nn.batch_norm %x, %s, %b : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  %l = nn.reduce_sum %mean [0] : (tensor<3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
